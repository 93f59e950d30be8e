"""Whom a turn is about (``memory.recall.attribution``) and what the speaker gate makes of
it with ``addressed_turns``: a turn that mostly says "you"/"你" tells the addressee's
story, so it neither answers for its speaker nor counts against the person it is told to."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory.models import MemoryRecord
from memory.recall import RecallWeights
from memory.recall.attribution import about_question, addressed, persons
from memory.recall.rank import scope_to_speaker
from memory.recall.signals import Candidate, Signals

ON = RecallWeights(addressed_turns=1.0)
OFF = RecallWeights(addressed_turns=0.0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Omar: I finally fixed my bike's gears yesterday.", (2, 0)),
        ("Omar: Your bike looks great, you must be proud!", (0, 2)),
        ("Omar: I'm glad you're back, we missed you.", (2, 2)),
        ("Omar: You’ve done it — I’d never have guessed.", (1, 1)),
        ("Omar: Youth football starts in May.", (0, 0)),  # words, not letters
        ("周磊：我昨天终于把自行车修好了。", (1, 0)),
        ("周磊：你的自行车真漂亮，您一定很自豪吧！", (0, 2)),
        ("周磊：我们都很想你。", (1, 1)),
    ],
)
def test_persons_counts_first_and_second_person_words(text, expected):
    assert persons(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Omar: Your bike looks great, you must be proud!", True),
        ("Omar: I fixed my bike; you should try it.", False),
        ("Omar: The river froze last night.", False),  # nobody: the speaker's, as before
        ("周磊：你的自行车真漂亮，您一定很自豪吧！", True),
        ("周磊：我修好了我的自行车，你也试试。", False),
    ],
)
def test_addressed_means_more_you_than_i(text, expected):
    assert addressed(text) is expected


def turn(statement: str, speakers: list[str], fused: float) -> Candidate:
    record = MemoryRecord(id=uuid.uuid4(), statement=statement)
    record.source_speakers = speakers
    return Candidate(id=record.id, record=record, signals=Signals(fused=fused, final=fused))


@pytest.mark.parametrize(
    ("story", "praise", "asked"),
    [
        (
            "Lena: I rebuilt the cabin's stone chimney over the winter.",
            "Omar: Your chimney looks solid, you did a fine job on it.",
            "Omar",
        ),
        ("林悦：我冬天把小屋的石头烟囱重新砌好了。", "周磊：你砌的烟囱真结实，你辛苦了。", "周磊"),
    ],
)
def test_praising_someone_elses_work_is_not_ones_own_story(story, praise, asked):
    teller = story.split(":")[0].split("：")[0]
    # Asked about the one who only praised it: without the rule the praise anchors an
    # answer; with it the gate abstains.
    told = turn(story, [teller], 1.0)
    said = turn(praise, [asked], 0.8)
    assert scope_to_speaker([told, said], asked, OFF) == [told, said]
    told, said = turn(story, [teller], 1.0), turn(praise, [asked], 0.8)
    assert scope_to_speaker([told, said], asked, ON) == []


def test_what_others_tell_the_speaker_does_not_count_against_them():
    # Asked about Lena: Omar's turn to her is about her, so it is no evidence that the
    # question names the wrong person; her own statement answers.
    mine = turn("Lena: I rebuilt the chimney myself.", ["Lena"], 0.5)
    to_her = turn("Omar: Your chimney looks solid, you did a fine job.", ["Omar"], 1.0)
    assert scope_to_speaker([to_her, mine], "Lena", OFF) == []
    mine = turn("Lena: I rebuilt the chimney myself.", ["Lena"], 0.5)
    to_her = turn("Omar: Your chimney looks solid, you did a fine job.", ["Omar"], 1.0)
    kept = scope_to_speaker([to_her, mine], "Lena", ON)
    assert kept == [to_her, mine]
    assert mine.signals.spoken_by_speaker and not to_her.signals.spoken_by_speaker


def test_a_turn_about_the_speaker_still_answers():
    told = turn("Lena: I rebuilt the chimney.", ["Lena"], 1.0)
    mine = turn("Omar: I helped Lena carry the stones, and you should see my arms.", ["Omar"], 0.9)
    assert scope_to_speaker([told, mine], "Omar", ON) == [told, mine]


def test_the_weight_is_clamped_and_on_by_default():
    assert RecallWeights().addressed_turns == 1.0  # since issue 34 round 3
    assert RecallWeights.for_tenant({"recall_weights": {"addressed_turns": 0}}).addressed_turns == 0
    w = RecallWeights.for_tenant({"recall_weights": {"addressed_turns": 5}})
    assert w.addressed_turns == 1.0


# ``addressed_sentence``: the person is judged in the sentence that matches the question.
SENTENCE = RecallWeights(addressed_turns=1.0, addressed_sentence=1.0)
NAMES = frozenset({"lena", "omar", "林悦", "周磊"})


@pytest.mark.parametrize(
    ("statement", "question", "expected"),
    [
        (
            "Omar: Thanks, you're kind! My pottery class fired its first bowls today.",
            "What did Omar's pottery class make?",
            " My pottery class fired its first bowls today.",
        ),
        (
            "Omar: I slept badly. Your pottery bowls look wonderful!",
            "What did Omar make in pottery class?",
            " Your pottery bowls look wonderful!",
        ),
        # No word of the question: the whole turn.
        ("Omar: Fine. You too.", "What did Omar bake?", "Omar: Fine. You too."),
        (
            "周磊：谢谢你！我的陶艺课今天烧好了第一批碗。",
            "周磊的陶艺课做了什么？",
            "我的陶艺课今天烧好了第一批碗。",
        ),
        ("周磊：我没睡好。你的陶艺碗真好看！", "周磊做了什么陶艺碗？", "你的陶艺碗真好看！"),
    ],
)
def test_the_sentence_that_matches_the_question(statement, question, expected):
    assert about_question(statement, question, NAMES) == expected


def test_names_do_not_choose_the_sentence():
    # "Omar" opens the first sentence of every turn of his; the question's name must not
    # make that sentence the match.
    statement = "Omar: You were right, you always are. I finally planted the apple saplings."
    question = "What did Omar plant?"
    assert about_question(statement, question, NAMES).strip().startswith("I finally planted")
    assert not addressed(statement, question, NAMES)
    assert addressed(statement)  # judged whole: "you" twice, "I" once
    assert persons(statement) == (1, 2)


@pytest.mark.parametrize(
    ("thanks_then_news", "asked"),
    [
        (
            "Omar: Thank you, you're so sweet to ask! You know what, I ran my first marathon.",
            "What marathon did Omar run?",
        ),
        (
            "周磊：谢谢你，你太贴心了！说起来，我跑完了第一个马拉松。",
            "周磊跑了哪个马拉松？",
        ),
    ],
)
def test_a_thank_you_before_ones_news_stays_ones_statement(thanks_then_news, asked):
    speaker = "Omar" if asked.startswith("What") else "周磊"
    other = "Lena" if speaker == "Omar" else "林悦"
    news = turn(thanks_then_news, [speaker], 0.9)
    theirs = turn(f"{other}: I love marathons, I ran one in spring.", [other], 1.0)
    # Whole turn: "you" outnumbers "I", so the news is not the speaker's and the gate
    # abstains; judged by the sentence about the race, it answers.
    assert scope_to_speaker([theirs, news], speaker, ON) == []
    news = turn(thanks_then_news, [speaker], 0.9)
    theirs = turn(f"{other}: I love marathons, I ran one in spring.", [other], 1.0)
    kept = scope_to_speaker([theirs, news], speaker, SENTENCE, question=asked, names=NAMES)
    assert kept == [theirs, news] and news.signals.spoken_by_speaker


@pytest.mark.parametrize(
    ("praise", "asked"),
    [
        (
            "Omar: Hi! I'm well. Your marathon sounds amazing, you must be proud!",
            "What race did Omar run?",
        ),
        ("周磊：嗨！我很好。你的马拉松真厉害，你一定很自豪！", "周磊跑了什么马拉松？"),
    ],
)
def test_praise_in_the_matching_sentence_still_abstains(praise, asked):
    speaker = "Omar" if asked.startswith("What") else "周磊"
    other = "Lena" if speaker == "Omar" else "林悦"
    story = turn(f"{other}: I ran my first marathon last weekend.", [other], 1.0)
    said = turn(praise, [speaker], 0.8)
    # Judged whole the turn says "I" as often as "you"... (en: 2 vs 2), so it would count
    # as Omar's; the sentence about the marathon speaks to Lena.
    assert scope_to_speaker([story, said], speaker, SENTENCE, question=asked, names=NAMES) == []


def test_sentence_judging_is_on_by_default_and_clamped():
    assert RecallWeights().addressed_sentence == 1.0  # since issue 34 round 3
    assert (
        RecallWeights.for_tenant({"recall_weights": {"addressed_sentence": 9}}).addressed_sentence
        == 1.0
    )


@given(
    st.lists(
        st.sampled_from(
            [
                "I baked bread.",
                "You baked bread!",
                "My kiln cracked.",
                "Your kiln?",
                "我烤了面包。",
                "你的窑裂了！",
                "Thanks, you rock.",
                "We rowed home;",
                "Hey Omar,",
            ]
        ),
        min_size=1,
        max_size=5,
    ),
    st.sampled_from(["What did Omar bake?", "Whose kiln cracked?", "周磊烤了什么？", "Who sang?"]),
)
def test_the_matching_sentence_is_part_of_the_turn_and_no_match_judges_it_whole(parts, question):
    statement = "Omar: " + " ".join(parts)
    chosen = about_question(statement, question, NAMES)
    assert chosen in statement
    if chosen == statement:  # nothing shared: the whole turn, as without a question
        assert addressed(statement, question, NAMES) is addressed(statement)
    else:
        assert addressed(statement, question, NAMES) is addressed(chosen)
