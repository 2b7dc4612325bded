"""core.jsonio: size and nesting limits with file:line, torn-line tolerant JSONL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orkestra.core import jsonio
from orkestra.core.errors import InputError


def test_deep_nesting_is_a_clean_error_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"a": 1,\n "b":\n' + "[" * 5000 + "]" * 5000 + "}")  # 10 KB of brackets
    with pytest.raises(InputError) as caught:
        jsonio.read_json(path)
    assert str(caught.value) == f"{path}:3: JSON nested deeper than 64 levels"


def test_nesting_at_the_limit_is_accepted_and_one_more_is_not() -> None:
    ok = "[" * jsonio.MAX_DEPTH + "]" * jsonio.MAX_DEPTH
    assert jsonio.loads(ok, source="x") == json.loads(ok)
    with pytest.raises(InputError, match="nested deeper"):
        jsonio.loads("[" + ok + "]", source="x")


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps({"k": ["[{" * 500]})
    assert jsonio.loads(text, source="x") == {"k": ["[{" * 500]}


def test_unclosed_deep_nesting_is_still_a_clean_error() -> None:
    with pytest.raises(InputError, match="nested deeper"):
        jsonio.loads("[" * 10_000, source="stdin")


LONG = "7" * 5000  # more digits than Python converts to an int (4300)


def test_a_number_too_long_to_convert_is_a_clean_error_with_its_line(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        jsonio.loads('{"a": 1,\n "b": ' + LONG + "}", source="x.json")
    assert (
        str(caught.value)
        == "x.json:2: a number with 5000 digits is too long to read; quote it as a string"
    )
    with pytest.raises(InputError, match=r"x\.json:1: a number with 5000 digits"):
        jsonio.loads_derived("[" + LONG + "]", source="x.json")
    with pytest.raises(InputError, match=r"x\.json:2: a number with 5000 digits"):
        jsonio.loads_many(["1", LONG], source="x.json")


def test_a_jsonl_line_with_a_number_too_long_is_an_error_line(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text('{"a": 1}\n{"b": ' + LONG + '}\n{"c": 3}\n')
    lines = list(jsonio.iter_jsonl(path))
    assert [x.error is None for x in lines] == [True, False, True]
    assert "5000 digits" in (lines[1].error or "")
    assert jsonio.records(path) == [{"a": 1}, {"c": 3}]


def test_oversized_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(["x" * 100]))
    with pytest.raises(InputError, match="larger than the 50-byte limit") as caught:
        jsonio.read_json(path, max_bytes=50)
    assert caught.value.file == str(path)
    assert jsonio.read_json(path, max_bytes=200) == ["x" * 100]


def test_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "a": 1,\n  "b": ,\n}\n')
    with pytest.raises(InputError) as caught:
        jsonio.read_json(path)
    assert (caught.value.file, caught.value.line) == (str(path), 3)
    assert caught.value.message.startswith("not valid JSON (")


def test_bad_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b'[\n"ok",\n"\xff"\n]')
    with pytest.raises(InputError, match="not valid UTF-8") as caught:
        jsonio.read_json(path)
    assert caught.value.line == 3


def test_missing_file_is_left_to_the_caller(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        jsonio.read_json(tmp_path / "absent.json")
    assert list(jsonio.iter_jsonl(tmp_path / "absent.jsonl")) == []
    assert jsonio.records(tmp_path / "absent.jsonl") == []


def test_torn_last_line_is_never_a_record_even_when_valid_json(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    path.write_text('{"id": "a"}\n{"id": "b"}\n{"id": "torn"}')  # no newline after the last
    lines = list(jsonio.iter_jsonl(path))
    assert [(x.number, x.torn, x.error) for x in lines] == [
        (1, False, None),
        (2, False, None),
        (3, True, None),
    ]
    assert [r["id"] for r in jsonio.records(path)] == ["a", "b"]


def test_jsonl_lines_report_their_own_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    deep = "[" * 100 + "]" * 100
    path.write_text(f'{{"id": 1}}\n\n{{broken\n{deep}\n"text"\n{{"id": 2}}\n')
    lines = list(jsonio.iter_jsonl(path))
    assert [(x.number, x.error is None) for x in lines] == [
        (1, True),
        (3, False),
        (4, False),
        (5, True),
        (6, True),
    ]
    assert lines[2].error == "JSON nested deeper than 64 levels"
    # records: broken, too deep and non-object lines are skipped, whatever the fast path did
    assert jsonio.records(path) == [{"id": 1}, {"id": 2}]


def test_oversized_jsonl_line_is_an_error_line(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps({"x": "y" * 100}) + "\n" + '{"id": 1}\n')
    lines = list(jsonio.iter_jsonl(path, max_line_bytes=50))
    assert lines[0].error == "line longer than 50 bytes"
    assert lines[1].data == {"id": 1}


def test_a_sealed_file_reads_back_and_any_damage_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    text = json.dumps({"a": ["é", 1]}, ensure_ascii=False)
    path.write_bytes(jsonio.sealed(text))
    assert jsonio.read_sealed(path) == {"a": ["é", 1]}
    raw = path.read_bytes()
    head, body = raw.split(b"\n", 1)
    damaged = {
        "a letter": head + b"\n" + body.replace(b"1", b"2"),
        "plain JSON": body,
        "no line end": head,
        "not hex": jsonio.SEAL + b"zzzzzzzz\n" + body,
        "another sum": jsonio.SEAL + b"00000000\n" + body,
        "not UTF-8": (b"%s%08x\n" % (jsonio.SEAL, __import__("zlib").crc32(b"\xff"))) + b"\xff",
        "not JSON": jsonio.sealed("{"),
    }
    for name, data in damaged.items():
        path.write_bytes(data)
        with pytest.raises(InputError) as info:
            jsonio.read_sealed(path)
        assert info.value.file == str(path), name
    path.unlink()
    with pytest.raises(FileNotFoundError):
        jsonio.read_sealed(path)
    path.mkdir()
    with pytest.raises(InputError, match="cannot read"):
        jsonio.read_sealed(path)


def test_a_sealed_file_over_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(jsonio.sealed(json.dumps(["x" * 100])))
    monkeypatch.setattr(jsonio, "MAX_BYTES", 50)
    with pytest.raises(InputError, match="not a sealed derived file"):
        jsonio.read_sealed(path)


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ('{\n  "a": {"x": 1},\n  "b": 2,\n  "a": {"y": 1}\n}', 'the key "a" is given twice', 4),
        ('{"a": {\n "k": 1, "k": 2}}', 'the key "k" is given twice', 2),
        ('{\n "n": 1e400}', "1e400 is not a JSON number that can be written back", 2),
        ('{"n": -1E999}', "-1E999 is not a JSON number", 1),
        ('{"n": NaN}', "NaN is not a JSON number", 1),
        ('{"n": [1, -Infinity]}', "-Infinity is not a JSON number", 1),
    ],
)
def test_a_file_to_rewrite_refuses_what_it_could_not_write_back(
    text: str, message: str, line: int
) -> None:
    """Merged into and dumped again, a duplicate key lost its first value and 1e400 came back
    as `Infinity`, which no JSON reader (Claude Code's, VS Code's) accepts."""
    assert jsonio.loads('{"a": 1, "a": 2, "n": 1e400}', source="x") == {"a": 2, "n": float("inf")}
    with pytest.raises(InputError) as err:
        jsonio.loads(text, source="s.json", rewrite=True)
    assert message in err.value.message and (err.value.file, err.value.line) == ("s.json", line)
    assert jsonio.loads('{"a": 1.5, "b": {"a": 2}}', source="s", rewrite=True) == {
        "a": 1.5,
        "b": {"a": 2},
    }


@pytest.mark.parametrize(
    ("like", "want"),
    [
        (None, '{\n  "a": [\n    1\n  ]\n}\n'),
        ('{\r\n\t"a": []\r\n}\r\n', '{\r\n\t"a": [\r\n\t\t1\r\n\t]\r\n}\r\n'),
        ('{\n    "a": []\n}', '{\n    "a": [\n        1\n    ]\n}'),
        ('{"a": []}\n', '{"a": [1]}\n'),
    ],
)
def test_dumps_like_keeps_the_files_layout(like: str | None, want: str) -> None:
    assert jsonio.dumps_like({"a": [1]}, like) == want


@pytest.mark.parametrize(
    ("like", "data", "want"),
    [
        # a member added last, in the object's layout; the rest keeps its bytes
        ('{\n  "a": [1, 2],\n  "b": "\\u00e9"\n}\n', {"a": [1, 2], "b": "é", "c": {"d": 1}},
         '{\n  "a": [1, 2],\n  "b": "\\u00e9",\n  "c": {\n    "d": 1\n  }\n}\n'),
        ('{"a": 1}\n', {"a": 1, "b": [2]}, '{"a": 1, "b": [2]}\n'),  # one line stays one
        # a member taken out, first, middle and last
        ('{"a": 1, "b": [2], "c": 3}', {"b": [2], "c": 3}, '{"b": [2], "c": 3}'),
        ('{"a": 1, "b": [2], "c": 3}', {"a": 1, "c": 3}, '{"a": 1, "c": 3}'),
        ('{\n\t"a": 1,\n\t"b": [2]\n}', {"a": 1}, '{\n\t"a": 1\n}'),
        # a nested value changed: only it is written again, from its line's indentation
        ('{\n    "x": {"k": [1,2]},\n    "y": {\n        "z": [1]\n    }\n}',
         {"x": {"k": [1, 2]}, "y": {"z": [1, 3]}},
         '{\n    "x": {"k": [1,2]},\n    "y": {\n        "z": [\n            1,\n'
         '            3\n        ]\n    }\n}'),
        # reordered keys, or nothing left: written whole
        ('{"a": 1, "b": 2}', {"b": 2, "a": 1}, '{"b": 2, "a": 1}'),
        ('{"a": 1}', {}, "{}"),
    ],
)  # fmt: skip
def test_dumps_like_keeps_the_bytes_of_what_it_does_not_change(
    like: str, data: dict[str, object], want: str
) -> None:
    out = jsonio.dumps_like(data, like)
    assert out == want and json.loads(out) == data


def test_dumps_like_writes_whole_when_the_kept_layout_would_read_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The safety net: an edit in place that would not read back as the data (a slip in the
    member-by-member edit) is never written; the data is, whole, in the file's layout."""
    like = '{\n  "a": [1,2],\n  "b": 1\n}\n'
    data = {"a": [1, 2], "b": 2}
    monkeypatch.setattr(jsonio, "_edited", lambda text, at, end, *rest: text[at:end])
    out = jsonio.dumps_like(data, like)
    assert json.loads(out) == data
    assert out == '{\n  "a": [\n    1,\n    2\n  ],\n  "b": 2\n}\n'


