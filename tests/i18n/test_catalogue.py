"""Every text the interface marks for translation has Chinese words: the strings of every
template (as ``makemessages`` reads them, through Django's own ``templatize``) and every
``gettext``/``ngettext`` call in the apps' Python code. A new English sentence without a
translation fails here, not in a reader's Chinese page."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "config", "core", "governance", "memory")
GETTEXT = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext"}
# ``templatize`` writes each marked string as a gettext/ngettext call with Python literals.
TEMPLATE_CALL = re.compile(r"\b(n?gettext)\((u'(?:[^'\\]|\\.)*'(?:, u'(?:[^'\\]|\\.)*')?)")
# Texts that read the same in both languages.
SAME_IN_BOTH = {"Engram", "JSON", "CSV", "API", "ID", "·", "—", "%(n)s", "English"}


def _template_strings() -> set[tuple[str, str | None]]:
    found = set()
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for _kind, args in TEMPLATE_CALL.findall(templatize(path.read_text(encoding="utf-8"))):
            literals = ast.literal_eval(f"({args},)")
            found.add((literals[0], literals[1] if len(literals) > 1 else None))
    return found


def _python_strings() -> set[tuple[str, str | None]]:
    found = set()
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                if node.func.id not in GETTEXT or not node.args:
                    continue
                args = [a.value for a in node.args if isinstance(a, ast.Constant)]
                if not args or not isinstance(args[0], str):
                    continue
                plural = args[1] if node.func.id.startswith("n") and len(args) > 1 else None
                found.add((args[0], plural if isinstance(plural, str) else None))
    return found


def test_the_extraction_finds_the_pages_texts():
    strings = {s for s, _p in _template_strings() | _python_strings()}
    assert {"My memories", "Undo", "Withdraw consent to memory?"} <= strings
    assert len(strings) > 500


@pytest.mark.parametrize("source", ["templates", "python"])
def test_every_marked_text_has_a_chinese_translation(source):
    strings = _template_strings() if source == "templates" else _python_strings()
    missing = []
    with translation.override("zh-hans"):
        for singular, plural in sorted(strings):
            if singular.strip() in SAME_IN_BOTH or not re.search(r"[A-Za-z]{2}", singular):
                continue
            text = (
                translation.ngettext(singular, plural, 1)
                if plural
                else translation.gettext(singular)
            )
            if text == singular:
                missing.append(singular)
    assert missing == [], f"{len(missing)} texts without a zh-Hans translation: {missing[:40]}"
