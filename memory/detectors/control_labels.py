"""A quoted name of a control in an interface is not a quoted secret (round 21 of issue 32).

Help pages, support answers and users themselves name the buttons, links and menu entries
they act on, in quotes, beside the credential they are about: "To reset your password,
click 'Forgot password'", 在设置里选择“修改支付密码”, 「パスワードを忘れた」をタップ, '비밀번호
찾기' 버튼을 누르세요. The prose detectors read a quoted span near a credential word as its
value. This module reads the span one of them found and says it is a control's name when
all of these hold:

- **it is the whole of a quoted segment** ('…', "…", ‘…’, “…”, 「…」, 『…』);
- **the grammar makes it a control**: a verb of acting on a control stands before the
  quotes (click, tap, press, hit, select, choose, pick, toggle, open, go to; 点击, 点, 按,
  选择, 选, 勾选, 打开, 进入, 轻触 — possibly with a short locative between, 点击登录页上的
  “…”), or a segment in the same chain did ("choose 'Security' and then 'Update PIN'",
  先选“安全”再选“…”), or a control noun or a verb of acting follows the quotes (button,
  link, menu, option, toggle, tab; 按钮, 链接, 选项, 菜单; ボタン, をタップ, を押す; 버튼,
  을 누르다);
- **its words are words**: letters of any script (no digits, no word mixing upper and lower
  case inside it, no symbols other than the spaces and punctuation of a label). A code
  pressed on a keypad ("press '4471#'") or a passphrase tapped in is not a label.

A value is typed, entered, set or said ("type 'x'", 输入“x”, "the password is 'x'"); those
verbs are not in the closed class above, so such a value stays refused, and a secret beside
a control's name is a span of its own.
"""

from __future__ import annotations

import re

_PAIRS = {"'": "'", '"': '"', "‘": "’", "“": "”", "「": "」", "『": "』"}

# A quoted segment: the opening quote not inside a word (an apostrophe is not a quote).
_SEGMENT = re.compile(
    r"(?<![A-Za-z0-9])'[^'\n]{1,60}'(?![A-Za-z0-9])|\"[^\"\n]{1,60}\"|‘[^’\n]{1,60}’|"
    r"“[^”\n]{1,60}”|「[^」\n]{1,60}」|『[^』\n]{1,60}』"
)

# Verbs of acting on a control, then at most a few articles or prepositions, right before
# the quotes. A closed class of interface verbs, not examples.
_ACT_BEFORE_EN = re.compile(
    r"(?i:\b(?:click(?:s|ed|ing)?|tap(?:s|ped|ping)?|press(?:es|ed|ing)?|hit(?:s|ting)?|"
    r"select(?:s|ed|ing)?|choos(?:e|es|ing)|chose|pick(?:s|ed|ing)?|toggl(?:e|es|ed|ing)|"
    r"open(?:s|ed|ing)?|go(?:es)?\s+to|went\s+to|navigate\s+to|switch\s+on|turn\s+on)"
    r"(?:\s+(?:on|the|a|an|into|in))*\s*$)"
)
_ACT_BEFORE_ZH = re.compile(
    r"(?:点击|點擊|点选|點選|点一下|點一下|点|點|按一下|按|选择|選擇|选|選|勾选|勾選|"
    r"打开|打開|进入|進入|轻触|輕觸|轻点|輕點)"
    r"(?:[\u4e00-\u9fff]{0,8}的)?\s*$"
)
# Between two segments of one chain of steps: only connectives and arrows.
_CHAIN = re.compile(
    r"(?i:^\s*(?:,|，|、|>|→|/|\band\b|\bthen\b|\bor\b|然后|然後|再|后|後|或|和|\s)*"
    r"(?:(?:点击|點擊|点|點|按|选择|選擇|选|選|click|tap|press|select|choose|hit)\s*)?$)"
)
_CONTROL_AFTER = re.compile(
    r"(?i:\s*(?:(?:button|link|menu|option|toggle|switch|tab|checkbox|icon|entry|item)s?\b|"
    r"按钮|按鈕|链接|鏈接|連結|选项|選項|菜单|菜單|選單|开关|開關|图标|圖標|"
    r"ボタン|リンク|メニュー|タブ|(?:を|から)\s*(?:タップ|クリック|押|選択|選ん)|"
    r"버튼|링크|메뉴|탭|(?:을|를)\s*(?:누르|눌러|클릭|탭|선택)))"
)
# A label's words: letters of any script, with a label's spaces and punctuation between.
_WORD = re.compile(r"[^\W\d_]+")
_LABEL_PUNCT = re.compile(r"[^\W\d_]|[\s&/\-’'?!.…:,，、。？！]")


def _is_label_text(inner: str) -> bool:
    if not inner.strip() or not all(_LABEL_PUNCT.fullmatch(ch) for ch in inner):
        return False
    words = _WORD.findall(inner)
    return bool(words) and all(
        w.islower() or w.isupper() or w.istitle() or not w.isascii() for w in words
    )


def _acted_on_before(text: str, lo: int) -> bool:
    before = text[max(0, lo - 40) : lo]
    return bool(_ACT_BEFORE_EN.search(before) or _ACT_BEFORE_ZH.search(before))


def quoted_control_label(text: str, start: int, end: int) -> bool:
    """Whether the span ``text[start:end]`` a detector found is the name of a control, in
    quotes, that the sentence acts on (see the module's docstring)."""
    segments = [m.span() for m in _SEGMENT.finditer(text)]
    for n, (lo, hi) in enumerate(segments):
        # The span is the segment, with or without its quotes.
        if not (lo <= start <= lo + 1 and hi - 1 <= end <= hi):
            continue
        if text[lo] in _PAIRS and text[hi - 1] != _PAIRS[text[lo]]:
            return False
        if not _is_label_text(text[lo + 1 : hi - 1]):
            return False
        if _acted_on_before(text, lo) or _CONTROL_AFTER.match(text, hi):
            return True
        # A later step in a chain whose first segment was acted on.
        k = n
        while k > 0 and _CHAIN.match(text[segments[k - 1][1] : segments[k][0]]):
            k -= 1
            if _acted_on_before(text, segments[k][0]):
                return True
        return False
    return False
