"""Round 15 of issue 32 (precision): false refusals and false holds by class, and the probe
15 sets (tests/data/detector_probe15_precision_{tune,report}.jsonl), committed (c3b0d1c)
before any rule of the round. Only the tuning half's misses were read.

The mechanisms: what makes a value public (memory/detectors/public_values.py), what makes
an account financial (account_kinds.py), what stands where a value would and is not one
(not_values.py), and "I'm a X and a Y" read as "I'm a Y" (clause_readings.py). Each is
tested on what it must let through and, in the same frame, on what must stay refused or
held. Sentences are written here, not copied from a probe set."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation
from memory.detectors.account_kinds import payment_card_number
from memory.detectors.public_values import public_value_spans
from memory.detectors.special_categories import find_special_categories
from tests.helpers.memories import decide_user_statement
from tests.helpers.probes import probe_rows

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


def _outcome(text: str) -> str:
    decision = decide_user_statement(text, now=NOW, learned_detectors=True)
    if decision.operation == Operation.REJECT:
        return "refuse"
    return "hold" if decision.operation == Operation.QUARANTINE else "store"


STORED = [
    # a place or a description after the credential word
    "My passwords are all in Enpass these days.",
    "The router password is in the blue folder under 'Home'.",
    "我的密码都存在钥匙串里。",
    "パスワードはBitwardenに入っています。",
    "비밀번호는 1Password에 저장돼 있어요.",
    "My new password is twelve characters long.",
    "My PIN is something nobody would guess.",
    # public values by format or by label
    "The release tarball's SHA-1 is 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12.",
    "My GPG fingerprint: 9B2C 7E41 0A3D F865 21C7  4E0B D953 1A6F 8C02 7E45",
    "Here's my public key: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vQ2mLr8TzW4pN1bJc9Yh joe@desk",
    "My reservation number at the hotel is 88213047, under my surname.",
    "The parcel's tracking number is 9400 1112 0206 1844 1234 56.",
    "我的运单号是 SF1402837719203，帮我查一下到哪了。",
    "予約番号は 4471-2290 です。",
    "제 회원번호는 20-118832예요.",
    # cards and accounts that are not financial
    "我的游泳卡号是 55012873。",
    "我的校园卡卡号是 2021001234。",
    "我的积分账号是 6600214588。",
    "My Waitrose card number is 9826 3000 4411 2290.",
    "My Avios number is 31190428.",
    # an organisation's account, given to be paid
    "Send the deposit to the agency's company account, IBAN NL91 ABNA 0417 1643 00.",
    # clubs and places
    "I'm a Hearts season ticket holder.",
    "We watched the Saints from the away end.",
    "我是申花的死忠球迷。",
    "I'm friends with Tom and a Catholic priest from his parish.",
]

REFUSED = [
    "The password in the blue folder is Heron!tide77",
    "I stored it in 1Password: Gx8!plum-44 is the master password.",
    "我把密码存在钥匙串里了，是 Lm8#2266",
    "log in with password Xy7!kk29pl",
    "My GPG private key passphrase is Moss-wren-5521",
    "My reservation PIN is 4471.",
    "快递取件码是 5521。",
    "我的会员卡密码是 778812。",
]

HELD = [
    "My Visa is 4539 1488 0343 6467.",
    "我的招行卡号是 6214 8312 3456 7890。",
    "我的卡号是 8812 0034。",  # no qualifier: nothing says it is not a bank's
    "私の口座番号は 7712345 です。",
    "제 계좌번호는 3333-01-2345678이에요.",
    "My brokerage account number with Vanguard is 88120455.",
    "My IBAN is DE89 3704 0044 0532 0130 00, for the refund.",
    "I'm a Hearts fan and a practising Catholic.",
    "I'm a nurse and a member of the Green Party.",
]


@pytest.mark.parametrize("text", STORED)
def test_round15_stores(text):
    assert _outcome(text) == "store"


@pytest.mark.parametrize("text", REFUSED)
def test_round15_still_refuses(text):
    assert _outcome(text) == "refuse"


@pytest.mark.parametrize("text", HELD)
def test_round15_still_holds(text):
    assert _outcome(text) != "store"


@pytest.mark.parametrize(
    ("raw", "card"),
    [
        ("4539148803436467", True),  # Visa
        ("378282246310005", True),  # Amex
        ("6214831234567890", False),  # UnionPay's prefix, not Luhn-valid
        ("202412070045821", False),  # a date-led order number, Luhn-valid by chance
        ("1143941689877224", False),  # an order number led by 1, Luhn-valid
        ("7004123456789016", False),  # a petroleum industry number (7), Luhn-valid
    ],
)
def test_payment_card_number_reads_the_issuer_prefix(raw, card):
    assert payment_card_number(raw) == card


def test_a_secret_word_in_the_label_keeps_the_value_private():
    for text in (
        "My order PIN is 4471",
        "会员卡密码是 778812",
        "the door code for the order is 4471",
    ):
        assert not public_value_spans(text), text


# A public reference and a secret in one text, either order: the secret is still refused;
# a membership number beside a bank card, still held.
_SECRETS = st.from_regex(r"[A-Z][a-z]{3,6}[-#!][a-z]{3,5}[1-9][0-9]{2}", fullmatch=True)
_REFERENCES = st.sampled_from(
    [
        "my order number is 114-3941689-8772232",
        "我的会员卡号是 7788 1203 4456",
        "the commit was 7c4e2a9",
        "my library card number is 21234000567890",
    ]
)


@hsettings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(secret=_SECRETS, reference=_REFERENCES, first=st.booleans())
def test_a_public_value_never_hides_a_secret_beside_it(secret, reference, first):
    parts = [reference, f"my password is {secret}"]
    if first:
        parts.reverse()
    assert _outcome("; ".join(parts)) == "refuse"


@hsettings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(reference=_REFERENCES, first=st.booleans())
def test_a_membership_number_never_hides_a_bank_card_beside_it(reference, first):
    parts = [reference, "我的银行卡号是 6222 0212 3456 7890 128"]
    if first:
        parts.reverse()
    assert _outcome("，".join(parts)) != "store"


def test_coordination_reads_the_second_predicate_only_after_im():
    assert "religion" in find_special_categories("I'm a Celtic fan and a Muslim.")
    assert find_special_categories("My sister is a Celtic fan and a Muslim.") == []


@pytest.mark.parametrize("half", ["tune", "report"])
def test_probe15_sets_are_well_formed(half):
    rows = probe_rows(f"detector_probe15_precision_{half}")
    kinds = Counter(r["kind"] for r in rows)
    assert kinds["positive"] >= 25 and kinds["hard_negative"] + kinds["ordinary"] >= 75
    assert all((r["label"] == "store") == (r["kind"] != "positive") for r in rows)
    assert {"en", "zh", "ja", "ko"} <= {r["lang"] for r in rows}


def test_probe15_halves_share_no_sentence():
    tune = {r["text"] for r in probe_rows("detector_probe15_precision_tune")}
    report = {r["text"] for r in probe_rows("detector_probe15_precision_report")}
    assert not tune & report
