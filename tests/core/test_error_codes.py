"""Every error code the API can answer is in ``core.codes.ErrorCode`` (the schema's
``Error.code`` enum): the codes are found in the source — literal codes given to the error
types and helpers, the exception handler's table, the edge checks' messages — so a new
code fails here until it is listed, whoever adds it."""

from __future__ import annotations

import ast
from pathlib import Path

from core import api, edge
from core.codes import ERROR_CODE_CHOICES, ErrorCode

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "config", "core", "governance", "memory")
# Callables whose first argument is an API error code.
ERROR_CALLS = {"ApiError", "CredentialError", "GovernanceError", "error_body"}
# Callables whose ``code=`` keyword is one.
CODE_KEYWORD_CALLS = {"ApiError", "AuthenticationFailed", "PermissionDenied"}


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def codes_in_source() -> dict[str, str]:
    found: dict[str, str] = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(node, ast.Call):
                    continue
                name = _name(node)
                literals = []
                if name in ERROR_CALLS and node.args:
                    literals.append(node.args[0])
                if name in CODE_KEYWORD_CALLS:
                    literals += [k.value for k in node.keywords if k.arg == "code"]
                for literal in literals:
                    if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                        found.setdefault(literal.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_code_in_the_source_is_listed():
    listed = set(ErrorCode)
    found = codes_in_source()
    assert len(found) > 20  # the scan finds the call sites
    missing = {code: where for code, where in found.items() if code not in listed}
    assert not missing, f"add these to core.codes.ErrorCode: {missing}"


def test_codes_of_the_handler_and_the_edge_are_listed():
    handler = {code for code, _ in api._CODES.values()}
    edge_codes = set(edge._MESSAGES) | set(edge._TEXT_CODES.values())
    assert not (handler | edge_codes | {"payload_too_large", "error"}) - set(ErrorCode)


def test_the_schema_lists_them_as_an_enum():
    assert [value for value, _ in ERROR_CODE_CHOICES] == [c.value for c in ErrorCode]
    assert len(set(ErrorCode)) == len(list(ErrorCode))
