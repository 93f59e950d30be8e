"""``report_use``: the agent states the ids it used, or the items whose statements the
answer overlaps (English content words and Chinese character bigrams, at least half of
the item's tokens) are reported; against a real running Engram the report reaches the
recall's trace once."""

from __future__ import annotations

import pytest
from engramhq_client import Conflict, ContextPack, EngramClient, RecallItem, Timeouts
from engramhq_client.use import overlap_tokens, used_by_overlap, used_record_ids

from memory.models import RecallTrace


def _pack(*statements: str) -> ContextPack:
    items = [RecallItem(id=f"id-{n}", statement=s) for n, s in enumerate(statements)]
    return ContextPack(trace_id="t", empty=not items, items=items)


# --- choosing the used items --------------------------------------------------------------


def test_tokens_are_english_content_words_and_chinese_bigrams():
    assert overlap_tokens("The user prefers aisle seats") == {"user", "prefer", "aisle", "seat"}
    assert overlap_tokens("用户喜欢乌龙茶") == {"用户", "户喜", "喜欢", "欢乌", "乌龙", "龙茶"}
    assert overlap_tokens("猫 and glass") == {"猫", "glass"}
    assert overlap_tokens("") == set()


def test_an_answer_that_restates_a_memory_uses_it_in_either_language():
    pack = _pack(
        "User prefers aisle seats",
        "User's sister is a doctor in Guangzhou",
        "用户喜欢喝乌龙茶",
        "用户的猫叫年糕",
    )
    answer = "I booked an aisle seat, as you prefer. 你喜欢喝乌龙茶，我也准备了。"
    assert used_by_overlap(pack.items, answer) == ["id-0", "id-2"]
    # A word in passing is not use: one token of four.
    assert used_by_overlap(pack.items, "Your sister called.") == []
    assert used_by_overlap(pack.items, "") == []


def test_stated_ids_win_and_must_be_the_recalls():
    pack = _pack("User prefers aisle seats", "用户喜欢喝乌龙茶")
    assert used_record_ids(pack, "an aisle seat for you", used_ids=["id-1", "id-1"]) == ["id-1"]
    assert used_record_ids(pack, used_ids=[]) == []
    with pytest.raises(ValueError, match="not returned"):
        used_record_ids(pack, used_ids=["id-9"])
    with pytest.raises(TypeError):
        used_record_ids(pack)


# --- against Engram -------------------------------------------------------------------------

live = pytest.mark.django_db(transaction=True)


@live
def test_report_use_reaches_the_trace_once(live_engram, keys):
    with EngramClient(
        live_engram.url,
        keys.write_key,
        admin_api_key=keys.admin_key,
        timeouts=Timeouts(recall=30, read=30, write=30),
    ) as client:
        alice = client.for_user("alice")
        for statement in ("User prefers aisle seats on long flights", "用户喜欢喝乌龙茶"):
            alice.remember(
                {
                    "memory_type": "semantic",
                    "namespace": "assistant/profile",
                    "statement": statement,
                    "assertion_kind": "user_explicit",
                    "confidence": 1.0,
                    "purpose": "personalization",
                    "consent_basis": "explicit_consent",
                }
            )
        pack = alice.recall("aisle seats on flights, 乌龙茶", "personalization", k=5)
        by_statement = {i.statement: i.id for i in pack.items}
        aisle = by_statement["User prefers aisle seats on long flights"]
        answer = "On long flights I will book aisle seats for you."
        result = alice.report_use(pack, answer_text=answer)
        assert result is not None and result.used_record_ids == [aisle]
        # The same report again is answered as before; a different one is refused.
        assert alice.report_use(pack, answer_text=answer).used_record_ids == [aisle]
        with pytest.raises(Conflict):
            alice.report_use(pack, used_ids=[])
        # A degraded pack (Engram unreachable at recall time) has nothing to report on.
        assert alice.report_use(ContextPack.degraded_empty("down"), used_ids=[]) is None
    trace = RecallTrace.objects.get(pk=pack.trace_id)
    assert [str(i) for i in trace.used_record_ids] == [aisle]
