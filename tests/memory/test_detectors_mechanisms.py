"""The mechanisms the detectors share, each on text written for this test (not from the
held-out set): normalisation of hidden and separated letters, and format validators."""

from __future__ import annotations

import pytest

from memory.text_normalize import detection_form, normalize_for_detection


def _tags(s: str) -> str:
    return "".join(chr(0xE0000 + ord(c)) for c in s)


@pytest.mark.parametrize(
    "text, form",
    [
        ("a p-a-s-s code", "a pass code"),
        ("r\U0001f525e\U0001f525a\U0001f525d this", "read this"),
        ("⭐记⭐住⭐这⭐个", "⭐记住这个"),
        ("ok" + _tags(" go now"), "ok go now"),
    ],
)
def test_hidden_and_separated_letters_are_read(text, form):
    assert normalize_for_detection(text) == form


@pytest.mark.parametrize(
    "text",
    [
        "A、B、C 三个方案",
        "well-known a-b test",
        "2026-12-05 at 10:30",
        "see k8s.io/docs",
        "x - y - z",
    ],
)
def test_ordinary_separators_stay(text):
    assert normalize_for_detection(text) == text


def test_a_joined_run_maps_back_to_the_original_span():
    text = "say g-o-o-d now"
    form = detection_form(text)
    at = form.text.index("good")
    assert form.original_span(at, at + 4) == (4, 11)
