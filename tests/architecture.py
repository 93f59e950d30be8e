"""The import contract, read from the source with the ``ast`` module.

Every ``.py`` file under the first-party packages is parsed, and every import in it
(module level, inside functions, under ``TYPE_CHECKING``, in migrations, and
``importlib.import_module("literal")`` calls) becomes an arrow from the importing module
to the first-party module it names. Strings that merely name a dotted path (settings,
``ROOT_URLCONF``, Celery task names) are not imports and are not arrows.

The layer order of the apps, bottom first, is ``APP_ORDER``: an app may import only apps
below it, and none may import ``config`` (the composition root at the top).

Inside an app, each module has a kind, taken from its first dotted component below the app
(``memory.services.writes`` -> ``services``), see ``KIND_OF``:

- ``entry``: views, ops_views, api, tasks, management, urls, admin, forms, templatetags,
  apps, middleware, and DRF's authentication, permissions, throttles, schema -- the edges where
  requests, jobs and commands come in;
- ``service``: services, selectors, recall (the read path);
- ``model``: models;
- ``migration``: migrations;
- ``domain``: anything else (pure helpers such as ``memory.write_policy``).

Rules inside each app of ``LAYERED_APPS`` (``FORBIDDEN_KINDS``): models and migrations
never import service or entry modules; services, selectors, recall and domain helpers never
import entry modules. ``core`` (the base layer, whose ``api`` module is the shared error
shape, not an entry point) and ``config`` (the composition root) have no inner kinds.

An arrow is one (importing module, imported module) pair, however many names or lines
import it.

``python -m tests.architecture [ROOT]`` prints the arrow counts per app pair, the app
cycles and the module cycles inside each app.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

APP_ORDER = ("core", "accounts", "memory", "governance", "config")
PACKAGES = frozenset(APP_ORDER)
LAYERED_APPS = frozenset({"accounts", "memory", "governance"})

KIND_OF = {
    "views": "entry",
    "ops_views": "entry",
    "api": "entry",
    "tasks": "entry",
    "management": "entry",
    "urls": "entry",
    "admin": "entry",
    "forms": "entry",
    "templatetags": "entry",
    "apps": "entry",
    "authentication": "entry",
    "permissions": "entry",
    "throttles": "entry",
    "schema": "entry",
    "middleware": "entry",
    "services": "service",
    "selectors": "service",
    "recall": "service",
    "models": "model",
    "migrations": "migration",
}

FORBIDDEN_KINDS = {
    "model": frozenset({"service", "entry"}),
    "service": frozenset({"entry"}),
    "domain": frozenset({"entry"}),
    "migration": frozenset({"service", "entry"}),
    "entry": frozenset(),
}


@dataclass(frozen=True)
class Arrow:
    source: str  # importing module, dotted
    target: str  # imported first-party module (or the package it names), dotted
    line: int

    @property
    def source_app(self) -> str:
        return self.source.split(".")[0]

    @property
    def target_app(self) -> str:
        return self.target.split(".")[0]

    def __str__(self) -> str:
        return f"{self.source}:{self.line} -> {self.target}"


def module_name(path: Path, root: Path) -> tuple[str, bool]:
    """Dotted module name of ``path`` and whether it is a package ``__init__``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def read_sources(root: Path, packages: Iterable[str] = APP_ORDER) -> dict[str, tuple[str, bool]]:
    """``{module: (source, is_package)}`` for every .py file under the packages."""
    sources: dict[str, tuple[str, bool]] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if any(part.startswith(".") or part == "__pycache__" for part in path.parts):
                continue
            name, is_package = module_name(path, root)
            sources[name] = (path.read_text(encoding="utf-8"), is_package)
    return sources


def _resolve_relative(module: str, is_package: bool, level: int, name: str | None) -> str:
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _import_module_literal(node: ast.Call) -> str | None:
    func = node.func
    called = (
        func.attr
        if isinstance(func, ast.Attribute)
        else func.id
        if isinstance(func, ast.Name)
        else None
    )
    if called != "import_module" or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def imports_of(module: str, source: str, is_package: bool, known: set[str]) -> list[Arrow]:
    """First-party arrows out of one module. ``known`` is the set of module names, used to
    tell ``from pkg import submodule`` (an arrow to the submodule) from a name import."""
    arrows: list[Arrow] = []
    tree = ast.parse(source, filename=module)

    def add(target: str, line: int) -> None:
        if target.split(".")[0] in PACKAGES and target != module:
            arrows.append(Arrow(module, target, line))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _resolve_relative(module, is_package, node.level, node.module)
            else:
                base = node.module or ""
            for alias in node.names:
                candidate = f"{base}.{alias.name}" if base else alias.name
                add(candidate if candidate in known else base, node.lineno)
        elif isinstance(node, ast.Call):
            literal = _import_module_literal(node)
            if literal:
                add(literal, node.lineno)
    return arrows


