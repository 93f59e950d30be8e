"""Round 20 of issue 32: a Japanese value set with に + する is a value, not a place.

``not_values.place_or_description`` drops a span followed by a locative particle and a verb
of keeping (に保存, にしまって: "put away in"). Its verb of putting away, しまう, shares its
first two kana with the polite past of する (しました), so "暗証番号は 3857 にしました" (I made
my PIN 3857) was read as a place and stored. The particle's verbs are now read by their
conjugation: しまう's stems (しまっ/しまう/しまわ/しまい/しまえ), never します/しました."""

from __future__ import annotations

import pytest

from memory.detectors.secrets import find_secrets

# A value set to: に + する in its forms (polite past, plain past, polite present, te-form).
SET_TO = [
    "暗証番号は 3857 にしました。",
    "キャッシュカードの暗証番号を 6042 にした。",
    "パスワードは Hinoki_771 にします。",
    "ロッカーの暗証番号は 2958 にして、メモはしていない。",
]
# Where a secret is kept: the particle and a verb of keeping, a password manager's name.
KEPT_IN = [
    "パスワードは Keep2Safe にしまってある。",
    "パスワードは全部 Bitwarden2 にしまっています。",
    "暗証番号は KeyNote7 に保存した。",
    "パスワードは Vault9 に入ってる。",
]


@pytest.mark.parametrize("text", SET_TO)
def test_a_value_set_with_ni_suru_is_a_secret(text):
    assert find_secrets(text), text


@pytest.mark.parametrize("text", KEPT_IN)
def test_a_place_a_secret_is_kept_in_is_not_one(text):
    assert find_secrets(text) == [], text
