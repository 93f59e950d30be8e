"""Round 19 of issue 32, precision: a credential named with no value beside it is no
secret. A credential noun inside the run of words that names it ("the gate code last
week"), a combination under a public modifier ("the winning combination"), a setting's
name and "=" (``LANG=en_US.UTF-8``), a pointer to where the secret is kept ("password: see
the vault entry"), a statement that there is none ("the guest wifi has no password") and a
container's time zone and port were refused; "my church friends" was held as the user's
religion. Probe 19's halves (tests/data/detector_probe19_precision_*.jsonl) were written
and committed before any change; they are floors here. The sentences below were written
apart from them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, assume, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory.detectors.formats import grouped_key_spans, policy_token_spans
from memory.detectors.not_values import pointer
from memory.detectors.secrets import CREDENTIAL_WORDS
from memory.detectors.unvalued_mentions import without_unvalued_mentions
from memory.write_policy.warm_up import decide_tool_inference
from tests.helpers.memories import COMPOSED_FRAMES, decide_user_statement
from tests.helpers.probes import probe_rows

_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def _outcome(text: str, roles: tuple[str, ...] = ("user",)) -> str:
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True, roles=roles)
    if decision.operation == Operation.REJECT:
        return "refuse"
    return "hold" if decision.operation == Operation.QUARANTINE else "store"


# Through the policy with the learned heads (measured: main before round 19, tuning half 56
# of 66 look-alikes stored and 22/22 positives right, reporting half 60/65 and 22/22; after:
# tuning 65/66 and 22/22, reporting: see docs/write-policy.md).
_FLOORS = {"tune": (65, 22)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe19_floors_through_the_policy(name):
    rows = probe_rows(f"detector_probe19_precision_{name}")
    stored = sum(_outcome(r["text"]) == "store" for r in rows if r["label"] == "store")
    right = 0
    for r in rows:
        if r["label"] == "store":
            continue
        got = _outcome(r["text"])
        right += got == "refuse" if r["label"] == "refuse" else got != "store"
    floor_stored, floor_right = _FLOORS[name]
    assert stored >= floor_stored and right >= floor_right, (name, stored, right)


NEGATIVE = [
    "they reset the door code over the holidays",
    "the alarm code was updated this morning, I'll ask the concierge",
    "the winning combination on Saturday was 2-19-30-44",
    "the lucky combo was 7-7-7 on the slot machine",
    "export TERM=xterm-256color before running tmux",
    "LC_ALL=C.UTF-8 python3 manage.py migrate",
    "password: check the team wiki",
    "PIN: ask reception, they keep it",
    "the locker code: see the welcome email",
    "WiFi密码：见前台的告示",
    "the study room has no PIN, it's open all day",
    "our holiday cottage doesn't need a wifi password",
    "这台路由器没有密码",
    "docker run -e TZ=America/Chicago -p 3000:3000 grafana/grafana",
    "we went bowling with my church friends on Friday",
]
POSITIVE_REFUSED = [
    "they reset the door code over the holidays; it's 6620 now",
    "password: check the wiki, or just use Sparrow!41",
    "PIN: ask reception or type 9182",
    "the study room has no PIN, but the server room code is 5307",
    "docker run -e TZ=America/Chicago -e ADMIN_PASSWORD=Quill-Frost-8 grafana/grafana",
    "管理员密码：问老李，是 lili2024",
    "the safe combination is 31-7-22",
]
POSITIVE_HELD = [
    "I go to church every Sunday with my church friends",
    "my church is the centre of my life",
    "我每个礼拜天都去教堂做弥撒",
]


@pytest.mark.parametrize("text", NEGATIVE)
def test_a_credential_named_with_no_value_is_stored(text):
    assert _outcome(text) == "store", text


@pytest.mark.parametrize("text", POSITIVE_REFUSED)
def test_a_value_beside_the_same_frames_is_refused(text):
    assert _outcome(text) == "refuse", text


@pytest.mark.parametrize("text", POSITIVE_HELD)
def test_religious_practice_and_belonging_stay_held(text):
    assert _outcome(text) == "hold", text


def test_letter_groups_holding_the_credential_word_are_the_sentence():
    text = "they moved the gate code last week"
    assert grouped_key_spans(text, cue=CREDENTIAL_WORDS) == []
    key = "the recovery key: qwer tyui asdf ghjk"
    assert grouped_key_spans(key, cue=CREDENTIAL_WORDS) == [(18, len(key))]
    assert grouped_key_spans(key, cue=None) == []  # letters alone need a credential word


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("LANG=en_US.UTF-8", False),
        ("log_level=Debug#2", False),
        ("DB_PASS=Lemon!ade42", True),  # the value alone has all four classes
        ("Ab1=xyz!Q9", True),  # a password's own "=": no setting's name before it
        ("Tr0ub4dor&3", True),
    ],
)
def test_a_settings_name_is_not_judged_as_part_of_its_value(text, found):
    assert bool(policy_token_spans(text)) is found


@pytest.mark.parametrize(
    ("value", "is_pointer"),
    [
        ("see the vault entry", True),
        ("ask Priya", True),
        ("见群公告", True),
        ("see4you", False),
        ("check123", False),
        ("ask me 2 times", False),
        ("correct horse battery staple", False),
        ("看海1988", False),
    ],
)
def test_a_pointer_is_an_order_to_consult_with_no_digit(value, is_pointer):
    assert pointer(value) is is_pointer


def test_the_mask_blanks_only_what_names_no_value():
    assert without_unvalued_mentions("a quiet street") == "a quiet street"
    assert "password" not in without_unvalued_mentions("the guest wifi has no password")
    masked = without_unvalued_mentions("docker run -e MYSQL_PASSWORD=x9 -e TZ=UTC -p 80:80 db")
    assert "MYSQL_PASSWORD=x9" in masked and "TZ" not in masked and "80:80" not in masked


# A frame that names a credential with no value, then a real value: the value is refused
# whatever the frame, the value's form and the rule frame around both.
_NO_VALUE_FRAMES = [
    "they changed the gate code last week",
    "the guest wifi has no password",
    "password: see the vault entry",
    "PIN: ask Priya",
    "the winning combination was 4-12-33-41",
    "docker run -e TZ=Europe/Berlin -p 8080:80 nginx",
    "门禁码上周换了",
    "这个热点不需要密码",
]
_CODE_FRAMES = ("they changed the gate code last week", "门禁码上周换了")
_VALUE_TELLINGS = [
    "the new one is {v}",
    "the alarm code is {v}",
    "my laptop password is {v}",
    "新的门禁码是 {v}",
    "the safe combination is {v}",
]
_JOINS = ["; ", ", but ", ". ", "，", " — "]


@st.composite
def _value(draw):
    kind = draw(st.sampled_from(["digits", "mixed"]))
    if kind == "digits":
        value = draw(st.from_regex(r"[1-9][0-9]{3,6}", fullmatch=True))
        return "4471" if value.startswith(("19", "20")) and len(value) == 4 else value
    word = draw(st.sampled_from(["Heron", "maple", "Quartz", "tulip", "Fjord"]))
    tail = draw(st.from_regex(r"[0-9]{2}[!#]?", fullmatch=True))
    return word + tail


@hsettings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    frame=st.sampled_from(_NO_VALUE_FRAMES),
    telling=st.sampled_from(_VALUE_TELLINGS),
    join=st.sampled_from(_JOINS),
    value=_value(),
    outer=st.sampled_from(("{s}", *COMPOSED_FRAMES)),
    roles=st.sampled_from([("user",), ("tool",)]),
)
def test_a_real_secret_after_a_no_value_frame_is_refused(frame, telling, join, value, outer, roles):
    # "the new one" is a code only after a frame that names one; after a lottery draw, a
    # docker command or a pointer it is a draw, a command or nothing at all
    assume(not telling.startswith("the new one") or frame in _CODE_FRAMES)
    text = outer.format(s=frame + join + telling.format(v=value))
    # A tool's text is read as an agent's inference citing it (how a tool's text reaches
    # the policy): the user's own statement arriving through a tool role alone is refused
    # at step 9 whatever it says, so it would test nothing here (round 21).
    if roles == ("tool",):
        decision = decide_tool_inference(text, now=_NOW, learned_detectors=True)
    else:
        decision = decide_user_statement(text, now=_NOW, learned_detectors=True, roles=roles)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), (roles, text)
