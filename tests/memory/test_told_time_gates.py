"""``ENGRAM_WRITE_BATCH["TOLD_TIME_GATES"]``: the exact gates of the told times
(``memory.temporal.said.said_times`` and ``said_more``, the entity mentions of kind date)
find the same times as the reference.

Each gate is a piece of its pattern that every match holds, compiled with the same flags
(so the engine folds case alike: the long s, the Kelvin sign, the dotted and dotless i):
" ago" for the amounts back, a year's digits, "before last" / "after next"; a weekday after
"on" is looked for in the whole text before the sentences are read (a sentence ends at a
character no word holds, so its matches are the whole text's); a Chinese day word, and the
segmenter, only where the word's characters stand in the text.

Hypothesis texts built from the phrases' pieces and their near misses (in both languages,
with separators and case twins), said on generated days; the repository's corpora and
probe sentences (never the held-out set) and the LoCoMo dev turns where they are on the
machine; what the gates must let through and what they must skip."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.temporal import said
from tests.memory.test_detector_gates import LOCOMO, _locomo_turns
from tests.memory.test_detector_plumbing import _corpus_sentences

SAID = datetime(2024, 10, 16, 19, 30, tzinfo=UTC)


def _on(django_settings, on: bool) -> None:
    django_settings.ENGRAM_WRITE_BATCH = {
        **django_settings.ENGRAM_WRITE_BATCH,
        "TOLD_TIME_GATES": on,
    }


def _both(django_settings, texts: list[str], when: datetime = SAID) -> tuple[list, list]:
    _on(django_settings, False)
    reference = [said.said_times(t, when) for t in texts]
    _on(django_settings, True)
    return reference, [said.said_times(t, when) for t in texts]


_PIECES = st.sampled_from(
    [
        "two", "a couple of", "few", "3", "12", "days", "week", "weekend", "months", "year",
        " ", "  ", "\n", ".", ";", "!", "。", "；", ",", "ago", "AGO", "Ago", "agony", "wagon",
        "saga", "in", "since", "during", "of", "back in", "1999", "2023", "2099", "20234",
        "1899", "before last", "before  LAST", "after next", "after", "before", "lastly",
        "on", "On", "from", "till", "Sunday", "sunday", "SUNDAY", "ſunday", "Monday", "Mon",
        "Thursday", "every", "usually", "will", "going to", "last", "this past", "next",
        "yesterday", "yeſterday", "tonight", "\u212aelly", "İn", "ın", "the other day",
        "昨天", "前天", "大前天", "后天", "以后天天", "天下", "今天", "明天", "今晚", "去年",
        "上周", "下个月", "三天前", "两周后", "周六", "每周六", "要", "我们", "，", "我",
    ]
)  # fmt: skip
_TEXTS = st.lists(_PIECES, min_size=1, max_size=14).map("".join)
_WHEN = st.integers(min_value=0, max_value=3650).map(
    lambda days: datetime(2018, 1, 1, 12, tzinfo=UTC) + timedelta(days=days)
)


@settings(
    max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(texts=st.lists(_TEXTS, min_size=1, max_size=5), when=_WHEN)
def test_generated_texts_tell_the_same_times_with_the_gates_off_and_on(settings, texts, when):
    reference, gated = _both(settings, texts, when)
    assert gated == reference


def test_the_corpora_tell_the_same_times_with_the_gates_off_and_on(settings):
    texts = _corpus_sentences()
    assert len(texts) > 2000
    reference, gated = _both(settings, texts)
    assert gated == reference
    assert sum(map(bool, reference)) > 20  # times are told in them, not only absent


@pytest.mark.skipif(not LOCOMO.is_dir(), reason="the LoCoMo dev turns are not on this machine")
def test_the_locomo_turns_tell_the_same_times_with_the_gates_off_and_on(settings):
    texts = _locomo_turns()
    assert len(texts) > 1000
    reference, gated = _both(settings, texts)
    assert gated == reference


@pytest.mark.parametrize(
    "text,value",
    [
        ("We moved three weeks AGO", "2024-w39"),
        ("a couple of days ago we met", "2024-10-14"),
        ("Back in 2019 I lived there", "2019"),
        ("the week before last was busy", "2024-w40"),
        ("See you the Monday after next", "2024-10-28"),
        ("I went hiking on Sunday", "2024-10-13"),
        ("I went hiking on\nSunday. It rained", "2024-10-16"),  # "\n" ends the sentence
        ("我们昨天去了杭州", "2024-10-15"),
        ("前天下了雨", "2024-10-14"),
    ],
)
def test_the_gates_let_through_what_they_must(settings, text, value):
    _on(settings, True)
    gated = [v for _, v in said.said_times(text, SAID)]
    _on(settings, False)
    assert gated == [v for _, v in said.said_times(text, SAID)]
    if value != "2024-10-16":
        assert value in gated


def test_the_gates_skip_the_patterns_and_the_segmenter_on_text_without_their_pieces(
    settings, monkeypatch
):
    calls = []
    segment = said._zh_words
    monkeypatch.setattr(said, "_zh_words", lambda text: calls.append(text) or segment(text))
    text = "对于代码评审，用户偏好清单的第12个版本"  # CJK, no day word
    _on(settings, True)
    assert said.said_times(text, SAID) == []
    assert calls == []
    _on(settings, False)
    assert said.said_times(text, SAID) == []
    assert calls == [text]  # the reference segments every CJK text
    _on(settings, True)
    assert said.said_times("我昨天到了", SAID) == [("昨天", "2024-10-15")]
    assert calls[-1] == "我昨天到了"  # a text holding a day word is segmented
    assert said._AGO_GATE.search("For deploy windows, the user prefers variant 12") is None
    assert said._YEAR_GATE.search("variant 12345 of the checklist") is None
