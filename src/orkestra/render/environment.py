"""The Jinja environment: sandboxed, StrictUndefined, project templates before bundled ones."""

from __future__ import annotations

import re
import traceback
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from orkestra.core.errors import InputError
from orkestra.render import text
from orkestra.render.template_paths import template_files, template_folders
from orkestra.render.text import with_mark

if TYPE_CHECKING:
    from orkestra.render.helper import Helper
    from orkestra.render.reuse import RenderCache


def _loader(root: Path | None) -> jinja2.BaseLoader:
    folders = template_folders(root)
    return jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(f)) for f in folders])


def _overrides(root: Path | None) -> tuple[str, ...]:
    """The project's own template files (names): a file added there overrides a bundled one
    that an environment kept from before may have loaded already (Jinja's reload looks only
    at the file it loaded)."""
    folder = None if root is None else root / "templates"
    if folder is None or not folder.is_dir():
        return ()
    return tuple(name for name, _ in template_files(folder))


@lru_cache(maxsize=8)
def _environment(root: Path | None, overrides: tuple[str, ...]) -> ImmutableSandboxedEnvironment:
    """The environment of a project with these template overrides (kept: compiled templates
    are reused by a long-lived process, and reloaded when their file changes)."""
    # immutable: a template cannot change what it is given (`tools.append(...)`): its text is a
    # function of its context alone, which the render cache and `render.delta` rely on, and
    # the lists shared by every agent's context (the values) do not depend on render order
    env = ImmutableSandboxedEnvironment(
        loader=_loader(root),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # markdown, not HTML
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=True,  # a changed project template is picked up by a long-lived process
    )
    env.filters["yaml_str"] = text.yaml_str
    env.filters["yaml_plain"] = text.yaml_plain
    env.filters["yaml_flow"] = text.yaml_flow
    env.filters["block"] = text.block
    env.filters["one_line"] = text.one_line
    return env


#: the templates that render a whole file: each text carries Orkestra's mark (`text.with_mark`)
#: naming the agent, command or skill it is for (`<kind> <its context's name>`) where a kind is
#: given, after the frontmatter where the flag is True (Cursor reads its rules' frontmatter with
#: a parser of its own)
WHOLE_FILES: dict[str, tuple[str | None, bool]] = {
    "claude/agent.md.j2": ("agent", False),
    "claude/command.md.j2": ("command", False),
    "claude/skill.md.j2": ("skill", False),
    "claude/ground_truths.md.j2": (None, False),
    "copilot/agent.md.j2": ("agent", False),
    "cursor/agent.md.j2": ("agent", False),
    "cursor/rule.mdc.j2": (None, True),
    "gemini/agent.md.j2": ("agent", False),
}


