"""Whom a turn is about (``memory.recall.attribution``) and what the speaker gate makes of
it with ``addressed_turns``: a turn that mostly says "you"/"你" tells the addressee's
story, so it neither answers for its speaker nor counts against the person it is told to."""

from __future__ import annotations

import uuid

import pytest

from memory.models import MemoryRecord
from memory.recall import RecallWeights
from memory.recall.attribution import addressed, persons
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


def test_the_weight_is_clamped_and_off_by_default():
    assert RecallWeights().addressed_turns == 0.0
    w = RecallWeights.for_tenant({"recall_weights": {"addressed_turns": 5}})
    assert w.addressed_turns == 1.0
