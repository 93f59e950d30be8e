"""Codes told in Japanese the other readings miss (round 12 of issue 32).

- **digits read in kana**: ろく・いち・きゅう・さん, よん なな ぜろ ご, イチ、ニ、… — a run of
  four to twelve readings of the digits 0–9 (the on'yomi and kun'yomi people say a code
  with: ぜろ/れい/まる, いち, に, さん, よん/し, ご, ろく, なな/しち, はち, きゅう/く), apart
  by ・, 、, a comma or a space (run together only when every reading has two kana or more,
  since に, ご, し and く are also particles and words), after a noun for a code or a
  secret in the same clause (暗証番号, パスコード, コード, the 番号 of a safe or a lock; not
  a phone, room, order or postal number). Multi-kana readings cannot be folded to digits
  in place (``access_forms.fold_digit_chars`` keeps positions), so they are read here;
- **letters and digits by their English names in katakana** (エー・ビー・ワン・ツー), four or
  more, after the same nouns (round 13);
- **a code keyed on a door panel**: a number of four to eight digits pressed or entered
  (を押す, 入力, 打つ) on an entry panel, a safe or a locker (オートロック, テンキー, 金庫 …);
  not when it calls a flat (呼び出し: the room number is dialled, not a secret);
- **パス for パスワード**: "ネトフリのパスは momiji22" — パス as the password's short form
  before a made value with letters and digits (not コンパス, キャンパス, パスポート, a bus).

Spans are of the text given (the detection form: full-width letters are ASCII by then).
"""

from __future__ import annotations

import re

_READINGS = {
    "ぜろ": "0", "ゼロ": "0", "れい": "0", "レイ": "0", "まる": "0", "マル": "0",
    "いち": "1", "イチ": "1", "に": "2", "ニ": "2", "さん": "3", "サン": "3",
    "よん": "4", "ヨン": "4", "し": "4", "シ": "4", "ご": "5", "ゴ": "5",
    "ろく": "6", "ロク": "6", "なな": "7", "ナナ": "7", "しち": "7", "シチ": "7",
    "はち": "8", "ハチ": "8", "きゅう": "9", "キュウ": "9", "く": "9", "ク": "9",
}  # fmt: skip
_ANY = "|".join(sorted(_READINGS, key=len, reverse=True))
_LONG = "|".join(sorted((r for r in _READINGS if len(r) >= 2), key=len, reverse=True))
_KANA = r"\u3040-\u30ff"
_SEP = r"[・、,，\s]+"
_KANA_RUN = re.compile(
    rf"(?<![{_KANA}])(?:(?:{_ANY})(?:{_SEP}(?:{_ANY})){{3,11}}|(?:{_LONG}){{4,12}})(?![{_KANA}])"
)
# Letters and digits spelled with their English names in katakana (エー・ビー・ワン・ツー):
# four or more apart by ・, 、 or a space.
_LETTER_NAMES = (
    "エー|エイチ|エイト|エイ|ビー|シー|ディー|イー|エフ|ジー|エッチ|アイ|ジェー|ジェイ|ケー|ケイ|"
    "エル|エム|エヌ|オー|ピー|キュー|アール|エス|ティー|ユー|ブイ|ヴィー|ダブリュー|エックス|ワイ|"
    "ゼット|ズィー|ワン|ツー|スリー|フォー|ファイブ|シックス|セブン|ナイン|ゼロ"
)
_LETTER_RUN = re.compile(
    rf"(?<![\u30a0-\u30ff])(?:{_LETTER_NAMES})(?:[・、,，\s]+(?:{_LETTER_NAMES})){{3,15}}"
    r"(?![\u30a0-\u30ff])"
)
# A code or secret noun; a bare 番号/コード only after what a code opens.
_CODE_NOUN = re.compile(
    r"暗証番号|暗証|パスワード|パスコード|暗号|合言葉|PIN|ピン番号|ペアレンタルコード|"
    r"ロック解除コード|解除コード|解除番号|解錠番号|"
    r"(?:金庫|ロッカー|ロック|鍵|錠|玄関|ドア|オートロック|テンキー|南京錠|ダイヤル)の?(?:番号|コード)",
    re.IGNORECASE,
)
_EXAMPLE_AFTER = re.compile(r"\s*(?:みたい|のよう|とか|など|なんて)")
_CLAUSE_END = re.compile(r"[。！？!?\n]")

_KEYED_DEVICE = r"オートロック|テンキー|キーパッド|金庫|ロッカー|玄関|ドアの|暗証|解錠|解除"
_KEYED = re.compile(
    rf"(?:{_KEYED_DEVICE})[^。！？!?\n]{{0,24}}?(?<![\d.:/-])(?P<v>\d{{4,8}})(?![\d.:/-])\s*"
    r"(?:を|と)?\s*(?:押す|押して|押せ|押し|押します|入力|打つ|打って|打ち|入れ)"
)
_CALLING = re.compile(r"呼び出|呼出|呼ぶ")

_PASS = re.compile(
    r"(?:(?<![\u30a0-\u30ff])|(?<=ログイン))パス(?![\u30a0-\u30ff])\s*(?:は|が|も|[:：])\s*"
    r"[「\"']?(?P<v>[A-Za-z0-9][!-~]{3,40})"
)


def _clause(text: str, at: int) -> tuple[int, int]:
    start = 0
    for m in _CLAUSE_END.finditer(text, 0, at):
        start = m.end()
    m = _CLAUSE_END.search(text, at)
    return start, m.start() if m else len(text)


def kana_code_spans(text: str) -> list[tuple[int, int]]:
    """Digits read in kana after a code noun in the same clause (see the docstring)."""
    spans: list[tuple[int, int]] = []
    for m in [*_KANA_RUN.finditer(text), *_LETTER_RUN.finditer(text)]:
        lo, _ = _clause(text, m.start())
        cues = list(_CODE_NOUN.finditer(text, lo, m.start()))
        # "…みたいなのはダメ": an example of a kind of code, not one
        if _EXAMPLE_AFTER.match(text, m.end()):
            continue
        if cues and m.start() - cues[-1].end() <= 16:
            spans.append((m.start(), m.end()))
    return spans


def keyed_panel_spans(text: str) -> list[tuple[int, int]]:
    """A number pressed or entered on an entry panel, safe or locker (not a flat called)."""
    spans = []
    for m in _KEYED.finditer(text):
        _, hi = _clause(text, m.end())
        if not _CALLING.search(text, m.start(), hi):
            spans.append((m.start("v"), m.end("v")))
    return spans


def short_pass_spans(text: str) -> list[tuple[int, int]]:
    """パス (the password's short form) before a made value with letters and digits."""
    spans = []
    for m in _PASS.finditer(text):
        value = m.group("v").rstrip("」\"'.,、。")
        if any(c.isalpha() for c in value) and any(c.isdigit() for c in value):
            spans.append((m.start("v"), m.start("v") + len(value)))
    return spans


def japanese_code_spans(text: str) -> list[tuple[int, int]]:
    """All three readings; nothing to do in a text with no kana."""
    if not re.search(rf"[{_KANA}]", text):
        return []
    return kana_code_spans(text) + keyed_panel_spans(text) + short_pass_spans(text)
