"""Values given as an answer or keyed into a device (round 11 of issue 32).

Every other detector reads a credential word and its value in one sentence. These shapes
put them apart or leave the word out:

- **an answer to a question about a credential**: a question that asks for a password, a
  code or a network's key ("which code opens the shed?", 開機密碼？, 「Wi-Fiは？」) and, right
  after it, its answer: the next line (after an optional ``A:``, ``答：``, ``> `` or a
  dash), the rest of the line (after "oh right", 哦对, 아 맞다: "house wifi? Porch2291"; a
  Korean, Japanese or Chinese question to oneself needs no mark: 비번 뭐더라, sky1234), or
  the next quotation; and the exchange reported ("she asked for the wifi and I said X",
  她问我 wifi，我说 X) (「…」って聞かれたから「X」). The answer counts when it is
  a value (``looks_like_secret``: a made token, or four to twelve digits) and, for digits,
  only when the question names a code, not just a network. A question with no credential
  word ("when's the dentist?" / "14:30") asks for nothing secret;
- **a code keyed with its terminating key**: "3381 then the star key", "6027 and press
  enter", "N, then hash": keypads end a code with ✱, #, OK or enter (EN 50131 alarm panels,
  ISO 9564 PIN pads), a number followed by one is being keyed. The keying device or the
  arming action as the subject says the same ("the keypad is 3381", "alarm disarm is
  6027"), and in Chinese a number the door or keypad opens on (键盘 80417 开);
- **a value chosen for an account**: "for the NAS admin account I went with X", "I use X
  for my bank login": a choice verb, a value with letters, digits and an inner symbol (the
  shape a password policy asks for; not a version, a file, an address) and the account or
  sign-in it is for in the same sentence;
- **a card security code by its local name** (ISO/IEC 7812 cards: CVV, CVC, CID, CSC;
  セキュリティコード, 보안코드, 安全碼) beside the card it is printed on.

Digits need four to twelve (a card code three or four) and no unit after them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.detectors.literal_gated import literal_gated
from memory.detectors.prefilter import search_any
from memory.detectors.switches import detection_switch

# --- an answer to a question ----------------------------------------------------------------
_ASKED_CODE = (
    r"pass(?:word|code|phrase)s?|pins?|codes?|combinations?|combos?|keys?|"
    r"密码|密碼|口令|暗证|暗證|暗証番号|暗号|パスワード|パスコード|비밀번호|비번|암호|"
    r"验证码|驗證碼|认证码|認証コード|인증번호|"
    # what one keys in at a prompt asks for its code ("what do I type at the BIOS prompt?")
    r"(?:do|should|did|must)\s+(?:i|you|we)\s+(?:type|enter|key\s+in|punch\s+in)\b|输入什么|输什么"
)
# Codes and numbers that are nobody's secret (a voucher, a postcode, an order's reference).
_NOT_ASKED = re.compile(
    r"\b(?:promo|discount|coupon|voucher|referral|zip|postal|post|area|country|dress|error|"
    r"status|tracking|product|booking|reference|order|confirmation|colou?r|qr|bar|course|tax|"
    r"sort|airport|source|cheat)\s+(?:codes?|numbers?|keys?)\b|\bcode\s+names?\b|"
    # a network asked for by its name asks for no key ("what's the wifi called?")
    r"\b(?:called|named)\b|叫什么|名字|名称|"
    r"优惠码|優惠碼|邮编|郵編|区号|區號|单号|單號|二维码|クーポン|쿠폰",
    re.IGNORECASE,
)
# A network asked for by name asks for its key (a made value only, not digits).
_ASKED_NETWORK = r"wi-?fi|wlan|hotspot|ssid|ワイファイ|와이파이|无线|無線|热点|熱點"
# A question put to oneself while recalling has no question mark in Korean, Japanese or
# Chinese ("비번 뭐더라", "パスワードなんだっけ", 密码是啥来着).
_RECALL = r"(?:뭐더라|뭐였더라|뭐였지|なんだっけ|何だっけ|来着|來著)"
_QUESTION = re.compile(
    rf"(?P<ask>[^?？\n「」“”\"]{{0,60}}?(?:(?P<code>{_ASKED_CODE})|(?P<net>{_ASKED_NETWORK}))"
    r"[^?？\n「」“”\"]{0,30}?)(?:\?|？|" + _RECALL + r"[?？,，、]?)",
    re.IGNORECASE,
)
# ``_QUESTION``'s end alone: its word, at most 30 characters, the question mark. Every match
# of ``_QUESTION`` holds a match of it (from where the word starts), so text without one has
# no question to read: a gate (``ENGRAM_DETECTOR_QUESTION_TAIL_GATE``) that skips the
# question pattern's lazy 60-character lead tried at every position (about 2 ms a turn with
# a question mark; tests/memory/test_detector_gates.py).
_QUESTION_TAIL = re.compile(
    rf"(?:{_ASKED_CODE}|{_ASKED_NETWORK})[^?？\n「」“”\"]{{0,30}}?(?:\?|？|{_RECALL})",
    re.IGNORECASE,
)
# What may stand between a question and its answer: a line break and an answer's marker,
# or a closing quote, a few words ("って聞かれたから", "he asked, so I said") and an opening one.
_ANSWER_LEAD = re.compile(
    r"(?:[ \t]*\n[ \t]*(?:(?:a|answer|ans|答|回答|答え|답)\s*[:：]\s*|>\s*|[-–—]\s*"
    # the next speaker's turn in a chat log ("Mom: 0917", "妈妈：0917")
    r"|[A-Z][A-Za-z]{0,15}\s?[:：]\s*|[\u3400-\u9fff\uac00-\ud7af\u3040-\u30ff]{1,4}\s?[:：]\s*)?"
    # or an arrow on the same line ("비번 뭐였지? → sky0412")
    r"|[ \t]*(?:→|->|=>|⇒|➡️?)[ \t]*"
    # or on the same line, after the speaker remembers ("wifi? oh right, Porch2291", "아 맞다")
    r"|[ \t]*(?:(?:a|answer|答)\s*[:：]\s*|[ \t,，、]?"
    r"(?:(?:oh|ah|right|yeah|yes|yep|it's|that's|哦|噢|对|對|嗯|아|맞다|あ|そうだ)[ \t,，、!！.…]*){0,3})"
    r"|[」”\"][^「“\"\n。！？.!?]{0,24}?[「“\"])"
    r"(?P<value>[^\s,，、。；;」”\"]{3,40})",
    re.IGNORECASE,
)
_DIGITS_ONLY = re.compile(r"[#*]?\d(?:[\d -]{1,14})?\d[#*]?")
_UNIT_AFTER = re.compile(
    r"\s*(?:minutes?|mins?|hours?|days?|weeks?|years?|people|kids|pm|am|o'clock|%|"
    r"時|点|點|分|人|個|个|元|円|歳|岁|살|명|개|시)",
    re.IGNORECASE,
)


def answered_value_spans(
    text: str, looks_like_secret: Callable[[str], bool]
) -> list[tuple[int, int]]:
    """Values given as the answer to a question that asks for a credential."""
    if "?" not in text and "？" not in text and (text.isascii() or not re.search(_RECALL, text)):
        return []
    if detection_switch("QUESTION_TAIL_GATE") and _QUESTION_TAIL.search(text) is None:
        return []
    spans = []
    for q in _QUESTION.finditer(text):
        a = _ANSWER_LEAD.match(text, q.end())
        if a is None or _NOT_ASKED.search(q.group("ask")):
            continue
        value = a.group("value").rstrip(".!?")
        if value.isascii() is False and value[0].isascii():  # "hoshi2024だ": the ASCII run
            value = re.match(r"[!-~]+", value).group()
        end = a.start("value") + len(value)
        digits = re.sub(r"[\s#*-]", "", value)
        if _DIGITS_ONLY.fullmatch(value) or digits.isdigit():
            if q.group("code") is None or not 4 <= len(digits) <= 12:
                continue
            if _UNIT_AFTER.match(text, end) or ":" in value:
                continue
        elif not looks_like_secret(value):
            continue
        spans.append((a.start("value"), end))
    return spans


# The same exchange reported: "she asked for the wifi and I said Porch2291", "he asked me
# for the gate code, so I told him 4471", 她问我 wifi，我说 Porch2291.
_REPORTED = re.compile(
    r"\basked\s+(?:me\s+|us\s+)?(?:for|about|what)\s+(?:the|my|our|his|her|their|is\s+the)\s+"
    rf"(?:[\w'-]+\s+){{0,2}}?(?:(?P<code>{_ASKED_CODE})|(?P<net>{_ASKED_NETWORK}))\b"
    r"[^.!?\n]{0,20}?\b(?:i|so\s+i)\s+(?:said|told\s+(?:him|her|them)|gave\s+(?:him|her|them)|"
    r"texted(?:\s+(?:him|her|them))?)"
    r"|(?:问|問)(?:我|了我)?\s*(?:要)?\s*(?:(?P<code2>密码|密碼|口令|验证码|驗證碼)|(?P<net2>wi-?fi|热点|熱點))"
    r"[^。！？\n]{0,8}?[，,、]\s*(?:我)?(?:说|說|告诉(?:他|她|他们)|告訴(?:他|她|他們)|回)",
    re.IGNORECASE,
)
_REPORTED_VALUE = re.compile(
    r"\s*[:：,，]?\s*(?:(?:it's|it\s+was|it\s+is|是|就是)\s*)?[\"'“「]?(?P<value>[!-~]{4,40})"
)


def reported_answer_spans(
    text: str, looks_like_secret: Callable[[str], bool]
) -> list[tuple[int, int]]:
    """A value told in reply to a request for a credential, the exchange reported."""
    spans = []
    for q in _REPORTED.finditer(text):
        a = _REPORTED_VALUE.match(text, q.end())
        if a is None:
            continue
        value = a.group("value").rstrip(".,;:!?\"'”’)")
        digits = re.sub(r"[\s#*-]", "", value)
        if digits.isdigit():
            code = q.group("code") or q.group("code2")
            if code is None or not 4 <= len(digits) <= 12 or _UNIT_AFTER.match(text, a.end()):
                continue
        elif not looks_like_secret(value):
            continue
        spans.append((a.start("value"), a.start("value") + len(value)))
    return spans


# --- a code keyed with its terminating key --------------------------------------------------
_CODE = r"(?P<value>[#*]?\d(?:[\d -]{2,10})?\d)"
_TERMINATOR = (
    r"(?:the\s+)?(?:star|asterisk|hash|pound|enter|ok|tick|check|green|#|\*|✱)"
    r"(?:\s+(?:key|button|sign))?"
)
_KEYED_EN = [
    # "3381 then the star key", "6027 and press enter", "N, then hash"
    re.compile(
        rf"(?<![\d.:/-]){_CODE}\s*,?\s*(?:(?:and\s+)?then\s+(?:(?:press|hit|push|tap)\s+)?"
        rf"|and\s+(?:press|hit|push|tap)\s+){_TERMINATOR}(?![A-Za-z])",
        re.IGNORECASE,
    ),
    # the keying device or the arming action as the subject: "the keypad is 3381"
    re.compile(
        r"\b(?:keypad|key\s*pad|disarm|unset|arming|disarming|keybox|key\s+box|keysafe)"
        rf"(?:'s|\s+is|\s+was|\s*:)\s*(?:now\s+)?{_CODE}(?![\d:/]|\.\d)",
        re.IGNORECASE,
    ),
]
# Chinese: a door, lock or keypad that opens on a number (键盘 80417 开, 门锁 2468 就开了).
_KEYED_ZH = re.compile(
    r"(?:键盘|鍵盤|面板|门锁|門鎖|密码锁|密碼鎖|门口|門口|大门|大門|车库|車庫)[^。！？\n，,]{0,8}?"
    rf"(?<!\d){_CODE}(?!\d)\s*(?:就|才|便)?(?:能|可以)?(?:开|開|解锁|解鎖|进|進)"
)
# Every rule above holds one of these words (a plain search: cheaper than each rule's).
_KEYED_GATE = re.compile(
    r"then|press|hit|push|tap|key\s*pad|disarm|unset|arming|key\s*box|keysafe|"
    r"键盘|鍵盤|面板|门锁|門鎖|密码锁|密碼鎖|门口|門口|大门|大門|车库|車庫",
    re.IGNORECASE,
)


# Asked only where their literals are (memory/detectors/literal_gated.py).
_KEYED_GATE, _QUESTION_TAIL = literal_gated(_KEYED_GATE), literal_gated(_QUESTION_TAIL)
_REPORTED = literal_gated(_REPORTED)


def keyed_code_spans(text: str) -> list[tuple[int, int]]:
    """Numbers keyed with a terminating key, or by the device or action that takes them."""
    if not _KEYED_GATE.search(text):
        return []
    spans = []
    for rx in [*_KEYED_EN, _KEYED_ZH]:
        for m in rx.finditer(text):
            digits = re.sub(r"[\s#*-]", "", m.group("value"))
            if 4 <= len(digits) <= 12 and not _UNIT_AFTER.match(text, m.end("value")):
                spans.append(m.span("value"))
    return spans


# --- a value chosen for an account ---------------------------------------------------------
_CHOSEN = re.compile(
    r"\b(?:went\s+with|settled\s+on|picked|chose|opted\s+for|use|used|using|set\s+it\s+to)\s+"
    r"[\"'“‘]?(?P<value>[!-~]{6,40})",
    re.IGNORECASE,
)
_ACCOUNT = re.compile(
    r"\b(?:accounts?|log-?ins?|sign-?ins?|portal|admin|user\s+profile|profile)\b", re.IGNORECASE
)
_CHOSEN_GATE = [_CHOSEN]  # one list object: the prefilter caches its plan by the list
_NOT_CHOSEN_SHAPE = re.compile(
    r"[A-Za-z]*[-_]?v?\d+(?:\.\d+)+.*|.*(?:://|@).*|.*\.[A-Za-z]{2,4}|[A-Za-z]+[-.]?\d{1,2}",
    re.IGNORECASE,
)


def _policy_shaped(value: str) -> bool:
    inner = value[1:-1]
    return (
        sum(c.isalpha() for c in value) >= 3
        and any(c.isdigit() for c in value)
        and any(not c.isalnum() for c in inner)
        and not _NOT_CHOSEN_SHAPE.fullmatch(value)
    )


def chosen_value_spans(text: str) -> list[tuple[int, int]]:
    """A policy-shaped value chosen or used for an account named in the same sentence."""
    if not _ACCOUNT.search(text) or not search_any(_CHOSEN_GATE, text):
        return []
    spans = []
    for m in _CHOSEN.finditer(text):
        value = m.group("value").rstrip(".,;:!?\"'”’)")
        lo, hi = _sentence_around(text, m.start())
        if _policy_shaped(value) and _ACCOUNT.search(text, lo, hi):
            spans.append((m.start("value"), m.start("value") + len(value)))
    return spans


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？\n]")


def _sentence_around(text: str, at: int) -> tuple[int, int]:
    lo = 0
    for m in _SENTENCE_END.finditer(text, 0, at):
        lo = m.end()
    end = _SENTENCE_END.search(text, at)
    return lo, end.start() if end else len(text)


# --- a card security code by its local name -------------------------------------------------
_CARD_CODE = re.compile(
    r"(?:\b(?:cvv2?|cvc2?|cid|csc)\b|card\s+security\s+code|セキュリティー?コード|보안\s*코드|"
    r"安全碼|安全码|背面の?番号|"
    # or described by where it is printed: "the (last) three digits on the back (of my
    # Visa)", 卡背面(最后)三位, 뒷면 세 자리
    r"(?:(?:last|final)\s+)?(?:3|4|three|four)(?:\s+(?:digits?|numbers?))?\s+on\s+the\s+back"
    r"(?:\s+of\s+(?:the|my|our|your|his|her)\s+(?:[\w-]+\s+){0,2}?[\w-]+)?|"
    r"背面(?:的)?(?:最后|最後|那)?(?:三|四|3|4)(?:位|个|個)(?:数字|數字|数|數|号码|號碼)?|뒷면\s*(?:세|네|3|4)\s*자리)"
    r"\s*(?:は|는|은|:|：|是|為|为|is|was|are|were|=)?\s*(?P<value>\d{3,4})(?!\d)",
    re.IGNORECASE,
)
# A card, or one named by its network (the closed class of ISO/IEC 7812 issuers' brands).
_CARD = re.compile(
    r"\b(?:card|visa|mastercard|amex|discover|unionpay|jcb)\b|カード|카드|卡", re.IGNORECASE
)


# Asked only where their literals are (memory/detectors/literal_gated.py).
_ACCOUNT, _CARD = literal_gated(_ACCOUNT), literal_gated(_CARD)


def card_code_spans(text: str) -> list[tuple[int, int]]:
    """A card's security code named in any language, with the card in the same text."""
    if not _CARD.search(text):
        return []
    return [m.span("value") for m in _CARD_CODE.finditer(text)]


def asked_value_spans(text: str, looks_like_secret: Callable[[str], bool]) -> list[tuple[int, int]]:
    """Every value this module reads (the module docstring)."""
    return (
        answered_value_spans(text, looks_like_secret)
        + reported_answer_spans(text, looks_like_secret)
        + keyed_code_spans(text)
        + card_code_spans(text)
        + chosen_value_spans(text)
    )
