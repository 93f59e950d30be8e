"""A passing state by its structure, not by a list of states (issue 32): a state predicate
scoped to this moment or this day, whoever is in it.

- English: a copula or a verb of feeling ("am", "is", "feel", "seems", "feeling") then,
  after degree adverbs and "not", a predicate that is not a noun phrase (no determiner, no
  number), with a scope of the moment ("right now", "at the moment", "as we speak") or of
  the day ("today", "tonight", "this morning"). An activity in progress ("cooking dinner")
  or a place ("at the dentist") counts only under "right now" or a day scope: "working at
  a bakery at the moment" is a job, not a moment.
- Chinese: a scope word, then a degree adverb or a negation right before a short predicate
  that ends the clause ("今天心情不太好", "此刻非常紧张"); under 现在 / 目前 (which also mean
  "nowadays") only the degrees of the moment (有点, 好, 太, 不太…): "他现在很有名" is fame.
- Japanese and Korean: a scope word (今日, 今夜, 今朝, 今; 오늘, 지금), then an adjective or
  "-ている" ending the clause with a degree adverb, or the progressive noun 中 / 중.

A habit ("always", 一直, いつも, 항상) or an event told beside the state is checked by the
caller (``memory.content_rules.find_transient``). The word classes here are closed
grammatical sets (determiners, degree adverbs, scope words), never states.
"""

from __future__ import annotations

import re

_EN_MOMENT = (
    r"right\s+now|at\s+(?:the|this)\s+moment|as\s+we\s+speak|just\s+now"
    r"|(?:right\s+)?this\s+(?:very\s+)?(?:minute|second|instant)|at\s+this\s+very\s+moment"
)
_EN_DAY = r"today|tonight|this\s+(?:morning|afternoon|evening)"
_EN_DEGREE = (
    r"so|very|really|a\s+(?:bit|little)|kind\s+of|kinda|sort\s+of|pretty|super|quite|"
    r"rather|totally|extremely|incredibly|somewhat|slightly|too|still|just|a\s+tad|a\s+touch|"
    r"absolutely|completely|utterly|awfully|terribly|properly"
)
_EN_FRAME = re.compile(
    r"(?:'m|'re|'s|\b(?:am|is|are|feels?|feeling|seems?|looks?))(?:\s+not)?"
    r"(?:\s+feeling)?(?:\s+(?:" + _EN_DEGREE + r"))*\s+(?P<head>[a-z][\w-]*)(?P<rest>.*)",
    re.IGNORECASE,
)
# A noun phrase, a number or a grammatical word after the copula: not a state.
_EN_NOT_STATE = re.compile(
    r"(?:a|an|the|my|your|his|her|our|their|its|this|that|these|those|one|some|no|any|all|"
    r"both|each|every|going|about|always|usually|never|often|also|now|currently|here|there|"
    r"not|from|like|to|\d[\w.]*)$",
    re.IGNORECASE,
)
# Who is in the state: a personal pronoun, the user, or a name, right before the copula.
# "The studio is on shaky ground right now" is about a thing, not a moment of someone's.
_EN_PERSON = re.compile(
    r"(?:\b(?i:I|we|you|he|she|they|user|customer|client)|\b(?i:my|user's)\s+\w+|\b(?!(?:The|This|That|It|There|"
    r"Today|Tonight|Everything|Nothing|Something|Everyone)\b)[A-Z][a-z]+)\s*$"
)
# An opening word that is a verb or a time word, not a predicate: "Went swimming today",
# "Today is…", "Tomorrow …", "Lunch today …" stay events or things.
_EN_VERB_OPENING = re.compile(
    r"(?:went|got|had|did|made|took|saw|met|today|tonight|tomorrow|yesterday|lunch|dinner|"
    r"breakfast|work|school|class|meeting|it|this|that|there|here|what|who|how|why|when|where|"
    r"is|are|was|were|do|does|will|can|could|should|would|see|call|text|talk|meet|let's|lets)$",
    re.IGNORECASE,
)
_EN_PLACE = re.compile(r"(?:at|in|on|with|out|off|away|outside|home|back|out)$", re.IGNORECASE)


# An event pointed at as just now ("after that espresso", "after this meeting"): the
# demonstrative places the cause in the moment, as "right now" does.
# Singular and not a span of time: "after all those years" is a life, not a moment.
_EN_DEICTIC_EVENT = (
    r"\bafter\s+(?:that|this)\b(?!\s+(?:\w+\s+)?(?:years?|months?|weeks?|decades?|time|long))"
)

