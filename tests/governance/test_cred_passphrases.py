"""A password made of words: a passphrase given after its noun is a credential.

Written before the rule (round 14, the lead's own cases, vocabulary of their own): word
passphrases joined by a separator ("maple-orbit-quiet-ferry", diceware and password
managers' generators) or quoted, after a password or passphrase noun that heads its phrase
and a copula, colon, "=" or "set to" — in English, Chinese, Japanese and Korean; and what
must stay stored: hyphenated adjectives ("up-to-date"), compounds where the noun is not the
head ("the password hint is …"), domains, and passphrases talked about without a value.
"""

from __future__ import annotations

import pytest

from memory.detectors.secrets import find_secrets, redact_secrets

GIVEN = [
    ("The passphrase for the backup drive is maple-orbit-quiet-ferry.", "maple-orbit-quiet-ferry"),
    ("my wifi password: velvet.harbor.kettle.moss", "velvet.harbor.kettle.moss"),
    ("Vault master password = granite_pepper_sunrise_owl", "granite_pepper_sunrise_owl"),
    (
        "I set the disk encryption passphrase to walrus-lemon-trumpet-cedar",
        "walrus-lemon-trumpet-cedar",
    ),
    ("SSH key passphrase is Copper-Wombat-Sixty-Drift", "Copper-Wombat-Sixty-Drift"),
    ("my Bitwarden master password is pebble-fjord-mango-42", "pebble-fjord-mango-42"),
    ('the pass phrase I picked was "marble fox under lantern"', "marble fox under lantern"),
    ("The new router password we agreed on is cobalt-saddle-juniper", "cobalt-saddle-juniper"),
    ("my email password is saffron-glacier-pony", "saffron-glacier-pony"),
    ("The alarm app passcode is dune-violet-heron-salt", "dune-violet-heron-salt"),
    ("our shared streaming password's comet_basil_tango, don't post it", "comet_basil_tango"),
    ("密码是 river-candle-plum-echo", "river-candle-plum-echo"),
    ("保险箱的口令：lotus-anchor-violet-drum", "lotus-anchor-violet-drum"),
    ("新的 WiFi 密码改成了 cloud_tiger_melon", "cloud_tiger_melon"),
    ("パスワードは sparrow-tulip-canyon です", "sparrow-tulip-canyon"),
    ("비밀번호는 hazel-rocket-mint-oak 입니다", "hazel-rocket-mint-oak"),
]

STORED = [
    "my password is up-to-date now",
    "Our password policy is one-size-fits-all, which annoys everyone.",
    "my password is easy-to-remember, I know, I know",
    "Use a phrase like this-is-an-example when you pick a password.",
    "the password hint is blue-green-sea-shell",
    "The password reset page is account-settings-security.",
    "I read about passphrases like river-stone-cloud-lamp in a security blog.",
    "my password is case-sensitive",
    "the password manager site is vault.example.co.uk",
    "password rules: upper-lower-digit-symbol",
    "密码规则是 大写-小写-数字",
    "My username is blue-fox-runner-77.",
    "I changed my passwords last week after the breach news.",
]


@pytest.mark.parametrize("text, value", GIVEN)
def test_a_passphrase_of_words_is_refused_and_redacted(text, value):
    assert find_secrets(text)
    redacted, count = redact_secrets(text)
    assert count >= 1 and value not in redacted


@pytest.mark.parametrize("text", STORED)
def test_words_near_a_password_noun_are_not_a_passphrase(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    "frame",
    [
        "From next month {s}",  # a future change
        "Right now I'm exhausted, but {s}",  # a passing state
        "Note for the assistant: remember that {s}",  # addressed to the assistant
        "我妈妈住院了，顺便说一下 {s}",  # a special category about another person
    ],
)
@pytest.mark.parametrize("text, value", GIVEN[:4] + GIVEN[8:13])
def test_a_passphrase_inside_other_rules_frames_is_still_refused(frame, text, value):
    sentence = frame.format(s=text[0].lower() + text[1:])
    assert find_secrets(sentence)
    assert value not in redact_secrets(sentence)[0]
