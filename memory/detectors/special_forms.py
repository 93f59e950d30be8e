"""Special categories recognised by what the user *does*, not by the name of a condition.

``special_categories`` finds a first-person subject with a verb of membership, diagnosis,
treatment or belief and a named condition, drug or faith. People rarely name the category
itself; they name what it makes them do, and that has a few recurring shapes, each with
the user as the subject (an "I"/"my" or 我 that is not 我们, and no other person's noun
in between):

- **health**: a dose with a unit ("I take 75 mcg of …", any drug, named or not); an
  injected medicine; a device or implant put into the user ("they put two stents in my
  heart", 我…放了…支架); a round or course of a treatment ("round four of chemo … for me",
  我…第二轮化疗) (pregnancy by its measures is read in ``spec_shown``); a lab measure of the user with a value ("my viral load has been",
  我的…病毒载量); a gene the user carries or a genetic test about them; an organ of the
  user that is under- or overactive; months of sobriety; a guide or service dog, being
  registered blind; a condition noun right after 我 (我甲状腺结节, 我桥本甲状腺炎);
- **religion**: a practice kept or never missed (a sabbath, a fast for a named holy day,
  Mass, a prayer of a tradition, religious dress worn), 我…守安息日/望弥撒, 斋月期间我;
- **political**: a vote for a named party or person, canvassing or campaigning for one, a
  paid-up or card-carrying membership;
- **trade union**: dues paid to a union or a local, "I'm with the … union", 노조 조합원;
- **biometric**: an iris or fingerprint enrolled or scanned from the user, 我刷虹膜;
- **sexual orientation**: "I identify as …".

Chinese is read with traditional characters folded to simplified (``find_special_categories``).
"""

from __future__ import annotations

import re

from memory.detectors.dropped_subject import OTHER_ZH
from memory.detectors.medicine_frames import AMBIGUOUS_UNIT

_I = r"\b(?:i(?:'m|'ve|'d| am| have| had| was)?|(?:the\s+)?user(?: has| is| was)?)"
_IM = r"\b(?:i(?:'m| am)|(?:the\s+)?user(?:'s| is))"
_MY = r"\b(?:my|(?:the\s+)?user's)"
_ADV = r"(?:(?:also|still|now|just|recently|already|always|never|usually|been|back)\s+)*"
# 我 and not 我们, followed only by words of time or aspect before the predicate, so that
# no other person stands between (我朋友…, 我妈…).
# 我 before a kin word or another person (我妈, 我朋友) is that person, not the user.
_ZH_I = rf"我(?!们|們|{OTHER_ZH})"
_ZH_WHEN = (
    r"(?:(?:[上下这本]个?(?:周|週|月|星期)|明天|今天|后天|昨天|去年|今年|前年|最近|已经|正在|现在|"
    r"每[周週月天年]|刚刚?|也|还|就|都|又|一直|从小|之前|以前|[\u4e00-\u9fff]{1,2}里)){0,2}"
)
_NOT_NAMED = r"(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)\b)"

_DOSE = rf"\d+(?:\.\d+)?\s*(?:(?:mg|mcg|µg|ug|iu|milligrams?|micrograms?)\b|{AMBIGUOUS_UNIT})"
_DEVICE = (
    r"stents?|pacemakers?|defibrillators?|iuds?|chemo\s+ports?|port-a-caths?|shunts?|"
    r"cochlear\s+implants?|insulin\s+pumps?|(?:artificial|replacement)\s+heart\s+valves?"
)
_TREATMENT = r"chemo(?:therapy)?|radiation\s+therapy|radiotherapy|dialysis|ivf|immunotherapy"
_LAB = (
    r"viral\s+load|cd4(?:\s+count)?|t[- ]cell\s+count|a1c|hba1c|blood\s+(?:sugar|glucose|pressure)|"
    r"fasting\s+(?:blood\s+)?(?:glucose|sugar)|"
    r"cholesterol|ldl|triglycerides|psa|tsh|egfr|creatinine|platelets?|platelet\s+count|"
    r"white\s+(?:blood\s+)?cell\s+count|ferritin|iron\s+levels?|liver\s+enzymes|sperm\s+count|"
    r"hcg|amh|bone\s+density|ejection\s+fraction|oxygen\s+saturation|ha?emoglobin"
)
_ORGAN = r"thyroid|kidneys?|liver|pancreas|heart|lungs?|adrenals?|pituitary|immune\s+system|bladder|prostate"

