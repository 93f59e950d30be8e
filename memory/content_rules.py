"""Content detectors used by the write policy: secrets, transient state, sensitive personal
data, system-of-record facts and instruction-like (injection) text, in Chinese and English.

Libraries do what they are good at (detect-secrets for credential formats, python-stdnum
for Chinese resident ID checksums and Luhn, phonenumbers for phone numbers); the rest are
the few patterns no library has. Each detector returns finding codes, never the matched
text, so findings can be logged and audited safely.
"""

from __future__ import annotations

import re
import unicodedata

import phonenumbers
from stdnum.cn import ric

from core.process_state import memoized
from memory.detectors.account_kinds import payment_card_at
from memory.detectors.instructions import (
    find_injection,
    find_instruction_to_agent,
    find_obfuscation,
    find_procedure_like,
)
from memory.detectors.passing_state import just_then_state, passing_state
from memory.detectors.phone_runs import phone_shaped_runs_hold, written_as_phone_number
from memory.detectors.prefilter import search_any
from memory.detectors.secrets import find_secrets, redact_secrets
from memory.detectors.special_categories import find_special_categories
from memory.detectors.switches import detection_switch
from memory.temporal.common import fold_traditional
from memory.text_normalize import normalize_for_detection

__all__ = [
    "find_injection",
    "find_instruction_to_agent",
    "find_obfuscation",
    "find_procedure_like",
    "find_secrets",
    "find_sensitive_personal_data",
    "find_system_of_record",
    "find_transient",
    "normalize_text",
    "redact_secrets",
]

# --- secrets --------------------------------------------------------------------------
# Context and token shape, URLs, formats: memory.detectors.secrets (re-exported here).

# --- transient state ------------------------------------------------------------------
# Transient means a state that expires: the speaker's condition at this moment ("I'm in a
# hurry right now", "我今天很急") or an instruction scoped to this conversation ("for this
# session use staging"). A sentence with a time word is otherwise an episode ("I was bored
# today, so I took my turtles out") and is kept.

_DURABLE_MARKERS = re.compile(
    r"\b(from now on|from today on|going forward|always|every (?:time|day|morning|evening|"
    r"night|week)|usually|often|tends? to|in (the )?future|remember that)\b|"
    r"以后|今后|从今天起|从现在起|从现在开始|一直|每次|每天|每晚|每周|平时|经常|通常|总是|永远|记住|"
    # ja / ko frequency adverbs (a closed set, as the English and Chinese ones above)
    r"いつも|毎日|毎朝|毎晩|普段|항상|매일|자주|보통|평소",
    re.IGNORECASE,
)
_NOW_EN = (
    r"today|tonight|right now|at the moment|currently|this (?:morning|afternoon|evening|week)|"
    r"now|for now|just now"
)
# A present-tense state that will have passed by the next conversation, whoever is in it:
# "I'm", "we are", "User is", "The user feels", "Marta's", "She seems" — the subject does
# not matter (agents write in the third person), the copula and the state do. A state word
# that names a preference or an activity with an object is not a passing state: "tired of
# long emails", "hungry for feedback", "busy with a renovation", "driving a hybrid".
_MOMENTARY_STATE_EN = re.compile(
    r"(?:'m|'re|'s|\b(?:am|is|are|feels?|seems?|looks?))(?:\s+feeling)?\s+"
    r"(?:(?:so|very|really|a bit|kind of|pretty|super|quite|currently|still|just|now|"
    r"right now)\s+)*"
    r"(?:in a (?:hurry|rush|meeting|taxi|cab|queue|line)|rushed|busy(?!\s+with)|short on time|"
    r"pressed for time|tired(?!\s+of)|exhausted|sleepy|hungry(?!\s+for)|thirsty|"
    r"on (?:my|the|his|her|their) (?:phone|way|train|bus|mobile)|"
    r"driving(?!\s+(?:a|an|the|my|his|her|their)\b)|on a call|offline|"
    r"away from (?:my |the |his |her |their )?(?:desk|computer|laptop)|stuck in traffic|"
    r"at the airport|on a deadline|about to (?:board|leave|go))\b",
    re.IGNORECASE,
)
_NOW_ZH = r"今天|今晚|现在|此刻|这会儿|眼下|目前|刚才|一会儿"
_MOMENTARY_STATE_ZH = re.compile(
    r"(?:很|有点|好|太|特别|比较)?(?:急|赶时间|忙|累|困|饿|渴)(?![过坏死的])"
    r"|在(?:开会|开车|路上|地铁上|排队|机场|出差路上)|不方便|没空|手机上"
)
_SCOPED_TO_NOW = re.compile(
    r"\b(?:for this (?:session|task|chat|conversation|answer|reply|question|request|call|thread)|"
    r"just (?:this once|for now|for today)|only (?:for )?this time)\b"
    r"|本次(?:会话|对话|任务)|这次(?:对话|会话|回答|先)|暂时(?:用|别|不要|先|改|按)",
    re.IGNORECASE,
)
_NARRATIVE = re.compile(
    # "'ve got" / "has got" is having, not an event.
    r"\b(?:went|(?<!'ve\s)(?<!'s\s)(?<!have\s)(?<!has\s)got|had|did|was|were|finished|took|ran|made|bought|saw|met|visited|started|"
    r"came|left|won|lost)\b|(?<![为急忙累困饿渴])了|过(?!来|去)|完",
    re.IGNORECASE,
)
_TEMP_PATH = re.compile(r"(/tmp/|/var/tmp/|\\temp\\|%temp%|\.tmp\b)", re.IGNORECASE)


