"""`registries/orkestra.yaml` (§3.9): every key has a default, so an empty file is valid."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from orkestra.registry.models.common import Model, Name, NonEmpty, RelPath
from orkestra.registry.render_lock import output_problem, protected_part

#: top-level folders of the clients' own configuration: a ground-truths file there would be
#: read as an agent, a command or a setting
CLIENT_FOLDERS = (".claude", ".codex", ".cursor", ".gemini", ".agents", ".vscode")


def _check_output(value: str) -> str:
    """A configurable output path (§4): a markdown file inside the project, outside `.git/`,
    `registries/`, `knowledge/` and `.orkestra/` (RelPath has checked it stays inside)."""
    problem = output_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def _check_truths_output(value: str) -> str:
    top = value.replace("\\", "/").split("/", 1)[0].casefold()
    if top in CLIENT_FOLDERS:
        raise ValueError(f"must not lie in '{top}/', where a client reads its own configuration")
    return value


#: `render.claude_md_path`: a markdown file Orkestra may keep a managed block in
OutputPath = Annotated[RelPath, AfterValidator(_check_output)]
#: a truth registry's `render.output`: a markdown file outside the clients' folders too
TruthsOutputPath = Annotated[OutputPath, AfterValidator(_check_truths_output)]

Target = Literal["claude", "agents-md", "codex", "cursor", "gemini", "copilot"]
_DEFAULT_TARGETS: tuple[Target, ...] = ("claude",)


class VendorRoot(Model):
    """A folder of third-party Agent Skills folders (`<name>/SKILL.md`)."""

    path: RelPath
    provider: Name
    default_scopes: list[Name] = Field(default_factory=list)
    trust: Literal["vendor", "community", "untrusted"] = "vendor"
    link: Literal["symlink", "copy"] = "symlink"
    layer: Literal["K0", "K1", "K2", "K3", "K4"] = "K3"


def _package_glob(value: str) -> str:
    from orkestra.core.globs import package_glob

    glob = package_glob(value)
    changelog = changelog_path(glob)  # an output path too (§4): never in .git/ or a client folder
    folder = protected_part(changelog)
    if folder is not None:
        raise ValueError(
            f"its CHANGELOG.md ({changelog}) would lie in '{folder}/'; Orkestra never writes there"
        )
    _check_truths_output(changelog)
    return glob


def _one_file_each(packages: dict[str, str]) -> dict[str, str]:
    """Two packages never share a CHANGELOG.md (`changelog render --all` would write one over
    the other): their patterns must be rooted at different folders."""
    seen: dict[str, str] = {}
    for name, glob in packages.items():
        path = changelog_path(glob)
        if path in seen:
            raise ValueError(
                f"packages {seen[path]!r} and {name!r} would both write {path}; give each "
                "package its own folder (a package's CHANGELOG.md goes to the folder its "
                "pattern is rooted at)"
            )
        seen[path] = name
    return packages


def changelog_path(glob: str) -> str:
    """Where the CHANGELOG.md of a package with this (normalised) pattern goes."""
    from orkestra.core.globs import glob_folder

    folder = glob_folder(glob)
    return f"{folder}/CHANGELOG.md" if folder else "CHANGELOG.md"


#: a package's files: a glob, or a folder meaning `folder/**` (normalised on load)
PackageGlob = Annotated[str, AfterValidator(_package_glob)]


class MiningConfig(Model):
    packages: Annotated[dict[str, PackageGlob], AfterValidator(_one_file_each)] = Field(
        default_factory=dict
    )
    domains_by_path: dict[str, str] = Field(default_factory=dict)
    releasable_types: list[str] = Field(default_factory=lambda: ["feat", "fix", "perf", "revert"])


def _check_knowledge(value: str) -> str:
    from orkestra.core.project import knowledge_folder_problem

    problem = knowledge_folder_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


class KnowledgeConfig(Model):
    path: Annotated[RelPath, AfterValidator(_check_knowledge)] = "knowledge"
    repos: dict[str, str] = Field(default_factory=dict)
    verified_max_age_days: int = Field(default=90, ge=1)
    commit: bool = False
    push: bool = False


class TruthsConfig(Model):
    stale_after_days: int = Field(default=90, ge=1)


class RenderConfig(Model):
    claude_md: bool = False
    claude_md_path: OutputPath = "CLAUDE.md"


class McpConfig(Model):
    """`orkestra mcp serve` in each target's MCP config (PRODUCT.md §11)."""

    serve: bool = False
    #: the command clients start (default: this installation's `orkestra` by absolute path, or
    #: `python -m orkestra` with this Python); `--root <project> mcp serve` is appended
    command: list[NonEmpty] | None = Field(default=None, min_length=1)


class Config(Model):
    project: str = "project"
    targets: list[Target] = Field(default_factory=lambda: list(_DEFAULT_TARGETS))
    vendor_roots: list[VendorRoot] = Field(default_factory=list)
    mining: MiningConfig = Field(default_factory=MiningConfig)
    knowledge: KnowledgeConfig = Field(default_factory=KnowledgeConfig)
    truths: TruthsConfig = Field(default_factory=TruthsConfig)
    render: RenderConfig = Field(default_factory=RenderConfig)
    mcp: McpConfig = Field(default_factory=McpConfig)

    @property
    def root_package(self) -> str:
        """The package of the project-level CHANGELOG.md: a configured package rooted at the
        project's top, else the project itself (a release note touching no package goes here)."""
        packages = self.mining.packages
        for name, glob in packages.items():
            if changelog_path(glob) == "CHANGELOG.md":
                return name
        for name in (self.project, f"{self.project}-root", "root"):
            if name not in packages:
                return name
        return "(root)"  # every spelling taken: a name no package can be given in YAML by chance

    def changelogs(self) -> dict[str, str]:
        """Package name -> its CHANGELOG.md (relative to the root), the root package included."""
        paths = {name: changelog_path(glob) for name, glob in self.mining.packages.items()}
        return {self.root_package: "CHANGELOG.md", **paths}