_EN_HAVE = re.compile(
    r"(?:'ve\s+got|'s\s+got|\b(?:have|has)(?:\s+got)?|\bgot)\s+(?:a|an|some)\b", re.IGNORECASE
)


# The speaker's dropped subject ("Feeling a bit low this evening", "jet-lagged and grumpy
# this morning"): the sentence opens with the predicate, one or two words joined by "and"
# after degree adverbs (and "feeling"), and a scope of the moment or the day follows at once.
# The degree words are a closed class; the predicate is never listed.
_EN_DROPPED = re.compile(
    r"^\s*(?:(?:honestly|still|just|ugh|man),?\s+)*(?P<feeling>feeling\s+)?"
    r"(?P<degree>(?:(?:" + _EN_DEGREE + r")\s+)+)?"
    r"(?P<head>[a-z][\w-]*)(?P<pair>\s+and\s+(?:(?:" + _EN_DEGREE + r")\s+)*[a-z][\w-]*)?\s+"
    r"(?:" + _EN_MOMENT + r"|" + _EN_DAY + r"|after\s+(?:that|this)\s+(?!(?:\w+\s+)?(?:years?|"
    r"months?|weeks?|decades?|time|long)\b))\b",
    re.IGNORECASE,
)


# The speaker's dropped subject in a posture or a place, told of this moment: a participle of
# position opening the sentence ("Sat in a dentist's chair right now", "Stuck on the
# platform at the moment"), then a place, then a scope of the moment (not of the day: "Sat
# in the garden today" is an event).
_EN_DROPPED_POSTURE = re.compile(
    r"^\s*(?:sat|sitting|stood|standing|stuck|lying|waiting|queu(?:e)?ing|parked|trapped)\s+"
    r"(?:in|on|at|by|outside|behind|inside|under)\b[^.;]{0,40}?\b(?:" + _EN_MOMENT + r")\b",
    re.IGNORECASE,
)
# A deferral of the conversation to later because of the moment ("so I'll keep this short",
# "talk later", "can't talk"): the situation told beside it is this moment's.
_EN_DEFERRAL = re.compile(
    r"\b(?:I'll|I\s+will|I\s+can)\s+(?:keep\s+(?:this|it)\s+(?:short|brief)|call\s+you\s+(?:back|later)|"
    r"text\s+you\s+(?:back|later)|reply\s+(?:later|properly\s+later))|\btalk\s+(?:later|soon|in\s+a\s+bit)\b"
    r"|\bcan't\s+(?:talk|chat)\b",
    re.IGNORECASE,
)


def _en(sentence: str) -> bool:
    if _EN_DROPPED_POSTURE.search(sentence):
        return True
    # Without a person the predicate must show itself as one: after "feeling" or a degree
    # adverb, or a participle paired with another ("jet-lagged and grumpy"); "Pizza
    # tonight!" and "Swimming today" are plans and things.
    dropped = _EN_DROPPED.match(sentence)
    if (
        dropped
        and (
            dropped["feeling"]
            or dropped["degree"]
            or (dropped["pair"] and dropped["head"].lower().endswith("ed"))
        )
        and not _EN_NOT_STATE.match(dropped["head"])
        and not _EN_VERB_OPENING.match(dropped["head"])
    ):
        return True
    moment = re.search(rf"\b(?:{_EN_MOMENT})\b", sentence, re.IGNORECASE)
    day = re.search(rf"\b(?:{_EN_DAY})\b", sentence, re.IGNORECASE)
    loose = re.search(r"\bat\s+the\s+moment\b", sentence, re.IGNORECASE)
    # A deictic event scopes a state only, never an activity or a plan: "I'm moving to
    # Leeds after this project" is a change to come.
    deictic = re.search(_EN_DEICTIC_EVENT, sentence, re.IGNORECASE) and not re.search(
        r"\b(?:will|shall|going\s+to|gonna)\b|'ll\b", sentence, re.IGNORECASE
    )
    if not (moment or day or deictic):
        return False
    # "have" or "'ve got" + an indefinite noun phrase, of a person, in a scope of the moment
    # or the day: "I have a splitting headache right now", "she's got a cold today".
    for m in _EN_HAVE.finditer(sentence) if (moment or day) else ():
        if m[0].startswith("'") or _EN_PERSON.search(sentence[: m.start()]):
            return True
    for m in _EN_FRAME.finditer(sentence):
        head = m["head"]
        # "'m" and "'re" carry their person; "'s" only after "my …" ("My head's pounding"),
        # never a thing's ("it's", "the studio's").
        if (not m[0].startswith("'") or m[0].startswith("'s")) and not _EN_PERSON.search(
            sentence[: m.start()]
        ):
            continue
        if _EN_NOT_STATE.match(head):
            continue
        if re.match(r"to\s+\w", m["rest"].strip()):
            continue  # "happy to help": an attitude to a deed, not a state
        if head.lower().endswith("ing") or _EN_PLACE.match(head):
            # An activity or a place: only under "right now" or a day scope (not a deictic
            # event).
            if day or (moment and not (loose and moment[0].lower().startswith("at"))):
                return True
            if moment and _EN_DEFERRAL.search(sentence):
                return True
            continue
        return True
    return False