class Templates:
    """Renders named templates; every failure names the template file and line."""

    def __init__(
        self, root: Path | None = None, *, reuse: RenderCache | None = None, fork: bool = False
    ) -> None:
        root = root.resolve() if root is not None else None
        self.root = root
        self.env = _environment(root, _overrides(root))
        self._cache: dict[str, jinja2.Template] = {}
        #: texts of earlier renders, reused when the template and its context are the same
        self.reuse = reuse
        #: whether a render that misses the cache often may fork a helper (`render.helper`;
        #: only inside `helper.helped`, which ends the helper)
        self.fork = fork and reuse is not None
        self.misses = 0
        self.helper: Helper | None = None
        #: by output path, when a caller keeps them (`render.delta`): the context of each agent
        #: render of the claude target, and how each other target's agent file is made of the
        #: agent's composed prompt (`targets.shared.keep_recipe`)
        self.kept: dict[str, Any] | None = None
        #: what the targets of one render share (each agent composed once for all of them),
        #: set by `render.sync.render_outputs` for the length of that render only
        self.shared: dict[str, Any] | None = None

    def get(self, name: str) -> jinja2.Template:
        template = self._cache.get(name)
        if template is None:
            try:
                template = self.env.get_template(name)
            except jinja2.TemplateSyntaxError as exc:
                raise InputError(
                    f"template syntax error: {exc.message}",
                    file=self._shown(exc.filename or exc.name or name),
                    line=exc.lineno,
                ) from None
            except jinja2.TemplateNotFound:
                raise InputError(
                    f"template '{name}' not found in templates/ or the bundled templates",
                    file=name,
                ) from None
            self._cache[name] = template
        return template

    def _shown(self, file: str) -> str:
        """A template's file as an error names it: a project's own by its path in the project
        (`templates/claude/agent.md.j2`, as registry files are named), a bundled one in full."""
        path = Path(file)
        if self.root is not None and path.is_absolute() and path.is_relative_to(self.root):
            return path.relative_to(self.root).as_posix()
        return file

    def render(self, name: str, context: Mapping[str, Any], *, part: bool = False) -> str:
        """Render template `name` with `context`; errors become InputError(file, line). A `part`
        is a text that goes into another render's context (never left to a helper)."""
        key = None if self.reuse is None else self.reuse.key(name, context)
        if key is not None:
            assert self.reuse is not None
            kept = self.reuse.get(key)
            if kept is not None:
                return kept
            if self.fork and not part:
                return self._shared(name, context, key)
        return self._render(name, context, key)

    def _shared(self, name: str, context: Mapping[str, Any], key: bytes) -> str:
        """A miss of a render that may share its misses with a forked helper."""
        from orkestra.core.forking import can_fork
        from orkestra.render import helper

        self.misses += 1
        if self.helper is None and self.misses == helper.FORK_AT and can_fork():
            self.helper = helper.Helper()
        if self.helper is None:
            return self._render(name, context, key)
        if self.helper.child:
            if not self.helper.mine():
                return ""  # the parent's: never used (the parent takes texts by key)
            try:
                text: str | None = self._render(name, context, key)
            except Exception:
                text = None
            self.helper.answer(key, text)
            if text is None:
                raise InputError("the helper could not render this", file=name)
            return text
        if not self.helper.mine():
            taken = self.helper.take(key)
            if taken is not None:
                assert self.reuse is not None
                self.reuse.put(key, taken)
                return taken
        return self._render(name, context, key)

    def _render(self, name: str, context: Mapping[str, Any], key: bytes | None) -> str:
        template = self.get(name)
        try:
            text = template.render(context)
        except Exception as exc:
            file, line = _template_frame(exc, template)
            message = str(exc)
            if isinstance(exc, jinja2.exceptions.SecurityError) and _MUTATION.search(message):
                message = message.rstrip(".") + _MUTATION_HINT
            raise InputError(
                f"template error: {message}", file=self._shown(file), line=line
            ) from None
        text = text.rstrip("\n") + "\n"  # exactly one final newline, whatever the template does
        if name in WHOLE_FILES:
            kind, in_body = WHOLE_FILES[name]
            own = context.get("name") if kind else None
            label = f"{kind} {own}" if isinstance(own, str) else None
            text = with_mark(text, name=label, in_body=in_body)
        if key is not None:
            assert self.reuse is not None
            self.reuse.put(key, text)
        return text


#: what the immutable sandbox says of a method that would change a list, mapping or set
_MUTATION = re.compile(r"of '(list|dict|set|deque|OrderedDict|defaultdict|Counter)' object")
_MUTATION_HINT = (
    "; templates may not change a list or mapping (`.append`, `.update`, ...): build a new one "
    "(`{% set items = items + [x] %}`) or count in a `namespace()`"
)


def _template_frame(exc: BaseException, template: jinja2.Template) -> tuple[str, int | None]:
    """The template file and line where a render error happened (Jinja rewrites frames)."""
    wanted = {template.filename}
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename in wanted or frame.filename.endswith(".j2"):
            return frame.filename, frame.lineno
    return template.filename or template.name or "<template>", None
