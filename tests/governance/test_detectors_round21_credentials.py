"""Round 21 of issue 32 (cred21): a secret with no credential noun, tied by a relation to
what it opens or signs into (``memory/detectors/access_relations.py``): the thing opens,
unlocks, wants or was set to the value; the value is what or how one gets into the thing;
one types or uses it to log in or for every site; "it's X for the site"; a copula beside a
clause that keeps the value hidden. The thing is a lock, a way in, a device with a lock
screen or an account; a plain word counts only quoted, typed, or long and used to log in.
Chinese: a device unlocked or a payment app set to a value (``cred_frames._SET_ZH``), one
value for every login (``cred_frames._LOGIN_ZH``). Probe 21
(tests/data/detector_probe21_cred_*) was written and committed before any change."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation
from memory.detectors.secrets import find_secrets, redact_secrets
from tests.helpers.memories import (
    COMPOSED_FRAMES,
    assert_refused_as_secret,
    decide_user_statement,
)
from tests.helpers.probes import caught_and_wrong

# Rules alone (find_secrets), main before round 21: tune 40/65 with 1/68 wrongly found,
# report 33/63 with 0/62; after: tune 62, report 39 (read once, at the end).
_FLOORS = {"detector_probe21_cred_tune": (61, 1), "detector_probe21_cred_report": (39, 1)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe21_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(name, find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


# Written here, not copied from a probe.
POSITIVE = [
    # the thing opens, unlocks, wants the value
    ("the tool cabinet opens on 7-30-12", "7-30-12"),
    ("my Kindle unlocks with 5521", "5521"),
    ("the work desktop wakes up with Heron*Bay6", "Heron*Bay6"),
    ("the old router takes 'Quillfeather'", "Quillfeather"),
    # the thing, then who set it to the value; setting the thing or what unlocks it
    ("Spotify, I set it to Lemur#2281 after the breach", "Lemur#2281"),
    ("I reset my school portal to Tangelo_509 yesterday", "Tangelo_509"),
    ("I switched what unlocks my Chromebook to 730062", "730062"),
    # the value, then what or how it opens
    ("Mossy7!Stone, that's how I get into the family iPad", "Mossy7!Stone"),
    ("six one one eight, that's what opens the bike shed", "six one one eight"),
    # used or typed to log in
    ("I use lanternfishsoup to sign in everywhere", "lanternfishsoup"),
    ("when the VPN asks I just type Plover-44", "Plover-44"),
    ("I enter 'tadpole' whenever the laptop asks", "tadpole"),
    ("it's Nutmeg!77 for the insurance site", "Nutmeg!77"),
    ("in case I'm locked out of my Outlook, it's cinder_block9", "cinder_block9"),
    # kept hidden
    ("the laptop is 9183 — keep this between us", "9183"),
    # Chinese
    ("平板解锁输 739105", "739105"),
    ("网银我设的是 Hz_77310", "Hz_77310"),
    ("我登录账号一直用 maomao0611", "maomao0611"),
]
NEGATIVE = [
    "the tool cabinet opens on the left side",
    "my Kindle unlocks with a swipe",
    "the work desktop wakes up with a jingle",
    "the old router takes 12 volts",
    "Spotify, I set it to shuffle",
    "I reset my school portal to English",
    "I switched my Chromebook to 24-hour time",
    "Pilates, that's how I got into stretching",
    "I use Firefox to sign in everywhere",
    "I use bitwarden for all my sites",
    "I use headphones when I log in to meetings",
    "when the VPN asks I just type my email",
    "it's 1200 for the new laptop",
    "it's a pain for the insurance site",
    "the laptop is 14 inches, keep this between us",
    "My phone is 0412 555 789, call me",
    "平板解锁要刷脸",
    "网银我设的是短信验证",
    "我登录账号一直用微信",
    "the gate opens at 0730",
]


@pytest.mark.parametrize("text, value", POSITIVE)
def test_a_round21_credential_is_refused_and_redacted(text, value):
    assert find_secrets(text), text
    assert value not in redact_secrets(text)[0], text


@pytest.mark.parametrize("text", NEGATIVE)
def test_its_look_alikes_pass(text):
    assert not find_secrets(text), text


# Where the rules meet (the documented precedence: a real secret is refused whatever is
# around it, a value that is no secret stays stored): a thing, a relation and a made value
# composed with a future phrase, another person's words, a quotation, a question, fiction
# or a tool's text; the same frames with a measure for the value refuse nothing.
_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
_THINGS = st.sampled_from(["laptop", "tablet", "garden shed", "storage locker", "work phone"])
_RELATIONS = st.sampled_from(
    ["the {t} opens with {v}", "{v} is what gets me into the {t}", "the {t}: I set it to {v}"]
)
_MADE = st.from_regex(r"[A-Z][a-z]{3,7}[!#_][0-9]{2,4}", fullmatch=True)
_FRAMES = st.sampled_from(
    (
        *COMPOSED_FRAMES,
        "My brother says {s}",
        "In the novel I'm writing, {s}",
        "Is it true that {s}?",
        "{s}, don't tell anyone",
    )
)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(thing=_THINGS, relation=_RELATIONS, value=_MADE, frame=_FRAMES)
def test_a_value_tied_to_what_it_opens_is_refused_in_any_frame(thing, relation, value, frame):
    assert_refused_as_secret(frame.format(s=relation.format(t=thing, v=value)), value, now=_NOW)


@hsettings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(thing=_THINGS, value=_MADE)
def test_from_a_tool_too(thing, value):
    from memory.write_policy.warm_up import decide_tool_inference

    decision = decide_tool_inference(
        f"Note from the sync log: the {thing} opens with {value}", now=_NOW, learned_detectors=False
    )
    assert decision.operation == Operation.REJECT, (thing, value)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    thing=_THINGS,
    relation=st.sampled_from(
        ["the {t} opens with {v}", "I set the {t} to {v}", "the {t} takes {v}"]
    ),
    value=st.sampled_from(["a click", "12 volts", "dark mode", "ease", "2 minutes", "a swipe"]),
    frame=_FRAMES,
)
def test_a_measure_or_a_means_in_the_same_frames_is_stored(thing, relation, value, frame):
    text = frame.format(s=relation.format(t=thing, v=value))
    assert not find_secrets(text), text
    decision = decide_user_statement(text, now=_NOW, learned_detectors=False)
    assert decision.operation != Operation.REJECT, text
