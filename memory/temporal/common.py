"""What the Chinese and English readers share: calendar arithmetic, and the cues of a
change, a habit and an undated plan."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

from memory.detectors.switches import detection_switch

# Traditional characters folded to the simplified ones the time and state patterns spell,
# one for one (no converter is installed; OpenCC would do all of them). Only characters
# those patterns use: it reads 下個月 as 下个月, not every traditional text. The second
# line: the characters the special-category patterns spell (藥, 醫療, 診斷, 顆, 黨 …).
_HANT = str.maketrans(
    "個會將準備劃開換轉離調職後週禮來點兒現這時剛頭暈幾兩號們對過還從畢業進裡為覺睏餓熱氣緊張煩難陣辭讀學員報愛聽電腦壞決計開動"
    "藥醫療診鬱癥腫針劑顆膠憂癒術斷壓臟腎聖黨懷錄紋",
    "个会将准备划开换转离调职后周礼来点儿现这时刚头晕几两号们对过还从毕业进里为觉困饿热气紧张烦难阵辞读学员报爱听电脑坏决计开动"
    "药医疗诊郁症肿针剂颗胶忧愈术断压脏肾圣党怀录纹",
)


# The characters ``_HANT`` folds, as one class: a text without any is its own fold
# (``ENGRAM_DETECTOR_FOLD_GATE``; a candidate's detectors fold about ten texts).
_HANT_ANY = re.compile("[" + "".join(re.escape(chr(c)) for c in _HANT) + "]")
_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7a3]")


def fold_traditional(text: str) -> str:
    """Japanese writes some of these characters too (来週): kana or hangul leaves the text
    as it is."""
    if detection_switch("FOLD_GATE"):
        if not _HANT_ANY.search(text) or _KANA_HANGUL.search(text):
            return text
        return text.translate(_HANT)
    if re.search(r"[\u3040-\u30ff\uac00-\ud7a3]", text):
        return text
    return text.translate(_HANT)


def _day(now: datetime, d: date) -> datetime:
    return now.replace(
        year=d.year, month=d.month, day=d.day, hour=0, minute=0, second=0, microsecond=0
    )


def _add_months(now: datetime, n: int) -> datetime:
    index = now.month - 1 + n
    return _day(now, date(now.year + index // 12, index % 12 + 1, 1))


def _shift(now: datetime, n: int, unit: str) -> datetime:
    if unit == "day":
        return _day(now, (now + timedelta(days=n)).date())
    if unit == "week":
        return _day(now, (now + timedelta(weeks=n)).date())
    if unit == "year":
        return _day(now, date(now.year + n, 1, 1))
    return _add_months(now, n)


def _zh_starts(text: str) -> set[int]:
    """Where the segmenter's words begin: "上周" in "晚上周末" starts inside a word."""
    import rjieba

    starts, at = set(), 0
    for word in rjieba.cut(text):
        starts.add(at)
        at += len(word)
    return starts


def _back(now: datetime, n: int, unit: str) -> datetime:
    """``n`` units before ``now``, to the day (the same day of the month, clamped)."""
    if unit == "day":
        return _day(now, (now - timedelta(days=n)).date())
    if unit == "week":
        return _day(now, (now - timedelta(weeks=n)).date())
    months = n * 12 if unit == "year" else n
    index = now.year * 12 + now.month - 1 - months
    year, month = divmod(index, 12)
    last_day = calendar.monthrange(year, month + 1)[1]
    return _day(now, date(year, month + 1, min(now.day, last_day)))


def _latest_month(now: datetime, month: int) -> datetime:
    """The first day of the latest ``month`` that began on or before ``now``."""
    year = now.year if month <= now.month else now.year - 1
    return _day(now, date(year, month, 1))


# A habit is not a start: "I always visit my parents at Christmas", "每年春节都回老家".
_HABITUAL = re.compile(
    r"\b(?:always|every|each|usually|normally|often|annually|tradition(?:ally)?)\b"
    r"|每年|每逢|每次|每到|总是|通常|一般|向来|历来",
    re.IGNORECASE,
)


# Closed grammatical classes, shared by the cues below (issue 32: mechanisms, not the
# content words of a data set). English aspectual verbs (begin, stop, quit, finish,
# resume) and verbs of becoming ("become", "get" + a participle: "getting married", "gets
# promoted"), returning ("going back to", "return"), "new" and "no longer"; Chinese change
# into (改成, 换成, 变成, 成为, 改为, 转为), 不再, and the new-situation 就…了.
_EN_ASPECTUAL = (
    r"begin\w*|began|stop\w*|quit\w*|finish\w*|resum\w+|becom\w+|became|"
    r"get(?:s|ting)?\s+\w+ed|go(?:es|ing)?\s+back|com(?:e|es|ing)\s+back|return\w*|"
    r"new|no\s+longer|any\s?more"
)
_ZH_CHANGE_INTO = r"[改换变转]成|成为|[改转]为|不再|就.{1,8}?了"
# The English present progressive is also the future of arrangements ("I'm retiring in
# June", "we're getting married next spring"), as "will" is: a change cue only when a
# time to come is named, which the readers check. "'s" is left out (a possessive).
_EN_PROGRESSIVE = r"(?:\b(?:am|is|are)|'m|'re)\s+(?:\w+ly\s+)?\w{2,}ing"
# Japanese and Korean: "from" (から, 부터), a plan (予定, つもり, 예정), to become (になる,
# 되다), a decision taken (ことになった, 기로 했다), to start (始め, 시작), the Korean
# prospective "-ㄹ 거" (a syllable ending in ㄹ before 거/것) and "-려고".
# Hangul syllables whose final consonant is ㄹ (할, 갈, 옮길): the prospective "-ㄹ 거예요".
_HANGUL_RIEUL = "".join(chr(0xAC00 + 8 + 28 * i) for i in range(399))
_JAKO_CUE = (
    r"から|予定|つもり|始め|始ま|にな[るりっ]|ことにな|"
    r"부터|예정|시작|되[는었기]|돼요|될|기로\s?했|려고|"
    rf"[{_HANGUL_RIEUL}]\s*(?:거|것)"
)