_HEALTH_EN = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:take|takes|taking|took|inject|injects|injecting|need|am on|'m on|on|"
        rf"was prescribed|got prescribed|been prescribed)\s+(?:\w+\s+){{0,2}}?{_DOSE}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:give|gives|gave)\s+myself\s+(?:an?\s+|my\s+)?(?:\w+\s+)?(?:shot|injection|jab)s?\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:inject|injects|injecting|self-inject)\s+(?:myself\b|(?:my\s+)?"
        r"(?-i:[A-Z])\w+|(?:my\s+)?\w+\s+(?:every|daily|weekly|twice|once|each)\b)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:had|got|have|needed|need|am getting|'m getting)\s+(?:an?|two|three|"
        rf"\d|my|another|a new)\s+(?:\w+\s+)?(?:{_DEVICE})\b"
        rf"|\b(?:put|placed|fitted|inserted|implanted)\s+(?:\w+\s+){{0,2}}(?:{_DEVICE})\s+in(?:to)?\s+"
        rf"(?:me\b|my\s+(?!(?:mom|mum|dad|father|mother|son|daughter|wife|husband|friend|dog|cat)\b))"
        rf"|{_MY}\s+(?:new\s+)?(?:{_DEVICE})\b(?!\s+(?:number|forwarding|settings))",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\b(?:round|cycle|course|session|dose)\s+(?:\w+\s+)?of\s+(?:{_TREATMENT})\b[^.!?\n]{{0,40}}"
        rf"\bfor\s+me\b|{_MY}\s+(?:next|last|first|second|third|fourth|final)\s+(?:round|cycle|"
        rf"session)\s+of\s+(?:{_TREATMENT})\b|{_I}\s+{_ADV}(?:start|begin|finish|finished|started|"
        rf"am starting|'m starting|am doing|'m doing|am going through|'m going through)\s+"
        rf"(?:\w+\s+){{0,2}}?(?:{_TREATMENT})\b|{_IM}\s+(?:halfway\s+|partway\s+|almost\s+)?"
        rf"(?:through|done\s+with)\s+(?:my\s+)?(?:\w+\s+)?(?:{_TREATMENT})\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_MY}\s+(?:last\s+|latest\s+|most\s+recent\s+|recent\s+)?(?:{_LAB})\b(?:\s+(?:count|levels?|"
        r"reading|results?|numbers?))?\s+(?:is|was|are|were|has\s+been|have\s+been|came\s+back|"
        r"dropped|rose|went\s+up|went\s+down|stays?|stayed|remains?|of)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:carry|carries|inherited|tested\s+positive\s+for|am\s+a\s+carrier\s+of|"
        rf"'m\s+a\s+carrier\s+of)\s+(?:\w+\s+){{0,5}}?(?:gene|genes|mutation|variant|allele)\b"
        rf"|{_IM}\s+a\s+(?:genetic\s+)?carrier\s+(?:of|for)\b"
        rf"|{_MY}\s+(?:brca\d?|genetic|gene|dna|carrier)\s+(?:test|screen|panel|results?)\b"
        r"|\b(?:genetic\s+(?:test|kit|screen|panel)|dna\s+(?:test|kit)|23andme|ancestry\s*dna)\s+"
        r"(?:\w+\s+)?(?:says|said|shows|"
        r"showed|found|revealed|confirmed)\s+(?:that\s+)?(?:i\b|i'm\b|my\b)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_MY}\s+(?:{_ORGAN})\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:\w+\s+)?"
        r"(?:underactive|overactive|under-active|over-active|enlarged|failing|damaged|inflamed|"
        r"scarred|not\s+working|barely\s+working)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:been\s+)?(?:sober|clean)\s+(?:for\s+)?(?:\w+\s+)?(?:days?|weeks?|months?|"
        r"years?)\b|\bi\s+(?:go\s+to|attend)\s+(?:aa|na)\s+meetings\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_IM}\s+(?:registered|legally|partially|completely)\s+(?:blind|deaf|sighted)\b"
        rf"|{_MY}\s+(?:guide|service|assistance|hearing|seizure|mobility)\s+dog\b"
        rf"|{_I}\s+{_ADV}(?:lost|am\s+losing|'m\s+losing|have\s+lost)\s+(?:most\s+|all\s+|some\s+|half\s+)?"
        r"(?:of\s+)?my\s+(?:sight|vision|hearing)\b"
        rf"|{_I}\s+{_ADV}(?:rely\s+on|use|have|need|got)\s+(?:a|an|my)\s+(?:guide|service|assistance|"
        r"hearing|seizure|mobility)\s+dog\b",
        re.IGNORECASE,
    ),
]

