"""A synthetic skills marketplace shaped like the real ones (issue 13): ~180 skills, ~3 MB.

Each skill has a long SKILL.md (headings, prose, tables, fenced code, links to its own files and to
sibling skills), most have references/ with several long markdown files, many ship scripts/ (Python
and shell doing ordinary file and network work), some assets/ and templates. Content is drawn from
honest documentation idioms, including the ones that used to trip the review: install docs with an
official installer, security checklists, prompt-safety advice, multilingual samples with bidi
isolates, Jinja templates. Deterministic (seeded): the same call writes the same tree.
"""

from __future__ import annotations

import random
from pathlib import Path

TOPICS = (
    "pdf",
    "docx",
    "xlsx",
    "pptx",
    "csv",
    "json",
    "yaml",
    "sql",
    "graphql",
    "openapi",
    "docker",
    "kubernetes",
    "terraform",
    "aws",
    "gcp",
    "azure",
    "react",
    "vue",
    "svelte",
    "django",
    "flask",
    "fastapi",
    "rails",
    "spring",
    "rust",
    "go",
    "swift",
    "kotlin",
    "changelog",
    "release",
    "i18n",
    "a11y",
    "seo",
    "security",
    "testing",
    "lint",
    "format",
    "git",
    "ci",
    "logging",
    "metrics",
    "tracing",
    "cache",
    "queue",
    "search",
    "image",
    "audio",
    "video",
    "font",
    "chart",
)
VERBS = ("builder", "helper", "guide", "toolkit", "review", "audit", "writer", "converter")
WORDS = [
    "the",
    "file",
    "is",
    "read",
    "once",
    "and",
    "the",
    "result",
    "is",
    "written",
    "next",
    "to",
    "the",
    "input",
    "so",
    "nothing",
    "else",
    "changes",
    "when",
    "a",
    "step",
    "fails",
    "the",
    "tool",
    "stops",
    "and",
    "reports",
    "the",
    "line",
    "that",
    "caused",
    "it",
    "with",
    "a",
    "short",
    "reason",
    "use",
    "the",
    "reference",
    "for",
    "the",
    "full",
    "list",
    "of",
    "options",
    "and",
    "keep",
    "the",
    "defaults",
    "unless",
    "the",
    "project",
    "asks",
    "for",
    "something",
    "else",
    "every",
    "command",
    "prints",
    "what",
    "it",
    "did",
    "and",
    "exits",
    "with",
    "a",
    "clear",
    "status",
    "large",
    "inputs",
    "are",
    "streamed",
    "in",
    "chunks",
    "so",
    "memory",
    "stays",
    "flat",
    "and",
    "progress",
    "is",
    "shown",
    "per",
    "page",
    "prefer",
    "the",
    "documented",
    "flags",
    "over",
    "environment",
    "variables",
    "because",
    "they",
    "show",
    "up",
    "in",
    "the",
    "logs",
]
PROSE_EXTRA = (
    'Avoid override-style wording such as "disregard the previous instruction" in prompts you '
    "write; models follow clear, positive instructions better.",
    "Look for exfiltration patterns, e.g. `curl -d @.env https://...` or reads of `~/.ssh`, "
    "and flag them in the report.",
    "Never pipe an unknown script into a shell; read it first.",
    "Do not commit `.env`; copy `.env.example` and fill in your own values.",
    "Install the CLI with the official installer: `curl -LsSf https://astral.sh/uv/install.sh | sh`",
    "Mention the rate limit in the summary you give the user.",
    "Arabic sample: \u2067مرحبا بالعالم\u2069 and Hebrew: \u2067שלום עולם\u2069 render right to left.",
    "Übersetzungen liegen unter `locales/de.json`; die Schlüssel bleiben englisch.",
    "Les traductions françaises sont relues avant chaque version.",
    "中文文档位于 `docs/zh/` 目录，请保持术语一致。",
    "日本語のサンプルは `samples/ja.md` にあります。",
)
PY_SCRIPT = '''#!/usr/bin/env python3
"""{title}: read the input, {verb} it, write the result beside it.

Usage: python scripts/{name}.py INPUT [--out OUTPUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def load(path: Path) -> list[dict[str, object]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rows.append(json.loads(line))
    return rows


def convert(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    out = []
    for row in rows:
        item = {{k.lower(): v for k, v in row.items()}}
        item["checked"] = True
        out.append(item)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("input", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = convert(load(args.input))
    target = args.out or args.input.with_suffix(".out.json")
    target.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    print(f"wrote {{len(rows)}} rows to {{target}}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''
NET_SCRIPT = '''#!/usr/bin/env python3
"""Fetch {title} data from the public API and print it. Usage: python scripts/fetch.py QUERY"""

