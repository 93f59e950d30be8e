"""Special categories told by the form of a concept, with the speaker as its subject
(issue 32, round 8).

Each rule pairs a grammatical tie to the speaker with a class that is closed by how it is
formed or published, never with the phrasings of a test set:

- **a medicine by its stem** (the WHO INN stem list, as ``subject_forms`` reads it, and
  the Chinese approved names' stems): possessed by the speaker with a dose word ("my first
  …mab shot"), carried or kept in a dose unit ("a strip of …azepam"), or given to the
  speaker by a prescriber ("switched me from …pril"); in Chinese, a tablet taken with the
  aim of controlling a measure of the body (…，控制心率); in Japanese, a name counted in
  tablets (…を一錠飲む: 錠 counts only medicine);
- **a pregnancy** by the English idioms that mean only that, and the Chinese verbs of
  conceiving (怀上, 有喜, 有身子);
- **a practice of faith by its calendar**: the named prayer hours (the five salat, the
  three Jewish services, the canonical hours) and the Lord's day or a fast month observed
  by the speaker (我每个主日都…), or a rite of worship done at a set frequency
  (我每天早上…上香); a believer of a named body in Japanese (…の信者で);
- **membership by an organisation's form**: an acronym or a capitalised name with
  "member" beside a word of that kind of organisation's life (a picket line, a strike,
  dues; an election, a campaign), 我是…党的, a Korean union abbreviation (…조 조합원);
- **custody by its duration**: a time spent in a named place beside a word of criminal
  justice, 进去过/蹲过 + a duration;
- **a same-sex couple by its nouns**: the speaker and a partner "both"/"two" of one
  gender (我和我对象都是女的);
- a mobility aid (ISO 9999 classes), a biometric print enrolled, an HIV status
  ("undetectable"), a sequela (…后遗症).

Someone else (我妈, "my sister"), a question, news and fiction do not match: the
patterns start at the speaker, or are read only in a sentence whose subject is the
speaker by ``speaker_subject``'s grammar test.
"""

from __future__ import annotations

import re

from memory.detectors.dropped_subject import OTHER_ZH
from memory.detectors.speaker_subject import speaker_is_subject
from memory.detectors.subject_forms import _INN_EN, _INN_ZH, ZH_TAKES

_I = r"\b(?:i(?:'m|'ve|'d| am| have| had| was)?|(?:the\s+)?user(?: has| is| was)?)"
_IM = r"\b(?:i(?:'m| am)|(?:the\s+)?user(?:'s| is))"
_MY = r"\b(?:my|(?:the\s+)?user's)"
_ADV = r"(?:(?:also|still|now|just|recently|already|always|been|back|only|ever|finally)\s+)*"
_ZH_I = rf"我(?!们|們|{OTHER_ZH})"
_ZH_WHEN = (
    r"(?:[上下这本]个?(?:周|週|月|星期)|今天|昨天|去年|今年|最近|已经|正在|现在|一直|长期|以前|之前|"
    r"曾经|年轻时|小时候|每[一两二三四\d]?个?(?:[天晚早日周週月年]|星期)|天天|早上|晚上|睡前|都|也|"
    r"还|又|就|要|得|会|在|自己|按时)"
)
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")

# The INN stems of special_categories' list and of subject_forms, one word.
_STEM_EN = (
    r"[a-z]{2,}(?:pril|sartan|olol|statin|pram|xetine|azepam|zolam|prazole|formin|triptan|"
    r"dipine|tinib|cillin|mycin|oxacin|cycline|oxamine)\b|" + _INN_EN + r"\b"
)
_STEM_ZH = rf"[\u4e00-\u9fff]{{0,5}}?(?:{_INN_ZH}|糖肽|沙明)"
_DOSE_UNIT_EN = (
    r"strips?|packs?|packets?|box(?:es)?|bottles?|blisters?|course|doses?|supply|prescriptions?|"
    r"scripts?|jabs?|shots?|pens?|vials?|sachets?|tablets?|pills?|capsules?|injections?"
)
_DOSE_MOD_EN = (
    r"(?:first|second|next|last|daily|weekly|monthly|nightly|usual|new|regular|morning|evening|"
    r"maintenance|rescue|loading|\d+\s*mg)"
)


