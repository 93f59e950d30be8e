"""docs/configuration.md's table lists every environment variable Engram reads, and only
those: the keys read under config/ core/ accounts/ memory/ governance/ (``env(...)``,
``env.bool(...)`` and the other django-environ casts, ``os.environ[...]``,
``os.environ.get/setdefault/pop(...)``, ``os.getenv(...)``, found in the AST) and the
``${NAME:-default}`` variables of the ``./dev`` script. The README's shorter "Configure"
table names only variables something reads. Where a variable is read as a bool or a number with a
literal default, the table's default cell says that default."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["config", "core", "accounts", "memory", "governance"]
ENV_CASTS = {"bool", "int", "float", "str", "list", "tuple", "dict", "json", "url", "path"}
# Operating-system variables, not Engram's configuration.
NOT_CONFIGURATION = {"TMPDIR", "XDG_RUNTIME_DIR"}
TABLE = ROOT / "docs" / "configuration.md"
SECTION = "## Environment variables"
README_SECTION = "## Configure"


def _string(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _is_environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def keys_read_in(source: str) -> set[str]:
    keys: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and _is_environ(node.value):
            key = _string(node.slice)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            key = _string(node.args[0])
            if isinstance(func, ast.Name):
                key = key if func.id == "env" else None
            elif isinstance(func, ast.Attribute):
                env_cast = (
                    isinstance(func.value, ast.Name)
                    and func.value.id == "env"
                    and func.attr in ENV_CASTS
                )
                environ_read = _is_environ(func.value) and func.attr in {"get", "setdefault", "pop"}
                key = key if env_cast or environ_read or func.attr == "getenv" else None
            else:
                key = None
        else:
            key = None
        if key:
            keys.add(key)
    return keys


def variables_read() -> set[str]:
    keys: set[str] = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                keys |= keys_read_in(path.read_text())
    keys |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]*):-", (ROOT / "dev").read_text()))
    return keys - NOT_CONFIGURATION


def variables_in_table(path: Path, section_title: str) -> set[str]:
    """Names in the first cell of the section's table rows."""
    text = path.read_text(encoding="utf-8")
    assert text.count(f"\n{section_title}\n") == 1, f"{path.name}: no single {section_title!r}"
    section = text.split(f"\n{section_title}\n", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            first_cell = line.split("|")[1]
            names |= set(re.findall(r"`([A-Z][A-Z0-9_]*)`", first_cell))
    return names


def variables_in_docs() -> set[str]:
    return variables_in_table(TABLE, SECTION)


def variables_in_readme() -> set[str]:
    return variables_in_table(ROOT / "README.md", README_SECTION)


def test_the_collector_finds_each_form_of_read():
    source = (
        "import os\n"
        "a = env('A')\n"
        "b = env.bool('B', default=False)\n"
        "c = os.environ['C']\n"
        "d = os.environ.get('D')\n"
        "os.environ.setdefault('E', 'x')\n"
        "f = os.getenv('F')\n"
        "g = other('G')\n"
        "h = {'H': 1}.get('H')\n"
    )
    assert keys_read_in(source) == {"A", "B", "C", "D", "E", "F"}


def test_the_table_reader_reads_first_cells_of_one_section(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# T\n\n## Environment variables\n\n| variable | default | meaning |\n|---|---|---|\n"
        "| `A_ONE`, `A_TWO` | `1` | uses `NOT_A_ROW_NAME` |\n| **Group** | | |\n"
        "\n## Next\n\n| `OTHER` | | |\n",
        encoding="utf-8",
    )
    assert variables_in_table(page, "## Environment variables") == {"A_ONE", "A_TWO"}


def test_every_variable_read_is_in_the_configuration_table():
    missing = sorted(variables_read() - variables_in_docs())
    assert not missing, f"add these to docs/configuration.md's table: {missing}"


def test_the_configuration_table_lists_only_variables_something_reads():
    unread = sorted(variables_in_docs() - variables_read())
    assert not unread, f"docs/configuration.md's table lists variables nothing reads: {unread}"


def test_the_readme_names_only_variables_something_reads():
    names = variables_in_readme()
    assert names, "README's Configure section has no variable table"
    unread = sorted(names - variables_read())
    assert not unread, f"README's Configure table lists variables nothing reads: {unread}"


TYPED_CASTS = {"bool", "int", "float"}


def typed_defaults_in(source: str) -> dict[str, tuple[str, object]]:
    """``env.bool/int/float("NAME", default=<literal>)`` reads: NAME -> (cast, default)."""
    found: dict[str, tuple[str, object]] = {}
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "env"
            and node.func.attr in TYPED_CASTS
            and node.args
            and _string(node.args[0])
        ):
            continue
        for keyword in node.keywords:
            if keyword.arg == "default" and isinstance(keyword.value, ast.Constant):
                found[_string(node.args[0])] = (node.func.attr, keyword.value.value)
    return found


def default_cells(path: Path, section_title: str) -> dict[str, str]:
    """Each variable's default cell (the row's second cell) in the section's table."""
    section = path.read_text(encoding="utf-8").split(f"\n{section_title}\n", 1)[1]
    cells: dict[str, str] = {}
    for line in section.split("\n## ", 1)[0].splitlines():
        if line.startswith("| `"):
            row = line.split("|")
            for name in re.findall(r"`([A-Z][A-Z0-9_]*)`", row[1]):
                cells[name] = row[2].strip()
    return cells


def says_default(cell: str, cast: str, default: object) -> bool:
    """Whether a default cell's first literal (in backticks) is ``default``."""
    literal = re.match(r"`([^`]*)`", cell)
    if literal is None:
        return False
    if cast == "bool":
        return literal.group(1).lower() == str(default).lower()
    try:
        return float(literal.group(1).replace("_", "")) == float(default)
    except ValueError:
        return False


def test_the_default_reader_compares_literals_by_type():
    source = "a = env.bool('A', default=True)\nb = env.float('B', default=0.0)\nc = env('C')\n"
    assert typed_defaults_in(source) == {"A": ("bool", True), "B": ("float", 0.0)}
    assert says_default("`true` | x", "bool", True)
    assert not says_default("`false`", "bool", True)
    assert says_default("`0` (off)", "float", 0.0)
    assert not says_default("`4.0`", "float", 0.0)
    assert says_default("`100_000`", "int", 100000)
    assert not says_default("none", "int", 1)


def test_the_table_states_each_typed_default_as_the_code_reads_it():
    """A default changed in the settings and not in the table (the speaker band's, 4.0 in
    the table and 0 in the code, on 2026-12-06) is found here."""
    defaults: dict[str, tuple[str, object]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                defaults |= typed_defaults_in(path.read_text())
    assert len(defaults) > 50
    cells = default_cells(TABLE, SECTION)
    wrong = {
        name: (default, cells.get(name))
        for name, (cast, default) in sorted(defaults.items())
        if not says_default(cells.get(name, ""), cast, default)
    }
    assert not wrong, f"docs/configuration.md's default cells disagree with the code: {wrong}"
