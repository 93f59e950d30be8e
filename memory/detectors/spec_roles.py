"""Round 13 of issue 32: the frames of ``spec_frames`` for faith, union and party roles, a
partner of the speaker's gender, a descent, an enrolment and a record (see that module's
docstring for the list and the reading rules). Split from it to keep modules small."""

from __future__ import annotations

import re

from memory.detectors.life_frames import _ZH_GAP
from memory.detectors.open_noun_frames import _ADV, _I, _IM, _MY, _ZH_I, _each

_F = re.IGNORECASE
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")

# --- religion ---------------------------------------------------------------------------
_MONTHS_DAYS = (
    r"(?-i:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Dry|Veganuary)"
)
_FAITH = _each(
    [
        rf"{_I}\s+{_ADV}(?:fast|fasted|fasting|don't\s+eat|do\s+not\s+eat|won't\s+eat|eat\s+nothing)\b[^.!?]{{0,40}}?"
        r"\b(?:from|until|till|before|after|between)\s+(?:sunrise|sunset|sundown|dawn|dusk)\b",
        rf"{_I}\s+{_ADV}(?:fast|fasted|fasting|abstain|give\s+up|gave\s+up)\b[^.!?]{{0,50}}?\b(?:during|for|through|throughout)\s+"
        rf"(?!{_MONTHS_DAYS}\b)(?-i:[A-Z][a-z]{{3,}})\b",
        rf"{_I}\s+{_ADV}break\s+(?:my|the)\s+fast\b[^.!?]{{0,40}}?\b(?:every\s+evening|at\s+sunset|at\s+dusk|"
        r"with\s+dates|at\s+iftar|after\s+sundown)",
        rf"{_MY}\s+(?:home\s+|family\s+|little\s+|bedroom\s+)?(?:shrine|altar|puja\s+room|prayer\s+corner)\b",
        rf"{_I}\s+{_ADV}(?:took|said|recited|take)\s+(?:my|the)\s+shahada\b|{_MY}\s+(?:bar|bat)\s+mitzvah\b",
        rf"{_I}\s+{_ADV}(?:keep|kept|observe|observed|honou?r)\s+(?:the\s+)?(?:sabbath|shabbat|shabbos|uposatha|ekadashi)\b",
        rf"{_I}\s+{_ADV}(?:wear|wore|wearing)\s+(?:a|an|my|the)\s+(?:kara|kirpan|dastar|patka|tilak|janeu|sacred\s+thread|"
        r"tallit|kippah|yarmulke|tichel)\b",
        r"初一十五[^，。！？,!?]{0,4}(?:吃素|上香|烧香|拜佛|念经|守斋)",
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:在家里?)?(?:给|向|为)(?:观音|菩萨|佛祖|佛|关公|妈祖|祖先|耶稣|圣母)[^，。！？,!?]{{0,4}}?"
        r"(?:上香|烧香|磕头|供|祈祷|祷告)",
        rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:守|过|遵守)安息日"
        rf"|{_ZH_I}(?:[^。！？!?]{{0,16}}?[，,])?\s*安息日(?:都|就|也)?(?:不工作|不上班|不开火|休息)",
        rf"(?:斋月|封斋|斋戒月)[^。！？!?]{{0,6}}?{_ZH_I}|{_ZH_I}{_ZH_GAP}{{0,8}}?(?:过斋月|守斋月|封斋|开斋)",
        rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:只吃|吃|守)\s*(?:kosher|halal|洁食|清真)",
        rf"{_I}\s+{_ADV}(?:pray|prayed|praying|worship|worshipped)\s+(?:at|in)\s+(?:the|a|my|our)\s+(?:\w+\s+)?"
        r"(?:church|mosque|masjid|synagogue|shul|temple|gurdwara|mandir|chapel|cathedral|kingdom\s+hall)\b",
    ],
    _F,
)

