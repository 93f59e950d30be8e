"""Round 10 of issue 32: values beside a credential word that are nobody's secret
(memory/detectors/non_secret_values.py): placeholders and public keys. Sentences are
written here, not copied from a probe; each positive is a real secret in the same frame, so
the filter is seen to drop the slot and not the sentence."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.detectors.non_secret_values import is_placeholder, not_secret
from memory.detectors.secrets import find_secrets, redact_secrets

PLACEHOLDERS = [
    "In the README: SMTP_PASSWORD=<smtp-password> goes in .env.local",
    "Put your key in config.yml as api_key: {{ api_key }} and restart.",
    "the docs say `export STRIPE_SECRET=sk_test_xxxxxxxxxxxx` then run make",
    "令牌填 YOUR_ACCESS_TOKEN_HERE 就行，换成你自己的。",
    "パスワード欄には ${DB_PASS} と書いておけば環境変数から読まれます。",
]
PUBLIC = [
    "authorized_keys on the Pi has ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQDk7Lm2Qx9Tw4Rv8Pn3Hc6Yb1 pi@home",
    "The host key fingerprint is SHA256:Qm3Zt8Lw2Rk9Vx4Pn7Hc1Yb6Df0Gj5Ks7Mn2Vq4Wx8A, accept it.",
]
SECRETS = [
    "In the README: SMTP_PASSWORD=Heron-tide-7731 goes in .env.local",
    "Put your key in config.yml as api_key: Zq8mT3vL9wP2xR5nKd7c and restart.",
    "Login: admin / password: Corvid!2290 (from the screenshot)",
    "令牌填 Lq8mZ3tW7xP2rN9vK4hY 就行。",
]


@pytest.mark.parametrize("text", PLACEHOLDERS + PUBLIC)
def test_a_slot_or_a_public_key_is_not_refused(text):
    assert not find_secrets(text), text


@pytest.mark.parametrize("text", SECRETS)
def test_the_same_frames_with_a_value_are_refused(text):
    assert find_secrets(text), text


def test_placeholder_shapes():
    for value in ("xxxxxxxx", "sk-xxxx", "'********'", "<your-key>", "${TOKEN}", "YOUR_KEY_HERE"):
        assert is_placeholder(value), value
    for value in ("x7xxq2", "Maxx9000", "hunter2", "*Tx9*", "yourself42", "herewego!"):
        assert not is_placeholder(value), value


def test_a_span_reaching_outside_a_public_key_is_kept():
    text = "ssh-ed25519 AAAAC3Nza pass Corvid!2290"
    assert not_secret(text, 0, 11)
    assert not not_secret(text, text.index("Corvid"), len(text))


# A placeholder and a real secret in one text: the secret is refused and redacted whichever
# comes first, and the placeholder alone is stored.
_VALUES = st.from_regex(r"[A-Z][a-z]{3,6}[-_#!][a-z]{3,5}[1-9][0-9]{2}", fullmatch=True)
_SLOTS = st.sampled_from(
    ["<your-password>", "xxxxxxxxxx", "********", "${PASSWORD}", "YOUR_PASS_HERE"]
)
_KEYS = st.sampled_from(["DB_PASSWORD", "password", "密码", "パスワード", "MAIL_PASS"])


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=_VALUES, slot=_SLOTS, key=_KEYS, secret_first=st.booleans())
def test_a_placeholder_never_hides_a_secret_beside_it(value, slot, key, secret_first):
    lines = [f"{key}={slot}", f"{key}={value}"]
    if secret_first:
        lines.reverse()
    text = "the example says\n" + "\n".join(lines)
    assert find_secrets(text), text
    assert value not in redact_secrets(text)[0], text
    assert not find_secrets(f"the example says\n{key}={slot}"), slot