def test_a_leading_byte_order_mark_is_ignored() -> None:
    assert jsonio.loads('\ufeff{"a": 1}', source="x.json") == {"a": 1}


@pytest.mark.parametrize(
    ("path", "line"),
    [
        ((), 1),
        (("items",), 3),
        (("items", 0), 4),
        (("items", 1, "action"), 11),  # given twice: the last, which json.loads keeps
        (("items", 1, "claim", "tags", 1), 12),
        (("kind",), 2),
        (("items", 2), None),
        (("items", 0, "nope"), None),
        (("kind", 0), None),
    ],
)
def test_line_at_finds_the_line_a_value_starts_on(path: tuple[str | int, ...], line: int) -> None:
    text = (
        '\ufeff{\n  "kind": "p",\n  "items": [\n    {"action": "save",\n'
        '     "claim": {"a": "[{\\"x\\", ]"}},\n    {\n      "kind": 1,\n'
        '      "action": "early",\n      "claim": {"tags": [],\n'
        '      "action": "x"}, "action":\n        "late", "claim": {"tags": ["a",\n "b"]}}\n  ]\n}\n'
    )
    assert json.loads(text.lstrip("\ufeff"))["items"][1]["action"] == "late"
    assert jsonio.line_at(text, path) == line


def test_line_at_is_none_for_text_that_is_not_json() -> None:
    assert jsonio.line_at("insights:\n  - a\n", ("insights",)) is None
    assert jsonio.line_at('{"a": [1,', ("a", 3)) is None


