"""Values beside a credential word that are not anyone's secret, read by their shape.

Every detector in ``memory.detectors.secrets`` asks whether a token *could* be a secret; this
module answers the opposite question for the span one of them found, so that the answer
holds whichever detector found it (round 10 of issue 32):

- **a placeholder**: a value written to be replaced, not used: one filler character
  repeated (``xxxxxxxx``, ``********``, ``••••``), possibly after a vendor prefix
  (``sk-xxxx``); a template slot (``<your-password-here>``, ``{{token}}``, ``${API_KEY}``,
  ``%(password)s``); a name that says where a value goes (``YOUR_TOKEN_HERE``,
  ``enter-your-key``);
- **a public value**: an OpenSSH public key (``ssh-ed25519 AAAA…``, ``ecdsa-sha2-nistp256
  AAAA…``) and a key's fingerprint (``SHA256:`` and 43 base64 characters, ``MD5:`` and
  colon-separated hex pairs): made to be shown, and useless to an attacker.

- **a published format or a labelled reference** (round 15, ``public_values``): a PGP
  fingerprint, a named digest or commit, an ISBN, a DOI, an address to pay to, an order's,
  a parcel's or a membership card's number.

- **a place or a description** (round 15, ``not_values``): "is in the vault", 在1Password里,
  "is eight characters long".

- **a control's name** (round 21, ``control_labels``): a quoted button, link or menu entry
  the sentence acts on ("click 'Forgot password'", 选择“修改支付密码”).

- **an example in documentation** (round 11): a value inside inline code (backticks) on a
  line that calls it an example, a sample or a placeholder ("the docs use `password:
  changeme` as the example value", 文档里的示例 `token: abc123`): shown to be copied
  and replaced. A value outside the backticks, or on a line that does not call it an
  example, is kept.

Nothing here is a word list of sentences: the shapes are those of the formats themselves.
"""

from __future__ import annotations

import re

from memory.detectors.control_labels import quoted_control_label
from memory.detectors.not_values import place_or_description
from memory.detectors.public_values import public_value_spans
from memory.detectors.story_frames import told_in_story

_QUOTES = "\"'`“”‘’「」『』()[],;:。，"

# One filler character repeated, after an optional vendor prefix ("sk-", "ghp_", "AKIA").
_FILLER = re.compile(r"(?:[A-Za-z0-9]{1,8}[-_]){0,3}(?:[xX]{3,}|[*•●·]{3,}|[.]{4,}|…+)")
# A slot in a template: angle brackets, double braces, shell and printf-style variables.
_TEMPLATE = re.compile(r"<[^<>\s]{1,40}>|\{\{[^{}]{1,40}\}\}|\$\{[^{}]{1,40}\}|%\([^()]{1,40}\)s")
# A name that says where a value goes: YOUR_TOKEN_HERE, enter-your-key, <insert key>.
_SLOT_NAME = re.compile(
    r"(?i:^(?:your|enter|insert|paste|replace)[-_ ][\w-]+$|^[\w-]*?[-_](?:here|goes[-_]here)$)"
)

# OpenSSH public key types (the first field of an authorized_keys line).
_SSH_PUBLIC_TYPE = r"(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)"
_SSH_PUBLIC = re.compile(rf"{_SSH_PUBLIC_TYPE}(?:\s+AAAA[A-Za-z0-9+/]+=*)?")
# A key's fingerprint as ssh-keygen and the SSH clients print it.
_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}=?|MD5:[0-9a-f]{2}(?::[0-9a-f]{2}){15}")


# A line that calls its inline code an example (the nouns documentation uses for one).
_EXAMPLE = re.compile(
    r"\b(?:examples?|samples?|placeholders?|dummy)\b|示例|例子|样例|範例|"
    r"サンプル|例として|예시|예제",
    re.IGNORECASE,
)


def _documented_example(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` starts inside backticks on a line naming an example."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    before = text.count("`", line_start, start)
    return (
        before % 2 == 1
        and "`" in text[start:line_end]
        and _EXAMPLE.search(text, line_start, line_end) is not None
    )


def is_placeholder(value: str) -> bool:
    """Whether ``value`` (a found secret's text) is a slot to fill in, not a value."""
    core = value.strip().rstrip(".!?。").strip(_QUOTES).strip()
    if not core:
        return False
    if _FILLER.fullmatch(core) or _TEMPLATE.fullmatch(core):
        return True
    return bool(_SLOT_NAME.match(core))


def _public_value_spans(text: str) -> list[tuple[int, int]]:
    return sorted(
        [m.span() for m in _SSH_PUBLIC.finditer(text)]
        + [m.span() for m in _FINGERPRINT.finditer(text)]
        + public_value_spans(text)  # published formats and labelled references (round 15)
    )


def without_public_values(text: str) -> str:
    """``text`` with each public value replaced by a space: what the learned credential
    head is asked again before its refusal is overruled, so that only the public value is
    (a password beside an order number is still read)."""
    out, last = [], 0
    for lo, hi in _public_value_spans(text):
        if hi > max(lo, last):
            out += [text[last : max(lo, last)], " "]
            last = hi
    return "".join([*out, text[last:]])


def not_secret(text: str, start: int, end: int) -> bool:
    """Whether the span ``text[start:end]`` a detector found is a placeholder or lies
    inside a public key or a fingerprint (a span reaching outside one is kept)."""
    # A detector may trim a slot's closing brace or bracket: the whole token is read too.
    lo, hi = start, end
    while lo > 0 and not text[lo - 1].isspace() and text[lo - 1] not in "=:：":
        lo -= 1
    while hi < len(text) and not text[hi].isspace():
        hi += 1
    if is_placeholder(text[start:end]) or is_placeholder(text[lo:hi]):
        return True
    if "`" in text and _documented_example(text, start, end):
        return True
    if place_or_description(text, start, end):  # "… is in the vault", 在1Password里
        return True
    if quoted_control_label(text, start, end):  # click 'Forgot password', 点击“忘记密码”
        return True
    for lo, hi in _public_value_spans(text):
        # A fingerprint's value may be found without its "SHA256:" prefix.
        if lo <= start and end <= hi:
            return True
    return False


def secret_spans_kept(text: str, spans: list) -> list:
    """The found ``spans`` (each with ``start``, ``end`` and ``code``) that are a secret:
    not a placeholder or a public value (``not_secret``), nor a character's secret in a
    named work of fiction read in prose (round 20, ``story_frames``)."""
    return [
        span
        for span in spans
        if not not_secret(text, span.start, span.end)
        and not (span.code == "credential_in_prose" and told_in_story(text, span.start, span.end))
    ]
