"""What makes an account or a card number financial (round 15 of issue 32).

A number is the user's financial account when one of these holds, and only then:

- **its format is a payment card's**: Luhn-valid, 13 to 19 digits, and an issuer prefix of
  the payment networks (ISO/IEC 7812's major industry identifiers for banking and
  finance: 4 and 5, 6, 3 as travel and entertainment cards (30, 34–39), 2 as
  Mastercard's 22–27 and Mir's 2200–2204, 81–82 as UnionPay's and RuPay's, 9 as a
  national bank card such as ICBC's 9558). A Luhn-valid run starting with 1, 7, 0, 20 or
  21 is an order, a date or a loyalty number, which Luhn passes one time in ten;
- **it is an IBAN** (``stdnum``) — unless the account is an organisation's, given to be
  paid (an invoice's payee, 对公账户, a company's IBAN): that is no one's personal data;
- **its noun names a bank or a payment account**: "my bank account number", 我的银行卡号,
  口座番号, 계좌번호, or a card noun after a financial qualifier (银行, a bank's short name
  ending in 行, 信用, 储蓄, 借记, 工资, 证券, 支付 …, クレジット, 신용). A card or an
  account number after any other qualifier (会员卡号, 图书证号, 积分卡号, 游泳卡号 …) is a
  membership's, and a payment card among them is still caught by its format. An
  unqualified 卡号 or 账号 ("我的卡号是…") stays financial: nothing says otherwise.

The qualifiers are a closed list of the financial ones, not of the others: a new kind of
membership card needs no word here.
"""

from __future__ import annotations

import re

from stdnum import iban, luhn

from memory.detectors.public_values import inside_public_value

_MY = r"\b(?:my|(?:the\s+)?user's)"
_ME_ZH = "(?:我|用户|该用户|本人)"

# Qualifiers that make a card or an account number a financial one (see the docstring).
_FIN_ZH = (
    r"银行|銀行|[工农農建招中交光民兴興浦邮郵平广廣华華商]行|信用社?|储蓄|儲蓄|借记|借記|工资|工資|"
    r"证券|證券|基金|股票|理财|理財|支付|钱包|錢包|收款|社保|医保|醫保|公积金|公積金|"
    r"Visa|VISA|万事达|萬事達|银联|銀聯|PayPal|paypal|存折|存摺|对私|對私"
)
# Words between 我的 and the financial qualifier: a demonstrative or a count, not a noun.
_PRE_ZH = r"(?:那张|那張|这张|這張|另一张|另一張|主|副|常用的?|新的?|旧的?|舊的?)?"

FINANCIAL = [
    re.compile(
        rf"{_MY} (?:bank |checking |savings |brokerage |pension |credit card |debit card |card |account |routing )?"
        r"(?:account number|card number|iban|routing number|sort code|account no\.?)"
        # where the account is held, before the value: "… at Fidelity is …"
        r"(?:\s+(?:at|with|in|from)\s+[\w&'.-]+(?:\s+[\w&'.-]+)?)?"
        r"\s*(?:is|:|=)?\s*[\w-]*\d",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_ME_ZH}的{_PRE_ZH}(?:\S{{0,6}}?(?:{_FIN_ZH})\S{{0,4}}?)?"
        r"(?:银行卡号|銀行卡號|卡号|卡號|银行账号|銀行賬號|账号|賬號|账户号码?|賬戶號碼?|信用卡号|信用卡號|开户行|開戶行)"
        r"\S{0,3}?[是为為:：]?\s*\d"
    ),
    # Japanese and Korean: a bank account's own noun (口座, 계좌), or a card noun after a
    # financial qualifier.
    re.compile(
        r"(?:口座番号|口座|(?:クレジット|デビット|キャッシュ)カード(?:の)?番号)\S{0,8}?[はが:：]\s*\d"
        r"|(?:계좌\s?번호|계좌|(?:신용|체크|직불)\s?카드\s?번호)\S{0,6}?(?:는|은|:|：)?\s*\d"
    ),
]

# The issuer prefixes of payment cards (see the docstring).
_PAYMENT_PREFIX = re.compile(r"[4-6]|3[04-9]|2[2-7]|8[12]|9")


def payment_card_number(raw: str) -> bool:
    """Whether the digits ``raw`` are shaped as a payment card's number."""
    return (
        13 <= len(raw) <= 19
        and raw.isdigit()
        and _PAYMENT_PREFIX.match(raw) is not None
        and luhn.is_valid(raw)
    )


# An organisation as the account's holder, and the user as one.
_ORGANISATION = re.compile(
    r"(?i:\b(?:company|business|firm|shop|store|organi[sz]ation|charity|corporate|supplier|"
    r"vendor|payee|invoice|ltd|gmbh|inc|llc|plc|s\.?a\.?r?\.?l?)\b)|"
    r"对公|對公|公司|企业|企業|商户|商戶|店铺|店鋪|发票|發票|株式会社|法人|会社|회사|법인"
)
_PERSONAL = re.compile(
    r"(?i:\bmy\s+(?:\w+\s+){0,2}?(?:iban|account|bank|card)\b)|我的\S{0,6}?(?:账|賬|卡|户|戶)|"
    r"私の\S{0,6}?口座|제\s?\S{0,6}?계좌|내\s?\S{0,6}?계좌"
)


def _sentence(text: str, start: int, end: int) -> str:
    lo = max(text.rfind(c, 0, start) for c in ".!?。！？\n") + 1
    his = [i for i in (text.find(c, end) for c in ".!?。！？\n") if i >= 0]
    return text[lo : min(his) if his else len(text)]


def organisation_account(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` is given as an organisation's account:
    its sentence names an organisation (a company, an invoice, 对公, 有限公司) and never
    the user as the holder ("my IBAN", 我的账号)."""
    sentence = _sentence(text, start, end)
    return bool(_ORGANISATION.search(sentence)) and not _PERSONAL.search(sentence)


_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b")


def iban_spans(text: str) -> list[tuple[int, int]]:
    """Spans of valid IBANs in ``text``."""
    return [m.span() for m in _IBAN.finditer(text) if iban.is_valid(m.group())]


def personal_iban(text: str) -> bool:
    """Whether ``text`` holds a valid IBAN that is not an organisation's."""
    return any(not organisation_account(text, lo, hi) for lo, hi in iban_spans(text))


def payment_card_at(text: str, start: int, end: int, raw: str) -> bool:
    """Whether the digit run ``raw`` at ``text[start:end]`` is the user's payment card: a
    payment card's format, not inside an IBAN, not a labelled reference (an order's, a
    loyalty card's number: ``public_values``), not an organisation's account."""
    if not payment_card_number(raw):
        return False
    if any(lo <= start and end <= hi for lo, hi in iban_spans(text)):
        return False
    return not inside_public_value(text, start, end) and not organisation_account(text, start, end)