_STRICT_MOMENT = re.compile(
    r"\b(?:right\s+now|at\s+this\s+(?:very\s+)?moment|as\s+we\s+speak|this\s+(?:very\s+)?minute)\b"
    r"|此刻|这会儿|眼下|此时此刻",
    re.IGNORECASE,
)


def _moment_clause_state(sentence: str) -> bool:
    """A clause scoped to this very moment that states a passing state by itself."""
    if not _STRICT_MOMENT.search(sentence):
        return False  # no clause of it can hold the scope
    for clause in re.split(r"[,，;；]\s*", sentence):
        if _STRICT_MOMENT.search(clause) and not _NARRATIVE.search(clause):
            if passing_state(clause):
                return True
    return False


def find_transient(text: str) -> list[str]:
    """Finding codes when the text only describes a passing state (see above). One-time
    codes are secrets (``find_secrets``), not transient state: they must not even reach
    the raw event."""
    text = fold_traditional(normalize_for_detection(text))
    if _TEMP_PATH.search(text):
        return ["transient_state"]
    # Sentence by sentence: a passing state beside a durable plan in another sentence
    # ("I'm exhausted right now; after the move I'll cycle to work") is still a passing
    # state, and the plan's words ("以后", "finished") do not vouch for it.
    for sentence in re.split(r"(?<=[.!?])\s+|[;。！？；\n]", text):
        if _DURABLE_MARKERS.search(sentence):
            continue
        if _SCOPED_TO_NOW.search(sentence):
            return ["transient_state"]
        # An event told as just over and the state it left, ending the sentence ("刚吃完
        # 火锅，撑死了"): the state is the point (passing_state.just_then_state).
        if len(sentence) <= 200 and just_then_state(sentence):
            return ["transient_state"]
        # A state told of this very moment ("right now", 此刻) is passing even beside the
        # event that caused it ("I'm livid right now, they lost my parcel"): the scope says
        # so, unlike a day's ("today"), under which the event makes an episode.
        # A state beside an event is an episode: "I'm exhausted today, I just finished a
        # marathon".
        if len(sentence) > 200:
            continue
        if _NARRATIVE.search(sentence):
            if _moment_clause_state(sentence):
                return ["transient_state"]
            continue
        if _MOMENTARY_STATE_EN.search(sentence) and re.search(
            rf"\b(?:{_NOW_EN})\b", sentence, re.IGNORECASE
        ):
            return ["transient_state"]
        if re.search(r"\b(?:i'?m|i am)\s+(?:in a (?:hurry|rush))", sentence, re.IGNORECASE):
            return ["transient_state"]
        # Chinese, whoever is in the state: a "now" and a passing state in one clause.
        for clause in re.split(r"[，,、：:]", sentence):
            if re.search(_NOW_ZH, clause) and _MOMENTARY_STATE_ZH.search(clause):
                return ["transient_state"]
        # Any state by its structure: a predicate scoped to the moment or the day
        # (memory.detectors.passing_state), in en, zh, ja and ko.
        if passing_state(sentence):
            return ["transient_state"]
    return []


# --- sensitive personal data ----------------------------------------------------------