_ZH_CONDITION_NOUN = (
    r"(?:(?!发)[\u4e00-\u9fff]){1,6}?(?:炎|结节|囊肿|增生|息肉|亢进|减退|突出|狭窄|梗死|硬化|衰竭|"
    r"脱垂|积液|功能(?:偏低|偏高|亢进|减退|异常|不全))"
)
_HEALTH_ZH = [
    re.compile(
        rf"{_ZH_I}(?:的)?{_ZH_CONDITION_NOUN}(?=[^\u4e00-\u9fff]|好|已|很|一直|每|要|了|，|$)"
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}(?:放了|装了|植入了?|安了|放过|装过|做了)[^。！？，,\n]{{0,4}}?"
        r"(?:支架|起搏器|除颤器|人工耳蜗|节育环|钢板|心脏瓣膜|输液港)"
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}(?:开始|在做|做完|做了|正在|接受|进行|打完|在打)(?:了)?"
        r"(?:第[一二三四五六七八九十\d]+[轮次个期]的?)?(?:化疗|化療|放疗|放療|透析|靶向治疗|免疫治疗|试管|促排卵?)"
    ),
    re.compile(
        rf"{_ZH_I}的?(?:HIV|艾滋|乙肝)?(?:病毒载量|CD4|糖化血红蛋白|血糖|血压|血脂|胆固醇|尿酸|甲功|"
        r"TSH|肝功能?|肾功能?|转氨酶|肌酐)(?:是|偏|有点|已经|一直|测|检测|控制|很|太|高|低|\d|指标|降|升|涨|掉)"
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}(?:每天|每晚|每周|晚上|早上){{0,2}}(?:都|要|会){{0,2}}打(?:一|两|三|\d)针"
    ),
    re.compile(rf"{_ZH_I}(?:携带|带有|是)[^。！？，,\n]{{0,10}}?(?:基因|突变|变异)(?:携带者)?"),
    re.compile(
        rf"{_ZH_I}是[^。！？，,\n]{{0,4}}(?:视障|听障|盲人|聋人|残障|残疾)"
        rf"|{_ZH_I}[^。！？，,\n]{{0,4}}(?:靠|用|带着?|牵着?)导盲犬|{_ZH_I}的导盲犬"
        # Korean: a disability the speaker has (청각 장애가 있어서). 장애 alone is also an
        # outage (시스템 장애가 있어서): with the subject dropped, the kind of disability
        # named before it says whose word it is
        r"|(?:^\s*|(?:저는|제가|나는|내가)\s*)(?:청각|시각|지체|언어|지적|발달|정신)\s*장애(?:가|를)\s*"
        r"(?:있(?:어|고|습|다|으며)|가지고|앓)|(?:저는|제가|나는|내가)\s*장애(?:가|를)\s*(?:있(?:어|고|습|다)|가지고|앓)"
    ),
    # Japanese: the speaker takes a medicine or an injection.
    re.compile(
        r"(?:私|わたし|僕|俺)(?:は|も)[^。]{0,15}(?:薬|くすり)を[^。]{0,6}(?:飲んで|飲み|服用)"
        r"|(?:私|わたし)は[^。]{0,12}(?:注射|インスリン)を[^。]{0,4}打って"
        r"|(?:私|わたし)は[^。]{0,10}(?:透析|抗がん剤|化学療法|放射線治療)"
        r"|(?:저는|나는|제가|내가)\s*임신\s*\d+\s*주"
        r"|(?:저는|나는|제가|내가)\s*(?:\S+\s+){0,3}?\S*약을?\s*(?:\S+\s+)?(?:먹어요|먹고|먹는|먹어|복용)"
    ),
]

