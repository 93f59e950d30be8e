"""The things a text names in common words (``memory.entity_phrases``), written before any
tuning and with vocabulary no benchmark holds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memory.entities import PLACE, THING, extract, keys
from memory.entity_phrases import phrases as phrase_kinds
from memory.entity_phrases import singular


def phrases(text: str) -> list[str]:
    return list(phrase_kinds(text))


def test_a_phrase_after_a_determiner_gives_each_of_its_endings():
    found = phrases("Yesterday I joined a beginners' knitting circle at the village hall.")
    assert {"knitting circle", "circle", "village hall", "hall"} <= set(found)


def test_function_words_times_adverbs_and_past_forms_end_a_phrase():
    found = phrases("We repainted the boathouse last month and quickly finished the fence.")
    assert "boathouse" in found and "fence" in found
    assert not any("month" in f or "quickly" in f or "last" in f for f in found)


def test_a_plural_ends_a_phrase_and_is_put_in_the_singular():
    found = phrases("My nephews adore origami, so I bought them some puzzles.")
    assert "nephew" in found and "puzzle" in found
    assert not any("adore" in f for f in found)
    assert singular("ferries") == "ferry" and singular("glasses") == "glass"
    assert singular("bus") == "bus" and singular("analysis") == "analysis"


def test_a_name_before_a_phrase_is_left_to_the_names():
    found = phrases("She talked about the Okavango birdwatching trip for an hour.")
    assert "birdwatching trip" in found and "trip" in found
    assert not any("okavango" in f for f in found)
    # The name itself is still found, by the names' own rules.
    assert "okavango" in keys("She talked about the Okavango birdwatching trip.")


def test_question_and_record_meet_on_the_same_form():
    asked = set(keys("When did Priyanka start the ceramics workshop?"))
    told = set(keys("Priyanka: I finally started a ceramics workshop on Tuesdays!"))
    assert "ceramics workshop" in asked & told
    assert "workshop" in asked & told


def test_chinese_common_noun_runs_and_their_last_word():
    found = phrases("我周末去了植物园，还报名了书法培训班。")
    assert "植物园" in found and "书法培训班" in " ".join(found) or "培训班" in found


def test_phrases_are_things_after_the_names():
    mentions = extract("Tomasz showed me the Bergen aquarium and a seal colony.")
    kinds = {m.norm: m.kind for m in mentions}
    assert kinds["seal colony"] == THING and kinds["aquarium"] == THING
    assert _kind_of("We camped at the lakeside meadow.", "lakeside meadow") == PLACE
    assert _kind_of("我们在露营地看了星星。", "露营地") == PLACE
    assert [m.norm for m in mentions].index("bergen") < [m.norm for m in mentions].index(
        "seal colony"
    )
    assert extract("Tomasz showed me a seal colony.", phrases=False) == extract("Tomasz showed me.")


def test_nothing_in_small_talk():
    assert phrases("ok, thanks so much, that is really kind of you!") == []
    assert phrases("") == []


@settings(deadline=None)  # the first call loads the segmenter
@given(st.text(max_size=300))
def test_phrases_are_bounded_and_distinct(text):
    found = phrases(text)
    assert len(found) == len(set(found))
    assert all(len(f.split()) <= 3 for f in found if f.isascii())


def _kind_of(text: str, norm: str) -> str:
    return {m.norm: m.kind for m in extract(text)}[norm]