_DIGIT_RUN = re.compile(r"(?<![\dA-Za-z])(\d[\d -]{11,22}[\dXx])(?![\dA-Za-z])")


# phonenumbers' matcher finds a number only inside a match of its pattern, whose digits are
# ``\d`` (``phonenumbermatcher._PATTERN``, Unicode digits included), and keeps it only when
# valid: a national number of a length its region's metadata allows, after a country code
# of one digit or more unless read as a Chinese number. Text with fewer decimal digits than
# the shortest of these (``_min_phone_digits``, read from the metadata) holds no phone
# number. A prefilter (``ENGRAM_FAST_DETECTION_TEXT``), so the matcher is not run twice
# for nothing.
_ANY_DIGIT = re.compile(r"\d")


# The shortest national significant number libphonenumber accepts (its documented minimum,
# 2). Ours, not read from the library's private constant; a smaller value would only send
# more text to the matcher (tests/memory/test_detector_plumbing.py compares it).
MIN_NATIONAL_NUMBER_LENGTH = 2


@memoized("memory.content_rules.min_phone_digits", maxsize=1)
def _min_phone_digits() -> int:
    """Fewest digits a number ``find_sensitive_personal_data`` accepts is written with: one
    for the country code and the shortest national number of any region or non-geographic
    code, or, read in CN without a country code, CN's shortest. A description without
    lengths allows any from phonenumbers' minimum (2)."""
    from phonenumbers.phonemetadata import PhoneMetadata

    least = MIN_NATIONAL_NUMBER_LENGTH

    def shortest(metadata) -> int:
        lengths = []
        for name in _PHONE_DESCRIPTIONS:
            desc = getattr(metadata, name, None)
            if desc is None or desc.national_number_pattern is None:
                continue
            if tuple(desc.possible_length) == (-1,):  # the metadata's "no such numbers"
                continue
            lengths.append(min(desc.possible_length, default=least))
        return max(least, min(lengths, default=least))

    regions = [PhoneMetadata.metadata_for_region(r) for r in phonenumbers.SUPPORTED_REGIONS]
    regions += [
        PhoneMetadata.metadata_for_nongeo_region(c)
        for c in phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS
    ]
    international = 1 + min(shortest(m) for m in regions if m is not None)
    return min(international, shortest(PhoneMetadata.metadata_for_region("CN")))


_PHONE_DESCRIPTIONS = (
    "general_desc", "fixed_line", "mobile", "toll_free", "premium_rate", "shared_cost",
    "personal_number", "voip", "pager", "uan", "voicemail",
)  # fmt: skip


def _no_plus_for_unknown_region(text: str) -> bool:
    """Read with no region ("ZZ"), phonenumbers parses a number only when it starts with a
    plus sign ("+" or the full-width "＋"; its ``parse``: "If the number is guaranteed to
    start with a '+' followed by the country calling code, then None or UNKNOWN_REGION can
    be supplied"); otherwise it raises INVALID_COUNTRY_CODE and the matcher finds nothing. So text without a plus sign holds no number read so
    (``ENGRAM_DETECTOR_PHONE_PLUS_GATE``; tests/memory/test_detector_gates.py)."""
    return detection_switch("PHONE_PLUS_GATE") and "+" not in text and "\uff0b" not in text


def _may_hold_phone_number(text: str) -> bool:
    if detection_switch("PHONE_RUNS"):  # the digits within one phone-shaped run (phone_runs.py)
        return phone_shaped_runs_hold(text, _min_phone_digits())
    if detection_switch("FAST_DETECTION_TEXT"):
        return len(_ANY_DIGIT.findall(text)) >= _min_phone_digits()
    return True


def _valid_resident_id(raw: str) -> bool:
    """``ric.is_valid``, which raises KeyError on a region code its table lists without a
    county ("233442…"): such a number is no valid ID, and a write must not fail on it."""
    try:
        return ric.is_valid(raw)
    except (KeyError, ValueError, TypeError):
        return False


