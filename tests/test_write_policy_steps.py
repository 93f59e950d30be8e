"""README's "Write policy, in order" table numbers the steps as the code does: the list in
``memory/write_policy/policy.py``'s docstring, the ``# N.`` comments that open each step in
``decide`` and the README's numbered items are the same numbers in the same order."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POLICY = ROOT / "memory" / "write_policy" / "policy.py"
SECTION = "### Write policy, in order"


def docstring_steps() -> list[str]:
    doc = ast.get_docstring(ast.parse(POLICY.read_text(encoding="utf-8"))) or ""
    listed = doc.split("The steps, in order:", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\s*(\d+[a-z]?)\. ", listed, flags=re.M)


def decide_steps() -> list[str]:
    source = POLICY.read_text(encoding="utf-8")
    body = source.split("def decide(", 1)[1].split("\n# ---", 1)[0]
    return re.findall(r"^    # (\d+[a-z]?)\. ", body, flags=re.M)


def readme_steps() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split(SECTION, 1)[1].split("\n#", 1)[0]
    return re.findall(r"^\| (\d+[a-z]?) \|", section, flags=re.M)


def test_the_code_lists_the_steps_it_runs():
    steps = docstring_steps()
    assert steps == [str(n) for n in range(1, len(steps) + 1)]
    assert decide_steps() == steps


def test_readme_numbers_the_steps_as_the_code():
    assert readme_steps() == docstring_steps()