@pytest.mark.parametrize(
    ("data", "max_bytes", "expected"),
    [
        (b"a\nb\nc\n", 100, [b"a", b"b", b"c"]),
        (b"a\nb\nc", 100, [b"a", b"b", b"c"]),  # the last line without its newline
        (b"aaa\nbb\nc\n", 4, [b"c"]),  # the window starts inside "bb": skipped
        (b"aaa\nbb\nc\n", 5, [b"bb", b"c"]),  # ... exactly at its start: kept
        (b"a\n" + b"x" * 50 + b"\nb\n", 1000, [b"a", None, b"b"]),  # oversized: None
        (b"a\n" + b"x" * 50, 1000, [b"a", None]),
        (b"\n\nz\n", 100, [b"", b"", b"z"]),
    ],
)
def test_tail_lines_reads_the_recent_end_in_bounded_pieces(
    tmp_path: Path, data: bytes, max_bytes: int, expected: list[bytes | None]
) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    assert list(jsonio.tail_lines(path, max_bytes=max_bytes, max_line_bytes=10)) == expected


def test_tail_lines_across_many_pieces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonio, "_CHUNK", 7)
    lines = [b"line %d" % i * (i % 4) for i in range(200)]
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    got = list(jsonio.tail_lines(path, max_line_bytes=15))
    assert got == [x if len(x) <= 15 else None for x in lines]


def test_iter_jsonl_streams_a_log_in_pieces_with_its_line_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read 7 bytes at a time: every line keeps its number, blank lines count, an oversized line
    is an error holding only its first bytes, and the unterminated last line is torn."""
    monkeypatch.setattr(jsonio, "_CHUNK", 7)
    path = tmp_path / "log.jsonl"
    big = '{"k": "' + "x" * 60 + '"}'
    path.write_bytes(f'{{"a": 1}}\n\n{big}\n{{"b": 2}}\n{{"c": 3'.encode())
    got = list(jsonio.iter_jsonl(path, max_line_bytes=20))
    assert [(x.number, x.data, x.torn) for x in got] == [
        (1, {"a": 1}, False),
        (3, None, False),
        (4, {"b": 2}, False),
        (5, None, True),
    ]
    assert got[1].error == "line longer than 20 bytes" and got[1].text == big[:20]
    assert got[3].error is not None


def test_iter_jsonl_never_holds_the_whole_file(tmp_path: Path) -> None:
    """A 24 MB log (one 16 MB line among small ones) read line by line: the peak allocation
    stays far below the file's size (it was the whole file, read at once, and then its lines)."""
    import tracemalloc

    path = tmp_path / "events.jsonl"
    small = b'{"event": "Stop"}\n' * 200_000
    path.write_bytes(small + b'{"x": "' + b"y" * (16 << 20) + b'"}\n' + small)
    tracemalloc.start()
    try:
        lines = sum(1 for _ in jsonio.iter_jsonl(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert lines == 400_001
    assert peak < 4 << 20, peak