_RELIGION = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:keep|keeps|observe|observes)\s+(?:the\s+)?(?:sabbath|shabbat|shabbos|"
        rf"lent|ramadan|kosher|halal|the\s+fast)\b|{_I}\s+{_ADV}(?:never\s+miss|go\s+to|attend)\s+"
        r"(?:sunday\s+|daily\s+|evening\s+)?(?:mass|friday\s+prayers?|jumu'?ah|vespers|shul|"
        r"confession|communion)\b(?!\s+of\b)",
        re.IGNORECASE,
    ),
    re.compile(rf"{_IM}\s+fasting\s+(?:for|during|through)\s+{_NOT_NAMED}(?-i:[A-Z])", re.I),
    re.compile(
        rf"{_I}\s+{_ADV}(?:pray|prayed|say|said)\s+(?:the\s+|my\s+)?(?:rosary|salah|salat|namaz|fajr|"
        r"shema|angelus|novenas?|daily\s+prayers)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:wear|wears|started\s+wearing)\s+(?:a\s+|an\s+|my\s+)?(?:hijab|niqab|burqa|"
        r"turban|dastar|kippah|kippa|yarmulke|tzitzit|crucifix|tilak|headscarf\s+for\s+(?:faith|religious))\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_IM}\s+(?:(?:an?|very|quite|fairly|strictly)\s+)?(?:orthodox|devout)\b"
        r"(?!\s+(?:about|when|with|in\s+(?:my|the)\s+(?:work|code)))",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_ZH_I}(?:每[周週][一二三四五六日天]?|每个?(?:主日|周日|星期天|礼拜天|周五|安息日)|每天|平时)?"
        r"(?:都|会)?(?:去)?(?:望弥撒|做弥撒|望彌撒|做彌撒|守安息日|做礼拜|做主麻|守斋|封斋)"
        rf"|斋月(?:期间|里|的时候)?{_ZH_I}|{_ZH_I}(?:在)?(?:过|守|封)斋月"
        rf"|{_ZH_I}(?:(?!{OTHER_ZH})[^。！？，,\n]){{0,8}}?(?:都|会)?去(?:庙里|寺里|寺庙|教堂|清真寺)(?:上香|拜佛|礼拜|做礼拜|祷告|做主麻)"
    ),
    re.compile(
        rf"{_I}\s+{_ADV}break\s+my\s+fast\s+at\s+(?:sunset|sundown|iftar|maghrib)"
        rf"|{_I}\s+{_ADV}(?:put\s+on|lay|wrap)\s+(?:my\s+)?tefillin"
        rf"|{_I}\s+{_ADV}(?:go\s+to|attend)\s+(?:the\s+)?(?:church|mass|mosque|synagogue|temple|gurdwara|"
        r"mandir|kingdom\s+hall)\b(?:\s+\w+){0,4}?\s+(?:every|each|on\s+(?:sundays|fridays|saturdays)|weekly)",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:저는|나는)\s*(?:\S+\s+){0,3}?(?:성당|교회|절|모스크)에\s*(?:가|다녀|다닙)"
        # Japanese: a rite the speaker goes to (ミサ, 礼拝), or a place of worship attended
        r"|(?:^\s*|(?:私|わたし|僕|俺)(?:は|も|、))[^。はが]{0,14}?(?:(?:の)?(?:ミサ|礼拝|お祈り)に(?:行|通|参加|出)"
        r"|(?:教会|モスク|シナゴーグ)に通)"
    ),
]
# "party" that ends its noun phrase (the Green Party since 2019), not a noun's modifier
# (the party planning committee): a closed class of function words or punctuation follows.
PARTY_END = (
    r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:since|for|and|now|so|too|but|ever|in|at|here|there|as|of|"
    r"because|until|though|although|when|while|which|who|that|myself)\b)"
)
_POLITICAL = [
    re.compile(rf"{_ZH_I}是[^。！？，,\n]{{0,6}}?(?:党员|盟员|团员)"),
    re.compile(
        rf"\bi\s+{_ADV}(?:voted|vote|will\s+vote)\s+(?:for\s+)?(?:the\s+)?{_NOT_NAMED}(?-i:[A-Z])[\w-]+"
        # a vote in a poll, contest or awards is not an election's
        r"(?![^.!?\n]{0,40}\b(?:poll|survey|contest|competition|awards?|quiz|raffle)\b)"
        rf"|{_I}\s+{_ADV}(?:hold|have|carry)\s+an?\s+{_NOT_NAMED}(?-i:[A-Z])\w+\s+party\s+(?:card|membership)"
        rf"|\bi\s+{_ADV}(?:knocked|knock)\s+on\s+doors\s+for\s+(?:the\s+)?{_NOT_NAMED}(?-i:[A-Z])\w+"
        rf"|\bi\s+{_ADV}(?:canvass(?:ed)?|campaign(?:ed)?|phone-?bank(?:ed)?|door-?knock(?:ed)?)\s+"
        rf"for\s+(?:the\s+)?{_NOT_NAMED}(?-i:[A-Z])\w+"
        rf"|{_I}\s+{_ADV}(?:been\s+)?(?:a\s+)?(?:paid-up|card-carrying|signed-up)\s+(?:[\w-]+\s+){{0,2}}member\b"
        rf"|{_I}\s+{_ADV}(?:been\s+)?an?\s+(?:\w+\s+)?member\s+of\s+the\s+[\w' -]{{1,30}}?\bparty{PARTY_END}",
        re.IGNORECASE,
    ),
]
_TRADE_UNION = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:pay|paid)\s+(?:my\s+)?(?:union\s+)?dues\s+to\b|{_IM}\s+with\s+the\s+"
        r"[\w' ]{0,30}?\bunion\b(?=\s*(?:[,.;!?]|$|and\b|since\b|now\b|so\b|local\b))",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:저는|나는|제가|내가)\s*(?:\S+\s+){0,2}?(?:노조|노동조합)\s*(?:조합원|원|회원)"
        r"|(?:^\s*|(?:私|わたし|僕|俺)(?:は|も|、))[^。はが]{0,10}?(?:労働組合|労組|ユニオン)に(?:入|加入|加盟)"
        r"|(?:^\s*|(?:私|わたし|僕|俺)(?:は|も|、))[^。はが]{0,10}?組合費を(?:払|納め)"
    ),
]
_BIOMETRIC = [
    re.compile(
        r"\b(?:an?|my)\s+(?:iris|retina|retinal)\s+(?:scan|pattern|template|print|data)\s+of\s+my\b"
        rf"|{_MY}\s+(?:iris|retina)\s+(?:pattern|template|print)\b"
        r"|\benrolled\s+my\s+(?:iris|retina|fingerprints?|face|voice|palm)\b",
        re.IGNORECASE,
    ),
    re.compile(rf"{_ZH_I}(?:每天|每次)?(?:都)?刷(?:虹膜|掌纹|掌静脉|声纹)"),
]
_ORIENTATION = [
    re.compile(
        rf"{_I}\s+{_ADV}identify\s+as\s+(?:an?\s+)?(?:asexual|aromantic|gay|lesbian|bisexual|bi|"
        r"pansexual|queer|demisexual|ace)\b",
        re.IGNORECASE,
    ),
]

SPECIAL_FORMS: dict[str, list[re.Pattern[str]]] = {
    "health": _HEALTH_EN + _HEALTH_ZH,
    "religion": _RELIGION,
    "political": _POLITICAL,
    "trade_union": _TRADE_UNION,
    "biometric": _BIOMETRIC,
    "sexual_orientation": _ORIENTATION,
}
