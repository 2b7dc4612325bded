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
_PREFIX = frozenset({"sudo", "env", "command", "builtin", "exec", "nohup", "time", "doas"})
_ASSIGN = re.compile(r"^[A-Za-z_]\w*=")
_RAW_SOCKET = re.compile(
    r"/dev/(?:tcp|udp)/|\b(?:nc|ncat|netcat)\b[^\n|;]*\s-[a-z]*[ec]\b|\bbash\s+-i\b[^\n]*>&"
    r"|\bsocat\b[^\n]*\b(?:exec|system):",
    re.I,
)
#: a fetched page run as a command: `$(curl ...)` or `` `wget -O- ...` `` where a command starts
_RUN_OUTPUT = re.compile(r"(?:^|[;&|({]\s*|\bthen\s+|\bdo\s+)(?:\$\(|`)\s*(?:curl|wget)\b")
#: programs that turn hidden text back into code (`rev`, rot13 with `tr`, unpacking)
UNHIDERS = frozenset(
    {"rev", "tr", "base32", "basenc", "gunzip", "zcat", "uudecode", "bunzip2", "xz"}
)
#: a fetcher as a command substitution's or array's first word (`/usr/bin/curl`, `command wget`)
_FETCHER = r"(?:(?:command|builtin)\s+)?[\"']?(?:\S*/)?(curl|wget|fetch|aria2c|http|iwr)\b"
#: `P=$(curl ...)`: a variable holding a fetched page (run later by `eval "$P"`, `sh -c "$P"`)
_FETCH_ASSIGN = re.compile(
    r"^(?:(?:export|local|readonly|declare(?:\s+-\w+)?)\s+)?([A-Za-z_]\w*)=[\"']?(?:\$\(|`)\s*"
    + _FETCHER
)
_PRINTERS = frozenset({"echo", "printf", "cat"})
#: `mapfile -t L < <(curl …)`, `read -r X < <(wget …)`: the lines of a page held in a variable
_FETCH_READ = re.compile(
    r"^(?:mapfile|readarray|read)\b(?:\s+-\S+(?:\s+\S+)?)*?\s+([A-Za-z_]\w*)\s*<\s*<\(\s*"
    + _FETCHER
)
#: `f() { curl "$1"; }`, `function f { wget -qO- "$1"; }`: a function that prints a page
_FETCH_FUNCTION = re.compile(
    r"^(?:function\s+)?([A-Za-z_][\w-]*)\s*(?:\(\s*\))?\s*\{[^}]*\b(?:curl|wget)\b"
)
#: `C=(curl -fsSL URL)`: an array whose first word is a fetcher, run as `"${C[@]}"`
_FETCH_ARRAY = re.compile(r"^([A-Za-z_]\w*)=\(\s*" + _FETCHER)
#: an argument that is a downloaded page itself: `"$(curl …)"` or `` `wget …` ``
_FETCHED_INLINE = re.compile(r"^\s*(?:\$\(|`)\s*" + _FETCHER)
_ANSI_C = re.compile(r"\$'((?:[^'\\]|\\.)*)'")
_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_]\w*)(?:\[[@*]\])?\}|([A-Za-z_]\w*))")
_NESTED = 2  # `sh -c '...'` inside `sh -c '...'`: audited this deep


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
        if arg in (">", ">>") and index + 1 < len(args):  # the page redirected into a file
            out.append(posixpath.basename(args[index + 1]))
            continue
        if arg in ("-o", "--output", "-O", "--output-document") and index + 1 < len(args):
            nxt = args[index + 1]
            if not nxt.startswith(("http:", "https:", "-")):
                out.append(posixpath.basename(nxt))
                continue
        if arg.startswith(("http://", "https://")) and (program == "wget" or remote):
            out.append(posixpath.basename(arg.split("?", 1)[0]))
    return [o for o in out if o and o != "-"]


def _ansi_c(match: re.Match[str]) -> str:
    """`$'\\x63url'` is `curl` to the shell: decoded, then quoted again for the tokeniser."""
    try:
        value = match.group(1).encode("latin-1", "backslashreplace").decode("unicode_escape")
    except (UnicodeDecodeError, UnicodeEncodeError):  # a malformed escape: left as written
        return match.group(0)
    return "'" + value.replace("'", "'\\''") + "'"


#: a program named through a lookup: `$(which bash)`, `` `command -v sh` ``, `$SHELL`
_LOOKUP = re.compile(
    r"\$\(\s*(?:which|command\s+-v|type\s+-p)\s+([\w.+-]+)\s*\)"
    r"|`\s*(?:which|command\s+-v|type\s+-p)\s+([\w.+-]+)\s*`"
)
_SHELL_VAR = re.compile(r"\$(?:SHELL\b|\{SHELL(?::?-[^}]*)?\})")


def _expand(line: str, variables: dict[str, str]) -> str:
    """Plain `$NAME` / `${NAME}` of variables set earlier in the script replaced by their value,
    so `C=curl; $C ... | bash` reads as what it runs; `$'...'` quoting decoded; a program looked
    up by name (`$(which bash)`) or the user's shell (`$SHELL`) read as that program."""
    if "$'" in line:
        line = _ANSI_C.sub(_ansi_c, line)
    if "which" in line or "command" in line or "type" in line:
        line = _LOOKUP.sub(lambda m: m.group(1) or m.group(2), line)
    if "SHELL" in line:
        line = _SHELL_VAR.sub("sh", line)
    if variables and "$" in line:
        line = _VARIABLE.sub(lambda m: variables.get(m.group(1) or m.group(2), m.group(0)), line)
    return line