# --- trade union and politics ----------------------------------------------------------
_UNION = _each(
    [
        rf"{_I}\s+{_ADV}(?:sit|sat|serve|served|am|'m|was|got\s+elected|was\s+elected|been\s+elected)\s+"
        r"(?:on|to|in)\s+(?:the\s+|our\s+|my\s+)?(?:works|staff|employee|workers'?|enterprise)\s+council\b",
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:在|是|当|当选|选上)[^，。！？,!?]{{0,6}}?(?:职代会|职工代表|工会委员|工会小组长|劳方代表)",
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:参加了?|加入了?|去)(?:了)?(?:罢工|工潮|纠察)",
        rf"{_I}\s+{_ADV}(?:am|'m|was|been|got\s+elected|was\s+elected|serve|served|act|acted)\s+(?:as\s+)?"
        r"(?:the\s+|a\s+|an\s+|our\s+|my\s+)?(?:\w+\s+){0,3}?(?:union\s+(?:rep|representative|delegate|steward|convenor|"
        r"officer|organi[sz]er|secretary|chair|activist)|shop\s+steward|convenor|works\s+council\s+member|"
        r"(?:staff|employee|workplace|workers'?)\s+rep(?:resentative)?)\b",
        r"\bas\s+(?:a|the|our)\s+(?:union|shop|works\s+council|staff)\s+(?:rep|representative|delegate|steward|"
        r"convenor|member|organi[sz]er)\s*,?\s+i\b",
        rf"{_I}\s+{_ADV}(?:sit|sat|am|'m|was)\s+on\s+(?:the\s+|our\s+)?union(?:'s)?\s+(?:negotiating|bargaining|"
        r"branch|strike|executive)\s+(?:committee|team|panel)\b"
        rf"|{_I}\s+{_ADV}(?:sit|sat|am|'m|was)\s+on\s+(?:the\s+|our\s+)?(?:negotiating|bargaining|strike)\s+"
        r"(?:committee|team|panel)\s+(?:for|of)\s+(?:the\s+|our\s+)?(?:\w+\s+)?union\b",
        rf"{_I}\b[^.!?]{{0,20}}\b(?:on|joined|walked\s+out\s+on|was\s+on)\s+(?:the\s+)?(?:picket\s+line|strike)\b",
        rf"{_IM}\s+(?:very\s+|really\s+|quite\s+)?active\s+in\s+(?:my|the|our)\s+(?:\w+\s+)?union\b",
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?(?:是|当|任|担任|做|选上|当选|在)[^，。！？,!?]{{0,8}}?(?:工会|职代会)"
        r"[^，。！？,!?]{0,4}?(?:主席|委员|干部|小组长|代表|会员|积极分子|负责人|当|任)",
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?(?:是|当|任|担任|做|选上|当选)了?(?:我们)?[^，。！？,!?]{{0,6}}?(?:员工代表|劳方代表|职工董事|职工监事)",
    ],
    _F,
)
_POLITICAL = _each(
    [
        rf"{_I}\s+{_ADV}(?:hand(?:ed)?\s+out|deliver(?:ed)?|stuff(?:ed)?|push(?:ed)?)\s+(?:leaflets|flyers|fliers|"
        r"pamphlets)\s+for\s+(?:the\s+)?(?-i:[A-Z])\w+(?:\s+\w+)?\s+(?:candidate|party|campaign)\b",
        rf"{_I}\s+{_ADV}(?:chair|chaired|run|am\s+(?:the\s+)?(?:chair|secretary|treasurer)\s+of)\s+(?:our|my|the)\s+"
        r"local\s+(?-i:[A-Z])\w+(?:\s+Party)?\s+(?:branch|constituency\s+party|association)\b",
    ],
    _F,
)

