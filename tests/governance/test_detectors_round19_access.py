"""Round 19 of issue 32: a code bound by grammar to a thing that locks or admits, with no
secret word (memory/detectors/access_points.py, and code_phrases' Chinese reading): the
thing's head names its role (a lock, a container that locks, a way in, a keyed device),
the link is a colon, a copula, "takes", a clause of choosing, or the value chosen "for" the
thing. Probe 19 (tests/data/detector_probe19_access_*.jsonl) was written and committed
before any change; its counts are floors here."""

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
# round 19: tune 27/44 with 0/44, report 23/43 with 1/42 — 密码箱 1500 元买的, the prose rule).
_FLOORS = {"detector_probe19_access_tune": (42, 0), "detector_probe19_access_report": (41, 1)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe19_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(name, find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


# Written here, not copied from a probe: things nobody listed, and their look-alikes.
POSITIVE = [
    ("the pantry padlock is 0-3-9", "0-3-9"),
    ("tool cabinet lock: 5521", "5521"),
    ("we went with 8080 for the shed", "8080"),
    ("I picked 1984 for the safe, my birth year", "1984"),
    ("loft hatch lock takes 771", "771"),
    ("my nan set 2205 for her key safe", "2205"),
    ("the greenhouse lock's digits are 2 8 6", "2 8 6"),
    ("office door keypad: A7K9", "A7K9"),
    ("we changed the back gate to 9921", "9921"),
    ("security panel — 9004*", "9004*"),
    ("the school gate keypad 2468#", "2468#"),
    ("the lockbox at the cottage, we use 4410", "4410"),
    ("单元门的开门码 4421", "4421"),
    ("自行车锁的三位数是 721", "721"),
    ("车库卷帘门遥控码 3319", "3319"),
    ("保险柜我选了 102938", "102938"),
    ("the cellar locker is 30 left, 12 right, 4 left", "30 left, 12 right, 4 left"),
    ("the canoe padlock is five nine one", "five nine one"),
    ("notes: 7316 for the boat shed, 0450 for the gun safe", "7316"),
    ("the driveway gate clicker: 60217", "60217"),
    ("柜子是三位数：四零九", "四零九"),
    ("车棚的锁 317", "317"),
    ("물품 보관함 자물쇠 581", "581"),
    ("物置のダイヤルは 274 です", "274"),
]
NEGATIVE = [
    "the door is 1204, second on the left",
    "The number on the front door is 1407.",
    "Gate 12 is closing at 1545",
    "I set the alarm for 0545",
    "the alarm is 0630 on weekdays",
    "the gate opener uses 2 AA batteries",
    "the lock takes 10 minutes to install",
    "I used 2000 dollars for the gate",
    "we set 2025 for the gate renovation",
    "the vault: 2000 years of history",
    "gridlock: 4000 cars stuck",
    "garage door: 4471 Main Street",
    "our door number is 1204",
    "my locker: 14",
    "Platform 3, gate: B12",
    "Flight BA2490 leaves from gate C104",
    "the lockbox holds 4 keys",
    "I changed the lock to a smart one in 2020",
    "储物柜号码是 1204",
    "柜子的型号码是 1234",
    "保险柜是 1500 元买的",
    "大门 8:30 开",
    "车库遥控器换了个 120 块的",
    "2000 for the new door, 1500 for the lock",
    "Budget: 1275 for the garage door",
    "I turned right 22 times at the gate",
    "the padlock is one of the cheap ones",
    "锁了三次门",
    "柜子，1204 房间",
    # the value first and a word in it: a tool used for the thing, not its code
    "we use 1Password for the shared vault",
    "I used Win11Pro for the kiosk in the lobby and 7Zip2024 for the backup safe",
]


@pytest.mark.parametrize("text, value", POSITIVE)
def test_a_code_bound_to_an_access_point_is_refused_and_redacted(text, value):
    assert find_secrets(text), text
    assert value not in redact_secrets(text)[0], text


@pytest.mark.parametrize("text", NEGATIVE)
def test_numbers_beside_access_points_that_are_no_code_pass(text):
    assert not find_secrets(text), text


def test_the_role_of_the_head_decides_not_the_modifier():
    told = "the {t} is 58213"
    for thing in ("kayak rack lock", "trailer deadbolt", "wine vault", "pool gate", "dog flap"):
        found = code_phrase_spans(told.format(t=thing), looks_like_secret)
        assert bool(found) == (thing != "dog flap"), thing
    for thing in ("bus", "room", "flight", "order"):
        assert code_phrase_spans(f"I picked 5821 for the {thing}", looks_like_secret) == []


# Where rules meet: a code bound to an access point, said for later, by a third person, in a
# Chinese/English mix, beside an ordinary sentence, from a tool, is refused and its value
# redacted; a number that names, prices or times the same thing is stored.
_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
_CODES = st.from_regex(r"[1-9][0-9]{3,5}[#*]?", fullmatch=True).filter(
    lambda c: not (len(c) == 4 and c[:2] in ("19", "20"))
)
_THINGS = st.sampled_from(["boathouse padlock", "cellar keypad", "rear gate", "tack room lock"])
_TELLINGS = st.sampled_from(
    ["the {t}: {c}", "the {t} takes {c}", "I picked {c} for the {t}", "the {t}, we use {c}"]
)
_ZH_TELLINGS = st.sampled_from(["后门密码锁：{c}", "储物柜我改成了 {c}", "报警器的用户码 {c}"])


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    code=_CODES,
    thing=_THINGS,
    telling=st.one_of(_TELLINGS, _ZH_TELLINGS),
    frame=st.sampled_from(COMPOSED_FRAMES),
    roles=st.sampled_from([("user",), ("tool",), ("user", "tool")]),
)
def test_a_round19_code_in_another_rules_frame_is_refused(code, thing, telling, frame, roles):
    text = frame.format(s=telling.format(t=thing, c=code))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True, roles=roles)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    assert code not in redact_secrets(text)[0], text


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    thing=_THINGS,
    number=st.integers(min_value=2, max_value=99),
    said=st.sampled_from(
        [
            "the {t} cost {n} dollars",
            "the {t} is {n} metres from the road",
            "the {t} takes {n} minutes to fit",
            "{t} {n} is by the stairs",
            "I bought {n} of the {t} kind",
            "the {t} was fitted in 20{n:02d}",
        ]
    ),
    frame=st.sampled_from(COMPOSED_FRAMES),
)
def test_a_number_that_counts_prices_or_names_the_thing_is_not_a_code(thing, number, said, frame):
    text = frame.format(s=said.format(t=thing, n=number))
    assert code_phrase_spans(text, looks_like_secret) == [], text
    assert not find_secrets(text), text
