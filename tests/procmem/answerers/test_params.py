"""Answerer parameters are checked by name and, for options, by value."""

from __future__ import annotations

import pytest

from procmem.answerers import make_answerer
from serving.scripted import ScriptedLLM


def test_an_option_outside_its_choices_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match=r"unit_kind='chapter'; expected one of \['procedure'"):
        make_answerer("rag", llm=ScriptedLLM([]), memory=None, unit_kind="chapter")


def test_an_unknown_parameter_is_refused_with_the_known_ones() -> None:
    with pytest.raises(TypeError, match="unknown parameter"):
        make_answerer("extractive", memory=None, colour="blue")


def test_valid_options_are_taken() -> None:
    answerer = make_answerer("extractive", memory=None, unit_kind="logic_unit")
    assert answerer.config()["params"]["unit_kind"] == "logic_unit"
