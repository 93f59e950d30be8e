"""Content detectors used by the write policy: secrets, transient state, sensitive personal
data, system-of-record facts and instruction-like (injection) text, in Chinese and English.

Libraries do what they are good at (detect-secrets for credential formats, python-stdnum
for Chinese resident ID checksums and Luhn, phonenumbers for phone numbers); the rest are
the few patterns no library has. Each detector returns finding codes, never the matched
text, so findings can be logged and audited safely.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from functools import lru_cache

import phonenumbers
from stdnum import luhn
from stdnum.cn import ric

# --- secrets --------------------------------------------------------------------------

# detect-secrets plugins that recognise credential formats; the entropy plugins are left
# out because in ad-hoc mode they flag ordinary English words.
_DETECT_SECRETS_PLUGINS = [
    "AWSKeyDetector",
    "ArtifactoryDetector",
    "AzureStorageKeyDetector",
    "BasicAuthDetector",
    "CloudantDetector",
    "DiscordBotTokenDetector",
    "GitHubTokenDetector",
    "GitLabTokenDetector",
    "IbmCloudIamDetector",
    "IbmCosHmacDetector",
    "JwtTokenDetector",
    "KeywordDetector",
    "MailchimpDetector",
    "NpmDetector",
    "OpenAIDetector",
    "PrivateKeyDetector",
    "PypiTokenDetector",
    "SendGridDetector",
    "SlackDetector",
    "SoftlayerDetector",
    "SquareOAuthDetector",
    "StripeDetector",
    "TelegramBotTokenDetector",
    "TwilioKeyDetector",
]

_SECRET_PATTERNS = [
    # Secrets written in prose: "my password is hunter2", "the PIN: 4821", "密码是 abc123".
    re.compile(
        r"\b(pass(word|code|phrase)?|passwd|pwd|pin|secret|api[\s_-]?key|access[\s_-]?key|"
        r"token|private[\s_-]?key|credentials?)\b[^.\n]{0,20}?(\b(is|are|was)\b|[=:：])\s*"
        # …unless what follows is a plain word about the secret rather than the secret
        # itself: "the password reset ticket was resolved", "the token is expired".
        r"(?!(?:resolved|reset|changed|updated|expired|required|wrong|incorrect|invalid|"
        r"weak|strong|saved|stored|missing|needed|sent|fixed|working|broken|correct|"
        r"rotated|revoked|compromised|leaked|lost|forgotten|locked|unlocked|not|too|still|"
        r"being|now|done|closed)\b)\S{3,}",
        re.IGNORECASE,
    ),
    re.compile(
        r"(密码|口令|密钥|私钥|令牌|秘钥|支付密码|PIN码)\s*(是|为|：|:|=|改成了|改为)\s*\S{3,}",
        re.IGNORECASE,
    ),
    re.compile(r"\bsk-[A-Za-z0-9_-]{20,}"),
    # A key block is redacted whole (to its END line, or to the end of the text).
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)"),
    re.compile(r"\b(AKIA|ASIA)[A-Z0-9]{16}\b"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),
    re.compile(r"\bxox[abpr]-[A-Za-z0-9-]{10,}"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    # Pre-signed URLs carry temporary credentials in the query string.
    re.compile(
        r"[?&](X-Amz-Signature|X-Amz-Credential|sig|signature|token|access_token)=[^&\s]{8,}",
        re.IGNORECASE,
    ),
]

_TOKEN_RE = re.compile(r"[A-Za-z0-9+/_=-]{24,}")


def _shannon_entropy(s: str) -> float:
    counts = Counter(s)
    return -sum(c / len(s) * math.log2(c / len(s)) for c in counts.values())


def _looks_like_random_key(token: str) -> bool:
    # Mixed-case letters and digits with high entropy: generated keys, not words or hashes.
    has_lower = any(c.islower() for c in token)
    has_upper = any(c.isupper() for c in token)
    has_digit = any(c.isdigit() for c in token)
    return has_lower and has_upper and has_digit and _shannon_entropy(token) >= 4.2


@lru_cache(maxsize=1)
def _detect_secrets_plugins() -> list:
    # Plugin instances called directly: ~0.1 ms a line, where scan_line inside
    # transient_settings costs ~0.8 ms (it rebuilds the settings each call).
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    wanted = set(_DETECT_SECRETS_PLUGINS)
    return [
        cls() for cls in get_mapping_from_secret_type_to_class().values() if cls.__name__ in wanted
    ]


def find_secrets(text: str) -> list[str]:
    """Finding codes for credentials in ``text`` (empty when none)."""
    findings: list[str] = []
    for pattern in _SECRET_PATTERNS:
        if pattern.search(text):
            findings.append("secret_pattern")
            break
    if any(_looks_like_random_key(t) for t in _TOKEN_RE.findall(text)):
        findings.append("high_entropy_token")
    if not findings:
        plugins = _detect_secrets_plugins()
        for line in text.splitlines() or [text]:
            if any(p.analyze_line(filename="memory.txt", line=line) for p in plugins):
                findings.append("secret_detector")
                break
    return findings


def redact_secrets(text: str) -> tuple[str, int]:
    """Replace recognisable credentials with ``[REDACTED]``; returns (text, count)."""
    count = 0

    def _sub(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return "[REDACTED]"

    out = text
    for pattern in _SECRET_PATTERNS:
        out = pattern.sub(_sub, out)
    out = _TOKEN_RE.sub(lambda m: _sub(m) if _looks_like_random_key(m.group()) else m.group(), out)
    if count == 0 and find_secrets(out):
        # A format only detect-secrets knows: drop the whole text rather than keep it.
        return "[REDACTED]", 1
    return out, count


# --- transient state ------------------------------------------------------------------

_DURABLE_MARKERS = re.compile(
    r"(from now on|from today on|going forward|always|every time|in (the )?future|"
    r"remember that|以后|今后|从今天起|从现在起|从现在开始|一直|每次|总是|永远|记住)",
    re.IGNORECASE,
)
_TRANSIENT_PATTERNS = [
    re.compile(
        r"\b(today|tonight|right now|at the moment|for now|this time|just now|this morning|"
        r"this afternoon|in a hurry|in a rush|temporar(y|ily)|for this (session|task|chat))\b",
        re.IGNORECASE,
    ),
    re.compile(r"(今天|今晚|此刻|这次|这一次|刚才|一会儿|暂时|临时|赶时间|很急|本次会话)"),
    re.compile(r"(/tmp/|/var/tmp/|\\temp\\|%temp%|\.tmp\b)", re.IGNORECASE),
    # One-time codes and verification codes.
    re.compile(
        r"\b(one[- ]time (pass)?code|otp|verification code|2fa code|sms code|auth code)\b",
        re.IGNORECASE,
    ),
    re.compile(r"(验证码|动态码|校验码|一次性密码)"),
]


def find_transient(text: str) -> list[str]:
    """Finding codes when the text only describes a passing state."""
    one_time = re.search(
        r"(one[- ]time|otp|verification code|验证码|动态码|一次性)", text, re.IGNORECASE
    )
    if one_time:
        return ["one_time_code"]
    if _DURABLE_MARKERS.search(text):
        return []
    for pattern in _TRANSIENT_PATTERNS:
        if pattern.search(text):
            return ["transient_state"]
    return []


# --- sensitive personal data ----------------------------------------------------------

_DIGIT_RUN = re.compile(r"(?<![\dA-Za-z])(\d[\d -]{11,22}[\dXx])(?![\dA-Za-z])")
_SPECIAL_CATEGORY_EN = re.compile(
    r"\b(diagnos(ed|is)|hiv|aids|cancer|diabetes|depression|depressed|bipolar|schizophreni\w*|"
    r"pregnan(t|cy)|medication|chemotherapy|therapy|therapist|mental health|disabilit(y|ies)|"
    r"religion|religious|muslim|christian|buddhist|jewish|hindu|atheist|sexual orientation|gay|"
    r"lesbian|bisexual|transgender|political party|trade union|ethnicity|racial|criminal record|"
    r"convicted|fingerprint|biometric)\b",
    re.IGNORECASE,
)
_SPECIAL_CATEGORY_ZH = re.compile(
    r"(确诊|诊断|抑郁|焦虑症|糖尿病|高血压|癌症|肿瘤|艾滋|HIV|怀孕|孕期|病史|住院|吃药|服药|药物治疗|"
    r"心理治疗|精神疾病|残疾|宗教|信仰|穆斯林|基督徒|佛教徒|性取向|同性恋|双性恋|跨性别|政治立场|"
    r"党派|工会|民族|种族|犯罪记录|前科|指纹|人脸数据|生物识别)"
)


def find_sensitive_personal_data(text: str) -> list[str]:
    """Finding codes for identifiers and special categories of personal data."""
    findings: list[str] = []
    for match in _DIGIT_RUN.finditer(text):
        raw = re.sub(r"[ -]", "", match.group(1))
        if len(raw) == 18 and ric.is_valid(raw):
            findings.append("cn_resident_id")
        elif 13 <= len(raw) <= 19 and raw.isdigit() and luhn.is_valid(raw):
            findings.append("bank_card")
    for region in ("CN", None):
        try:
            matcher = phonenumbers.PhoneNumberMatcher(
                text, region or "ZZ", leniency=phonenumbers.Leniency.VALID
            )
            if any(True for _ in matcher):
                findings.append("phone_number")
                break
        except Exception:  # phonenumbers raises on odd inputs; a miss is not a finding
            continue
    if _SPECIAL_CATEGORY_EN.search(text) or _SPECIAL_CATEGORY_ZH.search(text):
        findings.append("special_category")
    return sorted(set(findings))


# --- systems of record ----------------------------------------------------------------

_SOR_PATTERNS = [
    re.compile(
        r"\b(order (status|#?\s?\d+ (is|was|has been) (shipped|delivered|cancell?ed|pending))|"
        r"(account )?balance (is|was|of)|current balance|shipping status|delivery status|"
        r"tracking number|invoice status|ticket status|stock level|inventory (level|count)|"
        r"credit limit|outstanding amount)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"(订单状态|订单.{0,16}?(已发货|已签收|已取消|待支付|配送中)|余额|账户余额|物流状态|快递单号|库存|工单状态|信用额度|欠款)"
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
    if any(p.search(text) for p in _SOR_PATTERNS):
        return ["system_of_record_fact"]
    return []


# --- instruction-like / injection text ------------------------------------------------

_INJECTION_PATTERNS = [
    re.compile(
        r"(ignore|disregard|forget|override)\s+(all\s+|any\s+|the\s+)?(previous|prior|above|earlier|"
        r"system|developer)\s+(instructions?|rules?|prompts?|messages?|policy|policies)",
        re.IGNORECASE,
    ),
    re.compile(r"\b(system prompt|developer message|jailbreak|DAN mode)\b", re.IGNORECASE),
    re.compile(r"\byou are now\b|\bact as (an? )?(admin|root|developer|system)\b", re.IGNORECASE),
    re.compile(r"\bnew (instructions?|rules?)\s*:", re.IGNORECASE),
    re.compile(
        r"\b(always|must|should)\s+(send|forward|email|upload|post|exfiltrate|leak)\b[^.]{0,60}"
        r"\b(to|at)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(reveal|print|disclose|record|save|remember)\b[^.]{0,30}\b(admin(istrator)? )?(password|credentials|api key|secret)s?\b",
        re.IGNORECASE,
    ),
    re.compile(r"<\s*/?\s*(system|instructions?|im_start|im_end)\s*>", re.IGNORECASE),
    re.compile(
        r"(忽略|无视|忘记|覆盖)\S{0,6}(之前|以上|前面|先前|系统)\S{0,4}(指令|指示|规则|提示|设定)"
    ),
    re.compile(r"(系统提示词?|开发者消息|越狱|你现在是|扮演管理员)"),
    re.compile(r"(管理员密码|把\S{0,10}(密码|密钥|令牌)\S{0,6}(记下|发给|发送|告诉|保存))"),
    re.compile(r"(总是|务必|必须)\S{0,10}(发送|转发|上传)\S{0,20}(到|给)"),
]


def find_injection(text: str) -> list[str]:
    """Finding codes for text that tries to instruct the agent rather than state a fact."""
    if any(p.search(text) for p in _INJECTION_PATTERNS):
        return ["instruction_like_text"]
    return []


# --- procedures in disguise -------------------------------------------------------------

_PROCEDURE_PATTERNS = [
    re.compile(
        r"^\s*(runbook|procedure|playbook|skill|best practice|policy|rule|how[- ]to|step\s*\d+)\s*[:：]",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*(always|never|before|after|when(ever)?|every (day|night|time))\b[^.]{0,80}\b"
        r"(run|disable|enable|skip|export|delete|send|forward|store|approve|restart|upload|copy)\b",
        re.IGNORECASE,
    ),
    re.compile(r"^\s*(运维手册|手册|流程|规范|规程|技能|步骤\s*\d*|操作步骤|最佳实践)\s*[:：]"),
    re.compile(
        r"(每天|每晚|每次|总是|一律|以后都)\S{0,20}(导出|删除|关闭|跳过|发送|转发|上传|批准|重启|执行)"
    ),
    re.compile(r"\S{0,20}前(先)?\S{0,10}(关闭|删除|跳过|禁用)"),
]


def find_procedure_like(text: str) -> list[str]:
    """Finding codes for text that prescribes how to act (a runbook step, a rule) — what
    only reviewed procedural memory may say, whatever type the proposer claims."""
    if any(p.search(text) for p in _PROCEDURE_PATTERNS):
        return ["procedure_like_text"]
    return []


# --- normalisation --------------------------------------------------------------------


def normalize_text(text: str) -> str:
    """Case-, width- and punctuation-insensitive form used for duplicate detection."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(
        ch for ch in text if not (ch.isspace() or unicodedata.category(ch)[0] in ("P", "S"))
    )
