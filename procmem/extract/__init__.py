"""Extraction of procedures and logic units from documents.

- :mod:`.markdown` parses the normalised Markdown into sections and blocks;
- :mod:`.deterministic` (+ :mod:`.roles`, :mod:`.recipe`, :mod:`.linkers`) is the rule path;
- :mod:`.llm` is THREAD's two-stage LLM path (reformulation, then units) with JSON schemas;
- :mod:`.pipeline` decides which path runs on which document.
"""