class _Spoken:
    """A pattern that counts only in a sentence whose subject is the speaker. It matches
    only where ``pattern`` does, so the literal prefilter may skip it by that pattern's
    literals (``prefilter_pattern``)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = self.prefilter_pattern = pattern

    def search(self, text: str):
        for sentence in _SENTENCE.findall(text):
            m = self.pattern.search(sentence)
            if m and speaker_is_subject(sentence):
                return m
        return None


class _WithCue:
    """A pattern that counts only in a text that also holds ``cue`` (prefiltered by the
    pattern's literals, as ``_Spoken``)."""

    def __init__(self, pattern: re.Pattern[str], cue: re.Pattern[str]) -> None:
        self.pattern = self.prefilter_pattern = pattern
        self.cue = cue

    def search(self, text: str):
        return self.pattern.search(text) if self.cue.search(text) else None


_HEALTH = [
    # my first …mab shot; my …azepam
    _Spoken(
        re.compile(
            rf"{_MY}\s+(?:{_DOSE_MOD_EN}\s+){{0,2}}(?:{_STEM_EN})(?:\s+(?:{_DOSE_UNIT_EN}))?",
            re.IGNORECASE,
        )
    ),
    # I keep a strip of …; I ran out of my …
    re.compile(
        rf"{_I}\s+{_ADV}(?:keep|keeps|kept|carry|carries|carried|have|got|pick up|picked up|collect|"
        r"collected|ran out of|run out of|came off|come off|tapered off|switched to|inject|injected|"
        r"use|used)\s+(?:(?:a|an|my|some|the|another|\d+|two|three)\s+)?"
        rf"(?:(?:{_DOSE_UNIT_EN})\s+of\s+)?(?:\d+\s*mg\s+(?:of\s+)?)?(?:{_STEM_EN})",
        re.IGNORECASE,
    ),
    # (my GP) switched me from …pril to …sartan; put me on …
    re.compile(
        r"\b(?:put|started|switched|moved|changed|kept|took|weaned|titrated|upped|lowered)\s+me\s+"
        rf"(?:(?:off|on|onto|from|to|up|down)\s+)(?:\w+\s+){{0,3}}?(?:{_STEM_EN})",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}(?:'ve|\s+have)?\s+(?:been\s+|am\s+|'m\s+)?{_ADV}undetectable\b(?!\s+(?:to|by|on|from))",
        re.IGNORECASE,
    ),
    # A pregnancy by the idioms that mean nothing else.
    re.compile(
        rf"{_I}(?:'ve|\s+have)?\s+got\s+a\s+bun\s+in\s+the\s+oven"
        rf"|{_IM}\s+{_ADV}(?:eating for two|up the duff|knocked up|in the family way|with child|"
        r"(?:already\s+)?showing(?=\s*(?:[,.;!]|$|already|now)))",
        re.IGNORECASE,
    ),
    # A mobility or daily-living aid (ISO 9999 classes).
    re.compile(
        rf"{_I}\s+{_ADV}(?:use|used|uses|using|rely on|relied on|need|needed|walk with|walked with|"
        r"got|been using|started using)\s+(?:a|an|my)\s+(?:walking\s+(?:frame|stick|aid)|"
        r"mobility\s+(?:scooter|aid)|zimmer(?:\s+frame)?|rollator|prosthe\w+|white\s+cane|"
        r"guide\s+dog|stairlift|colostomy\s+bag|stoma\s+bag|cochlear\s+implant)\b",
        re.IGNORECASE,
    ),
    # Chinese: conceiving (我怀上了, 我有喜了, 我有身子了); a sequela (我是…后遗症).
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}{{0,3}}(?:怀上|怀了(?!一肚子)|有喜了|有了身孕|有身孕|有身子|害喜|孕吐)"
        rf"|{_ZH_I}(?:是|有|留下了?|落下了?)[\u4e00-\u9fff]{{1,8}}后遗症"
    ),
    # A medicine by its Chinese stem, with 自己 or a dose before it (我每周自己打一针…).
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}{{0,5}}(?:吃|服用|服|打|注射)(?:着|了)?"
        rf"(?:[一二两三四五六半\d]+(?:片|粒|颗|支|针|袋|毫克|mg)的?)?{_STEM_ZH}"
    ),
    # A tablet taken to control a measure of the body (我每天吃一片…，控制心率).
    re.compile(
        rf"{ZH_TAKES}[\u4e00-\u9fff]{{2,6}}[，,]?(?:来|用来|为了)?(?:控制|降|稳住|稳定|调)"
        r"(?:心率|血压|血糖|血脂|尿酸|心律|甲状腺|病情|癫痫)"
    ),
    # Japanese: a name counted in tablets or capsules (…を一錠飲んで).
    _Spoken(
        re.compile(
            r"[\u30a0-\u30ff\u4e00-\u9fff]{2,}を(?:毎[日朝晩]|朝晩|一日[一二三\d]回)?"
            r"[一二三四五六七八九十半\d]+(?:錠|カプセル)"
        )
    ),
]

