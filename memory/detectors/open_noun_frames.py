"""Special categories told by an open noun inside a closed frame, with the speaker as its
subject (issue 32, round 9).

Some nouns cannot be listed: a medicine's brand name, a people's name, the name of a
prison, the object of a devotion. What can be listed is the *frame* such a noun stands
in, which only that category fills, and the rule reads the noun by its shape (a
capitalised word, a Latin word inside Chinese, a katakana run) rather than by name:

- **a medicine in a dosing frame**: a name followed by a dose in a unit of medicine
  ("Lyrica 75 mg", "two Tecfidera capsules"), given a dosing schedule ("taking Tegretol
  twice a day"), kept by the speaker and dispensed ("my Strattera" beside a pharmacy or a
  prescription), or, in Chinese, taken for years and tapered or prescribed
  (吃了三年的…，在减量), counted out on a dosing schedule (每天早晚各吃一片…, 每天一粒…，饭后吃);
  in Japanese a katakana name one starts or keeps drinking (…を飲み始めて);
- **a people in a heritage frame**: "I'm X" (one capitalised word, no article) with the
  speaker's forebears, birthplace, home language or side of the family in the same
  sentence; the 56 peoples' short names in Chinese (维族, 回民, 藏民) and their …人 forms;
  a numbered generation of a diaspora (고려인 3세, 在日三世, "third-generation");
- **custody by its metonyms**: time "inside" with no place after it, "when I was
  inside", the prison slang nouns, the people only custody gives (a cellmate, an offender
  manager); in Chinese a bare 在里面/里头 or 高墙/大墙 with a stay counted in months or years,
  or being shut in (关了三年);
- **faith by its objects and acts**: a devotional object or act (beads, a scapular, a
  prayer rug, the sign of the cross; 念珠, 佛号, 圣经, 十字; 数珠, お経; 묵주, 기도) in a
  habit of the speaker (every, never without, before every …; 每天, 每次, 毎朝, 매일); a
  fast kept on a named holy day ("fast every Ekadasi") and the Chinese fasts by their
  morpheme 斋 (持斋, 守小斋).

The frames tie the noun to the speaker: the patterns start at "I"/"my"/我/私/저, or are
read only in a sentence whose subject is the speaker (``speaker_subject``), so another
person, a question, news, fiction and a pharmacist's work talk pass.
"""

from __future__ import annotations

import re

from memory.detectors.concept_forms import _Spoken, _WithCue
from memory.detectors.dropped_subject import OTHER_ZH
from memory.detectors.subject_forms import _PEOPLES_ZH


def _each(alternatives: list[str], flags: int = 0) -> list[re.Pattern[str]]:
    """One pattern per alternative: each keeps its own literals for the prefilter, which
    a single alternation would reduce to the weakest branch's."""
    return [re.compile(a, flags) for a in alternatives]


_I = r"\b(?:i(?:'m|'ve|'d| am| have| had| was)?|(?:the\s+)?user(?: has| is| was)?)"
_IM = r"\b(?:i(?:'m| am)|(?:the\s+)?user(?:'s| is))"
_MY = r"\b(?:my|(?:the\s+)?user's)"
_ADV = r"(?:(?:also|still|now|just|recently|already|always|been|back|only|ever|usually)\s+)*"
_ZH_I = rf"我(?!们|們|{OTHER_ZH})"

# A brand name: one capitalised word (not all capitals: an acronym is an organisation
# more often), or a word in Latin script inside Chinese text.
_NAME_EN = r"(?-i:[A-Z][a-z]{3,}(?:[- ]?XR|[- ]?XL|[- ]?SR)?)"
_DOSE_EN = r"\d+(?:\.\d+)?\s*(?:mg|mcg|micrograms?|milligrams?|ml|units|iu)\b"
_FORM_EN = r"(?:tablets?|capsules?|pills?|tabs|caps|injections?|jabs?|pens?|patch(?:es)?|sachets?)"
_COUNT_EN = r"(?:a|an|one|two|three|four|half\s+a|\d+)"
_SCHEDULE_EN = (
    r"(?:once|twice|three\s+times|\d\s+times)\s+(?:a|per)\s+day|daily|every\s+(?:night|morning|"
    r"evening)|at\s+bedtime|before\s+bed|(?:in\s+the\s+)?mornings?\s+and\s+(?:at\s+)?nights?"
)
_DISPENSED_EN = re.compile(
    r"\b(?:pharmac(?:y|ist)|chemist|dispens\w*|prescri\w*|repeat\s+(?:prescription|of)|"
    r"refill|script|gp|doctor|psychiatrist|consultant)\b",
    re.IGNORECASE,
)
_SUPPLEMENT_EN = (
    r"(?!(?-i:Vitamin|Omega|Magnesium|Zinc|Iron|Calcium|Melatonin|Caffeine|Creatine)\b)"
)

