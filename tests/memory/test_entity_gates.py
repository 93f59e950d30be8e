"""``ENGRAM_WRITE_BATCH["ENTITY_GATES"]``: entity extraction's exact shortcuts
(``memory/entities.py``) find the same entities as the reference.

- Dates are searched only in text holding a digit and a month's first three letters,
  "-", 年 or 月 (every alternative of ``_DATES`` holds both; the gate has the same flags,
  so the same case folding).
- The words of an ASCII text are not searched for CJK characters (it holds none).
- ``ENTITY_ASCII_GATES``: an ASCII text is not searched for Latin words beside CJK
  characters, and an ASCII name is normalised without NFKC and the traditional fold.

Hypothesis texts built from dates' pieces (months, their abbreviations and near misses,
digits, ordinals, separators, 年/月/日, the long s and the Kelvin sign the engine folds),
names and CJK text; the repository's corpora and probe sentences (never the held-out set)
and the LoCoMo dev turns where they are on the machine; what each gate must let through
and what it must skip."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory import entities
from tests.memory.test_detector_gates import LOCOMO, _locomo_turns
from tests.memory.test_detector_plumbing import _corpus_sentences


def _on(django_settings, on: bool) -> None:
    django_settings.ENGRAM_WRITE_BATCH = {
        **django_settings.ENGRAM_WRITE_BATCH,
        "ENTITY_GATES": on,
        "ENTITY_ASCII_GATES": on,
    }


def _both(django_settings, texts: list[str]) -> tuple[list, list]:
    _on(django_settings, False)
    reference = [entities.extract(t) for t in texts]
    _on(django_settings, True)
    return reference, [entities.extract(t) for t in texts]


_PIECES = st.sampled_from(
    [
        "7", "23", "2023", "05", "-", "–", " ", ", ", ".", "st", "th", "May", "may", "MAY",
        "Sept", "sep", "ſept", "ſep", "December", "dec", "Jan.", "jun", "Mar", "marble",
        "Octopus", "novel", "Augustine", "年", "月", "日", "号", "五月", "Wang Fang", "Mel",
        "went to", "Ghent", "Łódź", "王芳", "北京", "和小美", "“Long Walk”", " (王芳)", "K",
        "\u212a", "İ", "ı", "١٢", "٣", "\n", "I", "on ", "in ",
    ]
)  # fmt: skip
_TEXTS = st.lists(_PIECES, min_size=1, max_size=14).map("".join)


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(texts=st.lists(_TEXTS, min_size=1, max_size=5))
def test_generated_texts_name_the_same_entities_with_the_gates_off_and_on(settings, texts):
    reference, gated = _both(settings, texts)
    assert gated == reference


def test_the_corpora_name_the_same_entities_with_the_gates_off_and_on(settings):
    texts = _corpus_sentences()
    assert len(texts) > 2000
    reference, gated = _both(settings, texts)
    assert gated == reference


@pytest.mark.skipif(not LOCOMO.is_dir(), reason="the LoCoMo dev turns are not on this machine")
def test_the_locomo_turns_name_the_same_entities_with_the_gates_off_and_on(settings):
    texts = _locomo_turns()
    assert len(texts) > 1000
    reference, gated = _both(settings, texts)
    assert gated == reference


@pytest.mark.parametrize(
    "text,date",
    [
        ("We met on 7 May 2023 in Ghent", "7 may 2023"),
        ("Sept. 5, 2022 was the day", "sept. 5, 2022"),
        ("the launch moved to 2023-05-07", "2023-05-07"),
        ("我们2023年5月去了北京", "2023年5月"),
        ("5月7日见", "5月7日"),
        ("DECEMBER 2021", "december 2021"),
    ],
)
def test_dates_the_gate_must_let_through(settings, text, date):
    _on(settings, True)
    assert date in [m.norm for m in entities.extract(text) if m.kind == entities.DATE]


@pytest.mark.parametrize(
    "text",
    [
        "For deploy windows, the user prefers variant 3 of the checklist",  # digit, no cue
        "Mel said the marble statue was lovely",  # cue letters, no digit
        "用户喜欢喝乌龙茶",
    ],
)
def test_text_the_date_gate_skips_names_no_date(settings, text):
    _on(settings, True)
    assert not (entities._DATE_DIGIT.search(text) and entities._DATE_CUE.search(text))
    assert not [m for m in entities.extract(text) if m.kind == entities.DATE]


def test_ascii_words_hold_no_cjk_character():
    text = "Wang Fang moved to the Bank of Canada"
    assert text.isascii()
    assert not any(entities._CJK.search(w.group(0)) for w in entities._LATIN_TOKEN.finditer(text))


@settings(
    max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.one_of(st.text(st.characters(max_codepoint=127)), _TEXTS))
def test_ascii_names_normalise_alike_with_the_gate_off_and_on(settings, text):
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "ENTITY_ASCII_GATES": False}
    reference = entities.normalise(text)
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "ENTITY_ASCII_GATES": True}
    assert entities.normalise(text) == reference


def test_the_ascii_gate_rests_on_what_the_reference_does_to_ascii():
    import unicodedata

    from memory.temporal.common import _HANT

    ascii_chars = "".join(map(chr, range(128)))
    assert unicodedata.normalize("NFKC", ascii_chars) == ascii_chars
    assert all(key >= 128 for key in _HANT)  # the fold maps no ASCII character
    assert entities._LATIN_IN_CJK.search("Wang Fang moved to Ghent in May 2023") is None
    assert entities._LATIN_IN_CJK.search("我用iPhone拍的") is not None