_PRAYER_HOURS = (
    r"(?-i:Fajr|Dhuhr|Zuhr|Asr|Maghrib|Isha|Jumu'?ah|Shacharit|Mincha|Maariv|Vespers|Lauds|"
    r"Compline|Matins|Evensong)"
)
_RELIGION = [
    _Spoken(
        re.compile(
            rf"{_I}\b[^.!?]{{0,60}}?\b(?:before|after|at|for|pray|praying|prayed|make|do)\s+"
            rf"(?:the\s+)?{_PRAYER_HOURS}\b",
            re.IGNORECASE,
        )
    ),
    # The Lord's day, the sabbath or a fast month observed by the speaker.
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}{{0,3}}(?:每个?|每逢|逢|一到)(?:主日|安息日|斋月|四旬期|大斋期|将临期)"
        rf"|{_ZH_I}{_ZH_WHEN}{{0,3}}(?:过|守|封)(?:斋月|安息日|主日)"
    ),
    # A rite of worship at a set frequency; a lay practitioner.
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}{{0,2}}(?:每天|每日|每晚|每早|天天|每个?[周月]|初一十五|早晚)"
        r"[^，。,！？!?]{0,8}?(?:上香|烧香|礼佛|拜佛|诵经|供佛|做早课|做晚课|做功课|持咒)"
        rf"|{_ZH_I}是(?:在家|带发)?修行(?:的|人)"
    ),
    # A believer of a body named as religious bodies are (…教, …会, …宗, …苑, …寺, …神社):
    # このブランドの信者 (a fan) is not one.
    _Spoken(
        re.compile(
            r"[\u30a0-\u30ff\u4e00-\u9fff]{1,8}(?:教|教会|教団|会|宗|派|苑|寺|神社|宮)の(?:信者|信徒)"
            r"(?:で|です|だ|に|として)"
        )
    ),
]

_SAME_GENDER_EN = r"(?:guys|men|blokes|lads|women|girls|ladies|dads|mums|moms|lesbians)"
_PARTNER_EN = r"(?:husband|wife|fianc[ée]e?|boyfriend|girlfriend|partner|spouse)"
_ORIENTATION = [
    re.compile(
        rf"(?:{_MY}\s+{_PARTNER_EN}\s+and\s+i|\bi\s+and\s+my\s+{_PARTNER_EN})\b,?\s+"
        rf"(?:are\s+|were\s+|'re\s+)?(?:both\s+(?:of\s+us\s+)?|two\s+)(?:\w+\s+)?{_SAME_GENDER_EN}\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_ZH_I}(?:和|跟|与)我的?(?:对象|老公|老婆|男朋友|女朋友|男友|女友|爱人|伴侣|另一半|媳妇|"
        r"先生|太太)(?:都|俩都|两个都|两人都)是(?:男|女)(?:的|生|人|孩)"
    ),
]