# Chinese has no tense: a time to come beside a verb that is not told as done (了, 过,
# 已经) and not the copula 是 ("下周三是我的生日" is a date, not a change) is the future, as
# "will" is in English. An attribute ("明年的计划") names no start.
_ZH_TIME_TO_COME = re.compile(
    r"(?:明年|来年|后年|下{1,2}个?(?:月|周|星期|礼拜)|明天|后天|年底|下半年|"
    r"(?:\d+|[一二两三四五六七八九十几]+)(?:天|周|个?星期|个多?月|年)(?:以?后|之后))(?!的)"
)


def zh_prospective(text: str) -> bool:
    return bool(
        _ZH_TIME_TO_COME.search(text) and not re.search(r"了|过(?!来|去|年|节)|已经|是", text)
    )


# A conditional or counterfactual is not a plan: "if I moved to Japan", "如果明年换工作的话",
# "もし来年…たら", "만약 내년에…".
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|would|could|might)\b|如果|要是|假如|假设|万一|的话|もし|만약|만일",
    re.IGNORECASE,
)


_UNDATED_FUTURE = re.compile(
    r"\b(?:after|once|when)\s+(?:the|my|our|his|her|their)\s+\w+(?:\s+\w+)?\s+(?:is|are|has|have|ends?|finish(?:es)?|over|done|starts?)\b"
    r"|\bafter\s+(?:the|my|our)\s+(?:wedding|graduation|move|lease|contract|renovation|baby|holidays?|vacation|trip|project|exams?)\b"
    r"|\b(?:some\s*day|someday|one\s+day|eventually|in\s+the\s+(?:near\s+)?future|sometime\s+(?:soon|later)|at\s+some\s+point|soon)\b"
    r"|\b(?:will|'ll|going\s+to|gonna|plan(?:ning)?\s+to|about\s+to)\s+(?:move|relocate|switch|join|start|change|leave|"
    + _EN_ASPECTUAL
    + r")\b"
    # A clause of a time to come with a pronoun subject and a present verb, then a future
    # in the main clause: "after I graduate I'll…", "once we sell the flat we're going to…".
    r"|\b(?:after|once|when|as\s+soon\s+as)\s+(?:I|we|he|she|they|the\s+user|user)"
    r"(?:'m|'re|\s+)(?!(?:was|were|had|did|used)\b)\w*(?<!ed)\b[^.;]*?"
    r"\b(?:will|'ll|going\s+to|gonna|(?:'m|'re|am|are)\s+\w+ing)\b"
    # "next" and a period with no calendar date: a semester, a term, a season.
    r"|\bnext\s+(?:semester|term|season|school\s+year|academic\s+year|fiscal\s+year)\b"
    r"|下(?:个|一)?(?:学期|学年|赛季|财年)|来学期|来期|다음\s?학기|다음\s?시즌"
    r"|(?:等|待)(?:到)?.{1,12}?(?:以后|之后|后|了|完|结束)(?:再|就|我|你|他|她|我们|用户)?"
    r"|(?:将来|迟早|早晚|不久以后|过段时间|过阵子|过些日子|有朝一日|总有一天|终有一天)"
    # (the object may come first with 把: 准备把宽带换成…, the 把 construction)
    r"|(?:准备|打算|计划|要|将要|快要?|就要|即将)(?:把[^，。,.；;!?！？]{1,12}?)?"
    r"(?:搬|搬家|换|去|加入|离开|调|当|成为|变成|开始|不再)"
    r"|会(?:搬|调到|跳槽|离职|入职)"
    # ja / ko: "soon", "some day" (as "soon" in English) with a plan or a change.
    r"|(?:近いうちに|そのうち|いずれ|いつか|近々|将来).{0,20}?(?:予定|つもり|にな[るりっ]|始め)"
    r"|(?:곧|언젠가|조만간|머지않아|나중에).{0,20}?(?:예정|시작|될|려고|기로)",
    re.IGNORECASE,
)


_CHANGE_CUE = re.compile(
    r"\b(?:mov(?:e|es|ed|ing)|relocat\w+|switch\w*|join\w*|start\w*|chang\w+|leav\w+|left|"
    r"transfer\w*|took\s+(?:up|over)|will|'ll|going\s+to|about\s+to|due\s+to|set\s+to|"
    r"plan(?:s|ning)?\s+to|intend\w*\s+to|scheduled\s+to|from|as\s+of|effective|until|"
    + _EN_ASPECTUAL
    + r")\b|"
    + _EN_PROGRESSIVE
    + r"|搬|换|调到|加入|开始|起|生效|转到|离开|入职|跳槽|将|要|会|打算|准备|计划|"
    + _ZH_CHANGE_INTO
    + "|"
    + _JAKO_CUE,
    re.IGNORECASE,
)