# --- sexual orientation: the speaker's gender and the partner's ----------------------
_MAN = r"(?:man|guy|bloke|boy|male)"
_WOMAN = r"(?:woman|girl|lady|female)"
_SAME_GENDER = _each(
    [
        rf"\b(?:i'm|i\s+am)\s+an?\s+{_MAN}\b[^.!?]{{0,30}}?\bmy\s+(?:husband|boyfriend|fianc[eé](?!e))\b",
        rf"\b(?:i'm|i\s+am)\s+an?\s+{_WOMAN}\b[^.!?]{{0,30}}?\bmy\s+(?:wife|girlfriend|fianc[eé]e)\b",
        rf"\b(?:i'm|i\s+am)\s+an?\s+{_MAN}\s+(?:married\s+to|dating|engaged\s+to)\s+an?\s+{_MAN}\b",
        rf"\b(?:i'm|i\s+am)\s+an?\s+{_WOMAN}\s+(?:married\s+to|dating|engaged\s+to)\s+an?\s+{_WOMAN}\b",
        r"\bmy\s+(?:partner|husband|wife|boyfriend|girlfriend|fianc[eé]e?)\s+and\s+i\s+are\s+both\s+"
        r"(?:women|men|guys|girls|blokes|lesbians|gay)\b",
        r"(?:老公|男朋友|男友|丈夫|先生)和我都是男|(?:老婆|女朋友|女友|妻子|太太)和我都是女",
        r"我和我?的?(?:老公|男朋友|男友|丈夫|先生)都是男|我和我?的?(?:老婆|女朋友|女友|妻子|太太)都是女",
        r"我是(?:个)?男(?:生|的|人|孩)[，,][^。！？!?]{0,4}(?:男朋友|男友|老公)(?!的)",
        r"我是(?:个)?女(?:生|的|人|孩)[，,][^。！？!?]{0,4}(?:女朋友|女友|老婆)(?!的)",
        r"我(?:的)?(?:女朋友|女友|老婆|对象|伴侣)[^。！？!?]{0,24}?我们俩?都是女(?:生|的|人|孩)",
        r"我(?:的)?(?:男朋友|男友|老公|对象|伴侣)[^。！？!?]{0,24}?我们俩?都是男(?:生|的|人|孩)",
        rf"{_ZH_I}\s*(?:coming|came)\s+out\b",
        r"\b(?:we're|we\s+are)\s+(?:a\s+)?two[- ](?:mums?|moms?|mothers?|dads?|fathers?)\b"
        r"|\bour\s+(?:son|daughter|kids?|children|baby)\s+(?:has|have)\s+two\s+(?:mums|moms|mothers|dads|fathers)\b",
        rf"{_MY}\s+same[- ]sex\s+(?:partner|spouse|wife|husband|relationship|marriage)\b"
        rf"|{_IM}\s+in\s+a\s+same[- ]sex\s+(?:relationship|marriage|couple)\b",
        r"我也是(?:个)?女(?:生|的|人|孩)[^。！？!?]{0,12}?(?:女朋友|女友|老婆|对象)|(?:女朋友|女友|老婆)[^。！？!?]{0,12}?我也是(?:个)?女(?:生|的|人|孩)",
        r"我也是(?:个)?男(?:生|的|人|孩)[^。！？!?]{0,12}?(?:男朋友|男友|老公|对象)|(?:男朋友|男友|老公)[^。！？!?]{0,12}?我也是(?:个)?男(?:生|的|人|孩)",
    ],
    _F,
)

_SPEAKER_MAN = re.compile(
    rf"\b(?:i'm|i\s+am)\s+(?:also\s+)?an?\s+{_MAN}\b(?!\s+(?:of|who\s+likes\s+women))|\bas\s+an?\s+{_MAN},\s+i\b|我(?:也)?是(?:个)?男(?:生|的|人|孩)",
    _F,
)
_SPEAKER_WOMAN = re.compile(
    rf"\b(?:i'm|i\s+am)\s+(?:also\s+)?an?\s+{_WOMAN}\b(?!\s+(?:of|who\s+likes\s+men))|\bas\s+an?\s+{_WOMAN},\s+i\b|我(?:也)?是(?:个)?女(?:生|的|人|孩)",
    _F,
)
_PARTNER_OF_MAN = re.compile(
    r"\bmy\s+(?:husband|boyfriend)\b|我(?:的)?(?:老公|男朋友|男友|丈夫)", _F
)
_PARTNER_OF_WOMAN = re.compile(r"\bmy\s+wife\b|我(?:的)?(?:老婆|妻子|太太)", _F)
_SUPPOSES = re.compile(
    r"\b(?:if|unless|suppose|imagine|would|whether)\b|\?|？|如果|要是|假如|的话|吗", _F
)


