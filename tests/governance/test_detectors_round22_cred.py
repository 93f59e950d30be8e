"""Round 22 of issue 32, credentials: the relations cred21 left (its note on probe 21).
``memory/detectors/access_relations.py`` now reads a *person* opening, unlocking or getting
into a thing with a value ("I get into my laptop with X", "we unlock the shed using 7214");
a thing outside the lock, device and account classes when the sentence says it opens or
unlocks with the value (the verb makes the noun a thing that locks: "the mailbox unlocks
with 2-8-1"); a purpose of opening before a verb of typing ("to unlock the tablet she
enters 7719"); and, in ``access_keyed.py`` beside it, a code keyed, dialled or remembered for
a thing that locks ("remember 7781 for the back door"), a thing locked or protected with a
value, and a value (or a name/secret pair) that works on or for a thing. Digits are a code when the verb unlocks or disarms, or the thing locks; to
open or get into anything else (an account opened with 5000, a programme got into with
1450) only digits in pieces or with a leading zero. Probe 22 cred
(tests/data/detector_probe22_cred_*) was written and committed before the change."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.detectors.secrets import find_secrets, redact_secrets
from tests.helpers.memories import (
    COMPOSED_FRAMES,
    assert_refused_as_secret,
)
from tests.helpers.probes import caught_and_wrong

# Rules alone, main before this round: tune 23/26, report 23/26, 0 wrongly found in either.
_FLOORS = {"detector_probe22_cred_tune": (26, 0), "detector_probe22_cred_report": (25, 0)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe22_cred_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(name, find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


# Written here, not copied from the probe.
POSITIVE = [
    ("we unlock the boathouse with 5530", "5530"),
    ("you can get into the bike shed with 0-2-2-7", "0-2-2-7"),
    ("I unlock the tool chest using 8082", "8082"),
    ("she signs onto the clinic rota page with Vexa!314", "Vexa!314"),
    ("I get into the allotment hut with 0-4-4-9", "0-4-4-9"),
    ("the letterbox unlocks with 3-1-7", "3-1-7"),
    ("the donation tin opens with Brisk_27", "Brisk_27"),
    ("to open the gun locker he enters 6619", "6619"),
    ("to get into the studio I punch in 4408", "4408"),
    ("they disarm the workshop with 1-9-2-0", "1-9-2-0"),
    ("remember 6104 for the cellar door", "6104"),
    ("if the alarm starts beeping, tap 2918", "2918"),
    ("use 5527 on the pad by the bins", "5527"),
    ("the old netbook is locked with Quill#552", "Quill#552"),
    ("my notes vault is protected by Saffron-Tiger-8", "Saffron-Tiger-8"),
    ("root/Gannet#31 works on the camera", "Gannet#31"),
    ("Plover&22 still works for my email", "Plover&22"),
    ("5831 works on the side gate", "5831"),
]
NEGATIVE = [
    "I got into the programme with 1450 on the SAT",
    "I opened the savings account with 5000",
    "we got into the final with 2100 points",
    "I get into the house with the spare key",
    "I log into the portal with my work email",
    "I opened the door with 2 hands",
    "we got into the museum with 2 tickets",
    "to unlock the tablet she enters the date",
    "to get into the office I enter through the back",
    "I get into the city with the 7:15 train",
    "the meeting opens with 10 minutes of news",
    "They opened the restaurant with 300 guests",
    "the concert opened with \u201cYesterday\u201d",
    "I get in with 2 minutes to spare",
    "I used 2500 on the new garage door",
    "the door was open so I dialled 0800 and waited",
    "type 4410 for the door report",
    "I locked the shed and typed 4410 into the calculator",
    "the backups are protected with AES-256",
    "the bike is locked with a chain",
    "the account is protected by SMS codes",
    "Node18 works on the server",
    "Node-18 works on the server",
    "Windows11 works on the computer",
    "the 24/7 plan works for my phone",
    "1984 works on the gate",
]


@pytest.mark.parametrize("text, value", POSITIVE)
def test_a_relation_is_refused_and_redacted(text, value):
    assert find_secrets(text), text
    assert value not in redact_secrets(text)[0], text


@pytest.mark.parametrize("text", NEGATIVE)
def test_its_look_alikes_pass(text):
    assert not find_secrets(text), text


# Where the rules meet: each relation with a made value inside a future phrase, a
# quotation, another person's words, fiction, a question, or another script glued to it;
# the documented precedence is that a real secret is refused whatever is around it.
_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
_THINGS = st.sampled_from(["bike lock", "gym locker", "gate app", "cabin", "printer's admin page"])
_RELATIONS = st.sampled_from(
    [
        "I get into the {t} with {v}",
        "we unlock the {t} using {v}",
        "to open the {t} I type {v}",
        "the {t} unlocks with {v}",
        "she signs into the {t} with {v}",
    ]
)
_MADE = st.from_regex(r"[A-Z][a-z]{3,7}[!#_][0-9]{2,4}", fullmatch=True)
_OTHER = st.sampled_from(
    (
        "下周开始{s}",
        "我说：{s}。",
        "「{s}」",
        "{s}，别告诉别人",
        "그리고 {s}",
        "It sounds like a line from a novel, but {s}",
        "Did I tell you {s}?",
        "My brother told me {s}",
    )
)
_FRAMES = st.one_of(_OTHER, st.sampled_from(COMPOSED_FRAMES))


@hsettings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(thing=_THINGS, relation=_RELATIONS, value=_MADE, frame=_FRAMES)
def test_a_relation_in_any_frame_is_refused(thing, relation, value, frame):
    assert_refused_as_secret(frame.format(s=relation.format(t=thing, v=value)), value, now=_NOW)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    thing=_THINGS,
    relation=st.sampled_from(
        ["I get into the {t} with {v}", "we open the {t} using {v}", "the {t} opens with {v}"]
    ),
    value=st.sampled_from(
        ["a key", "my badge", "2 minutes to spare", "the spare key", "20 bucks", "a little effort"]
    ),
    frame=_FRAMES,
)
def test_a_means_or_a_measure_in_any_frame_passes(thing, relation, value, frame):
    text = frame.format(s=relation.format(t=thing, v=value))
    assert not find_secrets(text), text