_MEDICINE = [
    # Lyrica 75 mg; 75 mg of Lyrica; two Tecfidera capsules
    *(
        _Spoken(p)
        for p in _each(
            [
                rf"{_SUPPLEMENT_EN}\b{_NAME_EN}\s+{_DOSE_EN}",
                rf"{_DOSE_EN}\s+(?:of\s+)?{_SUPPLEMENT_EN}{_NAME_EN}\b",
                rf"\b{_COUNT_EN}\s+{_SUPPLEMENT_EN}{_NAME_EN}\s+{_FORM_EN}\b",
            ],
            re.IGNORECASE,
        )
    ),
    # I've been taking Tegretol twice a day (not "my …": a dog is walked on a schedule too)
    re.compile(
        rf"{_I}\s+{_ADV}(?:take|takes|taking|took|taken|swallow|swallowed|inject|injected)\s+"
        rf"{_SUPPLEMENT_EN}{_NAME_EN}\s+(?:{_SCHEDULE_EN})\b",
        re.IGNORECASE,
    ),
    # a repeat of my Trintellix; half my Strattera (beside a pharmacy or a prescription)
    _WithCue(
        re.compile(
            r"\b(?:repeat|refill|prescription|script|supply|reorder|re-order|order|collect|"
            r"pick\s+up|picked\s+up|ran\s+out\s+of|run\s+out\s+of|half|rest|last)\s+(?:of\s+|for\s+)?"
            rf"{_MY}\s+{_SUPPLEMENT_EN}{_NAME_EN}\b(?!\s+(?-i:[A-Z]))"
            rf"|{_MY}\s+{_SUPPLEMENT_EN}{_NAME_EN}\s+(?:prescription|refill|script|repeat|supply)\b",
            re.IGNORECASE,
        ),
        _DISPENSED_EN,
    ),
    # (my GP) put me on Lyrica; I was prescribed Lyrica
    re.compile(
        r"\b(?:doctor|gp|consultant|psychiatrist|neurologist|specialist|nurse|prescriber|clinic)\s+"
        rf"(?:has\s+|had\s+)?(?:put|started|switched|moved)\s+me\s+(?:on|onto|to)\s+{_NAME_EN}\b"
        rf"|{_I}\s+{_ADV}(?:was|got|been|am\s+being)\s+prescribed\s+{_NAME_EN}\b",
        re.IGNORECASE,
    ),
    # 医生给我开了黛力新，一天两片 (a prescriber, a name, a dose)
    re.compile(
        rf"(?:医生|大夫|医院|门诊)[^，。！？,!?]{{0,4}}?给{_ZH_I}(?:开|换|加)了?(?:点|一盒|两盒)?"
        r"(?:[\u4e00-\u9fff]{2,5}|\s*[A-Za-z][A-Za-z-]{3,})[，,]?\s*"
        r"(?=(?:每天|每日|一天|一日|每次|早晚)[一二两三半\d各]*(?:次|片|粒|颗|毫克|mg))",
        re.IGNORECASE,
    ),
    # 我得去药房把这个月的欣百达取回来 (a month's supply from the pharmacy)
    re.compile(
        rf"{_ZH_I}[^，。！？,!?]{{0,6}}?(?:去|到|在)(?:医院)?(?:药房|药店|药局|配药窗口)[^，。！？,!?]{{0,4}}?"
        r"(?:这个月|下个月|每个月|这周|每周|这次)的(?:[\u4e00-\u9fff]{2,5}|\s*[A-Za-z][A-Za-z-]{3,})"
        r"(?:取|拿|开|配)"
    ),
    # 我吃了三年的思瑞康，现在在减量 / 医生说可以减药 / 每天还是一颗
    _WithCue(
        re.compile(
            rf"{_ZH_I}[^，。！？,!?]{{0,4}}?(?:吃|服|服用|打)了(?:快|近|差不多)?"
            r"[一二两三四五六七八九十几半\d]+(?:多)?(?:年|个多?月)(?:多)?的?"
            r"(?:[\u4e00-\u9fff]{2,5}|\s*[A-Za-z][A-Za-z-]{3,})"
        ),
        re.compile(
            r"减量|减药|停药|断药|药|医生|大夫|处方|剂量|毫克|mg|[一二两三半\d][片粒颗针]|血糖|血压|血脂"
        ),
    ),
    # 我吃了五年的维思通。 (a name of three or four characters ending the clause, not a
    # dish: Chinese food words end in a food head — 面, 饭, 菜 …)
    re.compile(
        rf"{_ZH_I}[^，。！？,!?]{{0,4}}?(?:吃|服|服用)了(?:快|近|差不多)?"
        r"[一二两三四五六七八九十几半\d]+(?:多)?(?:年|个多?月)(?:多)?的"
        r"(?:[\u4e00-\u9fff]{2,3}(?<![面饭粉菜汤肉餐粥饼包堂卖糖奶茶酒果蛋食米苦亏素瓜鱼鸡虾])"
        r"|[\u4e00-\u9fff]{1,3}药)(?=[，,。！!；;\s]|$)"
    ),
    # 我每天早晚各吃一片格华止 / 我每天一粒络活喜，早饭后吃 / 每天早上一粒 Topamax
    re.compile(
        rf"{_ZH_I}(?:每天|每日|一天|每晚|每早)(?:早晚|早上|晚上|睡前)?各?(?:吃|服|服用)?"
        r"(?:[一二两三半\d]+(?:片|粒|颗)(?!维生素|钙|鱼油|[\u4e00-\u9fff]{0,2}(?:面包|吐司|糖|蛋|饼))"
        r"|打[一二两\d]针(?![\u4e00-\u9fff]{0,4}疫苗))"
        r"(?:[\u4e00-\u9fff]{2,5}|\s*[A-Za-z][A-Za-z-]{3,})"
        r"(?=[^。！？!?]{0,12}(?:饭后|饭前|空腹|睡前|吃了|打了|服|一天|每天|减量))"
    ),
    # 我每天早晚各吃一片格华止 (a dose morning and evening)
    re.compile(
        rf"{_ZH_I}(?:每天|每日|一天)?早晚各(?:吃|服|服用)?[一二两半\d]+(?:片|粒|颗)"
        r"(?!维生素|钙|鱼油|[\u4e00-\u9fff]{0,2}(?:面包|吐司|糖|蛋|饼))"
        r"(?:[\u4e00-\u9fff]{2,5}|\s*[A-Za-z][A-Za-z-]{3,})"
    ),
    # A name written with its dose in a CJK sentence (…20mg, …を毎食後): the speaker's.
    _Spoken(
        re.compile(
            r"(?:[\u30a1-\u30fa\u30fc]{3,}|[\u4e00-\u9fff]{2,5}|[A-Za-z][A-Za-z-]{3,})(?<!维生素)(?<!叶黄素)"
            r"(?<!鱼油)(?<!褪黑素)(?<!蛋白粉)(?<!咖啡因)(?:を|\s)*\d+(?:\.\d+)?\s*(?:mg|毫克|ミリ|밀리)"
            r"(?=[^A-Za-z]|$)(?=[\s\S]*[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af])"
            r"|[\u30a1-\u30fa\u30fc]{3,}を[^。]{0,4}?(?:毎食後|食後|食前)",
            re.IGNORECASE,
        )
    ),
    # セロクエルを飲み始めて / 毎晩ジプレキサを飲んでいます (the speaker, a katakana name)
    _Spoken(
        re.compile(r"[\u30a1-\u30fa\u30fc]{3,}を(?:毎[日朝晩]|朝晩|寝る前に)?(?:服用し|処方され)")
    ),
]