def find_sensitive_personal_data(text: str) -> list[str]:
    """Finding codes for identifiers and special categories of personal data."""
    text = normalize_for_detection(text)
    findings: list[str] = []
    for match in _DIGIT_RUN.finditer(text):
        raw = re.sub(r"[ -]", "", match.group(1))
        if len(raw) == 18 and _valid_resident_id(raw):
            findings.append("cn_resident_id")
        elif payment_card_at(text, *match.span(1), raw):  # not an order's (account_kinds)
            findings.append("bank_card")
    for region in ("CN", None) if _may_hold_phone_number(text) else ():
        if region is None and _no_plus_for_unknown_region(text):
            continue  # read internationally, a number starts with "+" (see below)
        try:
            matcher = phonenumbers.PhoneNumberMatcher(
                text, region or "ZZ", leniency=phonenumbers.Leniency.VALID
            )
            if any(written_as_phone_number(m.raw_string, region) for m in matcher):
                findings.append("phone_number")
                break
        except Exception:  # phonenumbers raises on odd inputs; a miss is not a finding
            continue
    categories = find_special_categories(text)
    if categories:
        findings.append("special_category")
        findings.extend(f"special_category_{name}" for name in categories)
    return sorted(set(findings))


# --- systems of record ----------------------------------------------------------------

# A balance, a stock level or an order's status is a system-of-record fact only when it is
# one: an amount or an account goes with it. "Balance is key" is about life, not money.
# A state the system holds, not a key the user holds: a parcel's tracking number (快递单号)
# is the user's reference for asking the carrier live, kept like an order number; its
# status ("shipping status", 物流状态) is the carrier's (round 13).
_MONEY = (
    r"(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:dollars|usd|euros?|eur|pounds|gbp|yuan|rmb|cny|元|块))"
)
_SOR_PATTERNS = [
    re.compile(
        r"\b(order (status|#?\s?\d+ (is|was|has been) (shipped|delivered|cancell?ed|pending))|"
        r"(account|bank|card|checking|savings|wallet|available|outstanding|remaining|loan|"
        r"gift card|credit card)\s+balance|"
        rf"balance(\s+(is|was|of|stands at)\s+|\s*[:：=]\s*)(now\s+|only\s+|about\s+|around\s+)?{_MONEY}|"
        r"shipping status|delivery status|invoice status|ticket status|"
        r"stock level|inventory (level|count)|credit limit|outstanding amount)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"订单状态|订单.{0,16}?(已发货|已签收|已取消|待支付|配送中)|"
        r"(账户|卡|银行|钱包|微信|支付宝|信用卡)(里的?)?余额|余额(是|为|还有|还剩|只剩|：|:)\s*\d|"
        r"物流状态|库存(是|为|还有|还剩|只剩|：|:)\s*\d|工单状态|信用额度|欠款"
    ),
]
_SOR_PREDICATES = {
    "order_status",
    "balance",
    "account_balance",
    "shipment_status",
    "delivery_status",
    "inventory",
    "stock_level",
    "ticket_status",
    "invoice_status",
    "credit_limit",
}


def find_system_of_record(text: str, predicate: str = "") -> list[str]:
    if predicate.lower() in _SOR_PREDICATES:
        return ["system_of_record_predicate"]
    text = normalize_for_detection(text)
    if search_any(_SOR_PATTERNS, text):
        return ["system_of_record_fact"]
    return []


# --- instruction-like text, procedures in disguise, obfuscation --------------------------
# memory.detectors.instructions (re-exported here).


# --- normalisation --------------------------------------------------------------------


def normalize_text(text: str) -> str:
    """Case-, width- and punctuation-insensitive form used for duplicate detection.
    With ``ENGRAM_FAST_DETECTION_TEXT`` (default on), each text once per process (a bounded
    cache) and ASCII text by one ``str.translate``: the reference's result
    (``normalize_text_reference``), since NFKC leaves ASCII as it is, its case folding is
    ``lower()``, and the ASCII characters dropped are the ones the reference drops
    (whitespace and categories P and S), listed once from it."""
    if detection_switch("FAST_DETECTION_TEXT"):
        return _normalize_text_fast(text)
    return normalize_text_reference(text)


@memoized("memory.content_rules.normalize_text", maxsize=1024)
def _normalize_text_fast(text: str) -> str:
    # Cached: a write compares one candidate's keys several times (content_keys).
    if text.isascii():
        return text.lower().translate(_ASCII_DROPPED)
    return normalize_text_reference(text)


def normalize_text_reference(text: str) -> str:
    """The reference of ``normalize_text``, character by character."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(
        ch for ch in text if not (ch.isspace() or unicodedata.category(ch)[0] in ("P", "S"))
    )


# The ASCII characters ``normalize_text_reference`` drops, found by asking it of each.
_ASCII_DROPPED = {c: None for c in range(128) if not normalize_text_reference(chr(c))}