_ZH_SCOPE_STRICT = r"此刻|这会儿|这时候|今天|今晚|今早|今天早上|眼下|刚才|此时"
_ZH_SCOPE_LOOSE = r"现在|目前"
_ZH_DEGREE_MOMENT = r"有点儿?|有些|有一点|好|太|超|不太|不怎么|不大"
_ZH_DEGREE = _ZH_DEGREE_MOMENT + r"|很|特别|非常|挺|比较|十分|真|蛮|格外|不"
_ZH_END = r"(?:了|啊|呀|呢|的|哦|啦|死了|得很|极了)?[!！~～….。]*\s*$"


_ZH_SCOPE_MOMENT = r"此刻|这会儿|这时候|此时|眼下"
# A degree complement ending a clause: the state at its height ("撑得不行", "困得…睁不开了").
_ZH_DEGREE_COMPLEMENT = r"得(?:不行|要命|要死|受不了|不得了|慌)|死了|坏了"
# A deferral of the conversation ("等一下再回你", "晚点聊", "回头再说"): the situation beside
# it is this moment's.
_ZH_DEFERRAL = re.compile(r"(?:等一下|等会儿?|待会儿?|晚点|回头)再?(?:回|聊|说|打|联系)")


def zh_moment(sentence: str) -> bool:
    """A moment in Chinese told over a whole sentence: a scope of the moment before 在 (a
    place or an activity now: "我这会儿在医院排队", "此刻堵在隧道里"), "just" (刚) with a
    degree complement ("刚吃完火锅，撑得不行"), a scope then a state with a complement ending
    in 了 ("现在困得眼睛都睁不开了"), or a scope, 在 and a deferral of the conversation
    ("我现在在捷运上，等一下再回你")."""
    if re.search(rf"(?:{_ZH_SCOPE_MOMENT})\s*(?:正)?[\u4e00-\u9fff]?在", sentence):
        return True
    if "刚" in sentence and re.search(rf"(?:{_ZH_DEGREE_COMPLEMENT})[!！。]*\s*$", sentence):
        return True
    if re.search(
        rf"(?:{_ZH_SCOPE_STRICT}|{_ZH_SCOPE_LOOSE})[\u4e00-\u9fff]{{1,2}}得[\u4e00-\u9fff]{{1,8}}了[!！。]*\s*$",
        sentence,
    ):
        return True
    return bool(
        re.search(rf"(?:{_ZH_SCOPE_STRICT}|{_ZH_SCOPE_LOOSE})在", sentence)
        and _ZH_DEFERRAL.search(sentence)
    )


def _zh(clause: str) -> bool:
    strict = re.search(_ZH_SCOPE_STRICT, clause)
    loose = re.search(_ZH_SCOPE_LOOSE, clause)
    if not (strict or loose):
        return False
    scope = strict or loose
    after = clause[scope.end() :]
    degree = _ZH_DEGREE if strict else _ZH_DEGREE_MOMENT
    # A topic of up to three characters ("心情", "头") may stand between scope and degree.
    if re.search(rf"^[\u4e00-\u9fff]{{0,3}}?(?:{degree})[\u4e00-\u9fff]{{1,3}}{_ZH_END}", after):
        return True
    # A wish of this day ("今晚特别想吃火锅", "今天好想回家"): a degree adverb, the modal 想
    # and a short object ending the clause, under a strict scope only ("现在想学日语" is a
    # plan; "今天想问一下…", with no degree, is conversation).
    if strict and re.search(
        rf"^[\u4e00-\u9fff]{{0,3}}?(?:{_ZH_DEGREE})想[\u4e00-\u9fff]{{1,6}}{_ZH_END}", after
    ):
        return True
    if strict and re.search(r"着(?:呢)?\s*$", after):
        return True  # the durative 着 ending a clause of this day: "今天我在家躺着"
    return bool(re.search(r"^\s*正在", after))  # the progressive 正在