_HERITAGE_EN = (
    r"(?:\b(?:my|our)\s+(?:grand(?:mother|father|parents|ma|pa)|gran|nan|ancestors|forebears|"
    r"elders|people|tribe|clan|parents|family|folks)\b|\bwe\s+(?:still\s+)?speak\b|"
    r"\b(?:born|raised|grew\s+up)\s+in\b|\bfled\b|\bon\s+(?:both|my\s+\w+'s)\s+sides?\b|"
    r"\bby\s+(?:blood|descent|heritage)\b|\b(?:mother\s+tongue|our\s+language|back\s+home|"
    r"my\s+roots|(?:my|our)\s+community|heritage|ancestry|descent|diaspora|"
    r"(?:my|our)\s+(?:culture|traditions?|language|dialect|new\s+year|festivals?|homeland|village))\b)"
)
# The twelve signs and the week's days are capitalised but no people.
_NOT_PEOPLE_EN = (
    r"(?!(?-i:Aries|Taurus|Gemini|Cancer|Leo|Virgo|Libra|Scorpio|Sagittarius|Capricorn|"
    r"Aquarius|Pisces|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?\b)"
)
# The 56 peoples by their short names (简称) and their …人 / …家 forms of two characters
# or more (a one-character name + 人 is a word of its own: 白人, 水人).
_PEOPLES_SHORT_ZH = r"维族|蒙族|藏民|回民|苗家|壮家|瑶家|侗家|彝家|傣家|土家|维吾尔人"
_LONG_PEOPLES_ZH = "|".join(
    p for p in _PEOPLES_ZH.split("|") if len(p) >= 2 and p not in ("朝鲜", "俄罗斯", "蒙古")
)
_ETHNICITY = [
    _WithCue(
        re.compile(
            rf"{_IM}\s+(?:half[- ]|part[- ])?{_NOT_PEOPLE_EN}(?-i:[A-Z][a-z]{{2,}})"
            r"(?=\s*(?:[,;:.—–-]|and\b|on\b|through\b|by\b|born\b|from\b))",
            re.IGNORECASE,
        ),
        re.compile(_HERITAGE_EN, re.IGNORECASE),
    ),
    re.compile(
        rf"{_ZH_I}(?:家)?(?:是|属于)(?:{_PEOPLES_SHORT_ZH}|(?:{_LONG_PEOPLES_ZH})(?:人|家人))"
        r"(?![\u4e00-\u9fff]{0,2}(?:文化|朋友|街|馆|菜))"
    ),
    # 我是克伦族人 (…族人 names a people's member; a social label …族 takes no 人), our
    # family's people (我们家是…族), a lineage (我有一半…族血统)
    re.compile(
        rf"{_ZH_I}(?:家)?是[\u4e00-\u9fff]{{1,4}}族人"
        rf"|我们家(?:都)?是(?:{_PEOPLES_ZH})族"
        rf"|{_ZH_I}(?:身上)?有[^，。！？,!?]{{0,4}}?[\u4e00-\u9fff]{{1,4}}[族人](?:的)?血统"
    ),
    _WithCue(
        re.compile(rf"{_ZH_I}(?:家)?是[\u4e00-\u9fff]{{1,4}}族(?=[，,。；;\s]|$)"),
        re.compile(r"母语|族语|我们族|族人|部落|寨子|祖上|祖辈|民族"),
    ),
    re.compile(
        rf"{_MY}\s+(?:family|parents|people|grandparents|ancestors|folks)\s+(?:is|are|were|was)\s+"
        rf"(?:all\s+|both\s+)?{_NOT_PEOPLE_EN}(?-i:[A-Z][a-z]{{2,}})(?=\s*(?:[,;.!]|$|and\b|from\b))",
        re.IGNORECASE,
    ),
    # As a Hmong woman, I …; 作为一个苗族姑娘，我 …
    re.compile(
        rf"\bas an? (?:half-|proud\s+)?{_NOT_PEOPLE_EN}(?-i:[A-Z][a-z]{{2,}}(?:-[A-Z][a-z]+)?)\s+"
        r"(?:woman|man|person|girl|guy|kid|mum|mom|dad|mother|father|immigrant|refugee)\b,?\s+(?:i|my)\b"
        rf"|作为(?:一[个名位])?(?:{_PEOPLES_ZH})族(?:人|姑娘|女孩|女生|男孩|男生|小伙|同胞|后代)?[，,]?\s*我(?!们|們)",
        re.IGNORECASE,
    ),
    # A numbered generation of a diaspora: 고려인 3세, 在日三世, third-generation
    re.compile(
        r"(?:저는|나는|제가|전)\s*(?:[가-힣]{2,6}\s*){1,2}[2-5]세(?:예요|이에요|입니다|야|라서|인데)"
        r"|(?:私|わたし|僕|俺)は[^。]{0,8}?[二三四五]世(?:です|だ|で|として)"
        rf"|{_IM}\s+(?:a\s+)?(?:second|third|fourth|fifth|2nd|3rd|4th)[- ]generation\s+"
        r"(?-i:[A-Z])[a-z]+",
        re.IGNORECASE,
    ),
]

