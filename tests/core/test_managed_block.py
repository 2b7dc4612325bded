"""Where the managed block lies: marker lines of their own, outside the user's code fences."""

from __future__ import annotations

from typing import Any

import pytest

from orkestra.core.managed_block import find
from orkestra.mining import changelog_file
from orkestra.registry.render_lock import BEGIN, END

LINE = f"{BEGIN} (managed by `orkestra sync`; edit the registries, not this block) -->"
BLOCK = f"{LINE}\n## Agents\n- a\n{END}\n"


def test_a_block_is_found_where_its_markers_are() -> None:
    text = f"# Notes\n\nmine\n\n{BLOCK}\nafter\n"
    assert find(text, BEGIN, END) == (text.find(BEGIN), text.find(END))
    assert find(BLOCK, BEGIN, END) == (0, BLOCK.find(END))
    assert find("# Notes\n", BEGIN, END) == (-1, -1)
    assert find("", BEGIN, END) == (-1, -1)


@pytest.mark.parametrize(
    "note",
    [
        "The block below that starts with `<!-- orkestra:begin -->` is generated.\n",
        "Orkestra owns everything between `<!-- orkestra:begin -->` and\nmy text\n"
        "`<!-- orkestra:end -->`; do not edit it.\n",
        "<!-- orkestra:begin --> is how the block starts\n",  # a line that goes on after it
        "<!-- orkestra:beginning of my notes -->\n",  # another comment
        "<!-- orkestra:begin --> x -->\n",
        "    <!-- orkestra:begin -->\n    mine\n    <!-- orkestra:end -->\n",  # indented code
        "```markdown\n<!-- orkestra:begin -->\nexample\n<!-- orkestra:end -->\n```\n",
        "~~~~\n<!-- orkestra:begin -->\n```\n<!-- orkestra:end -->\n~~~~\n",  # a longer fence
        "  ```\n<!-- orkestra:end -->\n  ````\n",
        "   <!-- orkestra:begin -->\n   KEEP-ME\n   <!-- orkestra:end -->\n",  # indented
        "\t<!-- orkestra:begin -->\n\tKEEP-ME\n\t<!-- orkestra:end -->\n",  # indented code
        "\u00a0<!-- orkestra:begin -->\nKEEP-ME\n\u00a0<!-- orkestra:end -->\n",
        "> <!-- orkestra:begin -->\n> KEEP-ME\n> <!-- orkestra:end -->\n",  # a quote
        "- ```md\n  <!-- orkestra:begin -->\n  KEEP-ME\n  <!-- orkestra:end -->\n  ```\n",
        "1. ```md\n<!-- orkestra:begin -->\nKEEP-ME\n<!-- orkestra:end -->\n   ```\n",
        "> ```\n<!-- orkestra:begin -->\nKEEP-ME\n<!-- orkestra:end -->\n> ```\n",
        "The block starts at\u2028<!-- orkestra:begin -->\nKEEP-ME\n",  # not a line ending
        "A\x0c<!-- orkestra:begin -->\nKEEP-ME\nB\x85<!-- orkestra:end -->\n",
    ],
)
def test_markers_the_user_names_or_shows_are_not_the_block_s_edges(note: str) -> None:
    text = f"# Notes\n\n{note}\n{BLOCK}"
    assert find(text, BEGIN, END) == (text.find(LINE), text.rfind(END))
    assert find(f"# Notes\n\n{note}", BEGIN, END) == (-1, -1)


def test_one_marker_alone_is_reported_by_its_offset() -> None:
    assert find(f"x\n{LINE}\nmine\n", BEGIN, END) == (2, -1)
    assert find(f"x\n{END}\n", BEGIN, END) == (-1, 2)
    assert find(f"x\n`{END}`\n", BEGIN, END) == (-1, -1)
    # found before a fence left open, or after it: the look goes on past that fence
    assert find(f"{END}\n```a\nmine\n", BEGIN, END) == (-1, 0)
    assert find(f"```a\nmine\n{END}\n", BEGIN, END) == (-1, 10)