_JA_DAY = r"今日|今夜|今晩|今朝"
_JA_NOW = r"今(?![年度月週回後日夜朝晩])|いま"
_JA_DEGREE = r"ちょっと|少し|すごく|とても|かなり|めっちゃ|超|あまり|全然|なんだか|なんか"
_JA_END = r"(?:い|ている|ています|てる|てます|くない|くありません)(?:です|よ|ね|な)?[。！!…\s]*$"
_KO_SCOPE = r"오늘|지금|오늘밤|오늘\s?아침"
_KO_DEGREE = r"좀|너무|조금|많이|정말|아주|진짜|되게|약간|엄청"


def _ja_ko(sentence: str) -> bool:
    day = re.search(_JA_DAY, sentence)
    now = re.search(_JA_NOW, sentence)
    if day or now:
        after = sentence[(day or now).end() :]
        if re.search(r"中(?:です|だ)?[。！!\s]*$", after):
            return True
        degree = re.search(_JA_DEGREE, after)
        if re.search(_JA_END, after) and (degree or day):
            return True
    m = re.search(_KO_SCOPE, sentence)
    if m:
        after = sentence[m.end() :]
        if re.search(r"중(?:이에요|입니다|이야|이다)?[.!\s]*$", after):
            return True
        if re.search(rf"(?:{_KO_DEGREE})\s*\S+(?:요|다)[.!\s]*$", after):
            return True
        # 오늘 (a day scope) and a predicate that is not the copula ("오늘은 월요일이에요").
        if m[0].startswith("오늘") and re.search(r"\S+(?<!이에)(?<!예)(?<!에)요[.!\s]*$", after):
            return True
    return False


def passing_state(sentence: str) -> bool:
    """Whether one sentence (the caller has split them and ruled out habits and events)
    states a passing state of the moment."""
    if re.search(r"[\u3040-\u30ff\uac00-\ud7a3]", sentence) and _ja_ko(sentence):
        return True
    if re.search(r"[A-Za-z]", sentence) and _en(sentence):
        return True
    if re.search(r"[\u4e00-\u9fff]", sentence) and zh_moment(sentence):
        return True
    return any(_zh(clause) for clause in re.split(r"[，,、：:]", sentence))


# An event told as just over, then the state it left, ending the sentence: "Just had a huge
# lunch, so stuffed", "刚吃完火锅，撑死了". The state is the point and "just" puts it in this
# moment; a state told first and an event given as its reason ("I'm exhausted today, I just
# finished a marathon") stays an episode (``content_rules._NARRATIVE``). The state is a bare
# predicate after a degree adverb, "feeling" or "I'm" (en), or a degree complement or a
# degree adverb of the moment and one or two characters (zh): closed classes, never states.
_EN_JUST_THEN = re.compile(
    r"^\s*(?:(?:ugh|oh|man|phew|wow),?\s+)?(?:I\s+)?(?:'ve\s+|have\s+)?just\s+[a-z]+\b[^.!?;,]{0,60},\s*"
    r"(?:and\s+|now\s+)?(?:(?:I'm|I\s+am|feeling|feel)\s+)?"
    r"(?P<degree>(?:(?:" + _EN_DEGREE + r")\s+)*)(?P<head>[a-z][\w-]*)\s*[!.…]*\s*$",
    re.IGNORECASE,
)
_ZH_JUST_THEN = re.compile(
    r"刚(?:刚|才)?[\u4e00-\u9fff]{1,10}?(?:完|了)[\u4e00-\u9fff]{0,6}[，,]\s*"
    rf"(?:[\u4e00-\u9fff]{{0,3}}?(?:{_ZH_DEGREE_COMPLEMENT})|(?:{_ZH_DEGREE_MOMENT})[\u4e00-\u9fff]{{1,2}})"
    r"(?:了|啊|呀|啦)?[!！。~～…]*\s*$"
)


def just_then_state(sentence: str) -> bool:
    """Whether one sentence tells an event as just over and ends on the state it left."""
    if "刚" not in sentence and "just" not in sentence.lower():
        return False  # both frames need their word for "just"
    if re.search(r"[\u4e00-\u9fff]", sentence) and _ZH_JUST_THEN.search(sentence):
        return True
    m = _EN_JUST_THEN.match(sentence)
    if not m:
        return False
    said_as_state = m["degree"] or re.search(
        r",\s*(?:and\s+|now\s+)?(?:I'm|I\s+am|feeling|feel)\s", m[0], re.IGNORECASE
    )
    return (
        bool(said_as_state)
        and not _EN_NOT_STATE.match(m["head"])
        and not _EN_VERB_OPENING.match(m["head"])
    )
