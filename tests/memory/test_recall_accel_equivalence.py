"""Every speed-up of recall (``memory.recall.accel``) gives the reference's answers.

The reference is recall with every speed-up off (``ENGRAM_RECALL_VECTOR_CACHE``,
``…_COMPILED_QUERIES``, ``…_EARLY_EMBEDDING``, ``…_JUDGE_AHEAD``, ``…_SCOPE_COUNTS``,
``…_ONE_SCOPE_READ``, ``…_ONE_TRIGRAM_READ``, ``…_TRIGRAM_BOUND``, ``…_PREPARED_STATEMENTS``,
``…_GENERIC_PLANS``, ``…_LEXICAL_FIRST``, ``…_CREDIT_AHEAD``, ``…_PACKED_SEARCHABLE``). On a
generated corpus
in both languages — facts, single-valued slots that change (supersedes), memories for
another purpose and another person's — each speed-up alone, and all of them together,
must return the same ranked ids for every question; then memories are deleted and slots
changed, and the same holds again with whatever the speed-ups kept from the first round
(the vector cache above all)."""

from __future__ import annotations

import random

import pytest

from memory.embedders import configured_model_id
from memory.recall.accel import vector_cache
from memory.recall.query import LAST_MODEL_ID
from tests.helpers.lifecycle import erase
from tests.helpers.retrieval import PURPOSE, recall, remember

SPEED_UPS = (
    "VECTOR_CACHE",
    "COMPILED_QUERIES",
    "EARLY_EMBEDDING",
    "JUDGE_AHEAD",
    "SCOPE_COUNTS",
    "ONE_SCOPE_READ",
    "ONE_TRIGRAM_READ",
    "TRIGRAM_BOUND",
    "PREPARED_STATEMENTS",
    "GENERIC_PLANS",
    "LEXICAL_FIRST",
    "CREDIT_AHEAD",
    "PACKED_SEARCHABLE",
)

# Vocabulary of its own (not the golden sets', not LoCoMo's).
EN_THINGS = ["kayak", "sourdough", "cello", "bonsai", "telescope", "chess club", "pottery wheel"]
ZH_THINGS = ["皮划艇", "酸面包", "大提琴", "盆景", "望远镜", "象棋社", "陶艺转盘"]
EN_CITIES = ["Porto", "Tallinn", "Kraków", "Valencia", "Ghent"]
ZH_CITIES = ["厦门", "昆明", "青岛", "大连", "桂林"]
EN_FACTS = [
    "User keeps a {thing} in the garage",
    "User took lessons for the {thing} last spring",
    "User's sister gave the user a {thing}",
    "User wants to sell the old {thing}",
]
ZH_FACTS = [
    "用户在车库里放着一个{thing}",
    "用户去年春天上过{thing}课",
    "用户的妹妹送给用户一个{thing}",
    "用户打算卖掉旧的{thing}",
]
QUESTIONS = [
    "What does the user keep in the garage?",
    "Which lessons did the user take?",
    "Where does the user live now?",
    "What did the user's sister give them?",
    "用户住在哪里？",
    "用户的车库里有什么？",
    "用户上过什么课？",
    "What does the user want to sell?",
    "Does the user play an instrument?",
    "ticket KX-4471 status",
]


def _corpus(subject, other, rng: random.Random) -> dict[str, list]:
    written: dict[str, list] = {"facts": [], "cities": []}
    for template in EN_FACTS:
        thing = rng.choice(EN_THINGS)
        written["facts"].append(remember(subject, template.format(thing=thing)).record_id)
    for template in ZH_FACTS:
        thing = rng.choice(ZH_THINGS)
        written["facts"].append(remember(subject, template.format(thing=thing)).record_id)
    written["facts"].append(remember(subject, "User reported ticket KX-4471 as broken").record_id)
    city = remember(subject, f"User lives in {rng.choice(EN_CITIES)}", predicate="home_city")
    written["cities"].append(city.record_id)
    remember(subject, f"用户住在{rng.choice(ZH_CITIES)}", predicate="home_city_zh")
    # Out of reach: another purpose, another person.
    remember(subject, f"User keeps a {rng.choice(EN_THINGS)} at the office", purpose="billing")
    remember(other, f"User keeps a {rng.choice(EN_THINGS)} in the garage")
    return written


def _answers(agent, subject, settings, enabled: frozenset[str]) -> list[tuple]:
    settings.ENGRAM_RETRIEVAL = {
        **settings.ENGRAM_RETRIEVAL,
        "FREEZE_ACCESS": True,  # no answer may change the next
        **{name: name in enabled for name in SPEED_UPS},
    }
    out = []
    for question in QUESTIONS:
        result = recall(agent, subject, question)
        out.append((question, [i.id for i in result.items], result.empty_reason))
    return out


# The one scope read works inside the vector cache's route: with it, and without.
CONFIGURATIONS = (
    [frozenset()]
    + [frozenset({s}) for s in SPEED_UPS]
    + [
        frozenset({"VECTOR_CACHE", "ONE_SCOPE_READ"}),
        frozenset({"VECTOR_CACHE", "ONE_SCOPE_READ", "PACKED_SEARCHABLE"}),
        frozenset(SPEED_UPS),
    ]
)


