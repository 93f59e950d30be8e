"""Round 15 of issue 32: codes and keys named by a phrase no list holds (memory/detectors/
code_phrases.py): a code-kind head with a modifier that is not a public identifier, linked
by a copula or a change in time; a value keyed into a place that opens; a thing and its
digits in pieces; Chinese lock morphemes and opening verbs before 码; Japanese and Korean
lock nouns. Probe 15 and 15b (tests/data/detector_probe15*_codes_*.jsonl) were written and
committed before any change; their counts are floors here."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory.detectors.code_phrases import code_phrase_spans
from memory.detectors.secrets import find_secrets, looks_like_secret, redact_secrets
from tests.helpers.memories import COMPOSED_FRAMES, decide_user_statement
from tests.helpers.probes import caught_and_wrong

# Positives the rules alone refuse, and store-labelled rows refused (measured; main before
# round 15: probe 15 tune 28/33 with 1/26, report 24/33 with 0/26; probe 15b tune 11/20 with
# 0/10, report 8/20 with 0/10).
_FLOORS = {
    "detector_probe15_codes_tune": (33, 1),
    "detector_probe15_codes_report": (30, 0),
    "detector_probe15b_codes_tune": (20, 0),
    "detector_probe15b_codes_report": (10, 0),
}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe15_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(name, find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


# Written here, not copied from a probe: things nobody listed, and their look-alikes.
POSITIVE = [
    ("the hangar door code is 83015", "83015"),
    ("the chicken coop's latch combination: 5-0-2", "5-0-2"),
    ("Grandpa's rifle cabinet PIN is 7781", "7781"),
    ("the jet ski ignition code — 40518", "40518"),
    ("the PUK2 for the work phone is 55193026", "55193026"),
    ("the printer's unlock code is six one one four", "six one one four"),
    ("from Tuesday the marina gate code becomes 2261", "2261"),
    ("the church hall keypad code will be 1948#", "1948#"),
    ("key 30771 into the panel by the loading bay", "30771"),
    ("the wine cellar is 4-4-0-9", "4-4-0-9"),
    ("下个月起地下室卷帘门改成 55120", "55120"),
    ("阁楼保险箱 938104", "938104"),
    ("配电箱的开锁码是 6620", "6620"),
    ("物业把车库门设成了 7341", "7341"),
    ("倉庫の鍵の番号は 6624 です", "6624"),
    ("창고 자물쇠 번호는 4419 입니다", "4419"),
]
NEGATIVE = [
    "the invoice code is 30561",
    "my customer code is 88120 at the pharmacy",
    "the flight code is MU5735",
    "the winning combination is on the lottery site",
    "the dress code is black tie",
    "the hangar door is 30 metres wide",
    "the wine cellar is 4 floors down",
    "the hangar code was wrong again",
    "I forgot the jet ski PIN",
    "enter 2019 in the year field",
    "dial 4471 on the phone for reception",
    "the score was 3-1",
    "配电箱在 3 楼",
    "阁楼保险箱 2019 年买的",
    "车库门 1500 元修好了",
    "倉庫は 2020 年に建てた",
    "we met the project code reviewers at 10",
]


@pytest.mark.parametrize("text, value", POSITIVE)
def test_a_code_named_by_its_phrase_is_refused_and_redacted(text, value):
    assert find_secrets(text), text
    assert value not in redact_secrets(text)[0], text


@pytest.mark.parametrize("text", NEGATIVE)
def test_public_codes_and_numbers_that_are_not_secrets_pass(text):
    assert not find_secrets(text), text


def test_the_public_modifier_decides_not_the_head():
    told = "the {m} code is 58213"
    for modifier in ("order", "tracking", "postal", "booking", "product", "invoice", "promo"):
        assert code_phrase_spans(told.format(m=modifier), looks_like_secret) == [], modifier
    for modifier in ("hangar", "coop", "jet ski", "printer", "cellar door", "attic hatch"):
        assert code_phrase_spans(told.format(m=modifier), looks_like_secret), modifier


# Where rules meet: a code named by its phrase, said for later, by a third person, in a
# Chinese/English mix, beside an ordinary sentence, from a tool, is refused (the
# credential rule precedes dating and holding) and its value redacted; asked or negated
# without a value, it is stored.
_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
_CODES = st.from_regex(r"[1-9][0-9]{3,5}", fullmatch=True).filter(
    lambda c: not (len(c) == 4 and c[:2] in ("19", "20"))
)
_THINGS = st.sampled_from(
    ["hangar door", "boat ignition", "kiln room", "rifle cabinet", "bins enclosure keypad"]
)
_TELLINGS = st.sampled_from(
    [
        "the {t} code is {c}",
        "the {t} code becomes {c}",
        "my neighbour set the {t} PIN to {c}",
        "note to self: {t} combination {c}",
        "you type {c} on the {t} panel",
    ]
)
_ZH_TELLINGS = st.sampled_from(["下个月起门禁改成 {c}", "房东把储物柜设成了 {c}", "撤防码是 {c}"])


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    code=_CODES,
    thing=_THINGS,
    telling=st.one_of(_TELLINGS, _ZH_TELLINGS),
    frame=st.sampled_from(COMPOSED_FRAMES),
    roles=st.sampled_from([("user",), ("tool",), ("user", "tool")]),
)
def test_a_round15_code_in_another_rules_frame_is_refused(code, thing, telling, frame, roles):
    text = frame.format(s=telling.format(t=thing, c=code))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True, roles=roles)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    assert code not in redact_secrets(text)[0], text


@hsettings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    thing=_THINGS,
    said=st.sampled_from(
        [
            "what's the {t} code?",
            "I don't know the {t} code yet",
            "the {t} code was wrong so I waited",
            "they will change the {t} code next week",
            "下个月起{t}的密码要改，还没通知",
        ]
    ),
    frame=st.sampled_from(COMPOSED_FRAMES),
)
def test_a_code_asked_or_negated_without_its_value_is_not_a_secret(thing, said, frame):
    text = frame.format(s=said.format(t=thing))
    assert code_phrase_spans(text, looks_like_secret) == [], text
    decision = decide_user_statement(text, now=_NOW, learned_detectors=False)
    assert decision.reason_code != ReasonCode.SECRET_DETECTED, text