import json
import os
import sys
import urllib.request

API = "https://api.example.com/v1/{name}"


def main() -> int:
    token = os.environ.get("EXAMPLE_API_TOKEN", "")
    request = urllib.request.Request(API + "?q=" + sys.argv[1], headers={{"Authorization": token}})
    with urllib.request.urlopen(request, timeout=10) as response:
        print(json.dumps(json.load(response), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''
SH_SCRIPT = """#!/usr/bin/env bash
# {title}: check the inputs and run the converter. Usage: scripts/run.sh INPUT
set -euo pipefail
input="${{1:?usage: run.sh INPUT}}"
out="${{input%.*}}.out"
mkdir -p "$(dirname "$out")"
python3 "$(dirname "$0")/{name}.py" "$input" --out "$out"
echo "done: $out"
"""


def _prose(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


def _section(rng: random.Random, title: str, name: str, siblings: list[str]) -> str:
    parts = [f"## {title}\n", _prose(rng, rng.randint(40, 120)), ""]
    if rng.random() < 0.5:
        parts += ["| option | default | meaning |", "| --- | --- | --- |"]
        parts += [f"| `--{w}` | `{rng.randint(1, 99)}` | {_prose(rng, 8)} |" for w in WORDS[:6]]
        parts.append("")
    if rng.random() < 0.6:
        parts += [
            "```bash",
            f"python scripts/{name}.py data/input.jsonl --out build/out.json",
            "```",
            "",
        ]
    if rng.random() < 0.3:
        parts += [rng.choice(PROSE_EXTRA), ""]
    if rng.random() < 0.2 and siblings:
        parts += [f"See also [{siblings[0]}](../{siblings[0]}/SKILL.md).", ""]
    parts.append(_prose(rng, rng.randint(30, 90)))
    return "\n".join(parts) + "\n"


def skill(root: Path, index: int, rng: random.Random, names: list[str]) -> None:
    """Write one skill folder under `root`."""
    name = names[index]
    topic, verb = name.split("-", 1)
    folder = root / name
    (folder / "references").mkdir(parents=True)
    siblings = [n for n in rng.sample(names, 3) if n != name]
    title = f"{topic.upper()} {verb}"
    head = (
        f"---\nname: {name}\ndescription: {title} for {topic} files. Use when the user asks "
        f"to create, convert or check {topic} content.\nlicense: Apache-2.0\n---\n\n# {title}\n\n"
    )
    body = [
        head,
        _prose(rng, 60),
        "\n\n## Examples\n\n```bash\n",
        f"python scripts/{name}.py sample.jsonl\n```\n\n",
    ]
    for number in range(rng.randint(4, 8)):
        body.append(_section(rng, f"Step {number + 1}: {rng.choice(WORDS)}", name, siblings))
    body.append("\nFull options: [reference](references/options.md).\n")
    (folder / "SKILL.md").write_text("".join(body), encoding="utf-8")
    for ref in ("options", "advanced", "troubleshooting")[: rng.randint(1, 3)]:
        text = [f"# {title}: {ref}\n\n"]
        text += [_section(rng, f"{ref} {n}", name, siblings) for n in range(rng.randint(3, 6))]
        if topic == "changelog":
            text.append("\n```jinja\n[{{ release.version }}]: {{ release.url }}\n```\n")
        (folder / "references" / f"{ref}.md").write_text("".join(text), encoding="utf-8")
    if rng.random() < 0.75:
        (folder / "scripts").mkdir()
        script = PY_SCRIPT.format(title=title, verb=verb, name=name)
        (folder / "scripts" / f"{name}.py").write_text(script, encoding="utf-8")
        run = SH_SCRIPT.format(title=title, name=name)
        (folder / "scripts" / "run.sh").write_text(run, encoding="utf-8")
        if rng.random() < 0.3:
            fetch = NET_SCRIPT.format(title=title, name=name)
            (folder / "scripts" / "fetch.py").write_text(fetch, encoding="utf-8")
    if rng.random() < 0.3:
        (folder / "assets").mkdir()
        (folder / "assets" / "template.md").write_text(
            f"# {{{{ title }}}}\n\n{_prose(rng, 40)}\n", encoding="utf-8"
        )


def generate(root: Path, count: int = 181, seed: int = 13) -> Path:
    """Write `count` skills under `root` (created; must not exist) and return it."""
    rng = random.Random(seed)
    names: list[str] = []
    while len(names) < count:
        name = f"{rng.choice(TOPICS)}-{rng.choice(VERBS)}"
        name = name if name not in names else f"{name}-{len(names)}"
        names.append(name)
    root.mkdir(parents=True)
    for index in range(count):
        skill(root, index, rng, names)
    return root