def _assignments(words: list[str]) -> dict[str, str]:
    """`A=x B=y` as a command of its own (`a=cu; b=rl` too): the values set."""
    out: dict[str, str] = {}
    for command in _stages(words):
        if len(command) == 1 and command[0] and all(_ASSIGN.match(w) for w in command[0]):
            for word in command[0]:
                name, value = word.split("=", 1)
                out[name] = value
    return out


def audit_shell(text: str, depth: int = 0) -> list[Hit]:
    """Structural hits for a shell script (code run by `sh -c` / `python -c` included)."""
    hits: list[Hit] = []
    downloaded: dict[str, str] = {}  # file -> the URL line it came from
    made_executable: set[str] = set()  # files given +x by this script
    variables: dict[str, str] = {}
    fetched: dict[str, int] = {}  # variable -> the line that stored a downloaded page in it
    fetchers = set(FETCHERS)  # and the functions and arrays this script makes of them
    for number, raw in _logical_lines(text):
        line = _expand(raw, variables)
        if held := _FETCH_ASSIGN.match(line) or _FETCH_READ.match(line):
            fetched[held.group(1)] = number
        if made := _FETCH_FUNCTION.match(line):
            fetchers.add(made.group(1))
        if made := _FETCH_ARRAY.match(line):
            fetchers.update({f"${{{made.group(1)}[@]}}", f"${{{made.group(1)}[*]}}"})
        if _RAW_SOCKET.search(line):
            hits.append(Hit("raw-socket", number, "opens a raw network socket or remote shell"))
        if _RUN_OUTPUT.search(line):
            hits.append(Hit("remote-code-pipe", number, "a downloaded page is run as a command"))
        words = _words(line)
        if assigned := _assignments(words):
            variables.update(assigned)
            line = _expand(raw, variables)  # `a=cu; b=rl; $a$b …` on one line
            words = _words(line)
        for command in _stages(words):
            programs = [_program(stage) for stage in command if stage]
            names = [p for p, _a in programs]
            for index, (program, args) in enumerate(programs):
                if depth < _NESTED:
                    hits.extend(_inline_code(program, args, number, depth))
                later = set(names[index + 1 :])
                after = programs[index + 1 :]
                if name := _runs_variable(program, args, after, fetched):
                    why = (
                        f"runs ${name}, which holds a page downloaded on line {fetched[name]}"
                        if name in fetched
                        else f"runs the page {name} downloads"
                    )
                    hits.append(Hit("remote-code-pipe", number, why))
                runner = next((p for p, a in after if _reads_code(p, a)), "")
                if program in fetchers and runner:
                    why = f"{program} output piped into {runner}, which runs it"
                    hits.append(Hit("remote-code-pipe", number, why))
                decoding = program == "base64" and any(a in ("-d", "--decode", "-D") for a in args)
                decoding = decoding or (program == "xxd" and "-r" in args)
                decoding = decoding or (program == "openssl" and "-d" in args)
                unhides = program in UNHIDERS and any(
                    _reads_code(p, a) for p, a in programs[index + 1 :]
                )
                decoding = decoding or unhides
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


def _runs_variable(
    program: str, args: list[str], later: list[tuple[str, list[str]]], fetched: dict[str, int]
) -> str:
    """The fetched variable this stage runs as code, else "": `eval "$P"`, `source`, `sh -c "$P"`
    (the code after -c/-e), a here-string into a program reading code from its input
    (`bash <<< "$P"`), or `echo "$P" | sh`. The variable as data (`echo "$P" | python3 -m
    json.tool`, `python3 -c CODE "$P"`, `jq <<< "$P"`) is not run."""

    def held(arg: str) -> str:
        if inline := _FETCHED_INLINE.search(arg):
            return str(inline.group(1))
        names = (m.group(1) or m.group(2) for m in _VARIABLE.finditer(arg))
        return next((n for n in names if n in fetched), "")

    if program in ("eval", "source", "."):
        return next((name for a in args if (name := held(a))), "")
    if program in INTERPRETERS:
        for index, arg in enumerate(args[:-1]):
            if arg in ("-c", "-e") and (name := held(args[index + 1])):
                return name
        if "<<<" in args and args.index("<<<") + 1 < len(args):
            plain = args[: args.index("<<<")]
            if _reads_code(program, plain) and (name := held(args[args.index("<<<") + 1])):
                return name
    if program in _PRINTERS and later and _reads_code(*later[0]):
        return next((name for a in args if (name := held(a))), "")
    return ""


def _reads_code(program: str, args: list[str]) -> bool:
    """Does this stage run code read from its standard input (`sh`, `bash -s`, `python -`)?"""
    if program not in INTERPRETERS:
        return False
    files = [a for a in args if not a.startswith("-")]
    return not files or files[0] == "-" or "-s" in args


def _inline_code(program: str, args: list[str], number: int, depth: int) -> list[Hit]:
    """Hits in the code a `sh -c CODE` or `python -c CODE` stage runs, on this line."""
    if "-c" not in args or args.index("-c") + 1 >= len(args):
        return []
    code = args[args.index("-c") + 1]
    if program in SHELLS:
        found = audit_shell(code, depth + 1)
    elif program == "python":
        from orkestra.intake.pyaudit import audit_python

        found = audit_python(code) or []
    else:
        return []
    return [Hit(h.rule, number, f"{h.detail} (in {program} -c)") for h in found]


def _runs(program: str, args: list[str]) -> str:
    """The file a command executes: `./x`, `sh x`, `bash x`, `python x`, `source x`."""
    if program in INTERPRETERS and args and not args[0].startswith("-"):
        return posixpath.basename(args[0])
    return posixpath.basename(program) if "/" in program else ""
