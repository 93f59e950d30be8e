"""The process-state rule, read from the source with the ``ast`` module: every cache or
other state a process keeps between requests lives in ``core.process_state`` (bounded,
locked, resettable, emptied after a fork). Outside it, in the first-party packages (not
migrations, not settings), a module may not

- rebind a module-level name from inside a function (``global x``);
- mutate a module-level container from inside a function (``_cache[key] = …``,
  ``_cache.append(…)``, ``.update``, ``.setdefault``, ``.pop``, ``.clear`` …);
- memoize with ``functools.cache`` / ``functools.lru_cache`` (use
  ``process_state.memoized``, which is registered);
- keep state on a class from inside a method (``cls.x = …``).

Import-time registries (filled while the module is imported, never after) are named in
``IMPORT_TIME`` with their reason."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

MUTATORS = frozenset(
    {
        "append",
        "add",
        "update",
        "clear",
        "pop",
        "popitem",
        "setdefault",
        "extend",
        "insert",
        "remove",
        "discard",
        "move_to_end",
        "appendleft",
    }
)
MEMOIZERS = frozenset({"cache", "lru_cache"})
REGISTRY = "core.process_state"
SKIPPED = (".migrations.", "config.settings.")


@dataclass(frozen=True)
class Finding:
    module: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line}: {self.what}"


REGISTERED = frozenset({"Cache", "Slot"})


def _registered(value: ast.AST | None) -> bool:
    """``value`` builds an entry of the registry (``Cache(…)``, ``process_state.Slot(…)``)."""
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) in REGISTERED


def _module_names(tree: ast.Module) -> set[str]:
    """Module-level names bound to something other than a registry entry."""
    names: set[str] = set()
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign) and not _registered(node.value):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and not _registered(node.value):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                names.add(target.id)
    return names


def _in_functions(tree: ast.Module) -> Iterable[ast.AST]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from ast.walk(node)


def findings_in(module: str, source: str) -> list[Finding]:
    if module == REGISTRY or any(s in module + "." for s in SKIPPED):
        return []
    tree = ast.parse(source)
    names = _module_names(tree)
    found: set[Finding] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = (
                    target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                )
                if name in MEMOIZERS:
                    found.add(Finding(module, node.lineno, f"functools.{name} on {node.name}"))
    for node in _in_functions(tree):
        if isinstance(node, ast.Global):
            found.add(Finding(module, node.lineno, f"global {', '.join(node.names)}"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in names
        ):
            found.add(Finding(module, node.lineno, f"{node.func.value.id}.{node.func.attr}()"))
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            for target in targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id in names
                ):
                    found.add(Finding(module, node.lineno, f"{target.value.id}[…] written"))
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "cls"
                ):
                    found.add(Finding(module, node.lineno, f"cls.{target.attr} written"))
    return sorted(found, key=lambda f: (f.module, f.line, f.what))


def findings(sources: Mapping[str, tuple[str, bool]]) -> list[Finding]:
    return [f for module, (text, _) in sorted(sources.items()) for f in findings_in(module, text)]