class _SameGenderText:
    """The speaker's gender stated in one sentence and a partner of the same gender (a
    husband or boyfriend for a man, a wife for a woman) in another of the same text: "I'm
    a man. My husband and I …". Neither sentence supposes or asks."""

    pattern = prefilter_pattern = re.compile(
        r"\b(?:husband|boyfriend|wife)\b|老公|男朋友|男友|丈夫|老婆|妻子|太太", _F
    )

    def search(self, text: str):
        sentences = [x for x in _SENTENCE.findall(text) if not _SUPPOSES.search(x)]
        for speaker, partner in (
            (_SPEAKER_MAN, _PARTNER_OF_MAN),
            (_SPEAKER_WOMAN, _PARTNER_OF_WOMAN),
        ):
            if any(speaker.search(x) for x in sentences):
                for x in sentences:
                    m = partner.search(x)
                    if m:
                        return m
        return None


# --- ethnicity, biometrics, criminal record --------------------------------------------
_ETHNICITY = _each(
    [
        r"\b(?:being|as|i'm|i\s+am)\s+(?:half|part|a\s+quarter|mixed)[- ]\s*"
        r"(?-i:[A-Z][a-z]+(?:an|ian|ese|ish|i|ic))\b(?![- ](?:food|cuisine|restaurant|recipe|style))",
    ],
    _F,
)
_BIOMETRIC = _each(
    [
        rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:做了|做过|测了|去做了?)[^，。！？,!?]{{0,4}}?基因(?:检测|测序|筛查)",
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?(?:录|采集|登记|留)(?:了|过)[^，。！？,!?]{{0,4}}?(?:人脸|指纹|掌纹|虹膜|声纹|面部|DNA)",
    ],
    _F,
)
_RECORD = _each(
    [
        rf"{_I}\s+{_ADV}(?:'ve\s+)?(?:got|have|had|was\s+given|got\s+given|picked\s+up|received)\s+a\s+"
        r"(?:\d+[- ](?:year|month)\s+)?(?:drink[- ]driving|drunk[- ]driving|drug[- ]driving|dui|dwi)\s+"
        r"(?:ban|conviction|charge|record|offence)\b",
        rf"{_MY}\s+(?:drink[- ]driving|drunk[- ]driving|drug[- ]driving|dui|dwi)\s+(?:ban|conviction|charge|record)\b",
        rf"{_I}\s+{_ADV}(?:served|did|spent)\s+(?:\w+\s+){{1,3}}(?:at|in)\s+(?-i:HMP|HMYOI|HM\s+Prison)\b",
        rf"{_ZH_I}{_ZH_GAP}{{0,4}}?有[^，。！？,!?]{{0,4}}?(?:前科|案底|犯罪记录)",
        rf"{_I}\s+{_ADV}(?:was|'ve\s+been|have\s+been|had\s+been|went|got\s+sent|was\s+sent)\s+(?:to|in)\s+"
        r"(?:prison|jail|gaol|juvie|borstal|a\s+young\s+offenders'?\s+institution)\b"
        r"(?![^.!?]{0,30}\b(?:visit\w*|teach\w*|work\w*|volunteer\w*|tour|museum|film|play|game|monopoly))",
        rf"{_I}\s+{_ADV}(?:served|did|doing|done)\s+(?:hard\s+)?time\b(?!\s+(?:on|with|for\s+(?:the|a)\s+"
        r"(?:company|team|club)))",
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?被(?:强制隔离戒毒|强制戒毒|行政拘留|刑事拘留|刑拘|拘留|劳教|判刑|判处|判了[^，。！？,!?]{{0,4}}?(?:年|个月|缓刑|死缓))",
    ],
    _F,
)