_PRISON_SLANG_EN = r"slammer|clink|pokey|big\s+house|chokey|nick|jug|stir|can|joint"
_CUSTODY = [
    # a parole or probation hearing or appointment in the speaker's sentence, the speaker's
    # officer ("I'm a probation officer" is a job)
    _Spoken(
        re.compile(
            r"\b(?:parole|probation)\s+(?:hearing|board|meeting|appointment|conditions|check-?in)s?\b"
            r"|\bmy\s+(?:parole|probation)\s+(?:officer|worker)\b",
            re.IGNORECASE,
        )
    ),
    *_each(
        [
            # did four years inside (no place after it)
            rf"{_I}\s+{_ADV}(?:did|done|spent|served|was|been|had)\s+(?:(?:a|an|\w+|\d+)\s+){{1,3}}?"
            r"(?:years?|months?|stretch|spell)\s+inside\b(?!\s+(?:a|an|the|my|our|his|her|their|this|that|of)\b)",
            # when I was inside, …
            rf"\b(?:when|while|since|after|before)\s+{_I}\s+{_ADV}(?:was|were|got\s+out\s+from|"
            r"came\s+out\s+from)\s+inside\s*[,;.—–]",
            rf"{_I}\s+{_ADV}(?:was|been|did\s+time|ended\s+up)\s+(?:locked\s+up\s+)?in\s+the\s+"
            rf"(?:{_PRISON_SLANG_EN})\b(?!\s+(?:of|with|for)\b)",
            rf"{_MY}\s+(?:old\s+|former\s+|first\s+)?(?:cell\s?mate|cellie|offender\s+manager|"
            r"probation\s+worker|supervising\s+officer|parole\s+board|release\s+date)\b",
            rf"{_I}\s+{_ADV}shared\s+a\s+cell\b",
            rf"{_I}\s+{_ADV}(?:was|got|been)\s+(?:banged\s+up|sent\s+down|put\s+away|locked\s+away)\s+"
            r"for\s+(?:\w+\s+){0,2}?(?:years?|months?)\b",
            # my time inside; I did time
            rf"{_MY}\s+(?:time|years|months|stretch|days)\s+inside\b"
            r"(?!\s+(?:a|an|the|my|our|his|her|their|this|that|of)\b)",
            rf"{_I}\s+{_ADV}(?:did|done|doing)\s+time\b(?=\s*(?:[,;.!]|$|for\b|when\b|back\b|as\b|and\b))",
        ],
        re.IGNORECASE,
    ),
    # 我在里面蹲过 (a custodial verb needs no duration); 我在里面那几年; 我去年才放出来
    re.compile(
        rf"{_ZH_I}[^，。！？,!?]{{0,4}}?在(?:[高大][墙牆])?(?:里面|里头|里边)(?:蹲|[关關])(?:过|了)"
        rf"|{_ZH_I}在(?:[高大][墙牆])?(?:里面|里头)的?那(?:几|些|[一二两三四五六七八九十])年"
        rf"|{_ZH_I}(?:去年|今年|前年|上个月|刚|才|是|已经|早就)*(?:被)?(?:刚|才)放出来"
    ),
    # 我在里面待了两年 / 我在里头关了三年 / 我在高墙里面关了三年 / 我在大墙里面过了五年
    re.compile(
        rf"{_ZH_I}[^，。！？,!?]{{0,4}}?在(?:[高大][墙牆])?(?:里面|里头|里边|里)"
        r"(?:待|呆|蹲|[关關]|过)了?(?:整整|快|近)?[一二两三四五六七八九十几半\d]+(?:多)?(?:年|个多?月)"
        rf"|{_ZH_I}[^，。！？,!?把]{{0,8}}?(?:被[关關]|在[^，。！？,!?把]{{0,6}}?[关關])了?(?:整整|快|近)?"
        r"[一二两三四五六七八九十几\d]+(?:多)?年"
    ),
]

