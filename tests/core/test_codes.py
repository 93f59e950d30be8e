"""The stored codes are enums: every one has words in English and Chinese, and no code is
written as a free string where records and audit events get their reason or action."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from core.codes import AuditAction, Operation, ReasonCode

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "config", "core", "governance", "memory")

ALL_CODES = [*ReasonCode, *AuditAction, *Operation]


@pytest.mark.parametrize("code", ALL_CODES, ids=[f"{type(c).__name__}.{c.name}" for c in ALL_CODES])
def test_every_code_has_words_in_english_and_chinese(code):
    with translation.override("en"):
        english = str(code.label)
    with translation.override("zh-hans"):
        chinese = str(code.label)
    assert english and english != code.value
    assert chinese != english, f"{code.value!r} has no zh-Hans translation"
    assert any("\u4e00" <= ch <= "\u9fff" for ch in chinese), chinese


def test_codes_are_unique():
    for enum in (ReasonCode, AuditAction, Operation):
        assert len(set(enum.values)) == len(enum.values)


# Where a reason or an action is given, the argument that carries it: keyword names, and
# for the decision builders the position of the reason code.
CODE_KEYWORDS = {"reason_code", "status_reason", "action"}
CODE_POSITION = {
    "Decision": 1,
    "WriteOutcome": 1,
    "UserWriteResult": 1,
    "reject": 0,
    "_reject": 0,
    "quarantine": 1,
    "_quarantine": 1,
    "close_record_time": 1,
}
# Calls whose "action" keyword is not an audit action.
NOT_AUDIT_ACTION_CALLS = {"add_argument"}


def _is_free_string(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value != ""
    )


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _free_codes(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        where = f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call):
            name = _call_name(node)
            for kw in node.keywords:
                if kw.arg == "action" and name in NOT_AUDIT_ACTION_CALLS:
                    continue
                if kw.arg in CODE_KEYWORDS and _is_free_string(kw.value):
                    found.append(f"{where} {name}({kw.arg}=…)")
            position = CODE_POSITION.get(name)
            if position is not None and len(node.args) > position:
                if _is_free_string(node.args[position]):
                    found.append(f"{where} {name}(… reason …)")
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr in CODE_KEYWORDS
                    and _is_free_string(node.value)
                ):
                    found.append(f"{where} .{target.attr} = …")
    return found


def _app_modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts and path.name != "codes.py":
                yield path


def test_no_reason_code_or_audit_action_is_a_free_string():
    found = [hit for path in _app_modules() for hit in _free_codes(path)]
    assert not found, "use core.codes (ReasonCode / AuditAction) instead of:\n" + "\n".join(found)


def test_the_scan_catches_a_free_string(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        'reject("made_up", "x")\n'
        'audit_record(actor=a, action="thing.done")\n'
        'record.status_reason = f"review_{x}"\n'
        'Decision(Operation.ADD, ReasonCode.NEW_MEMORY, "fine")\n'
    )
    assert len(_free_codes(sample)) == 3