_ORG_EN = r"(?-i:[A-Z]{2,6}|[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2})"
_MEMBER_EN = (
    rf"{_I}(?:'ve\s+been|\s+have\s+been|'m|\s+am|\s+was)?\s+(?:an?\s+)?"
    rf"(?:(?:paid-up|card-carrying|lifelong|active)\s+)?{_ORG_EN}\s+member\b"
)
_UNION_CUE = re.compile(
    r"\bpicket|\bstrike|\bwalkout|\bunion\b|\bsubs\b|\bdues\b|\bshop steward|\bbranch\b",
    re.IGNORECASE,
)
_POLITICAL_CUE = re.compile(
    r"\belection|\bvot(?:e|ed|ing)\b|\bcanvass|\bcampaign|\bmanifesto|\breferendum|\bconstituency|"
    r"\bcouncillor|\bparty\b",
    re.IGNORECASE,
)
_TRADE_UNION = [
    _WithCue(
        re.compile(rf"{_IM}\s+in\s+the\s+(?-i:[A-Z]{{2,6}})\b|{_MEMBER_EN}", re.IGNORECASE),
        _UNION_CUE,
    ),
    _Spoken(re.compile(r"[가-힣]{1,4}조\s*조합원|노조원|노동조합\s*조합원")),
]
_POLITICAL = [
    _WithCue(re.compile(_MEMBER_EN, re.IGNORECASE), _POLITICAL_CUE),
    re.compile(rf"{_ZH_I}是[\u4e00-\u9fff]{{1,5}}(?<!死)党的?(?=[，,。！!\s]|$)"),
]

# Words of criminal justice only ("release" of an album, a clinical "trial" and bank
# "charges" are not).
_JUSTICE_CUE = re.compile(
    r"\bappeal(?:s|ed)?\b|\bcharges?\s+(?:were\s+|was\s+)?(?:dropped|against)|\bconvict|"
    r"\bsentenced?\b|\bparole|\breleased?\s+(?:from|on|early)|\bon\s+(?:licence|remand)|"
    r"(?<!clinical )\btrial\b|\bbail\b|\bremand|\bprobation|\bpleaded\s+guilty|\bbehind\s+bars",
    re.IGNORECASE,
)
_CRIMINAL = [
    _WithCue(
        re.compile(
            rf"{_I}\s+{_ADV}(?:spent|did|served)\s+(?:(?:a|an|\w+|\d+)\s+){{1,3}}?"
            r"(?:years?|months?|weeks?|stretch|spell)\s+(?:in|at|on)\s+(?-i:[A-Z][a-z]+)",
            re.IGNORECASE,
        ),
        _JUSTICE_CUE,
    ),
    re.compile(
        rf"{_ZH_I}(?:(?!他|她|听说|据说)[^，。！？,!?]){{0,14}}?(?:进去|蹲|被关)(?:过|了)"
        r"(?:[一二两三四五六七八九十几半\d]+个?多?(?:年|月)|年半)"
    ),
]

_BIOMETRIC = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:enrolled|registered|set up|scanned|gave|submitted|uploaded|added)\s+"
        r"(?:my\s+|a\s+scan\s+of\s+my\s+)?(?:(?:finger|thumb|palm|hand)\s?prints?|face\s?(?:scan|print|template)|"
        r"iris(?:\s+scan)?|retina(?:l)?\s+scan|voice\s?(?:print|id)|vein\s+pattern)"
        rf"|{_MY}\s+(?:thumb|palm|hand)\s?prints?\b",
        re.IGNORECASE,
    ),
]

CONCEPT_FORMS: dict[str, list] = {
    "health": _HEALTH,
    "religion": _RELIGION,
    "sexual_orientation": _ORIENTATION,
    "trade_union": _TRADE_UNION,
    "political": _POLITICAL,
    "criminal_record": _CRIMINAL,
    "biometric": _BIOMETRIC,
}