_DEVOTION_EN = (
    r"(?:rosary|prayer\s+beads|tefillin|tasbih|misbaha|kirpan|prayer\s+(?:mat|cap)|holy\s+water|(?:my|the)\s+beads|a\s+decade|scapular|crucifix|prayer\s+rug|"
    r"prayer\s+shawl|tallit|tzitzit|kippah|yarmulke|hijab|prayers?|the\s+sign\s+of\s+the\s+cross|"
    r"novena|scripture|psalms?|vespers)"
)
_HABIT_EN = (
    r"\b(?:every|each|daily|nightly|always|never\s+(?:take|go|leave)|before\s+(?:every|each|my|"
    r"morning|evening|bed)|at\s+(?:lunchtime|dawn|dusk|night))\b"
)
_FAITH = [
    # The speaker's act on a devotional object, in a habit.
    _WithCue(
        re.compile(
            rf"{_I}\s+{_ADV}(?:say|said|pray|prayed|wear|wore|carry|roll\s+out|unroll|put\s+on|lay|"
            rf"make|made|go\s+to|attend|count|read|recite|keep)\s+(?:\w+\s+){{0,3}}?{_DEVOTION_EN}\b"
            rf"|\b(?:every|each)\s+(?:night|morning|evening|day)\s*,?\s+{_I}\s+{_ADV}(?:say|pray|"
            rf"count|read|recite)\s+(?:\w+\s+){{0,3}}?{_DEVOTION_EN}\b"
            rf"|{_MY}\s+(?:rosary|prayer\s+(?:beads|rug|mat|shawl)|scapular|tallit|crucifix)\b",
            re.IGNORECASE,
        ),
        re.compile(_HABIT_EN, re.IGNORECASE),
    ),
    # An act only a believer does on its object needs no habit: praying the rosary,
    # laying tefillin, wearing a garment of observance, crossing oneself, ablutions.
    *_each(
        [
            rf"{_I}\s+{_ADV}(?:pray|prayed|praying|say|said|saying)\s+(?:the|my|a)\s+rosary\b",
            rf"{_I}\s+{_ADV}(?:lay|laid|laying|put\s+on|wear|wore|wearing)\s+(?:my\s+)?tefillin\b",
            rf"{_I}\s+{_ADV}(?:wear|wore|wearing|started\s+wearing|cover\s+my\s+hair\s+with)\s+(?:a|an|my|the)\s+"
            r"(?:tzitzit|kippah|yarmulke|scapular|hijab|niqab|headscarf\s+for\s+(?:prayer|modesty)|sheitel|tichel)\b",
            rf"{_I}\s+{_ADV}(?:make|made|do|did)\s+the\s+sign\s+of\s+the\s+cross\b",
            rf"{_I}\s+{_ADV}(?:cross|crossed)\s+myself\b",
            rf"{_I}\s+{_ADV}(?:do|did|make|made|perform)\s+(?:my\s+)?(?:wudu|wudhu|ablutions)\b",
            rf"{_I}\s+{_ADV}(?:take|took|receive|received|taking)\s+(?:holy\s+)?communion\b",
            rf"{_I}\s+{_ADV}(?:go|went|going)\s+to\s+confession\b",
            rf"{_I}\s+{_ADV}(?:light|lit)\s+(?:the\s+)?(?-i:[A-Z])\w+\s+(?:candles|lamps|diyas)\b",
            rf"{_I}\s+{_ADV}(?:do|did|perform|performed|offer|offered)\s+(?:my\s+|the\s+)?(?:daily\s+)?"
            r"(?:puja|pooja|aarti|namaz|salah|salat|dhikr|zikr|japa)\b",
        ],
        re.IGNORECASE,
    ),
    # A fast on a named holy day (not a weekday).
    re.compile(
        rf"{_I}\s+{_ADV}(?:keep|observe|do)\s+(?:the\s+)?(?:(?-i:[A-Z])\w+\s+)?(?:fast\s+days|fasting\s+days|fasts)\b"
        rf"|{_I}\s+{_ADV}(?:keep|observe|do)\s+the\s+(?-i:[A-Z])\w+\s+fast\b"
        rf"|{_I}\s+{_ADV}fast\s+(?:every|on|each|during)\s+{_NOT_PEOPLE_EN}(?-i:[A-Z])[a-z]+",
        re.IGNORECASE,
    ),
    # 我每天早上拨念珠 / 念一百零八遍佛号 / 跪着读一章圣经 / 先画十字圣号 / 戴着十字架…不摘
    re.compile(
        rf"{_ZH_I}[^，。！？,!?]{{0,8}}?(?:每|天天|一直|都|总|从来)[^，。！？,!?]{{0,8}}?"
        r"(?:(?:拨|数|捻|掐|持)(?:着)?(?:念珠|佛珠)|(?:念|诵|读|背|抄)(?:着|了)?[^，。！？,!?]{0,6}?"
        r"(?:佛号|佛经|经文|圣经|祷文|玫瑰经|古兰经|心经)|画(?:个)?十字)"
        rf"|{_ZH_I}[^，。！？,!?]{{0,6}}?戴着(?:念珠|佛珠|十字架|经文护符)[^。！？!?]{{0,8}}?(?:不摘|不离身|从不)"
        rf"|{_ZH_I}(?:每[周週月年天]?[一二三四五六七日\d]?(?:和周?[一二三四五六七日])?|初一十五|一直|长期|好几年|"
        r"都|也|还)*(?:(?:持|守|吃|封)[大小长]?斋|斋戒)"
        rf"|{_ZH_I}[^，。！？,!?]{{0,8}}?(?:领|守|吃)了?(?:圣体|圣餐)|{_ZH_I}[^，。！？,!?]{{0,8}}?朝觐"
    ),
    # 毎朝数珠を手にお経を唱え / 매일 아침 묵주 기도를 해요 (the speaker)
    _Spoken(
        re.compile(
            r"毎[日朝晩週][^。]{0,12}?(?:数珠|ロザリオ|お経|祈り|聖書)[^。]{0,12}?(?:唱え|読|祈|手に)"
            r"|(?:저는|나는|제가)\s*(?:매일|매주|늘|항상)[^.]{0,10}?(?:묵주|기도|성경|불경|염주)"
        )
    ),
]

