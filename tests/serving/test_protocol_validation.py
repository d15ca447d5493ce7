"""Reply validation accepts what grammar-constrained engines emit."""

from serving.protocol import validate_reply

SCHEMA = {"type": "object", "properties": {"body": {"type": "string"}}, "required": ["body"]}


def test_raw_newlines_inside_strings_are_accepted() -> None:
    result = validate_reply('{"body": "line one\nline two\tend"}', SCHEMA)
    assert result.errors == []
    assert result.data == {"body": "line one\nline two\tend"}


def test_invalid_json_is_still_an_error() -> None:
    result = validate_reply('{"body": "unterminated', SCHEMA)
    assert result.data is None
    assert result.errors and result.errors[0].startswith("not valid JSON")
