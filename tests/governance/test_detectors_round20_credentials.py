"""Round 20 of issue 32 (cred20): credentials in shapes no probe had reached. A password
noun with a longer phrase before its verb ("my password with the bank is …", "the password
I gave the bank is …"); one value kept for every login (``used_secrets._REUSED``); a
question answered on its own line or to oneself, and the exchange reported
(``asked_values``); a card's code by where it is printed; digits read over the radio
(幺洞拐两, ``access_forms``); the value, then a pointer back to what it opens
(``cred_frames._POINTED_BACK``); "wifi = …". Probe 20 (tests/data/detector_probe20_cred_*)
was written and committed before any change; its counts are floors here."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory.detectors.secrets import find_secrets, redact_secrets
from tests.helpers.memories import COMPOSED_FRAMES, decide_user_statement
from tests.helpers.probes import caught_and_wrong

# Positives the rules alone refuse, and store-labelled rows refused (main before round 20:
# tune 39/43 with 1/28, report 41/46 with 1/27, by find_secrets alone; main already read
# most of the probe, so the mechanisms' cases are below, written after it).
_FLOORS = {"detector_probe20_cred_tune": (40, 1), "detector_probe20_cred_report": (41, 1)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe20_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(name, find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


# Written here, not copied from a probe.
POSITIVE = [
    # a phrase between the noun and its verb
    ("my PIN with the credit union is 803311", "803311"),
    ("the password on the old family desktop was Juniper", "Juniper"),
    ("the passcode I gave the childminder is 7720", "7720"),
    ("the password we came up with for the NAS is Thornfield", "Thornfield"),
    # one value for every login
    ("I've reused Kettle-88 on all of my accounts since 2015", "Kettle-88"),
    ("honestly I use the same one everywhere: Quince#14", "Quince#14"),
    ("Harbor2020 is what I use for basically every site", "Harbor2020"),
    ("我几个平台都用 lanmao2022", "lanmao2022"),
    ("我一直用 qiuqiu1314 登录所有网站", "qiuqiu1314"),
    ("すべてのサービスで hinata0801 を使い回してる", "hinata0801"),
    ("모든 사이트에 blue7788 써요", "blue7788"),
    # a question answered on its line, to oneself, or reported
    ("guest wifi? Lantern-3391", "Lantern-3391"),
    ("Q: garage code? A: 6620", "6620"),
    ("와이파이 비번 뭐였더라, moon4455 였나", "moon4455"),
    ("the babysitter asked for our wifi and I texted her Willow2024", "Willow2024"),
    ("他问我要热点，我说 fang8899", "fang8899"),
    # a card's code by where it is printed
    ("the 3 digits on the back of my Mastercard are 917", "917"),
    ("卡背面那三位数 406", "406"),
    # digits read over the radio
    ("储物柜密码 拐洞幺勾", "拐洞幺勾"),
    # the value, then what it is for
    ("use 55213 — the side gate I mean", "55213"),
    ("Copper77! — in case you need to unlock the tablet", "Copper77!"),
    ("28841. That's for the garage", "28841"),
    ("905512，这是车库的", "905512"),
    ("wifi = Sparrow-9981", "Sparrow-9981"),
]
NEGATIVE = [
    "the password to a happy marriage is patience",
    "Remind me to change the password on the router this weekend.",
    "the password I got from the admin is temporary",
    "the password for my account at work is too long",
    "I use 1Password for all my accounts",
    "I use Bitwarden to manage every account",
    "I use Python3 for all my projects",
    "所有账号都用 Gmail 注册",
    "我用 iPad2 登录",
    "Forgot your password? Click the link below",
    "what's the wifi called? CasaMia5G",
    "did you change the password? yes, yesterday",
    "she asked for the wifi and I said no",
    "he asked me for the code and I said 2 minutes",
    "there are 3 on the back of the card and 16 on the front",
    "前面路口拐两次就到",
    "一洞一洞地挖",
    "my flat is 1402, the door on the left",
    "I paid 4471, the rent I mean",
    "it was 2019, the year I mean",
    "room 2318. That's for the conference",
    "wifi -> 5G band",
    "wifi=on",
]


@pytest.mark.parametrize("text, value", POSITIVE)
def test_a_round20_credential_is_refused_and_redacted(text, value):
    assert find_secrets(text), text
    assert value not in redact_secrets(text)[0], text


@pytest.mark.parametrize("text", NEGATIVE)
def test_its_look_alikes_pass(text):
    assert not find_secrets(text), text


# Where the rules meet: a phrase of any words between the noun and its verb, said for later,
# in a quotation, in Chinese around it, is refused when the value is made; a lowercase
# word after a relative clause with its object says what the password is like, and passes.
_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
_WORD = st.sampled_from(["bank", "old", "shared", "garden", "kids", "office", "blue", "Tesco"])
_PREP = st.sampled_from(["with", "on", "at", "in", "from", "over at", "for"])
_VALUES = st.from_regex(r"[A-Z][a-z]{3,7}[0-9]{2,4}[!#]?", fullmatch=True)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    prep=_PREP,
    words=st.lists(_WORD, min_size=1, max_size=3),
    value=_VALUES,
    frame=st.sampled_from(COMPOSED_FRAMES),
)
def test_a_password_after_a_phrase_of_any_words_is_refused(prep, words, value, frame):
    text = frame.format(s=f"my password {prep} the {' '.join(words)} is {value}")
    decision = decide_user_statement(text, now=_NOW, learned_detectors=False)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    assert value not in redact_secrets(text)[0], text


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    verb=st.sampled_from(["got from", "gave", "typed into", "had on", "registered with"]),
    words=st.lists(_WORD, min_size=1, max_size=2),
    state=st.sampled_from(["temporary", "gone", "useless", "rubbish", "ancient"]),
)
def test_a_state_after_a_relative_clause_is_not_a_password(verb, words, state):
    text = f"the password I {verb} the {' '.join(words)} is {state}"
    assert not find_secrets(text), text