def collect_arrows(sources: Mapping[str, tuple[str, bool]]) -> list[Arrow]:
    """One arrow per (importer, imported) pair, at the first line that imports it."""
    known = set(sources)
    arrows: dict[tuple[str, str], Arrow] = {}
    for module, (source, is_package) in sorted(sources.items()):
        for arrow in imports_of(module, source, is_package, known):
            key = (arrow.source, arrow.target)
            if key not in arrows or arrow.line < arrows[key].line:
                arrows[key] = arrow
    return sorted(arrows.values(), key=lambda a: (a.source, a.target))


def arrows_from_tree(root: Path) -> list[Arrow]:
    return collect_arrows(read_sources(root))


# --- the app graph --------------------------------------------------------------------------


def app_pair_counts(arrows: Iterable[Arrow]) -> Counter[tuple[str, str]]:
    return Counter((a.source_app, a.target_app) for a in arrows if a.source_app != a.target_app)


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's algorithm; returns only the components that form a cycle (size > 1 or a
    self-loop), each sorted, the list sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[list[str]] = []
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        # Iterative depth-first search, so deep module graphs cannot hit the recursion limit.
        work = [(node, iter(sorted(graph.get(node, ()))))]
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        while work:
            current, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[current] = min(low[current], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[current])
            if low[current] == index[current]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == current:
                        break
                if len(component) > 1 or current in graph.get(current, ()):
                    result.append(sorted(component))

    for node in nodes:
        if node not in index:
            visit(node)
    return sorted(result)


def app_cycles(arrows: Iterable[Arrow]) -> list[list[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for source, target in app_pair_counts(arrows):
        graph[source].add(target)
    return strongly_connected(graph)


def module_cycles(arrows: Iterable[Arrow], app: str) -> list[list[str]]:
    """Cycles between modules of one app (a package import counts as its ``__init__``)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for arrow in arrows:
        if arrow.source_app == app and arrow.target_app == app:
            graph[arrow.source].add(arrow.target)
    return strongly_connected(graph)


# --- the rules ------------------------------------------------------------------------------


def upward_arrows(arrows: Iterable[Arrow], order: tuple[str, ...] = APP_ORDER) -> list[Arrow]:
    rank = {app: position for position, app in enumerate(order)}
    return [
        a
        for a in arrows
        if a.source_app != a.target_app and rank[a.target_app] > rank[a.source_app]
    ]


def config_imports(arrows: Iterable[Arrow]) -> list[Arrow]:
    return [a for a in arrows if a.target_app == "config" and a.source_app != "config"]


def kind_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) < 2:
        return "domain"
    return KIND_OF.get(parts[1], "domain")


def layer_violations(arrows: Iterable[Arrow]) -> list[Arrow]:
    """Arrows inside one app that go from a lower module kind to a forbidden one."""
    return [
        a
        for a in arrows
        if a.source_app == a.target_app
        and a.source_app in LAYERED_APPS
        and kind_of(a.target) in FORBIDDEN_KINDS[kind_of(a.source)]
    ]


# --- the command line -----------------------------------------------------------------------


def report(arrows: list[Arrow]) -> str:
    lines = ["Arrows between apps (importer -> imported: count)"]
    counts = app_pair_counts(arrows)
    rank = {app: position for position, app in enumerate(APP_ORDER)}
    for (source, target), count in sorted(
        counts.items(), key=lambda kv: (rank[kv[0][0]], rank[kv[0][1]])
    ):
        direction = "UP" if rank[target] > rank[source] else "down"
        lines.append(f"  {source:>10} -> {target:<10} {count:4d}  {direction}")
    lines.append(f"  total {sum(counts.values())}, upward {len(upward_arrows(arrows))}")
    cycles = app_cycles(arrows)
    lines.append(f"App cycles: {len(cycles)}")
    lines.extend(f"  {' <-> '.join(cycle)}" for cycle in cycles)
    lines.append("Module cycles inside each app (strongly connected components)")
    for app in APP_ORDER:
        components = module_cycles(arrows, app)
        lines.append(f"  {app}: {len(components)}")
        lines.extend(f"    [{len(c)}] {', '.join(c)}" for c in components)
    violations = layer_violations(arrows)
    lines.append(f"Layer violations inside apps: {len(violations)}")
    lines.extend(f"  {kind_of(v.source)} -> {kind_of(v.target)}: {v}" for v in violations)
    lines.append(f"Apps importing config: {len(config_imports(arrows))}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent
    print(report(arrows_from_tree(root)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
