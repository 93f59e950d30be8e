"""Credentials in text: formats, URLs with passwords, and secrets written in prose.

Prose is judged by context and token shape, not by a list of sentences: a credential word
(Chinese or English, before or after the value: "my password is X", "X as the passphrase",
"管理口令：X", "the code the bank texted me is X") near a token that looks like a secret (digits
of PIN/one-time-code length, letters mixed with digits or symbols, mixed case, high entropy).
Words match on token boundaries ("otp" in "footprint" never counts). URLs are parsed
(``urllib.parse``); key formats come from detect-secrets' plugins; placeholders and public
keys are not secrets (``non_secret_values``). ``secret_spans`` returns where each secret is
in the *original* text: the same detector refuses writes and redacts raw events."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.detectors.access_forms import access_form_spans, fold_digit_chars
from memory.detectors.access_keyed import keyed_relation_spans
from memory.detectors.access_relations import relation_spans
from memory.detectors.asked_values import asked_value_spans
from memory.detectors.code_phrases import names_no_secret
from memory.detectors.cred_frames import given_value_spans
from memory.detectors.described_secrets import described_secret_spans, fold_obfuscations
from memory.detectors.formats import (
    daxie_code_spans,
    fold_financial_numerals,
    grouped_key_spans,
    nfkc_visible,
    policy_token_spans,
    recovery_phrase_spans,
)
from memory.detectors.japanese_codes import japanese_code_spans
from memory.detectors.key_formats import detect_secrets_finds, entropy, format_spans, url_spans
from memory.detectors.labelled import (
    access_verb_spans,
    bip39_spans,
    cjk_phrase_spans,
    keyed_format_spans,
    labelled_value_spans,
)
from memory.detectors.non_secret_values import secret_spans_kept
from memory.detectors.plain_values import plain_value_spans
from memory.detectors.prefilter import ascii_variant, may_match, search_any
from memory.detectors.spelled_readings import rereading_spans
from memory.detectors.unlabelled_values import unlabelled_value_spans
from memory.detectors.used_secrets import hide_separators, rot13_reading, used_secret_spans
from memory.detectors.value_readings import (
    fold_script_digits,
    generic_mention,
    possessive_noun,
    value_reading_spans,
)
from memory.text_normalize import detection_form

# --- credential words ---------------------------------------------------------------------

_B = r"(?<![A-Za-z0-9])"  # token boundary before
_E = r"(?![A-Za-z0-9])"  # token boundary after

# Words after which even a plain word is the secret ("the wifi password is swordfish").
_STRONG_EN = (
    r"pass(?:word|code|phrase|wd|key)s?|pwd|pw|p/w|pins?(?:[\s-]?(?:code|number))?(?:码)?|"
    r"(?:lock|safe)\s+combination|seed\s+phrase|recovery\s+phrase|mnemonic\s+phrase|"
    r"(?:wifi|wi-fi|wlan|wpa2?|wireless|network|router|hotspot)\s+keys?|"
    r"security\s+(?:question\s+)?answers?|(?:memorable|security)\s+(?:words?|info(?:rmation)?)|safe\s?words?|secret\s+words?|"
    r"answer\s+(?:to|for)\s+(?:my|the|your|our)\s+(?:[\w-]+\s+){0,3}security\s+question"
)
_OTHER_EN = (
    r"(?:api|access|secret|private|ssh|license|licence|product|encryption|master|signing|"
    r"recovery|backup|unlock|activation|serial)[\s_-]?keys?|"
    r"(?:auth|access|bearer|api|bot|session|refresh|deploy|personal\s+access)[\s_-]?tokens?|"
    r"tokens?|secrets?|credentials?|creds|cvv2?|cvc|puk2?|otp|totp|2fa|mfa|bearer|log-?ins?|logon|"
    r"(?:admin|login|wifi|wi-fi|root|user|account|router|db|database|master|server|email|vpn)\s+pass|"
    r"combos?|combinations?|"
    r"one[\s-]?time\s+(?:pass)?(?:codes?|passwords?|pins?)|"
    r"(?:verification|login|log-?in|sign[\s-]?in|security|confirmation|auth(?:entication|orization)?|"
    r"sms|text|access|unlock|door|gate|garage|alarm|lock|recovery|backup|reset|bank|pairing|"
    r"safe|locker|padlock|keypad|entry|building|wifi|wi-fi|network|admin|master|one-off|"
    # codes that release something held or unblock an account (a pickup code, a PUK)
    r"unblock(?:ing)?|puk|collection|pick-?up|parcel|release|claim|redemption|"
    r"activation|gift\s+card|disarm(?:ing)?|arming)\s+codes?"
)
_ZH = (
    r"密码|口令|密钥|私钥|秘钥|令牌|验证码|动态码|校验码|安全码|授权码|提取码|解锁码|确认码|登录码|"
    r"识别码|助记词|暗号|暗码|短信码|登入码|开锁码|门禁码|取件码|密保答案|密保问题|"
    # a delivery's release code, a card's secret, and the traditional spellings
    r"提货码|取货码|提貨碼|取貨碼|取件碼|卡密|兑换码|兌換碼|密碼|金鑰|驗證碼|動態碼|提取碼"
)
_STRONG_ZH = r"密码|密碼|口令|暗号"
# "Password" in other languages (a closed class: the one noun, in the EU's official
# languages and the other most-spoken ones), matched in the detection form, where the
# confusables table writes Cyrillic а/р/о as Latin letters. Only a value of secret shape
# follows them, as after "token".
_FOREIGN = (
    r"passwort|kennwort|mot\s+de\s+passe|contraseña|contrasena|senha|wachtwoord|hasło|lösenord|"
    r"adgangskode|passord|salasana|şifre|heslo|jelszó|parolă|κωδ[iι]κός|п[аa][рp][оo]ль|"
    r"mật\s+khẩu|kata\s+sandi|kata\s+laluan|סיסמה|كلمة\s+(?:المرور|السر)|รหัสผ่าน|पासवर्ड"
)

_CUE = re.compile(rf"{_B}(?:{_STRONG_EN}|{_OTHER_EN}){_E}|{_ZH}", re.IGNORECASE)
# Searched apart, through the literal prefilter (cut for ASCII text: ``prefilter_ascii``).
_FOREIGN_CUE = [re.compile(rf"{_B}(?:{_FOREIGN}){_E}", re.IGNORECASE)]
_STRONG_CUE = re.compile(rf"{_B}(?:{_STRONG_EN}){_E}|{_STRONG_ZH}", re.IGNORECASE)
# "Code" alone is a credential word only where a code is delivered or used to log in
# ("the code the bank just texted me"), never in "dress code" or "zip code 94107".
_CODE_CUE = re.compile(rf"{_B}codes?{_E}", re.IGNORECASE)
_CODE_CONTEXT = re.compile(
    rf"{_B}(?:text(?:ed)?|texts|sms|sent|send|emailed|messaged|bank|app|authenticator|"
    rf"log\s?in|sign\s?in|verify|verification|expires?|valid\s+for|"
    # or where a code opens something: the closed class of entry devices and access points
    rf"opener|remote|fob|intercom|buzzer|keypad|keypads|panel|alarm|lock|padlock|locker|safe|"
    rf"door|gate|garage|entrance|lobby|shed|laptop|computer|phone|iphone|tablet|ipad|watch|"
    rf"console|wifi|wi-fi){_E}|"
    r"短信|发来|发给|登录|验证|银行",
    re.IGNORECASE,
)
_NOT_CODE = re.compile(
    rf"{_B}(?:zip|postal|post|area|country|dress|source|promo|discount|coupon|qr|bar|colou?r|"
    rf"error|status|course|product|tracking|morse|genetic|tax|sort|swift|routing|airport|"
    rf"dialing|dialling|emoji|machine|cheat|secret)\s+codes?{_E}|邮编|邮政编码|区号|二维码|条形码|优惠码|源码|代码",
    re.IGNORECASE,
)

_SENTENCE_END = re.compile(r"[!?](?=\s|$)|\.(?=\s|$)(?!\s\d(?<=\d\.\.\.\s\d))|[。！？；;\n]")
_TOKEN = re.compile(r"[!-~]+")  # a run of printable ASCII (the detection form is NFKC'd)
_TOKEN_TRIM = "\"'`()[]{}<>,;:=，"

# Shapes that are never secrets even beside a credential word.
_NOT_SECRET = re.compile(
    r"^(?:"
    r"\d+(?:st|nd|rd|th|am|pm|h|hrs?|mins?|s|x|k|m|km|kg|lbs?|g|mb|gb|tb|mph|yrs?|%)"
    r"|\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?"  # dates
    r"|\d{1,3}-(?:characters?|chars?|digits?|letters?|words?|bits?|bytes?|symbols?)"  # a length
    r"|\d{1,2}:\d{2}(?::\d{2})?"  # times
    r"|[$€£¥]\d[\d,.]*[kKmM]?"  # money
    r"|v?\d+(?:\.\d+)+"  # versions, decimals
    r"|#\d+"  # ticket numbers
    r"|[^@\s]+@[^@\s]+\.[A-Za-z]{2,}"  # e-mail addresses (a login name, not a secret)
    r"|https?://\S+"
    r"|[A-Za-z]+(?:-[A-Za-z]+)*'?s?"  # a plain (hyphenated) word
    r")$",
    re.IGNORECASE,
)
_YEAR = re.compile(r"^(?:19|20)\d\d$")
CREDENTIAL_WORDS = _CUE  # for the readers of what stands beside one (``unvalued_mentions``)

# Plain words that follow "password is" without being the password.
_NOT_A_PASSWORD_WORD = frozenset(
    """a an the my our your his her their its this that same different new old one
    resolved reset changed updated expired required wrong incorrect invalid weak strong
    saved stored missing needed sent fixed working broken correct rotated revoked
    compromised leaked lost forgotten locked unlocked not too still being now done closed
    long short easy hard simple complicated secure insecure safe unsafe protected hidden
    encrypted written somewhere there here what which who something nothing anything
    case-sensitive so very really also just always never only set managed shared
    in on at for of to with by from about and or but if when like""".split()
)

_DIGIT_WORDS_EN = re.compile(
    r"(?:(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)[\s,-]+){3,}"
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b",
    re.IGNORECASE,
)
_DIGIT_WORDS_ZH = re.compile(r"[零〇一二三四五六七八九幺两拐洞勾]{4,}")
# Digits read as Hanyu Pinyin syllables ("qi san ling jiu"), four or more, after a cue.
_DIGIT_WORDS_PINYIN = re.compile(
    r"\b(?:(?:ling|yi|yao|er|liang|san|si|wu|liu|qi|ba|jiu)[\s,-]*){3,11}"
    r"(?:ling|yi|yao|er|liang|san|si|wu|liu|qi|ba|jiu)\b",
    re.IGNORECASE,
)
# A digit said as repeated ("六个1", "八个八", "six ones"): the count of a run of one digit.
_REPEATED_DIGIT = re.compile(
    r"(?:[四五六七八]|[4-8])\s*个\s*(?:\d|[零一二三四五六七八九])(?![样樣起半些])"
    r"|\b(?:four|five|six|seven|eight)\s+(?:zeros|ones|twos|threes|fours|fives|sixes|sevens|eights|nines)\b",
    re.IGNORECASE,
)
# "772 019", "4821-9930": a code read out in groups.
# A full stop after the code ends the sentence; one before a digit makes a decimal.
_DIGIT_GROUPS = re.compile(
    r"(?<![\w.])(?:\d{2,4}(?:[ -]\d{2,4}){1,3}|\d(?:(?:[ -]|(?:…|\.{2,3}),?\s?)\d){3,11})(?!\w|\.\d)"
)
# Card security codes are three digits; other credentials need four or more.
_SHORT_CODE_CUE = re.compile(r"cvv2?|cvc|安全码|security\s+code", re.IGNORECASE)
# A passphrase is several words: everything after "is"/":" to the end of the clause.
_PHRASE_CUE = re.compile(
    r"passphrase|seed\s+phrase|recovery\s+phrase|mnemonic|助记词", re.IGNORECASE
)
# Answers to security questions and passwords-by-agreement may be any words, in any script.
_ANSWER_CUE = re.compile(
    r"密保答案|暗号|security\s+(?:question\s+)?answer|memorable\s+word|answer\s+(?:to|for)\b", re.I
)
_ANY_VALUE = re.compile(r"\s*(?:is|was|=|:|：|是|为)\s*[\"“'「]?([^,，。;；\n\"”'」]{2,40})")
_QUOTED = re.compile(
    r"\"[^\"\n]{3,64}\"|“[^”\n]{3,64}”|「[^」\n]{3,64}」|『[^』\n]{3,64}』"
    r"|(?<![A-Za-z])'[^'\n]{3,64}'(?![A-Za-z])"
)

# "X as the passphrase", "X is my password", "用 X 作为密码".
_VALUE_BEFORE_CUE = re.compile(
    r"(?<![!-~])(?P<tok>[!-~]{4,}?),?\s+(?:as|is|was|being|for|that's|that\s+is|it's)\s+(?:(?:the|my|our|your|a|new|wifi|wi-fi|"
    r"home|admin|account|router|login|email|e-mail|bank|phone|work|laptop|computer|banking)\s+){0,3}(?="
    + _CUE.pattern
    + ")"
    r"|(?<![!-~])(?P<tokzh>[!-~]{4,})\s*(?:(?:就|也|便|即|正|都)?是|为|作为|当作?|做|设成了?|设为|改成了?|换成了?)\s*(?:我的|我们的|新的|家里的|公司的)?\S{0,6}?(?="
    + _ZH
    + ")",
    re.IGNORECASE,
)


@dataclass(frozen=True, order=True)
class SecretSpan:
    start: int  # in the original text
    end: int
    code: str


def looks_like_secret(token: str, *, numeric_ok: bool = True) -> bool:
    """Token shape alone: could this be a password, PIN, code or key? Used only next to a
    credential word (a bare "hunter2" in a sentence is not a secret)."""
    core = token.strip(_TOKEN_TRIM).rstrip(".!?")
    if core.rstrip("#*").isdigit():  # a keypad code: "2580#"
        core = core.rstrip("#*")
    if len(core) < 4 or _NOT_SECRET.match(core):
        return False
    if core.isdigit():
        return numeric_ok and len(core) <= 12 and not _YEAR.match(core)
    has_alpha = any(c.isalpha() for c in core)
    has_digit = any(c.isdigit() for c in core)
    has_symbol = any(not c.isalnum() for c in core.rstrip("!"))
    inner_upper = any(c.isupper() for c in core[1:]) and any(c.islower() for c in core)
    if has_alpha and has_digit:
        return True
    if has_alpha and (has_symbol or core.endswith("!")) and (inner_upper or _odd_symbols(core)):
        return True
    if inner_upper and len(core) >= 8:
        return True
    return len(core) >= 12 and entropy(core) >= 3.5


def _odd_symbols(core: str) -> bool:
    return any(c in "!@#$%^&*+~|\\?" for c in core)


def _sentence_bounds(text: str, at: int) -> tuple[int, int]:
    start = 0
    for m in _SENTENCE_END.finditer(text, 0, at):
        start = m.end()
    m = _SENTENCE_END.search(text, at)
    return start, (m.start() if m else len(text))


def _prose_spans(text: str) -> list[tuple[int, int, str]]:
    """Spans in the detection form of secrets given beside a credential word."""
    spans: list[tuple[int, int, str]] = []
    # (``may_match``: no credential word's literal, no ``_CUE`` match: the same cues.)
    cues = (
        [(m, "credential_in_prose") for m in _CUE.finditer(text)] if may_match(_CUE, text) else []
    )
    if search_any(foreign := ascii_variant(_FOREIGN_CUE, text), text):
        cues += [(m, "credential_in_prose") for m in foreign[0].finditer(text)]
    for m in _CODE_CUE.finditer(text):
        if any(c.start() <= m.start() < c.end() for c, _ in cues):
            continue
        lo, hi = _sentence_bounds(text, m.start())
        sentence = text[lo:hi]
        if _CODE_CONTEXT.search(sentence) and not _NOT_CODE.search(sentence):
            cues.append((m, "one_time_code"))
    for cue, code in cues:
        if names_no_secret(text, cue.start(), cue.end()):  # "password manager", "winning combo"
            continue
        word = cue.group().lower()
        if any(w in word for w in ("otp", "one", "verification", "sms", "text", "验证", "动态")):
            code = "one_time_code"
        lo, hi = _sentence_bounds(text, cue.start())
        # The value may follow in the next short sentence: "My PIN? It's 0427."
        _, next_hi = _sentence_bounds(text, min(hi + 1, len(text)))
        window_end = min(max(hi, next_hi), cue.end() + 64)
        for tok in _TOKEN.finditer(text, cue.end(), window_end):
            if looks_like_secret(tok.group()):
                spans.append((*_token_span(tok), code))
        if _SHORT_CODE_CUE.fullmatch(cue.group()):
            for m in re.finditer(r"(?<![\w.])\d{3,4}(?!\w|\.\d)", text[:window_end]):
                if m.start() >= cue.end():
                    spans.append((m.start(), m.end(), code))
        if _ANSWER_CUE.search(cue.group()):
            answer = _ANY_VALUE.match(text, cue.end(), hi)
            if answer and answer.group(1).strip().lower() not in _NOT_A_PASSWORD_WORD:
                spans.append((answer.start(1), answer.end(1), code))
        if _PHRASE_CUE.search(cue.group()):
            phrase = _ASSIGN.match(text[cue.end() : hi])
            if phrase and len(text[cue.end() + phrase.start("value") : hi].split()) >= 3:
                spans.append((cue.end() + phrase.start("value"), hi, code))
        for rx in (
            _DIGIT_WORDS_EN,
            _DIGIT_WORDS_ZH,
            _DIGIT_WORDS_PINYIN,
            _REPEATED_DIGIT,
            _DIGIT_GROUPS,
            _QUOTED,
        ):
            for m in rx.finditer(text, cue.end(), window_end):
                spans.append((m.start(), m.end(), code))
        if _STRONG_CUE.match(cue.group()) and not generic_mention(text, cue.start(), lo, hi):
            plain = _plain_assignment(text, cue.end(), hi)
            if plain:
                spans.append((*plain, code))
        # A quoted value just before the credential word ("… with 'x y z' as the passphrase").
        for m in _QUOTED.finditer(text, max(lo, cue.start() - 72), cue.start()):
            spans.append((m.start(), m.end(), code))
    for m in _VALUE_BEFORE_CUE.finditer(text):
        group = "tok" if m.group("tok") else "tokzh"
        token = m.group(group)
        plain = token.strip(_TOKEN_TRIM)
        strong = plain.lower() not in _NOT_A_PASSWORD_WORD and _STRONG_CUE.search(
            text, m.end(group), m.end(group) + 40
        )
        # A plain word is the password where it is *used as* one or pointed back to
        # ("I use bluebird as the password", "bluebird, that's my password"), never with
        # "a"/"your" (advice: "your name as a password") nor a word that describes.
        connector = text[m.end(group) : m.end()]
        cue = _CUE.match(text, m.end())
        used_as = (
            re.search(r"\b(?:as|that's|that\s+is|it's)\b", connector, re.I)
            and not re.search(r"\b(?:a|an|your|any)\b", connector, re.I)
            and plain.isalpha()
            and not _DESCRIBING.fullmatch(plain)
            # the noun ends the phrase ("… my password philosophy" is another noun's)
            and cue is not None
            and not re.match(r"\s*[A-Za-z]", text[cue.end() : cue.end() + 3])
            # "something random as the password": a word after a quantifier describes
            and not re.search(
                r"\b(?:something|anything|some|any|a|an|the|your|his|her|their)\s+$",
                text[max(0, m.start(group) - 12) : m.start(group)],
                re.I,
            )
        )
        if looks_like_secret(token) or (strong and (used_as or not _NOT_SECRET.match(plain))):
            spans.append((m.start(group), m.end(group), "credential_in_prose"))
    return spans


# One to three whole words, none of them the verb the phrase waits for, not opened by "a"
# ("the password to a long life is …" names no account).
_WORDS = r"(?!(?:a|an|is|was|are)\b)[\w'-]+(?:\s+(?!(?:is|was|are)\b)[\w'-]+){0,2}\b(?!')"
_ASSIGN = re.compile(
    # what may stand between the noun and its verb: up to two prepositional phrases of up to
    # three words ("the password with the bank", "on the old laptop", "over at the credit
    # union"), an aside set off by commas or dashes ("the password, by the way, is …"), a
    # relative clause of choosing or giving, with its object ("the password I picked: …",
    # "the password I gave the bank is …"), a question the speaker answers ("Password? …"),
    # a Chinese topic ("邮箱的密码我设的 …")
    r"^(?:(?:\s*(?:for|of|to|on|at|with|in|into|from|over(?:\s+at)?|under|through)\s+"
    rf"(?:the\s+|my\s+|our\s+|this\s+|that\s+)?{_WORDS}){{0,2}}"
    r"|\s*[,—–]\s*[^,—–.!?\n]{1,80}?[,—–]"
    r"|(?:\s+(?:that|which))?\s+(?:i|we)\s+(?:picked|chose|set|use|used|made|went\s+with|settled\s+on|"
    rf"gave|give|got|typed|entered|put|had|have|came\s+up\s+with|created|registered)(?:\s+{_WORDS}){{0,2}}"
    r"|\s*\?|(?:我|我们|我們)?(?:的)?)"
    r"\s*(?:is|was|are|'s|=|:|：|->|\u2192|是|为|改成了?|改为|设为|设成|换成了?|"
    r"用的是|用的|就用|用了|设的是|设的|設的|填的是|填的|写的是|寫的是)\s*"
    r"(?:(?:now|still|just|always|currently|simply|actually)\s+|(?:全)?(?:小写|大写|小寫|大寫)的\s*)?"
    r"[\"“'「]?(?P<value>[!-~\u0370-\u03ff\u0400-\u04ff\u1f00-\u1fff]{3,})",
    re.IGNORECASE,
)
# Lowercase words with an adjective's or a participle's ending say what the password is
# like ("important", "expiring", "readable"), not what it is.
_DESCRIBING = re.compile(r"[a-z]+(?:ed|ing|ly|ble|ful|ous|ive)", re.IGNORECASE)


_CHOSE = re.compile(
    r"\b(?:i|we)\s+(?:picked|chose|set|used?|made|went\s+with|settled\s+on)\s+(?:is|was|are)\b",
    re.I,
)


def _plain_assignment(text: str, start: int, sentence_end: int) -> tuple[int, int] | None:
    """ "password is swordfish": the word after an explicit "is"/":" is the password."""
    m = _ASSIGN.match(text[start:sentence_end])
    if not m or possessive_noun(text[start:sentence_end]):
        return None
    value = m.group("value").strip(_TOKEN_TRIM).rstrip(".!?")
    if value.lower() in _NOT_A_PASSWORD_WORD or len(value) < 3:
        return None
    if value.islower() and _DESCRIBING.fullmatch(value) and m.group().lstrip()[:1] not in ":=":
        return None
    if _NOT_SECRET.match(value) and not value.isalpha():
        return None
    # After a long phrase between the noun and its verb, a bare lowercase word is more often
    # what the password is like ("the password I got from the admin is temporary").
    head = text[start : start + m.start("value")]
    long_head = (
        re.search(r"\b(?:i|we)\s+[a-z]+\s+[\w']", head, re.I) and not _CHOSE.search(head)
    ) or head.count(" ") > 8
    long_head = long_head and not re.match(r"\s*[,—–]", head)  # an aside set off: as before
    if long_head and value.isalpha() and value.islower():
        if not re.search(r"[:=\"“'「]\s*$", head):
            return None
    begin = start + m.start("value")
    # A passphrase may be several words: redact to the end of the clause.
    clause = re.search(r"[,，;；]", text[begin:sentence_end])
    end = begin + clause.start() if clause else sentence_end
    return begin, end


def _token_span(tok: re.Match[str]) -> tuple[int, int]:
    value = tok.group()
    left = len(value) - len(value.lstrip(_TOKEN_TRIM))
    right = len(value.rstrip(_TOKEN_TRIM + "."))
    return tok.start() + left, tok.start() + max(right, left)


def _shape_spans(text: str) -> list[tuple[int, int, str]]:
    """Keys printed in groups, codes in anti-tamper numerals, tokens with every character
    class of a password policy (``formats``)."""
    cue = _CUE if may_match(_CUE, text) else None
    return (
        [(s, e, "credential_format") for s, e in grouped_key_spans(text, cue=cue)]
        + [(s, e, "credential_in_prose") for s, e in daxie_code_spans(text)]
        + [(s, e, "credential_shape") for s, e in policy_token_spans(text)]
    )


def _reading_spans(form: str) -> list[tuple[int, int, str]]:
    """Every detector over one reading of the text, as spans of that reading."""
    folded = fold_obfuscations(fold_financial_numerals(fold_script_digits(form)))
    # Codes read by their label or what they open also count in Chinese numerals (一二三…).
    keyed = fold_digit_chars(folded)
    return (
        _prose_spans(folded)
        + [(s, e, "credential_in_prose") for s, e in labelled_value_spans(keyed, looks_like_secret)]
        + [(s, e, "credential_in_prose") for s, e in access_verb_spans(keyed)]
        + [(s, e, "credential_in_prose") for s, e in access_form_spans(keyed)]
        + [(s, e, "credential_in_prose") for s, e in relation_spans(keyed, looks_like_secret)]
        + [(s, e, "credential_in_prose") for s, e in keyed_relation_spans(keyed, looks_like_secret)]
        + [(s, e, "credential_in_prose") for s, e in described_secret_spans(keyed)]
        + [(s, e, "credential_in_prose") for s, e in used_secret_spans(keyed, looks_like_secret)]
        + [(s, e, "credential_in_prose") for s, e in value_reading_spans(keyed, looks_like_secret)]
        + [(s, e, "credential_in_prose") for s, e in unlabelled_value_spans(keyed)]
        + [(s, e, "credential_in_prose") for s, e in plain_value_spans(keyed, looks_like_secret)]
        + [(s, e, "credential_in_prose") for s, e in asked_value_spans(keyed, looks_like_secret)]
        + [(s, e, "credential_in_prose") for s, e in given_value_spans(keyed, looks_like_secret)]
        + [(s, e, "credential_in_prose") for s, e in japanese_code_spans(keyed)]
        + url_spans(form)
        + format_spans(form)
        + [(s, e, "credential_format") for s, e in keyed_format_spans(form)]
        + _shape_spans(form)
    )


def secret_spans(text: str) -> list[SecretSpan]:
    """Every secret found, as spans of the original ``text`` (merged, in order)."""
    # A symbol repeated between single characters ("4🔸8🔸2🔸1") is invisible to the detection
    # form (same length: every index is still one of ``text``).
    form = detection_form(hide_separators(text))
    found = _reading_spans(form.text)
    if not found:
        # A text written in ROT13 is read too (a letter for a letter: the same positions).
        rot = rot13_reading(form.text)
        if rot is not None:
            found = _reading_spans(rot)
    found += rereading_spans(form.text, _reading_spans)
    spans = [SecretSpan(*form.original_span(s, e), code) for s, e, code in found if e > s]
    spans = secret_spans_kept(text, spans)  # not placeholders, public values, stories …
    # Recovery phrases are word lists: read where the spaces between Chinese words survive.
    visible, origin = nfkc_visible(text)
    spans += [
        SecretSpan(origin[s], origin[e - 1] + 1, "recovery_phrase")
        for s, e in recovery_phrase_spans(visible)
        + bip39_spans(visible)
        + cjk_phrase_spans(visible)
    ]
    spans.sort()
    merged: list[SecretSpan] = []
    for span in spans:
        if merged and span.start <= merged[-1].end:
            last = merged[-1]
            merged[-1] = SecretSpan(last.start, max(last.end, span.end), last.code)
        else:
            merged.append(span)
    return merged


def find_secrets(text: str) -> list[str]:
    """Finding codes for credentials in ``text`` (empty when none)."""
    codes = sorted({s.code for s in secret_spans(text)})
    if not codes and detect_secrets_finds(text):
        codes = ["secret_detector"]
    return codes


def mentions_credential(text: str) -> bool:
    """Whether ``text`` names a credential ("password", "密码", "recovery code", …) at all,
    secret or not: with no secret found beside it, the rules saw the context but no value
    (the policy model's "unsure" signal, memory/services/policy_model.py)."""
    return bool(_CUE.search(detection_form(text).text))


def redact_secrets(text: str) -> tuple[str, int]:
    """Replace every secret with ``[REDACTED]``; returns (text, count). A secret only
    detect-secrets' plugins recognise (no span) drops the whole text."""
    spans = secret_spans(text)
    out = text
    for span in reversed(spans):
        out = out[: span.start] + "[REDACTED]" + out[span.end :]
    if not spans and detect_secrets_finds(text):
        return "[REDACTED]", 1
    if spans and detect_secrets_finds(out):
        return "[REDACTED]", len(spans) + 1
    return out, len(spans)
