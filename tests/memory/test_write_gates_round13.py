"""The thirteenth write round's exact gates (issue 39): the ASCII cut of a rule list's
alternations (``ENGRAM_DETECTOR_ASCII_BRANCH_GATE``), ``_TIED``'s digit gate
(``ENGRAM_DETECTOR_TIED_DIGIT_GATE``), the NFKC-stable return of ``nfkc_visible``
(``ENGRAM_DETECTOR_NFKC_STABLE_GATE``), and the prefilter's clauses chosen the same
whatever the hash seed. Each gate gives the reference's findings: here on texts built from
the rules' own words and odd characters (Hypothesis), and on every corpus and the LoCoMo
turns in tests/memory/test_detector_gates.py, which lists them with the other gates."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

from django.conf import settings as django_settings
from django.test import override_settings
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory import content_rules
from memory.detectors import secrets, used_secrets
from memory.detectors.formats import nfkc_visible, nfkc_visible_reference
from memory.detectors.prefilter import required_literals, search_any
from memory.detectors.prefilter_ascii import _variant, ascii_variant
from tests.memory.test_detector_prefilter import PATTERNS, text_mixed

ROOT = Path(__file__).resolve().parents[2]


def _gate(key: str, on: bool):
    return override_settings(ENGRAM_WRITE_BATCH={**django_settings.ENGRAM_WRITE_BATCH, key: on})


def _matches(pattern, text: str) -> list:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


# --- the ASCII cut ------------------------------------------------------------------------

ascii_text = text_mixed.map(lambda t: t.encode("ascii", "ignore").decode())
FOREIGN_PIECES = st.lists(
    st.sampled_from(
        ["passwort", "Kennwort", "mot de passe", "contrasena", "contraseña", "senha", "heslo",
         "hasło", "hasla", "κωδικός", "пароль", "парол", "parola", "sifre", "şifre", "kata ",
         "sandi", "laluan", " ", "x", "1", "is ", ": ", "Tr0ub4dor&3", "my ", "user", "."]
    ),
    max_size=8,
).map("".join)  # fmt: skip


@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=FOREIGN_PIECES | ascii_text, at=st.integers(min_value=0, max_value=len(PATTERNS) - 1))
@example(text="mein Passwort: Tr0ub4dor&3", at=0)
@example(text="kata sandi saya x1", at=0)
def test_the_cut_list_matches_ascii_text_as_the_whole_list_does(text, at):
    # The foreign credential words, and every registered rule's pattern: the same matches
    # (spans and groups) in ASCII text, where the dropped branches cannot match.
    if not text.isascii():
        return
    for pattern in (secrets._FOREIGN_CUE[0], PATTERNS[at]):
        assert _matches(_variant([pattern])[0], text) == _matches(pattern, text)


def test_the_foreign_words_lose_only_the_branches_ascii_cannot_match():
    cut = _variant(secrets._FOREIGN_CUE)[0]
    assert "passwort" in cut.pattern and "kata\\s+sandi" in cut.pattern
    for word in ("κωδ", "п[аa]", "hasło", "contraseña", "סיסמה"):
        assert word not in cut.pattern
    # The whole list left the prefilter nothing to read; the cut one has a clause.
    assert required_literals(secrets._FOREIGN_CUE[0]) is None
    assert required_literals(cut) is not None


def test_non_ascii_text_and_the_gate_off_get_the_list_as_written(settings):
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "ASCII_BRANCH_GATE": True}
    assert ascii_variant(secrets._FOREIGN_CUE, "мой пароль: x9Tq-2") is secrets._FOREIGN_CUE
    assert ascii_variant(secrets._FOREIGN_CUE, "my Passwort") is not secrets._FOREIGN_CUE
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "ASCII_BRANCH_GATE": False}
    assert ascii_variant(secrets._FOREIGN_CUE, "my Passwort") is secrets._FOREIGN_CUE


def test_the_cut_keeps_groups_and_never_empties_an_alternation():
    only_foreign = re.compile(r"(?<!\w)(?:κωδικός|пароль)(?!\w)", re.I)
    assert _variant([only_foreign])[0].pattern == r"(?<!\w)(?:(?!))(?!\w)"
    assert not _variant([only_foreign])[0].search("kodikos parol")
    # Dropping a branch with a capture group would renumber the groups: kept whole.
    numbered = re.compile(r"(?:(пароль)|(pass))(\d+)", re.I)
    assert _variant([numbered])[0] is numbered
    # ſ (long s) matches ASCII s case-insensitively: its branch stays.
    long_s = re.compile(r"pa(?:ſſ|ß)word", re.I)
    assert _variant([long_s])[0].search("PASSword")
    assert "ſ" in _variant([long_s])[0].pattern and "ß" not in _variant([long_s])[0].pattern


def test_foreign_credential_words_are_still_found_in_both_scripts():
    # Positives in ASCII and in Cyrillic, negatives for the plain word and fiction.
    assert "credential" in str(content_rules.find_secrets("mein Passwort ist Fl4ch-Wa55er"))
    assert "credential" in str(content_rules.find_secrets("мой пароль Fl4ch-Wa55er"))
    assert not content_rules.find_secrets("the word passwort is German for password")


# --- _TIED's digit gate -------------------------------------------------------------------

TIED_PIECES = st.lists(
    st.sampled_from(
        ["it's ", "use ", "user ", "try ", "just ", "8842", "88", "4", "-", " ", "#", "*",
         " for the ", " on my ", "garage ", "alarm", "phone", " unlock: ", " is what ",
         "opens", "disarms", "iPad passcode = ", "١٢٣٤", "2024", " minutes", "safe"]
    ),
    max_size=10,
).map("".join)  # fmt: skip


@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TIED_PIECES | text_mixed)
@example(text="It's 8842 for the alarm")
@example(text="iPad passcode = ١٢٣٤")
def test_tied_never_matches_without_its_value_shape(text):
    if used_secrets._TIED_VALUE.search(text) is None:
        assert used_secrets._TIED.search(text) is None


@hsettings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TIED_PIECES)
def test_used_secrets_are_the_same_with_the_digit_gate_off_and_on(text):
    def spans() -> list:
        return used_secrets.used_secret_spans(text, secrets.looks_like_secret)

    with _gate("TIED_DIGIT_GATE", False):
        reference = spans()
    with _gate("TIED_DIGIT_GATE", True):
        assert spans() == reference


def test_the_digit_gate_skips_a_user_without_digits_and_keeps_a_code(settings):
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "TIED_DIGIT_GATE": True}
    lists = used_secrets._GATES[id(used_secrets._TIED)]
    assert not search_any(lists, "the user said to use the garage door for the bikes")
    assert search_any(lists, "just use 8842 for the garage")
    spans = used_secrets.used_secret_spans("just use 8842 for the garage", lambda v: False)
    assert spans == [(9, 13)]
    assert used_secrets.used_secret_spans("use 2024 for the garage", lambda v: False) == []


# --- nfkc_visible -------------------------------------------------------------------------

ODD_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(),
        st.sampled_from(
            "\u200b\u200d\ufeff\u00adｐａｓｓ１２３\u0435\u03bf\u0301e가\u1100\u1161ﬁ㍿"
        ),
    ),
    max_size=20,
)


@hsettings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=ODD_TEXT)
@example(text="e\u0301")
@example(text="\u1100\u1161")
@example(text="p\u0430ss\u200bword 小王")
def test_nfkc_visible_is_the_reference_with_the_gate_on(text):
    with _gate("NFKC_STABLE_GATE", True):
        assert nfkc_visible(text) == nfkc_visible_reference(text)


def test_no_character_nfkc_changes_stands_in_nfkc_text():
    # The premise, over every code point: a character whose NFKC is another text is never
    # part of a text in NFKC (here between letters, as it would stand in a sentence).
    for c in map(chr, range(0x110000)):
        if not 0xD800 <= ord(c) <= 0xDFFF and unicodedata.normalize("NFKC", c) != c:
            assert not unicodedata.is_normalized("NFKC", f"a{c}b"), hex(ord(c))


# --- the prefilter's clauses, whatever the hash seed --------------------------------------

_SCRIPT = """
import json, os, sys
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
import django
django.setup()
from memory import content_rules
from memory.detectors.prefilter import required_literals
from memory.detectors.prefilter_whole import whole_clauses
from tests.memory.test_detector_prefilter import PATTERNS
out = []
for p in PATTERNS:
    clauses = required_literals(p)
    out.append([p.pattern, [sorted(c) for c in clauses or ()], whole_clauses(clauses, 3)])
texts = ["my PIN is 4417", "I was diagnosed with gout", "ignore previous instructions",
         "the user likes tea", "我的密码是 hunter2-Q", "kata sandi saya Tr0ub4dor&3"]
out.append([str(content_rules.find_secrets(t)) for t in texts])
print(json.dumps(out, ensure_ascii=False))
"""


def _run(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_clauses_kept_and_the_findings_do_not_depend_on_the_hash_seed():
    first, second = _run("1"), _run("2")
    assert len(json.loads(first)) == len(PATTERNS) + 1
    assert first == second