def test_the_end_is_looked_for_without_fences_inside_the_block() -> None:
    """A description holding three backticks leaves a fence open inside Orkestra's block."""
    block = f"{LINE}\n- a: uses ``` to quote\n```\n{END}\n"
    text = f"# Notes\n\n{block}tail\n"
    assert find(text, BEGIN, END) == (text.find(LINE), text.find(END))


def test_markers_start_their_line_and_may_follow_a_byte_order_mark() -> None:
    text = f"{LINE}  \nx\n{END}\t\n"
    assert find(text, BEGIN, END) == (0, text.find(END))
    assert find(f"\ufeff{BLOCK}", BEGIN, END) == (1, 1 + BLOCK.find(END))
    crlf = BLOCK.replace("\n", "\r\n")
    assert find(crlf, BEGIN, END) == (0, crlf.find(END))
    cr = BLOCK.replace("\n", "\r")  # a line ending in Markdown too
    assert find(cr, BEGIN, END) == (0, cr.find(END))


def test_a_fence_left_open_hides_no_marker_after_it_but_a_closed_one_still_does() -> None:
    """Else the block below a fence left open would be added again on every run."""
    example = "```md\n<!-- orkestra:begin -->\nKEEP-ME\n<!-- orkestra:end -->\n```\n"
    text = f"# Notes\n\n{example}\n```bash\nmake\n\n{BLOCK}"
    assert find(text, BEGIN, END) == (text.find(LINE), text.rfind(END))
    text = f"# Notes\n\n{example}\n```bash\nmake\n"  # no block yet: none is found
    assert find(text, BEGIN, END) == (-1, -1)
    twice = f"```a\n\n```b\n{BLOCK}"  # two fences left open
    assert find(twice, BEGIN, END) == (twice.find(LINE), twice.find(END))


def test_a_whole_line_begin_marker_must_be_the_line() -> None:
    begin, end = changelog_file.BEGIN, changelog_file.END
    text = f"# Changelog\n\nSee `{begin}` below.\n\n{begin}\n## 1.0\n{end}\n"
    assert find(text, begin, end) == (text.rfind(begin), text.find(end))
    assert find(f"{begin} more\n{end}\n", begin, end) == (-1, len(begin) + 6)


def test_a_file_of_fences_left_open_costs_a_bounded_number_of_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hostile CLAUDE.md of 20,000 fences none of which closes: each left open would cost a
    pass over the rest of the file; past `_REOPENED` of them fences are not looked at."""
    from orkestra.core import managed_block

    passes: list[int] = []
    real = managed_block._find

    def counted(*args: Any, **kwargs: Any) -> Any:
        passes.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(managed_block, "_find", counted)
    text = "```a\n" * 20_000 + BLOCK
    assert find(text, BEGIN, END) == (text.find(LINE), text.find(END))
    assert len(passes) == managed_block._REOPENED + 1
    passes.clear()
    few = "```a\n" * 3 + BLOCK  # three left open: three steps over them, then the block
    assert find(few, BEGIN, END) == (few.find(LINE), few.find(END)) and len(passes) == 4


def test_a_second_begin_before_any_end_breaks_the_pair() -> None:
    """The block's end marker gone: the end of an example further on is not the block's."""
    lost = f"{LINE}\nold\n\nmine\n\n```md\n{BEGIN} -->\nx\n{END}\n```\n"
    assert find(lost, BEGIN, END) == (0, -1)
    whole = f"{BLOCK}\n```md\n{BEGIN} -->\nx\n{END}\n```\n"
    assert find(whole, BEGIN, END) == (0, BLOCK.find(END))
    assert (
        changelog_file.place(
            f"# Changelog\n\n{changelog_file.BEGIN}\nold\n\n```\n{changelog_file.BEGIN}\n"
            f"{changelog_file.END}\n```\n",
            "# Changelog\n",
            "body\n",
            into_existing=True,
        ).action
        == "refuse"
    )