@pytest.mark.parametrize("seed", [3, 17])
def test_every_speed_up_answers_as_the_reference(
    read_agent, owner_subject, same_tenant_user, settings, monkeypatch, seed
):
    # Every scope counts as large here, so its counts are kept (SCOPE_COUNTS) and the
    # second round runs on the first round's counts.
    monkeypatch.setattr("memory.recall.routes.common.STATISTICS_KEPT_FROM", 0)
    rng = random.Random(seed)
    written = _corpus(owner_subject, same_tenant_user[1], rng)
    LAST_MODEL_ID.set(configured_model_id())  # so the early embedding is tried at once
    agent = read_agent.agent

    def round_of_answers() -> None:
        reference = _answers(agent, owner_subject, settings, frozenset())
        assert any(ids for _, ids, _ in reference)  # the corpus answers something
        for enabled in CONFIGURATIONS[1:]:
            # Twice: a cold and a warm run of each speed-up's state.
            for _ in range(2):
                assert _answers(agent, owner_subject, settings, enabled) == reference, enabled

    round_of_answers()
    assert vector_cache.cache.held() > 0  # the cached route did run
    # Deletions and a changed slot between rounds: what a speed-up kept must not show —
    # in a process other than the one that ran the deletion, whose cache still holds
    # the deleted memories' vectors (kept aside here and put back).
    kept = vector_cache.cache._items.copy()
    for rid in rng.sample(written["facts"], 3):
        erase(owner_subject, "memory", rid)
    for key, (_, vectors) in kept.items():
        vector_cache.cache.put(key, vectors)
    remember(owner_subject, f"User now lives in {rng.choice(EN_CITIES)}", predicate="home_city")
    remember(owner_subject, f"User keeps a {rng.choice(EN_THINGS)} in the hallway")
    round_of_answers()


def test_one_scope_read_replaces_three_statements(
    read_agent, owner_subject, same_tenant_user, settings
):
    """With the vector cache warm, the scope's count, embedding ids and searchable ids are
    one statement instead of three; the answer is the same (English and Chinese)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _corpus(owner_subject, same_tenant_user[1], random.Random(5))
    agent = read_agent.agent

    def statements(one_read: bool, question: str) -> tuple[int, list]:
        settings.ENGRAM_RETRIEVAL = {
            **settings.ENGRAM_RETRIEVAL,
            "FREEZE_ACCESS": True,
            "SCOPE_COUNTS": False,
            "VECTOR_CACHE": True,
            "ONE_SCOPE_READ": one_read,
        }
        recall(agent, owner_subject, question)  # the cache holds the scope
        with CaptureQueriesContext(connection) as captured:
            result = recall(agent, owner_subject, question)
        return len(captured), [i.id for i in result.items]

    for question in ("What does the user keep in the garage?", "用户的车库里有什么？"):
        three, apart = statements(False, question)
        one, together = statements(True, question)
        assert together == apart and together
        assert one == three - 2


def test_lexical_first_reads_the_scope_statistics_with_the_lexemes(
    read_agent, owner_subject, same_tenant_user, settings
):
    """A question naming something (the trigram route asks whether the scope is large) or
    quoting an identifier (the exact route asks): with ENGRAM_RECALL_LEXICAL_FIRST the
    lexical route's first statement reads the scope's statistics, and the other routes
    use them: one statement fewer, the same answer. A question naming nothing reads them
    with the lexemes either way."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _corpus(owner_subject, same_tenant_user[1], random.Random(7))
    agent = read_agent.agent

    def statements(first: bool, question: str) -> tuple[int, list]:
        settings.ENGRAM_RETRIEVAL = {
            **settings.ENGRAM_RETRIEVAL,
            "FREEZE_ACCESS": True,
            "SCOPE_COUNTS": False,  # the statistics are read on every request
            "LEXEMES_WITH_STATISTICS": True,
            "LEXICAL_FIRST": first,
        }
        with CaptureQueriesContext(connection) as captured:
            result = recall(agent, owner_subject, question)
        return len(captured), [(i.id, i.scores) for i in result.items]

    answered = []
    for question in (
        "Does the user live in Porto, Tallinn, Valencia or Ghent?",
        "ticket KX-4471 status",
    ):
        statements(False, question)  # what a first recall reads once is read
        apart, reference = statements(False, question)
        together, answer = statements(True, question)
        assert answer == reference
        assert together == apart - 1
        answered += answer
    assert answered  # the corpus answers something
    plain = "What does the user keep in the garage?"
    assert statements(True, plain) == statements(False, plain)


@pytest.mark.parametrize("on", [False, True])
def test_async_trace_commit_switches_only_an_api_recalls_transaction(
    read_agent, owner_subject, settings, on
):
    """ENGRAM_RECALL_ASYNC_TRACE_COMMIT (on by default) turns off the wait for the disk
    in an API recall's own transaction only; the trace and the audit row are written as
    before, and a recall inside another caller's transaction never changes it."""
    from django.db import connection

    from core.models import AuditEvent
    from core.tenancy import tenant_context
    from memory.models import RecallTrace

    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "ASYNC_TRACE_COMMIT": on}
    remember(owner_subject, "User keeps a kayak in the garage")
    remember(owner_subject, "用户在车库里放着一个望远镜")
    statements: list[str] = []

    def record(execute, sql, *args):
        statements.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(record):
        response = read_agent.client(owner_subject).post_json(
            "/api/v1/recall", {"query": "What is in the garage?", "purpose": PURPOSE}
        )
    assert response.status_code == 200, response.content
    trace_id = response.json()["trace_id"]
    switched = [s for s in statements if "synchronous_commit" in s]
    assert len(switched) == (1 if on else 0)
    with tenant_context(owner_subject.tenant_id):
        assert RecallTrace.objects.filter(id=trace_id).exists()
        assert AuditEvent.objects.filter(extra__trace_id=trace_id).exists()

    statements.clear()
    with connection.execute_wrapper(record):
        recall(read_agent.agent, owner_subject, "用户的车库里有什么？")
    assert not [s for s in statements if "synchronous_commit" in s]
