"""Values shaped like secrets that are public by what they identify (round 15 of issue 32).

A secret grants something to whoever holds it; a reference only names a thing, and is made
to be read out to a clerk, printed on a card, a parcel or a book, or published. A value is
public here for one of two reasons:

- **its format is a published one**: an OpenPGP fingerprint as GnuPG prints it (ten groups
  of four hex digits, two spaces after the fifth), a digest or commit hash after the word
  that names it (commit, SHA-256, checksum, 校验值, 哈希, コミット …), an image digest
  (``sha256:`` and 64 hex digits), an ISBN with a valid check digit, a DOI, a blockchain
  address (``bc1…``, ``0x`` and exactly 40 hex digits; a private key is 64); with an
  OpenSSH public key and a key's fingerprint, read in ``non_secret_values``;
- **its label names a reference, not a key**: the label's head noun is an identifier that
  is handed out to be looked up (an order, a parcel, a booking, a membership or loyalty
  card, a library or student card, an employee badge, a vehicle, a run or job). The list
  of those nouns stays a list, as the nouns of a closed class: each is the name of a kind
  of record, and a new phrasing ("my Waitrose card number", 我的游泳卡号) still ends in
  one of them (card number, 卡号 after a non-financial qualifier: ``account_kinds``).

A label that also names a secret (a membership PIN, 会员卡密码, a card's security code)
is never public. Each function returns spans of the text it was given.
"""

from __future__ import annotations

import re

from stdnum import isbn

# An OpenPGP v4 fingerprint as ``gpg --fingerprint`` prints it (upper or lower case).
_PGP = re.compile(
    r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{4} ){4}[0-9A-Fa-f]{4} {1,2}(?:[0-9A-Fa-f]{4} ){4}"
    r"[0-9A-Fa-f]{4}(?![0-9A-Fa-f])"
)
# A digest named by the word before it: the hex after it is the digest's own value.
_DIGEST_WORD = (
    r"commit|sha-?(?:1|256|512)?|md5|checksums?|digests?|hash(?:es)?|fingerprints?|"
    r"校验值|校验和|哈希值?|摘要|提交|指纹|コミット|ハッシュ|チェックサム|커밋|해시|체크섬"
)
_DIGEST = re.compile(
    rf"(?i:(?:{_DIGEST_WORD}))[^\n0-9A-Fa-f]{{0,24}}?"
    r"(?P<value>(?:sha256:)?(?<![0-9A-Za-z])[0-9a-f]{7,64}(?![0-9A-Za-z])|"
    r"(?<![0-9A-Za-z])[0-9A-F]{7,64}(?![0-9A-Za-z]))"
)
_IMAGE_DIGEST = re.compile(r"sha256:[0-9a-f]{64}(?![0-9a-f])")
_DOI = re.compile(r"\b10\.\d{4,9}/[^\s，。]+")
_ADDRESS = re.compile(r"\bbc1[02-9ac-hj-np-z]{25,62}\b|\b0x[0-9a-fA-F]{40}(?![0-9a-fA-F])")
_ISBN = re.compile(r"(?<![\d-])(?:97[89][- ]?)?\d{1,5}[- ]?\d{1,7}[- ]?\d{1,7}[- ]?[\dX](?![\d-])")

# The head nouns of references (see the module docstring), then the value after them.
_REFERENCE_EN = (
    r"order|tracking|shipment|parcel|booking|reservation|confirmation|invoice|receipt|"
    r"ticket|case|claim|job|run|request|build|deployment|task|"
    r"membership|member|loyalty|rewards?|club\s?card|clubcard|library|student|employee|"
    r"staff|badge|frequent[\s-]flyer|miles|skymiles|mileage|passenger|vehicle|VIN|chassis|"
    r"ISBN|ORCID|DOI|ISSN|customer"
)
_REFERENCE_ZH = (
    r"订单|訂單|快递|快遞|运单|運單|物流|单号|單號|会员|會員|积分|積分|图书|圖書|借书|借書|"
    r"学生|學生|学号|學號|工号|工號|员工|員工|常旅客|里程|车架|車架|车辆识别|任务|任務|工单|"
    r"预订|預訂|预约|預約|发票|發票|"
    r"注文|追跡|予約|会員|ポイント|図書館|社員|"
    r"주문|운송장|송장|예약|회원|포인트|도서관|학생|사원"
)
_SECRET_BEFORE = re.compile(
    r"(?i:pass(?:word|code)|\bpins?\b|\bcodes?\b|secret|token|\bkeys?\b|cvv|cvc)|"
    r"(?<![号號])[码碼]|口令|卡密|暗証|パスワード|コード|비밀\s?번호|비번|암호|코드"
)
_REFERENCE = re.compile(
    rf"(?P<label>(?i:\b(?:{_REFERENCE_EN})\b)[\w' -]{{0,24}}?"
    r"(?i:number|no\.?|#|id|ref(?:erence)?|account\s+name)?|"
    rf"(?:{_REFERENCE_ZH})[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7afA-Za-z ]{{0,8}}?"
    r"(?:号码?|號碼?|ID|id|号|號|番号|번호)?)"
    r"(?P<gap>(?:\s|[:：#=(（]|(?i:is|are|was|ends\s+in|for\s+\w+\s+is|with\s+\w+\s+is)\b|"
    r"的|是|为|為|は|는|은|이|가)*)"
    r"(?P<value>(?<![A-Za-z0-9])[A-Za-z]{0,4}[ -]?\d[A-Za-z0-9 .-]{1,60}[A-Za-z0-9])"
)


def _reference_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for m in _REFERENCE.finditer(text):
        # The clause up to the value and the value (from the sentence start, 40 characters)
        # must name no secret: "the door code for the order pickup is 4471" is a code.
        lead = text[max(0, m.start() - 40) : m.end("value")]
        lead = re.split(r"[.!?。！？;；\n]", lead)[-1]
        if _SECRET_BEFORE.search(lead):
            continue
        value = m.group("value")
        # The value ends at the first word that is not part of it ("… 8772232, the blender").
        value = re.match(r"[A-Za-z0-9]+(?:[ .-][A-Za-z0-9]*\d[A-Za-z0-9]*)*", value).group()
        if not any(c.isdigit() for c in value):
            continue
        start = m.start("value")
        spans.append((start, start + len(value)))
    return spans


def public_value_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` holding public values: published formats and labelled references."""
    spans = [m.span() for m in _PGP.finditer(text)]
    spans += [m.span("value") for m in _DIGEST.finditer(text)]
    spans += [m.span() for m in _IMAGE_DIGEST.finditer(text)]
    spans += [m.span() for m in _DOI.finditer(text)]
    spans += [m.span() for m in _ADDRESS.finditer(text)]
    spans += [m.span() for m in _ISBN.finditer(text) if isbn.is_valid(m.group())]
    spans += _reference_spans(text)
    return sorted(spans)


def inside_public_value(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies within one public value's span."""
    return any(lo <= start and end <= hi for lo, hi in public_value_spans(text))
