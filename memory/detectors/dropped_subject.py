"""Chinese clauses whose subject is dropped, read with the speaker as the subject (round 5
of issue 32).

Chinese routinely drops 我: "上周刚做完宫腔镜", "一直在吃…", "确诊…两年了", "每天都要打针".
Every zh rule of ``special_categories``, ``special_forms``, ``spec_shown`` and
``subject_forms`` is anchored on 我, so instead of a second set of patterns this module
yields, for a text, the clauses that have no subject of their own, each with an implicit
我 put in front (and once more with its opening time words taken off, since the rules
allow only some of them between 我 and the verb). The existing rules then test them.

A clause counts only when all of these hold:

- **it opens like a statement about a person's own life**: with a word of time,
  frequency or aspect (上个月, 去年, 从小, 一直, 每天, 目前, 刚 … — a closed list), or it
  ends with a duration and 了 (确诊…快三年了);
- **no person is named in it** (他/她/你, 我们, kin, friends, colleagues, a doctor, 那位 …
  — a closed list) and no 我 (a clause with 我 is read by the rules as it is);
- **the dropped subject is the speaker's**: the subject of a dropped clause is the last
  person named before it in the same text, across sentences. At the start of the text it
  is the speaker; after a clause naming someone else (我妈查出胆结石，上周刚做完手术) it is
  theirs until a clause names 我 (or 用户/本人) again;
- **it is not a question, advice or an imperative** (a sentence with 吗/什么/怎么/几…, a
  question mark, 记得/别忘/千万/最好/建议/应该/请 or a final 吧), **not the topic** (a
  clause with 的人/的话/如果/一般/通常/常见/很多) and **not news, fiction or hearsay**
  (新闻/报道/据悉/小说/电影/听说 anywhere in the text).

The detectors read text, not turns: a tool's or a web page's Chinese is read the same
way, which errs towards holding.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Sentences end at these; clauses inside a sentence are separated by commas and colons.
_SENTENCE = re.compile(r"[^。！？!?；;\n]+[。！？!?；;\n]?")
_CLAUSE = re.compile(r"[，,、：:]")

# Other people (closed: pronouns, kin, social roles, demonstrative + classifier).
_OTHER = (
    r"[他她它你您咱]|我们|我們|人家|别人|大家|有人|谁|[妈爸爹娘哥姐弟妹叔姨舅婶爷奶姥]|父亲|母亲|外公|外婆|"
    r"儿子|女儿|孩子|宝宝|小孩|老公|老婆|丈夫|妻子|媳妇|对象|朋友|同事|同学|老板|领导|邻居|室友|闺蜜|"
    # in-laws and the wider family the one-character class above leaves out (我婆婆, 我表姐)
    r"婆婆|公公|岳父|岳母|丈母娘|老丈人|嫂子?|姐夫|妹夫|[表堂][哥姐弟妹]|侄[子女]|外甥女?|孙[子女]|孫[子女]|"
    r"医生|大夫|病人|患者|房东|房客|租客|歌手|明星|演员|男子|女子|男人|女人|老人|网友|客户|[这那哪一某该此]位|"
    r"[这那某]个人|此人|该男|该女|嫌疑人|"
    # an animal the speaker keeps (我的狗, 我家猫咪): its illness is not the speaker's
    r"(?:的|家的?|家里的?|养的)?(?:小)?(?:狗狗?|猫咪?|宠物|兔子|仓鼠|鹦鹉|金鱼|乌龟|豚鼠|龙猫)"
)
# The first person named in a clause is its subject; 我 before a kin word (我妈) is not
# the speaker.
_PERSON = re.compile(rf"(?P<me>我(?!们|們|{_OTHER})|用户|本人)|{_OTHER}")
# Whole text: news, fiction, hearsay.
_REPORTED = re.compile(r"新闻|报道|據|据悉|据说|听说|小说|电影|电视剧|剧里|书里|故事|网上说|热搜")
# Sentence: a question, advice or an imperative.
_ASKING = re.compile(
    r"[？?]|吗|什么|怎么|怎样|如何|为什么|哪|多少|(?<![前这那好十])几[个次天年周月种]|是否|要不要|能不能|可不可以|会不会|有没有|"
    r"是不是|记得|别忘|不要忘|千万|最好|建议|应该|请|吧\s*[。！!]?\s*$"
)
# Clause: the topic, not a person.
_TOPIC = re.compile(r"的人|的话|如果|要是|假如|一般|通常|往往|常见|很多|不少|流行|高发|容易")

_ANCHOR = (
    r"(?:上个?(?:周|週|星期|礼拜|月)|前(?:天|年|阵子|段时间|几天|几年)|去年|今年|昨天|今天|最近|近来|近期|"
    r"这(?:几|两|半)?个?(?:年|月|阵子|段时间|些年|周|星期)|一直|已经|早就|刚刚?|才|正在|目前|现在|平时|平常|"
    r"长期|常年|从小|小时候|年轻时|年轻的时候|之前|以前|曾经|当年|天天|年初|年底|月初|"
    r"每(?:[一两二三四五六七八九十\d]+)?个?(?:天|晚|早|日|(?:周|週|星期|礼拜)[一二三四五六日天末]?|月|年)|"
    r"[一二两三四五六七八九十几半\d]+个?多?(?:年|月|周|星期|天)前|早上|晚上|睡前|饭后|饭前|还|也|又)"
)
_OPENS = re.compile(rf"^{_ANCHOR}")
# Taken off the front for the bare reading; 都/就/要/得/在 only after an opening word.
_ANCHORS = re.compile(rf"^{_ANCHOR}(?:{_ANCHOR}|都|就|要|得|在|会)*")
_LASTED = re.compile(
    r"(?:[一二两三四五六七八九十几半\d]+|好几|很多|多)个?多?(?:年|月|周|星期|礼拜|天)多?了\s*$"
)
_OPENERS = re.compile(
    r"^(?:其实|说实话|对了|嗯|唉|哎|另外|还有|而且|然后|所以|因为|不过|但是|可是|现在想想)+"
)


def dropped_subject_clauses(text: str) -> Iterator[str]:
    """The clauses of ``text`` with no subject of their own whose dropped subject is the
    speaker, each with an implicit 我 in front (and again without its opening time
    words). Text with no Chinese, or news and hearsay, yields nothing."""
    if not re.search(r"[\u4e00-\u9fff]", text) or _REPORTED.search(text):
        return
    other = False  # the last person named is someone other than the speaker
    for sentence in _SENTENCE.findall(text):
        asking = bool(_ASKING.search(sentence))
        for raw in _CLAUSE.split(sentence):
            clause = raw.strip(" \t。！？!?；;")
            if not clause:
                continue
            person = _PERSON.search(clause)
            if person:
                other = not person.group("me")
                continue
            if other or asking or _TOPIC.search(clause):
                continue
            clause = _OPENERS.sub("", clause)
            if not (_OPENS.match(clause) or _LASTED.search(clause)):
                continue
            yield "我" + clause
            bare = _ANCHORS.sub("", clause)
            if bare and bare != clause:
                yield "我" + bare


# English drops the subject too in casual speech ("Been on lithium for years.", "Had a
# hysterectomy in May.", "Just got diagnosed with …"). A clause counts when it opens, after
# optional adverbs, with a verb form that cannot be an imperative — a past tense, a past
# participle or an -ing form of a closed set of verbs of undergoing, taking and belonging —
# and is not in a text of news, fiction or hearsay. Base forms ("Take it with food") are
# orders or advice and never count.
_CLAUSE_EN = re.compile(r"[^.!?;\n]+")
_OPENS_EN = re.compile(
    r"^\s*(?:(?:and|but|so|also|just|still|recently|finally|only|actually|honestly|literally|"
    r"already|now|then|ever\s+since|since)\s+)*"
    r"(?:been|had|got|was|started|finished|diagnosed|taking|going|spent|did|went|getting|having|"
    r"starting|seeing|saw|stopped|quit|tested|converted|joined|voted|lost|needed|recovering|"
    r"living|struggling|dealing|coping|battling|waiting|wearing|using|released|discharged|"
    r"admitted|sentenced|convicted|arrested|bapti[sz]ed|born|raised|prescribed|treated|"
    r"referred|booked|scheduled)\b",
    re.IGNORECASE,
)
_PASSIVE_EN = re.compile(
    r"^(?:(?:just|recently|finally|only|already|ever\s+since|since|also|still)\s+)*(?=(?:diagnosed|"
    r"released|discharged|admitted|sentenced|convicted|arrested|bapti[sz]ed|born|raised|"
    r"prescribed|treated|referred)\b)",
    re.IGNORECASE,
)
_REPORTED_EN = re.compile(
    r"\b(?:according\s+to|reportedly|the\s+(?:article|news|report|novel|film|show|story|book)|"
    r"in\s+the\s+(?:novel|film|movie|show|series|book|story)|headline|a\s+study|researchers|"
    r"(?:he|she|they)\s+(?:said|says|told))\b",
    re.IGNORECASE,
)
_SUBJECT_EN = re.compile(
    r"^\s*(?:(?:and|but|so)\s+)?(?:i|i'm|i've|i'd|we|you|he|she|they|it|my|his|her|their|our|the|a|an|"
    r"this|that|there|[A-Z][a-z]+\s+(?:is|was|has|had))\b"
)


_KIN_EN = (
    r"(?:mum|mom|mother|dad|father|parents?|brother|sister|son|daughter|kids?|children|wife|husband|"
    r"partner|boyfriend|girlfriend|friend|mate|colleague|boss|neighbou?r|aunt|uncle|cousin|gran|"
    r"grandma|grandpa|grandmother|grandfather|nan|flatmate|roommate|patient|client)"
)
# The person a clause names: the speaker ("I", "me", "my" not before a kin word) or someone else.
_PERSON_EN = re.compile(
    rf"\b(?P<other>he|she|they|him|her|his|their|them|(?:my|our|a|the|his|her)\s+{_KIN_EN}s?)\b"
    r"|(?P<me>\bi\b|\bi'm\b|\bi've\b|\bme\b|\bmy\b|\bmyself\b)",
    re.IGNORECASE,
)


def dropped_subject_clauses_en(text: str) -> Iterator[str]:
    """The English clauses of ``text`` that open with a non-imperative verb and no subject,
    each with an implicit "I" in front. As in Chinese, the dropped subject is the last
    person named before it (my aunt? Been on … — the aunt). News, fiction and hearsay
    yield nothing."""
    if _REPORTED_EN.search(text):
        return
    other = False
    for match in _CLAUSE_EN.finditer(text):
        for clause in re.split(r",\s*(?=(?:and|but|so)\b)|,\s+", match.group()):
            if _OPENS_EN.match(clause) and not _SUBJECT_EN.match(clause) and not other:
                bare = re.sub(r"^\s*(?:(?:and|but|so)\s+)?", "", clause)
                yield "I " + bare
                # A participle of undergoing ("Prescribed …", "Released on …") is a
                # passive whose subject is the speaker: read it as "I was …" too.
                if _PASSIVE_EN.match(bare):
                    yield "I was " + _PASSIVE_EN.sub("", bare, count=1).lstrip()
            person = _PERSON_EN.search(clause)
            if person:
                other = person.group("me") is None


# Read by ``speaker_subject`` (whether a text tells of the speaker at all).
SENTENCES_ZH = _SENTENCE
CLAUSES_ZH = _CLAUSE
PERSON_ZH = _PERSON
ASKING_ZH = _ASKING
REPORTED_ZH = _REPORTED
PERSON_EN = _PERSON_EN
REPORTED_EN = _REPORTED_EN
ANCHOR_ZH = _ANCHOR
OTHER_ZH = _OTHER
