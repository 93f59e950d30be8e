"""Round 15 of issue 32: secret values that do not look like secrets. A value spelled out
(any spelling alphabet, case words, digit and symbol names, Chinese 大写/小写 and digits) is
decoded to its string and read again by every rule; a secret derived from another with its
change given; a configuration directive (``requirepass X``); a question about what to key
in at a prompt, answered on the next line.
Probe 15's halves (tests/data/detector_probe15_values_*.jsonl) were written and committed
before any change; they are floors here."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory.detectors.secrets import find_secrets, redact_secrets
from memory.detectors.spelled_readings import spelled_runs
from tests.helpers.memories import COMPOSED_FRAMES, decide_user_statement
from tests.helpers.probes import caught_and_wrong

# Positives refused by the rules alone, and store-labelled rows refused (measured; main
# before round 15: tuning 24/32 with 2/29, reporting 24/32 with 1/29; after: 31/32 with
# 1/29, 27/32 with 1/29).
_FLOORS = {"tune": (31, 1), "report": (27, 1)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe15_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(f"detector_probe15_values_{name}", find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


@pytest.mark.parametrize(
    ("text", "spelled"),
    [
        ("pw: Y as in yacht, 4, lowercase t, hash, 6", "Y4t#6"),
        ("it's Victor-Echo-Romeo-Oscar then double seven", "VERO77"),
        ("all lowercase: quebec, uniform, echo, sierra, forty two", "ques42"),
        ("大写的 H，小写的 k，数字 5，下划线，9", "Hk5_9"),
        ("r.i.v.e.r.3", "river3"),
    ],
)
def test_a_spelled_run_decodes_to_its_string(text, spelled):
    assert [s for _, _, s in spelled_runs(text)] == [spelled]


# Written here, not copied from a probe; each negative is a look-alike the rule must pass.
POSITIVE = [
    "the router password is Y as in yacht, 4, lowercase t, hash, 6",
    "my email password, spelled out: Victor Echo Romeo Oscar then double seven",
    "kid's tablet passcode: Delta Hotel 7 Papa 2 Whiskey",
    "wifi key is all lowercase: quebec, uniform, echo, sierra, forty two",
    "路由器密码是 大写的 H，小写的 k，数字 5，下划线，9",
    "the bank login: s.n.o.w.f.a.l.l.8.1",
    "the cottage wifi is the same as the flat's but with #9 at the end",
    "my work password is my usual one plus 2026",
    "公司邮箱的密码跟我QQ密码一样，最后再加个 !!",
    "the router PIN is the name of our first cat plus 42",
    "sentinel.conf: sentinel auth-pass mymaster Tulip7ray",
    "masterauth k4ngaroo88 is in the replica's config",
    "what do you enter at the disk unlock prompt?\nheron&oak5",
    "the forum password is my usual with the month in front",
    "网银密码跟邮箱密码相同，后面再加上出生年",
    "user pumps / pass c0ldW8ter-loop",
    "login: ana.k, pw Tulip-9x",
    "curl -u ops:glassFrog2 https://grafana.local/api",
    "he read it out as capital B, lowercase r, i, n, e, 4, 1",
]
NEGATIVE = [
    "my reference is Quebec Hotel Four Two Tango Lima",
    "spell the street for the driver: Lima, India, November, Delta, Echo, November",
    "the invoice number is four four seven two nine",
    "大写的 A 和小写的 a 读音一样",
    "the cottage wifi is the same as the flat's, same router too",
    "I use the same password everywhere, plus I never change it",
    "bypass 4G on the old phone, it drains the battery",
    "requirepass is unset on the test box",
    "what do you enter at the prompt?\nyour email address",
    "Foxtrot Uniform November, my friend said on the radio, laughing",
    "A, B, C, D are the answer options",
    "docker run -u 1000:1000 alpine",
    "my birthday is the same as my mum's, with the year after it being different",
    "Use `curl -u USER:PASS` with your own details.",
    "user alice, password reset yesterday",
    "my name is spelled capital D, lowercase e, a, n",
]


@pytest.mark.parametrize("text", POSITIVE)
def test_found(text):
    assert find_secrets(text), text


@pytest.mark.parametrize("text", NEGATIVE)
def test_look_alikes_pass(text):
    assert not find_secrets(text), text


# Where rules meet (a credential is refused before any time, subject, provenance or
# special-category rule): a round-15 telling inside a change said for later, tool output, a
# third person, a question or a negation is refused, and its value redacted.
_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
_NATO = "Alfa Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike".split()
_NATO += "November Oscar Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey Xray Yankee".split()
_NATO += ["Zulu"]
_DIGITS = "zero one two three four five six seven eight nine".split()


@st.composite
def _spelled(draw):
    """(a value of 5–8 letters and digits, how one spells it out, what stands in the text)."""
    chars = draw(st.lists(st.sampled_from("abcdefghkmnprstuvwxyz23456789"), min_size=5, max_size=8))
    if not any(c.isdigit() for c in chars):
        chars[-1] = "7"
    style = draw(st.sampled_from(["nato", "as_in", "zh", "dotted"]))
    units = []
    for c in chars:
        if c.isdigit():
            units.append(c if style in ("zh", "dotted") else _DIGITS[int(c)])
        elif style == "nato":
            units.append(_NATO[ord(c) - 97])
        elif style == "as_in":
            units.append(f"{c.upper()} as in {_NATO[ord(c) - 97]}")
        elif style == "zh":
            units.append(f"小写的 {c}")
        else:
            units.append(c)
    sep = "." if style == "dotted" else "，" if style == "zh" else ", "
    return "".join(chars), sep.join(units)


_TELLINGS = [
    "the password is {s}",
    "wifi password, spelled out: {s}",
    "邮箱密码是 {s}",
    "PIN for the garage: {s}",
]
_FRAMES = (
    *COMPOSED_FRAMES,
    "Is it right that {s}?",
    "I never said it wasn't: {s}",
)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    spelled=_spelled(),
    telling=st.sampled_from(_TELLINGS),
    frame=st.sampled_from(_FRAMES),
    roles=st.sampled_from([("user",), ("tool",), ("user", "tool")]),
)
def test_a_spelled_secret_in_another_rules_frame_is_refused(spelled, telling, frame, roles):
    _, said = spelled
    text = frame.format(s=telling.format(s=said))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True, roles=roles)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    redacted = redact_secrets(text)[0]
    assert said not in redacted and "[REDACTED]" in redacted, text


@hsettings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    change=st.from_regex(r"[!#$%*]{1,2}[0-9]{0,2}|[0-9]{2,4}", fullmatch=True),
    telling=st.sampled_from(
        [
            "the guest wifi is the same as ours but with {c} at the end",
            "my bank password is my usual one plus {c}",
            "密码跟家里wifi一样，后面加个 {c}",
            "redis.conf: requirepass tern{c}Qx",
        ]
    ),
    frame=st.sampled_from(_FRAMES),
)
def test_a_derived_secret_or_a_directive_in_another_rules_frame_is_refused(change, telling, frame):
    text = frame.format(s=telling.format(c=change))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=False)
    assert decision.reason_code == ReasonCode.SECRET_DETECTED, text


@pytest.mark.parametrize("text", ["We had dumplings on Sunday.", "下周开始，我每天学日语。"])
def test_the_ordinary_sentences_alone_are_stored(text):
    assert not find_secrets(text)
