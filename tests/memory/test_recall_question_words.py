"""Three levers on how recall reads a question's words, each off at weight 0
(``RecallWeights``): a named time left out of what is searched (``drop_named_time``, on by
default with ``time_named``), the names of the subject's conversation partners read as
"someone" by the embedder (``unname_speakers``, off), and a turn that states something and
then asks counted as a statement by the speaker gate (``asking_share``, off). Off, the
question is read as before; where they do not apply they change nothing; on, nothing
ineligible comes back."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from core.codes import Operation
from memory import lexical
from memory.models import MemoryRecord
from memory.recall import RecallWeights
from memory.recall.query import read_question
from memory.recall.rank import ASKS, asks, scope_to_speaker
from memory.recall.scope import RecallContext
from memory.temporal.window import named_time, named_window, without_named_time
from tests.helpers.conversation import converse
from tests.helpers.retrieval import BACKGROUND, ids, remember, weighed

NOW = datetime(2026, 3, 15, 12, tzinfo=UTC)


def _at(y, m, d=1):
    return datetime(y, m, d, tzinfo=UTC)


# --- the named time, out of the words ----------------------------------------------


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What did the user cook in May 2024?", "What did the user cook?"),
        ("What did she plan on the evening of 7 July, 2023?", "What did she plan on the evening?"),
        (
            "What did he do the week before August 3, 2023 with his kids?",
            "What did he do the week before with his kids?",
        ),
        ("In what race did she run in the summer of 2022?", "In what race did she run?"),
        ("Where did we go last summer?", "Where did we go?"),
        ("用户2024年5月去了哪里？", "用户去了哪里？"),
        ("用户去年夏天学了什么？", "用户学了什么？"),
        ("上个月用户在哪里工作？", "用户在哪里工作？"),
        # No time named, or nothing but the time: unchanged.
        ("Where does the user live?", "Where does the user live?"),
        ("What may the user need?", "What may the user need?"),
        ("In May 2024?", "In May 2024?"),
    ],
)
def test_the_named_time_is_left_out(question, expected):
    assert without_named_time(question, NOW) == expected


@given(st.text(max_size=60))
def test_the_span_names_the_window(text):
    found = named_time(text, NOW)
    assert (found[0] if found else None) == named_window(text, NOW)
    if found:
        start, end = found[1]
        assert 0 <= start < end <= len(text)
        # The words of the span alone name the same time.
        assert named_window(text[start:end], NOW) is not None


# --- a turn that asks -------------------------------------------------------------


@given(st.text(max_size=80))
def test_at_share_0_any_question_mark_asks(text):
    assert asks(text, 0.0) == bool(ASKS.search(text))


@given(st.text(max_size=80), st.floats(0.01, 1.0))
def test_a_turn_without_a_question_mark_never_asks(text, share):
    if not ASKS.search(text):
        assert not asks(text, share)


@pytest.mark.parametrize(
    ("turn", "asking"),
    [
        ("Ada: Wow! What got you into running?", True),
        ("Ada: Last week my grandma passed away and it has been hard. How are you?", False),
        ("王芳：我上周去杭州看了一场很精彩的展览。你呢？", False),
        ("王芳：你最近在忙什么呢？", True),
    ],
)
def test_a_statement_followed_by_a_question_is_a_statement(turn, asking):
    assert asks(turn, 0.5) is asking
    assert asks(turn, 0.0) is True


def test_the_speakers_mixed_turn_anchors_their_answer_only_with_the_share():
    from tests.memory.test_recall_speaker_gate import turn

    def gate(share):
        other = turn("Bea: Hey Ada! Long time no see!", ["Bea"], 1.0)
        mixed = turn(
            "Ada: Last week my grandma passed away and it has been hard. How are you?",
            ["Ada"],
            0.9,
        )
        return scope_to_speaker([other, mixed], "Ada", RecallWeights(asking_share=share))

    assert gate(0.0) == []  # the reference: any question mark makes it a question
    assert len(gate(0.5)) == 2


def test_the_defaults_and_clamping():
    w = RecallWeights()
    assert (w.drop_named_time, w.unname_speakers, w.asking_share) == (1.0, 0.0, 0.0)
    policy = {"recall_weights": {"drop_named_time": 5, "unname_speakers": -1, "asking_share": 2}}
    w = RecallWeights.for_tenant(policy)
    assert (w.drop_named_time, w.unname_speakers, w.asking_share) == (1.0, 0.0, 1.0)


# --- reading the question -----------------------------------------------------------


def _context(speakers=("Ada", "Bea Stone")) -> RecallContext:
    return RecallContext(
        consent_withdrawn=False,
        tenant_policy={},
        procedures_subject_id=None,
        model_id="m",
        self_names=(),
        speakers=speakers,
    )


QUESTIONS = [
    "What did Ada cook in May 2024?",
    "When did Bea Stone's grandmother pass away?",
    "她2024年5月去了哪里？",
    "What does the user like?",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_off_reads_the_question_as_before(question):
    ctx = _context()
    before = read_question(question, ctx)
    assert read_question(question, ctx, now=NOW) == before
    assert before.with_time == ""
    searched = lexical.refer_to_user(question, (), ctx.speakers)
    assert before.searched == searched
    assert before.embedded == lexical.for_embedding(searched)


def test_on_the_words_change_and_the_rest_stays():
    ctx = _context()
    q = read_question("What did Ada cook in May 2024?", ctx, now=NOW, drop_time=True)
    assert q.searched == "What did Ada cook?" and q.with_time == "What did Ada cook in May 2024?"
    assert q.speaker == "Ada" and q.embedded == "What did Ada cook?"
    q = read_question(
        "When did Bea Stone's grandmother pass away?", ctx, now=NOW, unname_speakers=True
    )
    assert q.embedded == "When did someone's grandmother pass away?"
    assert q.searched == "When did Bea Stone's grandmother pass away?"
    assert q.speaker == "Bea Stone"
    assert lexical.without_names("王芳上周去了哪里？", ["王芳"]) == "某人上周去了哪里？"


# --- recall, end to end -----------------------------------------------------------

TIMED_Q = "What did the user cook for the harbour party in May 2024?"
ON = RecallWeights(drop_named_time=1, unname_speakers=1, asking_share=0.5, time_named=0.4)


def _timed_memories(subject):
    for text in BACKGROUND:
        remember(subject, text, valid_from=_at(2023, 1, 5))
    return remember(
        subject,
        "User cooked a big pot of paella for the harbour party",
        valid_from=_at(2024, 5, 10),
    ).record_id


BEFORE = RecallWeights(drop_named_time=0, time_named=0, asking_share=0, unname_speakers=0)


@pytest.mark.django_db
def test_where_they_do_not_apply_the_levers_change_nothing(read_agent, owner_subject, write_agent):
    # No time named, no turn that states and then asks: today's weights answer exactly as
    # the weights before the levers (all three off).
    _timed_memories(owner_subject)
    converse(
        write_agent.agent,
        owner_subject,
        [("Ada", "Hey Bea! Long time no see!"), ("Bea", "My grandma passed away last week.")],
    )
    for question in (
        "What did the user cook for the harbour party?",
        "When did Bea's grandma die?",
    ):
        before = weighed(read_agent.agent, owner_subject, question, BEFORE)
        today = weighed(read_agent.agent, owner_subject, question)
        assert [(i.id, i.scores) for i in today.items] == [(i.id, i.scores) for i in before.items]


@pytest.mark.django_db
def test_off_the_named_time_stays_in_the_words(read_agent, owner_subject):
    paella = _timed_memories(owner_subject)
    off = weighed(read_agent.agent, owner_subject, TIMED_Q, BEFORE)
    on = weighed(read_agent.agent, owner_subject, TIMED_Q, replace(BEFORE, drop_named_time=1))
    assert paella in ids(on)
    # Off, the month is a word of the question: the coverage the gate reads is lower.
    cover = {i.id: i.scores.get("lexical_coverage", 0) for i in off.items}
    cover_on = {i.id: i.scores.get("lexical_coverage", 0) for i in on.items}
    assert cover.get(paella, 0) < cover_on[paella]


@pytest.mark.django_db
def test_on_the_timed_question_is_answered(read_agent, owner_subject):
    paella = _timed_memories(owner_subject)
    assert paella in ids(weighed(read_agent.agent, owner_subject, TIMED_Q, ON))


@pytest.mark.django_db
def test_on_nothing_ineligible_comes_back(read_agent, owner_subject, owner, same_tenant_user):
    from memory.services.user_memory import memory_delete_with_undo

    paella = _timed_memories(owner_subject)
    text = "User cooked a big pot of paella for the harbour party"
    theirs = remember(same_tenant_user[1], text, valid_from=_at(2024, 5, 10)).record_id
    deleted = remember(owner_subject, text + " on the pier", valid_from=_at(2024, 5, 11)).record_id
    memory_delete_with_undo(
        user=owner[0], subject=owner_subject, record=MemoryRecord.objects.get(id=deleted)
    )
    expired = remember(owner_subject, text + " with saffron", valid_from=_at(2024, 5, 12)).record_id
    MemoryRecord.objects.filter(pk=expired).update(expires_at=timezone.now() - timedelta(minutes=1))
    old = remember(
        owner_subject,
        "User cooked paella for the harbour party at home in Valencia",
        predicate="home_city",
        valid_from=_at(2024, 5, 9),
    ).record_id
    moved = remember(
        owner_subject, "User moved to Porto", predicate="home_city", valid_from=_at(2024, 5, 13)
    )
    assert moved.operation == Operation.SUPERSEDE
    returned = ids(weighed(read_agent.agent, owner_subject, TIMED_Q, ON))
    assert paella in returned
    assert not {theirs, deleted, expired, old} & set(returned)
