"""``prewrite_daemon.languages.jsonc``: configurations as pyright and TypeScript read them, and a
data file that is never handed to the slow lenient reader."""

from __future__ import annotations

import pytest

from prewrite_daemon.ladder import reach
from prewrite_daemon.languages import jsonc


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": [1, 2]}', {"a": [1, 2]}),
        ('{\n  // why\n  "a": 1, /* more */\n  "b": [2,],\n}\n', {"a": 1, "b": [2]}),
        ('{"url": "http://x/*y*/"}', {"url": "http://x/*y*/"}),
        ("{a: 'single', }", {"a": "single"}),
    ],
)
def test_each_reader_takes_what_the_checkers_take(text: str, value: object) -> None:
    assert jsonc.loads(text) == value


def test_comments_and_trailing_commas_are_blanked_in_place() -> None:
    text = '{"a": 1, // c\n "b": 2,}'
    stripped = jsonc.strip_jsonc(text)
    assert len(stripped) == len(text)
    assert stripped.count("\n") == text.count("\n")


def test_a_large_text_only_a_lenient_reader_takes_does_not_parse() -> None:
    text = "{a: '" + "x" * (jsonc.LENIENT_LIMIT + 1) + "'}"
    with pytest.raises(ValueError, match="over"):
        jsonc.loads(text)
    plain = '{"a": "' + "x" * (jsonc.LENIENT_LIMIT * 16) + '"}'
    assert jsonc.loads(plain) == {"a": "x" * (jsonc.LENIENT_LIMIT * 16)}


def test_a_json_data_file_is_never_parsed_for_what_it_reaches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 73 MB ``data.json`` went through json5 for its ``extends`` (minutes, the loop held)."""

    def refuse(text: str) -> object:
        raise AssertionError("parsed")

    monkeypatch.setattr(jsonc, "loads", refuse)
    assert reach.named_places("data.json", '{"extends": "/etc/passwd"}') == ([], [])
    with pytest.raises(AssertionError, match="parsed"):
        reach.named_places("tsconfig.base.json", '{"extends": "/etc/passwd"}')


@pytest.mark.timeout(30)  # quadratic, 1 MB took the old pattern about 1,000 s; linear, a blink
@pytest.mark.parametrize("unit", ["/*a", '"\\', "[", "{"])
def test_unclosed_comments_strings_and_nesting_do_not_parse_and_end(unit: str) -> None:
    text = unit * (1024 * 1024 // len(unit))
    with pytest.raises(ValueError, match=r"."):  # any reason: it does not parse
        jsonc.loads(text)
    assert len(jsonc.strip_jsonc(text)) == len(text)
    assert reach.named_places("tsconfig.json", text) == ([], [])