# Membership by what only members do: pay a party's dues (党费), stand with a union on a
# strike, work a campaign for a party up to an election.
_STRIKE_CUE = re.compile(
    r"\bstrike|\bwalk(?:ed|ing)?\s+out\b|\bwalkout|\bpicket|\bballot", re.IGNORECASE
)
_ELECTION_CUE = re.compile(
    r"\belection|\bpolling|\bvot(?:e|es|ed|ing|ers?)\b|\bballot|\bcampaign|\bcount\b|\bseat\b",
    re.IGNORECASE,
)
_UNION = [
    _WithCue(
        re.compile(
            rf"{_I}\s+{_ADV}(?:stood|stand|marched|march|walked\s+out|went\s+out|picketed|struck)\s+"
            r"(?:[^.!?]{0,40}?\s)?with\s+(?:the\s+)?(?:other\s+|fellow\s+|rest\s+of\s+the\s+)?"
            r"(?-i:[A-Z]{2,6})\b",
            re.IGNORECASE,
        ),
        _STRIKE_CUE,
    ),
]
_POLITICAL = [
    _WithCue(
        re.compile(
            rf"{_I}\s+{_ADV}(?:knocked\s+(?:on\s+)?doors|canvassed|leafleted|campaigned|"
            r"stuffed\s+envelopes|(?:sat|stood|worked)\s+as\s+an?\s+teller|delivered\s+leaflets|"
            r"ran\s+the\s+phone\s+bank|volunteered)\s+for\s+(?:the\s+)?(?-i:[A-Z][\w-]*)",
            re.IGNORECASE,
        ),
        _ELECTION_CUE,
    ),
    re.compile(rf"{_ZH_I}[^，。！？,!?]{{0,10}}?交(?:了|过|着)?[^，。！？,!?]{{0,6}}?党费"),
]

OPEN_NOUN_FRAMES: dict[str, list] = {
    "trade_union": _UNION,
    "political": _POLITICAL,
    "health": _MEDICINE,
    "ethnicity": _ETHNICITY,
    "criminal_record": _CUSTODY,
    "religion": _FAITH,
}
