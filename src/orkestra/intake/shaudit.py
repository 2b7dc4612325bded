"""Shell scripts audited by their tokens: pipelines, downloads that are then run, raw sockets.

Each logical line (continuations joined) is split into commands at `;`, `&&`, `||` and `&`, and
each command into pipeline stages at `|`; a stage's first word (after `sudo`, `env` and `VAR=x`
prefixes) says what it runs. Quotes are honoured by `shlex`; a line it cannot split is split on
blanks, never skipped.
"""

from __future__ import annotations

import posixpath
import re
import shlex

from orkestra.intake.pyaudit import Hit

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "eval", "source", "."})
INTERPRETERS = SHELLS | frozenset(
    {"python", "python3", "perl", "ruby", "node", "php", "deno", "bun"}
)
FETCHERS = frozenset({"curl", "wget", "fetch", "aria2c", "http", "iwr"})
_PREFIX = frozenset({"sudo", "env", "command", "exec", "nohup", "time", "doas"})
_ASSIGN = re.compile(r"^[A-Za-z_]\w*=")
_RAW_SOCKET = re.compile(
    r"/dev/(?:tcp|udp)/|\b(?:nc|ncat|netcat)\b[^\n|;]*\s-[a-z]*[ec]\b|\bbash\s+-i\b[^\n]*>&"
)


def _words(command: str) -> list[str]:
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars="|&;<>()")
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:  # unbalanced quotes: fall back to blanks, still looked at
        return command.split()


def _program(stage: list[str]) -> tuple[str, list[str]]:
    """The program a stage runs (`python3.11` -> `python`, `./x` kept as a path) and its args."""
    words = list(stage)
    while words and (words[0] in _PREFIX or _ASSIGN.match(words[0]) or words[0].startswith("-")):
        words.pop(0)
    if not words:
        return "", []
    if "/" in words[0] and not words[0].startswith(("/usr/", "/bin/")):
        return words[0], words[1:]
    name = posixpath.basename(words[0])
    name = re.sub(r"[0-9.]+$", "", name) if name.startswith("python") else name
    if name.startswith("python"):
        name = "python"
    return name, words[1:]


def _logical_lines(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        out.append((start, pending + stripped))
        pending = ""
    if pending:
        out.append((start, pending))
    return out


def _stages(words: list[str]) -> list[list[list[str]]]:
    """Commands (split at ; && || &) of pipeline stages (split at |) of words."""
    commands: list[list[list[str]]] = [[[]]]
    for word in words:
        if word in (";", "&&", "||", "&", ";;"):
            commands.append([[]])
        elif word == "|":
            commands[-1].append([])
        elif word not in ("(", ")"):
            commands[-1][-1].append(word)
    return commands


def _downloads(program: str, args: list[str]) -> list[str]:
    """Files a curl/wget command writes (basename), from -o/-O/--output or the URL."""
    out: list[str] = []
    remote = "--remote-name" in args or any(re.fullmatch(r"-[A-Za-z]*O[A-Za-z]*", a) for a in args)
    for index, arg in enumerate(args):
        if arg in ("-o", "--output", "-O", "--output-document") and index + 1 < len(args):
            nxt = args[index + 1]
            if not nxt.startswith(("http:", "https:", "-")):
                out.append(posixpath.basename(nxt))
                continue
        if arg.startswith(("http://", "https://")) and (program == "wget" or remote):
            out.append(posixpath.basename(arg.split("?", 1)[0]))
    return [o for o in out if o and o != "-"]


def audit_shell(text: str) -> list[Hit]:
    """Structural hits for a shell script."""
    hits: list[Hit] = []
    downloaded: dict[str, str] = {}  # file -> the URL line it came from
    made_executable: set[str] = set()  # files given +x by this script
    for number, line in _logical_lines(text):
        if _RAW_SOCKET.search(line):
            hits.append(Hit("raw-socket", number, "opens a raw network socket or remote shell"))
        words = _words(line)
        for command in _stages(words):
            programs = [_program(stage) for stage in command if stage]
            names = [p for p, _a in programs]
            for index, (program, args) in enumerate(programs):
                later = set(names[index + 1 :])
                if program in FETCHERS and later & INTERPRETERS:
                    hits.append(
                        Hit(
                            "remote-code-pipe",
                            number,
                            f"{program} output piped into {sorted(later & INTERPRETERS)[0]}",
                        )
                    )
                decoding = program == "base64" and any(a in ("-d", "--decode", "-D") for a in args)
                decoding = decoding or (program == "xxd" and "-r" in args)
                decoding = decoding or (program == "openssl" and "-d" in args)
                if decoding and later & INTERPRETERS:
                    hits.append(
                        Hit(
                            "decode-and-execute",
                            number,
                            f"{program} output piped into {sorted(later & INTERPRETERS)[0]}",
                        )
                    )
                if program in FETCHERS:
                    for name in _downloads(program, args):
                        downloaded[name] = line
                if program == "chmod" and any("+x" in a or a.isdigit() for a in args):
                    made_executable.update(posixpath.basename(a) for a in args if a[:1] != "+")
                runs = _runs(program, args)
                if runs and runs in downloaded:
                    why = f"runs {runs}, downloaded by: {downloaded[runs][:80]}"
                    hits.append(Hit("download-then-run", number, why))
                elif runs and runs in made_executable:
                    hits.append(Hit("dynamic-code", number, f"runs {runs}, made executable above"))
    return hits


def _runs(program: str, args: list[str]) -> str:
    """The file a command executes: `./x`, `sh x`, `bash x`, `python x`, `source x`."""
    if program in INTERPRETERS and args and not args[0].startswith("-"):
        return posixpath.basename(args[0])
    return posixpath.basename(program) if "/" in program else ""
