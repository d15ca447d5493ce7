"""Procedural memory built from many instructional documents, and the answerers that read it."""

from procmem.units import Chunk, Linker, LogicUnit, Procedure, Unit

__all__ = ["Chunk", "Linker", "LogicUnit", "Procedure", "Unit"]
