"""The speaker gate for Chinese and mixed questions (``lexical.speakers_named_in_chinese``):
a question naming one speaker of the subject's conversations is answered by what that
speaker said of themself, whatever their name's characters run into; a question in the
first person (我) is about the user. English questions are read exactly as before."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory import lexical
from memory.recall.query import speaker_asked_about
from memory.recall.rank import ASKS, asks
from memory.recall.scope import RecallContext
from tests.helpers.conversation import converse
from tests.helpers.retrieval import ids, recall

# New content: a dyeing workshop, a saxophone, a cycling trip told by the other speaker.
CHAT = [
    ("小林", "我上周末去苏州学了扎染，染了一条蓝色的围巾。"),
    ("阿杰", "我最近在练萨克斯，每天晚上吹一个小时。"),
    ("阿杰", "小林上个月一个人骑车环了青海湖。"),
    ("小林", "你的萨克斯是跟谁学的呢"),
    ("阿杰", "跟楼下的退休音乐老师学的，他教得很耐心。"),
    ("小林", "扎染师傅说布要在靛蓝染缸里泡三遍，颜色才够深。"),
    ("小林", "下次我想把一件白色T恤也染成渐变色。"),
]
DYED, SAX, CLAIM, ASKS_SAX, TEACHER, VAT, WHITE_TEE = range(7)

# Two speakers, one name inside the other's.
NESTED = [
    ("小林", "我上周末去苏州学了扎染，染了一条蓝色的围巾。"),
    ("小林子", "我周三在陶艺课上烧了一个青瓷花瓶。"),
]


def context(speakers, self_names=()) -> RecallContext:
    return RecallContext(
        consent_withdrawn=False,
        tenant_policy={},
        procedures_subject_id=None,
        model_id="m",
        self_names=tuple(self_names),
        speakers=tuple(speakers),
    )


def flagged(result) -> list[bool]:
    return ["spoken_by_speaker" in item.scores for item in result.items]


@pytest.mark.parametrize(
    ("query", "speakers", "self_names", "expected"),
    [
        ("小林上周末学了什么？", ("小林", "阿杰"), (), "小林"),
        ("What did 小林 dye last weekend?", ("小林", "阿杰"), (), "小林"),
        ("Ada上周去了哪里？", ("Ada", "Bea"), (), "Ada"),
        # A pinyin speaker's name written in characters.
        ("王芳上周去了哪里？", ("Li Na", "Wang Fang"), (), "Wang Fang"),
        ("王芳和李娜去了哪里？", ("Li Na", "Wang Fang"), (), ""),
        # The longer name is the one named; the shorter is not read inside it.
        ("小林子烧了什么？", ("小林", "小林子"), (), "小林子"),
        ("小林染了什么？", ("小林", "小林子"), (), "小林"),
        # A name starting inside another word is not named ("中华明珠").
        ("中华明珠在哪里？", ("华明", "阿杰"), (), ""),
        # A name the segmenter reads as an ordinary word here (天天: every day).
        ("阿杰天天练什么？", ("天天", "阿杰"), (), "阿杰"),
        # Two speakers or none.
        ("小林和阿杰聊了什么？", ("小林", "阿杰"), (), ""),
        ("谁学了扎染？", ("小林", "阿杰"), (), ""),
        # The subject: by name, in the first person, or a pinyin name in characters.
        ("小林染了什么？", ("小林", "阿杰"), ("小林",), ""),
        ("我跟阿杰说过什么？", ("小林", "阿杰"), (), ""),
        ("王芳跟阿杰说过什么？", ("王芳", "阿杰"), ("Wang Fang",), ""),
        # 我 inside quoted words is someone else's.
        ("阿杰什么时候说“我累了”？", ("小林", "阿杰"), (), "阿杰"),
        # One speaker: nobody to confuse them with.
        ("小林染了什么？", ("小林",), (), ""),
    ],
)
def test_which_speaker_a_chinese_question_is_about(query, speakers, self_names, expected):
    searched = lexical.refer_to_user(query, self_names, speakers)
    named = lexical.names_in(searched, speakers)
    assert speaker_asked_about(query, context(speakers, self_names), named) == expected


def _before(query: str, ctx: RecallContext, named: list[str]) -> str:
    """``speaker_asked_about`` as it was before Chinese questions were read (the reference
    for English ones)."""
    if len(ctx.speakers) < 2 or len(named) != 1 or lexical.has_cjk(query):
        return ""
    if lexical.names_in(query, ctx.self_names):
        return ""
    return named[0]


_NAMES = ["Ada", "Bea", "Caroline", "Melanie", "Jo", "Wang Fang", "Li Na", "Olivia Harris"]
_WORDS = ["What", "did", "her", "race", "I", "my", "paint", "after", "and", "?", "'s", "we"]


@given(
    st.lists(st.sampled_from(_NAMES + _WORDS), max_size=10),
    st.lists(st.sampled_from(_NAMES), max_size=3, unique=True),
    st.lists(st.sampled_from(_NAMES), max_size=2, unique=True),
)
def test_english_questions_are_read_as_before(words, speakers, self_names):
    query = " ".join(words)
    ctx = context(speakers, self_names)
    named = lexical.names_in(lexical.refer_to_user(query, self_names, speakers), speakers)
    assert speaker_asked_about(query, ctx, named) == _before(query, ctx, named)


@given(st.text(max_size=80).filter(lambda t: "吗" not in t and "呢" not in t))
def test_without_a_chinese_particle_only_question_marks_ask(text):
    assert bool(ASKS.search(text)) == bool("?" in text or "？" in text)


@pytest.mark.parametrize(
    ("turn", "asking"),
    [
        ("阿杰: 你去过青海湖吗", True),
        ("阿杰: 你去过青海湖吗。", True),
        ("小林: 你的萨克斯是跟谁学的呢", True),
        ("小林: 我染好了。你呢", False),
        ("阿杰: 我在练琴呢。", None),
        ("阿杰: 吗啡是一种止痛药。", None),
    ],
)
def test_chinese_turns_ask_without_a_question_mark(turn, asking):
    if asking is None:
        assert not asks(turn, 0.0)
    else:
        assert asks(turn, 0.0)
        assert asks(turn, 0.5) is asking


@pytest.mark.parametrize(
    ("turn", "asking"),
    [
        # Statements run together with commas, the question in the last clause: the
        # turn tells more than it asks, with or without a question mark.
        ("阿杰: 我上周去了青海湖，风景很好，拍了好多照片，你去过吗", False),
        ("阿杰: 我上周去了青海湖，风景很好，拍了好多照片，你去过吗？", False),
        ("小林: 我周末学了扎染；染了一条围巾，你呢", False),
        # The question is most of the turn.
        ("阿杰: 你去过青海湖吗", True),
        ("阿杰: 好啊，你去过青海湖吗？", True),
        ("阿杰: 你觉得呢，这幅画好看吗？", True),
    ],
)
def test_a_chinese_question_asks_in_its_own_clause(turn, asking):
    assert asks(turn, 0.0)
    assert asks(turn, 0.5) is asking


def _asks_by_sentence(statement: str, share: float) -> bool:
    """The rule before Chinese clauses were weighed apart: whole sentences only."""
    if not ASKS.search(statement):
        return False
    asking = total = 0
    for sentence in re.findall(r"[^.!?。！？]+[.!?。！？]*", statement):
        words = len(re.findall(r"[\u3400-\u9fff]|[^\W_]+", sentence))
        total += words
        if ASKS.search(sentence):
            asking += words
    return total > 0 and asking >= share * total


@given(
    st.text(alphabet=st.sampled_from(list("abc I you ,.?!;'")), max_size=60),
    st.sampled_from([0.3, 0.5, 0.8]),
)
def test_english_turns_are_weighed_as_before(text, share):
    assert asks(text, share) == _asks_by_sentence(text, share)


def test_the_named_speakers_own_statement_answers(read_agent, owner_subject, write_agent):
    record_ids = converse(write_agent.agent, owner_subject, CHAT)
    result = recall(read_agent.agent, owner_subject, "小林在苏州染了什么？")
    assert ids(result)[0] == record_ids[DYED]
    assert flagged(result)[0]
    assert flagged(result) == sorted(flagged(result), reverse=True)


def test_the_other_speakers_claim_is_not_theirs(read_agent, owner_subject, write_agent):
    record_ids = converse(write_agent.agent, owner_subject, CHAT)
    # Only 阿杰 says 小林 rode round the lake: nothing 小林 said answers.
    result = recall(read_agent.agent, owner_subject, "小林上个月骑车去了哪里？")
    assert result.items == []
    # Unnamed, the claim answers.
    assert record_ids[CLAIM] in ids(recall(read_agent.agent, owner_subject, "谁骑车环了青海湖？"))


def test_naming_the_wrong_speaker_abstains(read_agent, owner_subject, write_agent):
    record_ids = converse(write_agent.agent, owner_subject, CHAT)
    result = recall(read_agent.agent, owner_subject, "阿杰想把白色T恤染成什么样？")
    assert result.items == []
    assert result.empty_reason == "no_relevant_memory"
    # The right person: their turn answers.
    result = recall(read_agent.agent, owner_subject, "小林想把白色T恤染成什么样？")
    assert ids(result)[0] == record_ids[WHITE_TEE]
    assert flagged(result)[0]


def test_the_asking_turn_is_not_the_speakers_statement(read_agent, owner_subject, write_agent):
    record_ids = converse(write_agent.agent, owner_subject, CHAT)
    # 小林 only asked about the saxophone (with 呢, no question mark): 阿杰 plays it.
    assert recall(read_agent.agent, owner_subject, "小林跟谁学的萨克斯？").items == []
    result = recall(read_agent.agent, owner_subject, "阿杰跟谁学的萨克斯？")
    assert record_ids[TEACHER] in ids(result)


@pytest.mark.parametrize("query", ["小林和阿杰谁在练萨克斯？", "谁每天晚上吹萨克斯？"])
def test_two_or_no_speakers_are_unaffected(read_agent, owner_subject, write_agent, query):
    record_ids = converse(write_agent.agent, owner_subject, CHAT)
    result = recall(read_agent.agent, owner_subject, query)
    assert record_ids[SAX] in ids(result)
    assert not any(flagged(result))


def test_a_name_inside_another_speakers_name(read_agent, owner_subject, write_agent):
    record_ids = converse(write_agent.agent, owner_subject, NESTED)
    result = recall(read_agent.agent, owner_subject, "小林子烧了什么？")
    assert ids(result)[0] == record_ids[1]
    assert flagged(result)[0]
    # 小林 dyed; the vase is 小林子's.
    assert recall(read_agent.agent, owner_subject, "小林烧了什么？").items == []


def test_a_first_person_question_is_about_the_user(read_agent, owner_subject, write_agent):
    record_ids = converse(write_agent.agent, owner_subject, CHAT)
    # Names 阿杰, but asks about the user: no gate, the saxophone turn answers.
    result = recall(read_agent.agent, owner_subject, "我问过阿杰什么乐器的事？")
    assert record_ids[SAX] in ids(result) or record_ids[ASKS_SAX] in ids(result)
    assert not any(flagged(result))
