"""Round 22 of issue 32: an English relation of a secret to what it opens, inside text in a
script written without spaces. The full suite's round-21 property found "下周开始，Aaaa_00 is
what gets me into the laptop" stored: after NFKC the full-width comma is an ASCII comma glued
to the value, and the relation reader (``memory/detectors/access_relations.py``) wanted a
space there. ``latin_view`` reads each Han, kana or Hangul character as a space (its full
stop and corner quotation marks as their Latin forms), the same length so spans keep their
offsets; digits glued to such a character stay a count ("2500元"). Two neighbours of the
class came with it: a value set apart by a dash before "that's how …", and the value as the
subject of opening ("X gets me into the laptop", "4821 opens the safe"). Probe 22
(tests/data/detector_probe22_mixed_*) was written and committed before the change."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.detectors.access_relations import latin_view
from memory.detectors.secrets import find_secrets, redact_secrets
from tests.helpers.memories import (
    COMPOSED_FRAMES,
    GLUED_FRAMES,
    assert_refused_as_secret,
)
from tests.helpers.probes import caught_and_wrong

# Rules alone, main before round 22: tune 2/10, report 6/10, 0 wrongly found in either.
_FLOORS = {"detector_probe22_mixed_tune": (10, 0), "detector_probe22_mixed_report": (10, 0)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe22_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(name, find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


def test_the_latin_view_keeps_every_offset():
    for text in [
        "下周开始,Abcd_00 is what",
        "opens with Abcd_00。别外传",
        "「Hjol#77」is",
        "plain",
    ]:
        view = latin_view(text)
        assert len(view) == len(text)
        for i, c in enumerate(text):
            joined = c in ",:" and i and not text[i - 1].isascii()
            if c.isascii() and not joined:
                assert view[i] == c, (text, i)
    assert latin_view("下周开始,Abcd_00") == "     Abcd_00"
    assert latin_view("opens with 1234。") == "opens with 1234."
    assert latin_view("takes 2500元") == "takes 2500x"


# Written here, not copied from the probe.
POSITIVE = [
    ("从明天起Tqmb#72 is what unlocks the laptop", "Tqmb#72"),
    ("他说：the garage door opens with 61829。", "61829"),
    ("ちなみに、the work phone wants Plok_314", "Plok_314"),
    ("그리고 Zemv!48 gets me into the VPN", "Zemv!48"),
    ("Qrst_918 opens the storage locker", "Qrst_918"),
    ("Hvye#55 – that's how I sign into the portal", "Hvye#55"),
]
NEGATIVE = [
    "下周开始，the pool opens at 0630",
    "这台 laptop 是2019年买的，is what I use at home",
    "the safe takes 2500元 to fix",
    "Route 66 gets you into the desert",
    "Door 3 opens the office",
    "我们下周开始用 Node18，the app needs it",
    "下周开始，the café opens with live music",
]


@pytest.mark.parametrize("text, value", POSITIVE)
def test_a_relation_in_mixed_text_is_refused_and_redacted(text, value):
    assert find_secrets(text), text
    assert value not in redact_secrets(text)[0], text


@pytest.mark.parametrize("text", NEGATIVE)
def test_its_look_alikes_pass(text):
    assert not find_secrets(text), text


# Where the rules meet: each relation, a made value, and a frame in another script glued to
# it with no space on either side, or a future phrase, a quotation, another person's words;
# the documented precedence is that a real secret is refused whatever is around it.
_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
_THINGS = st.sampled_from(["laptop", "tablet", "garden shed", "storage locker", "work phone"])
_RELATIONS = st.sampled_from(
    [
        "the {t} opens with {v}",
        "{v} is what gets me into the {t}",
        "{v} gets me into the {t}",
        "{v} — that's how I get into the {t}",
        "the {t}: I set it to {v}",
    ]
)
_MADE = st.from_regex(r"[A-Z][a-z]{3,7}[!#_][0-9]{2,4}", fullmatch=True)
_GLUED = st.sampled_from(GLUED_FRAMES)
_FRAMES = st.one_of(_GLUED, st.sampled_from(COMPOSED_FRAMES))


@hsettings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(thing=_THINGS, relation=_RELATIONS, value=_MADE, frame=_FRAMES)
def test_a_relation_glued_to_another_script_is_refused(thing, relation, value, frame):
    assert_refused_as_secret(frame.format(s=relation.format(t=thing, v=value)), value, now=_NOW)


@hsettings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    thing=_THINGS,
    relation=st.sampled_from(["the {t} opens with {v}", "the {t} takes {v}"]),
    value=st.sampled_from(["a click", "a swipe", "ease", "2500元", "两分钟"]),
    frame=_GLUED,
)
def test_a_means_or_a_measure_glued_to_another_script_is_stored(thing, relation, value, frame):
    text = frame.format(s=relation.format(t=thing, v=value))
    assert not find_secrets(text), text
