"""The import contract (the rules are spelled out in tests/architecture.py): apps import only
apps below them, nothing imports config, the apps form no cycle, and inside each app the
entry points sit above services and selectors, which sit above models."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import architecture as arch

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def arrows() -> list[arch.Arrow]:
    return arch.arrows_from_tree(ROOT)


def _listing(arrows: list[arch.Arrow]) -> str:
    return "\n".join(str(a) for a in arrows)


def test_the_walker_sees_the_whole_tree(arrows):
    # A walker that read nothing would pass every rule below.
    modules = arch.read_sources(ROOT)
    assert len(modules) > 100
    assert {"core", "accounts", "memory", "governance", "config"} <= {
        m.split(".")[0] for m in modules
    }
    assert any(m.startswith("memory.migrations.") for m in modules)
    assert len(arrows) > 50


def test_no_app_imports_an_app_above_it(arrows):
    upward = arch.upward_arrows(arrows)
    assert not upward, f"upward imports (order {arch.APP_ORDER}):\n{_listing(upward)}"


def test_no_app_imports_config(arrows):
    into_config = arch.config_imports(arrows)
    assert not into_config, f"config is the composition root:\n{_listing(into_config)}"


def test_the_apps_form_no_cycle(arrows):
    assert arch.app_cycles(arrows) == []


def test_inside_each_app_arrows_only_go_down(arrows):
    violations = arch.layer_violations(arrows)
    assert not violations, "\n".join(
        f"{arch.kind_of(v.source)} -> {arch.kind_of(v.target)}: {v}" for v in violations
    )


# --- the checker itself can fail ------------------------------------------------------------


def _fake(files: dict[str, str]) -> list[arch.Arrow]:
    sources = {
        name.removesuffix(".__init__"): (text, name.endswith(".__init__"))
        for name, text in files.items()
    }
    return arch.collect_arrows(sources)


def test_the_checker_catches_an_upward_import_anywhere_in_a_module():
    arrows = _fake(
        {
            "core.__init__": "",
            "core.audit": "def f():\n    from memory.models import MemoryRecord\n",
            "memory.__init__": "",
            "memory.models": "from core import audit\n",
        }
    )
    assert [str(a) for a in arch.upward_arrows(arrows)] == ["core.audit:2 -> memory.models"]


def test_the_checker_catches_a_config_import_and_a_literal_import_module():
    arrows = _fake(
        {
            "config.__init__": "",
            "config.celery": "",
            "memory.__init__": "",
            "memory.jobs": "import importlib\nimportlib.import_module('config.celery')\n",
            "memory.settings_user": "X = 'config.celery.app'  # a string, not an import\n",
        }
    )
    assert [str(a) for a in arch.config_imports(arrows)] == ["memory.jobs:2 -> config.celery"]


def test_the_checker_catches_a_cycle_between_apps():
    arrows = _fake(
        {
            "accounts.__init__": "",
            "accounts.models": "from governance.models import AuditEvent\n",
            "governance.__init__": "",
            "governance.models": "from accounts import models\n",
            "memory.__init__": "",
            "memory.models": "import accounts.models\n",
        }
    )
    assert arch.app_cycles(arrows) == [["accounts", "governance"]]


def test_the_checker_catches_a_ring_through_tasks_inside_an_app():
    arrows = _fake(
        {
            "memory.__init__": "",
            "memory.services.__init__": "",
            "memory.services.writes": "from memory import tasks\n",
            "memory.tasks": "from memory.services import writes\n",
            "memory.models": "from .services.writes import submit\n",
        }
    )
    assert arch.module_cycles(arrows, "memory") == [["memory.services.writes", "memory.tasks"]]
    assert sorted(str(v) for v in arch.layer_violations(arrows)) == [
        "memory.models:1 -> memory.services.writes",
        "memory.services.writes:1 -> memory.tasks",
    ]


def test_no_ring_through_services_or_tasks(arrows):
    # Services once imported each other in a ring closed through memory.tasks
    # (writes -> deletion -> tasks -> compression -> extraction -> writes).
    rings = [
        cycle
        for app in ("accounts", "memory", "governance")
        for cycle in arch.module_cycles(arrows, app)
        if any(m.split(".")[1:2] in (["services"], ["tasks"]) for m in cycle)
    ]
    assert rings == []


def test_no_module_cycle_inside_any_app(arrows):
    # The last one (memory.embedders <-> memory.selectors) went when the query cache
    # started taking the model id from its caller.
    assert {app: arch.module_cycles(arrows, app) for app in arch.APP_ORDER} == {
        app: [] for app in arch.APP_ORDER
    }


# --- process state lives in one registry ------------------------------------------------------

# Module-level state filled while the module is imported (or by an explicit registration
# call at import), never by a request: registries of code, not caches.
IMPORT_TIME = {
    "memory.services.deletion": "_STORES: the erasure stores, registered by decorators at import",
    "memory.predicates": "_BY_NAME: the predicate catalogue, built at import",
    "memory.detectors.literal_gated": "_GATED: the patterns wrapped as detector modules import",
}


def test_process_state_lives_in_the_registry():
    """No module-level cache or other state a request can change outside
    ``core.process_state``: each would be unbounded, unlocked, unreset between tests or
    carried into a forked child (tests/process_state_rule.py)."""
    from tests import process_state_rule

    found = [
        f
        for f in process_state_rule.findings(arch.read_sources(ROOT))
        if f.module not in IMPORT_TIME
    ]
    assert not found, "\n".join(str(f) for f in found)


def test_the_process_state_rule_can_fail():
    from tests import process_state_rule

    source = (
        "import functools\n"
        "_seen = {}\n"
        "_pool = None\n"
        "def remember(k, v):\n"
        "    _seen[k] = v\n"
        "def forget():\n"
        "    _seen.clear()\n"
        "def pool():\n"
        "    global _pool\n"
        "    return _pool\n"
        "@functools.lru_cache(maxsize=8)\n"
        "def slow(x):\n"
        "    return x\n"
        "class Q:\n"
        "    @classmethod\n"
        "    def start(cls, m):\n"
        "        cls.last = m\n"
        "from core.process_state import Cache\n"
        "_kept = Cache('kept', max_items=4)\n"
        "def keep(k, v):\n"
        "    _kept.put(k, v)\n"
        "    _kept.pop(k)\n"
        "CONSTANT = {'a': 1}\n"
        "def read():\n"
        "    return CONSTANT['a']\n"
    )
    assert [str(f) for f in process_state_rule.findings_in("memory.bad", source)] == [
        "memory.bad:5: _seen[…] written",
        "memory.bad:7: _seen.clear()",
        "memory.bad:9: global _pool",
        "memory.bad:12: functools.lru_cache on slow",
        "memory.bad:17: cls.last written",
    ]
    assert process_state_rule.findings_in("core.process_state", source) == []


def test_every_registered_entry_is_bounded_and_resets():
    """What the registry holds says its bound, and a reset empties each entry."""
    import memory.recall.accel.cached_scan  # noqa: F401 - registers the recall entries
    from core import process_state
    from memory.recall import pack

    entries = process_state.entries()
    assert {"recall.vector_cache", "recall.scope_statistics", "recall.instruction_verdicts"} <= set(
        entries
    )
    assert all("at most" in bound or bound.startswith("one value") for bound in entries.values())
    pack._instruction_like("User likes tea")
    assert len(pack._VERDICTS) == 1
    process_state.reset_all()
    assert len(pack._VERDICTS) == 0


def test_a_forked_child_keeps_only_what_holds_there():
    """In a forked child a cache of this process's work starts empty, while what describes
    the world outside (a server the parent started, a setting made at start-up) is kept."""
    import os

    from core.process_state import Cache, Slot

    work = Cache("test.fork.work", max_items=4)
    outside = Cache("test.fork.outside", max_items=4, kept_in_child=True)
    setting = Slot("test.fork.setting", kept_in_child=True)
    work.put("k", 1)
    outside.put("k", 2)
    setting.set(True)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child reports what it holds, and leaves at once
        os.write(write, f"{len(work)},{outside.get('k')},{setting.peek()}".encode())
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 100).decode() == "0,2,True"
    assert len(work) == 1  # the parent's own is untouched
