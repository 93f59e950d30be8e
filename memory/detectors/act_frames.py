"""Special categories told by what the speaker does, reads or files rather than by a
category word (issue 32, round 11).

Round 10's frames (``life_frames``) read a fact of the speaker's life: a device worn, a
body measure, a habit at a place of worship. These read the acts and papers that only a
category's life has, each in a *closed frame* around a noun class closed by its kind or
read by its shape, tied to the speaker:

- **health by a test value**: the speaker's analyte, read by its shape (an abbreviation
  with a capital inside, eGFR, HbA1c, ALT, γ-GTP; a vitamin; a word of the -in/-ine/-ase
  family of proteins and enzymes) with a reading and a laboratory's verb ("came back at",
  "slipped to", "three times the upper limit"), 我的…(酸|酶|蛋白|醇)…数值, 私の…値,
  제 …수치; **by an organ that fails** (anatomy's internal organs, a closed class: "my
  bladder doesn't make it through the night", 我的腰椎间盘压着神经, 胃に穴が開いて);
- **a care routine**: the speaker tending a line, a wound, a stoma or an injection site
  on a schedule ("I flush my PICC line every evening", 给自己肚皮上扎一针, 배에 주사를
  놔요);
- **an accessibility aid** (ISO 9999 class 22, aids for communication and orientation):
  a screen reader, a long cane, captions or an interpreter relied on;
- **a faith's dietary rule**: meat slaughtered or certified by a rite, meat and milk kept
  apart, a fast of a named season, 吃斋 / 五辛;
- **a political act**: canvassing, leafleting, phone-banking or a donation for a party or
  a candidate (a capitalised name, a party by its 党 suffix), dues to a party or a union;
- **criminal-justice contact**: the speaker's court date, hearing, licence conditions,
  parole officer; 我…出庭, 執行猶予中, 보호관찰관을 만나요;
- **immigration paperwork** (reported as ``ethnicity``, as round 10's migration frames):
  a form read by its shape (I-485, H-1B), a residence permit, 在留カード, 체류 연장;
- **identity through a community or a treatment**: the speaker at a queer, trans or
  nonbinary group, 拉拉群, on T.

Every rule is read sentence by sentence and skips a sentence that supposes or asks
(``life_frames._Stated``); the English frames start at I/my, the Chinese at 我 with no
one else's act in the gap, the Japanese and Korean at 私/저/제 or in a sentence whose
subject is the speaker (``_Spoken``).
"""

from __future__ import annotations

import re

from memory.detectors.concept_forms import _SENTENCE, _Spoken
from memory.detectors.life_frames import _ZH_GAP, _stated
from memory.detectors.open_noun_frames import _ADV, _I, _IM, _MY, _ZH_I, _each

_F = re.IGNORECASE

# News, an article or hearsay in Japanese and Korean (a sentence naming no person is the
# speaker's by ``speaker_is_subject``, so these are read here).
_REPORTED_JAKO = re.compile(
    r"ニュース|報道|記事|によると|らしい|そうだ|って聞いた|뉴스|기사|보도|대요|래요|다고\s*(?:해|들)"
)


class _Told(_Spoken):
    """``_Spoken``, and not in a sentence of news or hearsay."""

    def search(self, text: str):
        for sentence in _SENTENCE.findall(text):
            if _REPORTED_JAKO.search(sentence):
                continue
            m = super().search(sentence)
            if m:
                return m
        return None


# --- health by a test value ------------------------------------------------------------
# An analyte by its shape: an abbreviation with a capital inside or a digit (eGFR, HbA1c,
# ALT, LDL, B12), a vitamin, a protein or enzyme by its suffix (ferritin, bilirubin, lipase).
_ANALYTE_EN = (
    r"(?:(?-i:[a-z]?[A-Z][A-Za-z]?[A-Z][A-Za-z0-9]{0,3})|vitamin\s+(?-i:[A-Z]\d{0,2})|"
    r"(?-i:[a-z]{3,}(?:itin|rubin|inine|ase|globin|protein)))"
)
_LAB_VERB_EN = (
    r"(?:slipped|dropped|fell|rose|climbed|crept\s+up|went\s+up|"
    r"jumped|was|were|is|sits|has\s+been|hit)"
)
_LAB_READING_EN = (
    r"(?:(?:at|to|as|of)\s+)?(?:\d+(?:\.\d+)?|(?:two|three|four|five|ten)\s+times\s+the\s+"
    r"(?:upper\s+limit|normal)|(?:above|below|out\s+of)\s+(?:the\s+)?(?:range|normal))"
)
_VALUE_HEALTH = [
    # my eGFR slipped to 41; my ferritin came back at 4; my ALT was three times the upper limit
    re.compile(
        rf"{_MY}\s+{_ANALYTE_EN}(?:\s+(?:levels?|count|result|reading))?\s+{_ADV}"
        rf"(?:came\s+back\s+{_LAB_READING_EN}|{_LAB_VERB_EN}\s+{_ADV}{_LAB_READING_EN}"
        r"(?=[^.!?;]{0,40}?\b(?:bloods?|blood\s+tests?|labs?|results?|clinic|limit|range|"
        r"infusions?|injections?|drips?)\b))",
        _F,
    ),
    # 我的尿酸这次查出来有560 / 我的转氨酶这次一百八 / 我的低密度胆固醇验出来190 / 甲胎蛋白升到…
    re.compile(
        rf"{_ZH_I}的?[\u4e00-\u9fffA-Za-z]{{0,5}}(?:酸|酶|蛋白|醇|素|指标|指数|数值)[^，。！？,!?]{{0,8}}?"
        r"(?:[查验驗]出[来來]|检查|化验|升到|降到|涨到|掉到|又到|有|是|一直)[^，。！？,!?]{0,4}?"
        r"(?:[\d一二三四五六七八九十百千两]+|偏高|偏低|超标|三位数)"
    ),
    # 私のγ-GTPが三桁のまま / 私の尿酸値は8.5 / 제 공복혈당이 130 / 제 갑상선 수치가 올라갔어요
    re.compile(
        r"(?:私|僕|俺)の[^。、]{1,8}?(?:値|GTP|数値|マーカー)(?:が|は)[^。]{0,8}?"
        r"(?:\d|三桁|二桁|高い|上が|下が|基準)"
        r"|(?<![가-힣])제\s*[가-힣A-Za-z]{0,6}\s*(?:수치|혈당|혈압|지수)(?:가|는|이)\s*[^.]{0,8}?"
        r"(?:\d|올라|내려|높|낮|나와)"
    ),
]

# Internal organs and structures (anatomy: closed by its kind), and what failing is for each.
_ORGAN_EN = (
    r"(?:bladder|pancreas|gallbladder|kidneys?|liver|lungs?|(?:left|right)\s+lung|bowels?|colon|"
    r"prostate|thyroid|spleen|womb|uterus|ovaries|heart\s+valves?|spine|discs?|cartilage|retinas?)"
)
_FAILING_EN = (
    r"(?:doesn't|does\s+not|won't|can't|cannot|hasn't|stopped|has\s+stopped|gave\s+up|"
    r"has\s+given\s+up|packed\s+up|only\s+works?|works?\s+at|is\s+failing|failed|flares?\s+up|"
    r"keeps\s+(?:failing|flaring)|is\s+(?:shot|packing\s+up|giving\s+out)|gives\s+out)"
)
_ORGAN_ZH = (
    r"(?:膀胱|胰腺|[胆膽]囊|[肾腎][脏臟]?|肝[脏臟]?|肺|[肠腸]子?|[结結][肠腸]|前列腺|甲状腺|子宫|卵巢|脾|心[脏臟]瓣膜|心[脏臟]|瓣膜|"
    r"腰椎间盘|颈椎间盘|椎间盘|腰椎|颈椎|半月板|软骨|视网膜|[左右]?[耳眼](?:朵|睛)?)"
)
_FAILING_ZH = (
    r"(?:压着神经|压迫神经|[关關]不[紧緊]|[关關]不上|不工作|不行了|坏了|罢工|穿孔|突出|撕裂|磨没|磨损|"
    r"钙化|衰竭|萎缩|嗡嗡响|听不清|看不清|只剩|堵了)"
)
_ORGAN_HEALTH = [
    re.compile(rf"{_MY}\s+(?:(?:left|right|bad)\s+)?{_ORGAN_EN}\s+{_ADV}{_FAILING_EN}\b", _F),
    re.compile(rf"{_ZH_I}的?{_ORGAN_ZH}[^，。！？,!?]{{0,10}}?{_FAILING_ZH}"),
    # 私は胃に穴が開いて / 私の腎臓は片方しか動いていません / 제 무릎 연골이 다 닳아서
    re.compile(
        r"(?:私|僕|俺)(?:は|の)[^。]{0,4}?(?:胃|腸|腎臓|肝臓|膵臓|心臓|膀胱|肺|腰|椎間板|軟骨)"
        r"(?:に|が|は)[^。]{0,8}?(?:穴が開|動いていな|しか動|悪く|弱く|ヘルニア|すり減)"
        r"|(?<![가-힣])제\s*(?:[가-힣]{1,3}\s*)?(?:연골|신장|간|췌장|심장|폐|방광|위|허리\s*디스크|디스크|갑상선)"
        r"(?:이|가|은|는)\s*[^.]{0,8}?(?:닳|망가|안\s*좋|나빠|녹았|터졌|기능)"
    ),
]

# A Chinese inhaler told by its effect: the speaker short of breath, and a spray or an
# inhaled can carried (sunscreen is sprayed too, but not for breathlessness).
_AIRWAY_ZH = re.compile(
    rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:喘不上气|喘不过气|透不过气|就喘|胸口就?发紧|胸闷|气短)"
)
_CARRIED_SPRAY_ZH = re.compile(
    r"(?:喷的|喷雾|喷剂|吸的|吸入器|气雾剂|小罐子|小喷瓶)[^。！？!?]{0,10}?(?:随身|离身|不离|带着|得带|要带)"
    r"|(?:随身|一直)带着?[^。！？!?]{0,6}?(?:喷雾|喷剂|吸入器|气雾剂)"
)


class _Breathless:
    """A carried spray in a text whose speaker is short of breath (``_AIRWAY_ZH``)."""

    def __init__(self) -> None:
        self.pattern = self.prefilter_pattern = _CARRIED_SPRAY_ZH

    def search(self, text: str):
        return _CARRIED_SPRAY_ZH.search(text) if _AIRWAY_ZH.search(text) else None


# --- a care routine on a line, a wound, a stoma or an injection site --------------------
_CARE_OBJECT_EN = (
    r"(?:picc(?:\s+line)?|port|central\s+line|hickman(?:\s+line)?|line|dressings?|wound|ulcer|"
    r"stoma|trach(?:eostomy)?(?:\s+tube)?|leg\s+bag|catheter|drain|peg(?:\s+tube)?|feeding\s+tube)"
)
_SCHEDULE_EN = (
    r"(?:every|each|twice|three\s+times|four\s+times|\d+\s+times|once|before\s+bed|at\s+night|"
    r"(?:in\s+the\s+)?mornings?|evenings?|daily|nightly)"
)
_CARE = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:flush|change|clean|dress|empty|redress|pack|irrigate|tend)\s+"
        rf"(?:(?:out|around)\s+)?(?:the\s+\w+\s+on\s+)?(?:my|the)\s+(?:\w+\s+)?{_CARE_OBJECT_EN}\b"
        rf"[^.!?;]{{0,30}}?\b{_SCHEDULE_EN}\b",
        _F,
    ),
    re.compile(
        rf"\b{_SCHEDULE_EN}\b[^.!?;]{{0,20}}?{_I}\s+{_ADV}do\s+(?:my\s+|\w+\s+minutes\s+of\s+)?"
        r"(?:chest|lung|airway)\s+(?:physio|physiotherapy|clearance)\b"
        rf"|{_I}\s+{_ADV}do\s+(?:my\s+)?(?:chest|lung|airway)\s+(?:physio|physiotherapy|clearance)\s+"
        rf"(?:\w+\s+){{0,2}}{_SCHEDULE_EN}\b"
        rf"|{_I}\s+{_ADV}(?:inject|jab)\s+myself\b|{_I}\s+{_ADV}self[- ]?(?:inject|catheteri[sz]e)\b",
        _F,
    ),
    # 我每天晚上睡前要给自己肚皮上扎一针 / 我每天晚上要自己换造口袋
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?给自己(?:的)?(?:肚皮|肚子|胳膊|大腿|腿)?上?(?:扎|打)(?:一)?针"
        rf"|{_ZH_I}{_ZH_GAP}{{0,10}}?自己(?:换|清洗|冲洗)(?:造口袋|造瘘袋|尿袋|引流袋|伤口|敷料|导管)"
    ),
    # 저는 매일 밤 자기 전에 배에 주사를 놔요 / 식사 때마다 인슐린 양을 계산해서 맞아요
    _Told(
        re.compile(
            r"(?:매일|매번|때마다|자기\s*전에)[^.]{0,16}?(?:배|허벅지|팔)에\s*(?:스스로\s*)?주사를\s*(?:놔|놓|맞)"
            r"|(?:매일|매번|때마다)[^.]{0,16}?인슐린[^.]{0,10}?(?:맞아|맞고|놔|놓)"
        )
    ),
]

# --- an accessibility aid relied on (ISO 9999 class 22) ---------------------------------
_AID_EN = (
    r"(?:screen\s*readers?|jaws|nvda|voiceover|talkback|(?:long|white|guide)\s+cane|"
    r"braille\s+(?:display|keyboard)|magnifier(?:\s+app)?|live\s+captions|captions|"
    r"sign\s+language\s+interpreters?|bsl\s+interpreters?|sip-and-puff(?:\s+switch)?|"
    r"eye-?gaze(?:\s+board)?|switch\s+access)"
)
_ACCESS = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:rely\s+on|depend\s+on|can't\s+(?:\w+\s+){{0,3}}without|need|sweep|tap|"
        rf"use|still\s+need)\s+(?:my|a|the|live)?\s*{_AID_EN}\b(?=[^.!?;]{{0,60}}?"
        r"\b(?:to\s+(?:find|follow|read|get|drive|cross|hear|see|navigate)|because|since|every|"
        r"everything|all|crossing|kerb|chair|still)\b)",
        _F,
    ),
    re.compile(
        rf"(?-i:JAWS|NVDA|VoiceOver|TalkBack)\s+reads\s+(?:me\s+)?my\b"
        rf"|{_MY}\s+(?:screen\s*reader|long\s+cane|white\s+cane|braille\s+display|magnifier\s+app)\b",
        _F,
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:用|靠|离不开|拄着?)(?:读屏软件|读屏|盲杖|导盲杖|放大镜|盲文|手语翻译)"
        r"|(?:私|僕|俺)は[^。]{0,4}?(?:白杖|点字|拡大鏡|音声読み上げ|手話通訳)"
        r"|(?:저는|나는|제가)\s*[^.]{0,8}?(?:수어\s*통역|점자|흰\s*지팡이|화면\s*낭독)"
    ),
]

# --- a faith's dietary rule -------------------------------------------------------------
_DIET = [
    # a headscarf wrapped so that only the face shows (one worn against the sun is not)
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?(?:头巾|頭巾|盖头|希贾布)[^，。！？,!?]{{0,4}}?(?:裹|包|围|戴)(?:好|住|紧|严)"
        r"[^。！？!?]{0,6}?(?:只露出?脸|只露眼睛|不露头发|遮住头发|包住头发)"
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:only\s+eat|eat\s+only|stick\s+to|buy\s+only)\s+(?:\w+\s+)?"
        r"(?:zabiha|dhabiha|halal|kosher|glatt|jhatka)\b"
        rf"|{_I}\s+{_ADV}check\s+(?:every|each|the)\s+\w+\s+for\s+(?:a\s+)?(?:hechsher|halal\s+mark|kosher\s+symbol)"
        r"|\b(?:I|we)\s+(?:keep|have|use)\s+(?:two|separate)\s+(?:sets\s+of\s+)?(?:pans|pots|dishes|plates|"
        r"cutlery|sinks|sponges)[^.!?;]{0,40}?\bmeat\s+and\s+(?:milk|dairy)\b"
        rf"|{_I}\s+{_ADV}(?:go\s+vegetarian|fast|give\s+up\s+meat|don't\s+eat\s+meat)\s+(?:every|for|during|on)\s+"
        # a named season of the calendar, not a weekday or a month (a diet's day)
        r"(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|January|February|March|April|May|June|"
        r"July|August|September|October|November|December|Veganuary)(?-i:[A-Z][a-z]+)",
        _F,
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,4}}?(?:吃斋|持斋|吃长素|守斋|把斋|封斋)"
        rf"|{_ZH_I}(?:信佛|信教)[^。！？!?]{{0,4}}?不吃(?:五辛|荤|肉)"
        rf"|{_ZH_I}{_ZH_GAP}{{0,4}}?守(?:安息日|斋戒月|齋戒月)"
    ),
    _Told(
        re.compile(
            r"(?:断食月|ラマダン|四旬節|断食)の(?:間|あいだ)[^。]{0,8}?(?:食べ|飲)"
            r"|(?:사순절|라마단|금식\s*기간)\s*(?:동안|에는|때)[^.]{0,12}?(?:안\s*먹|먹지\s*않|금식)"
        )
    ),
]

# --- a political act or dues ------------------------------------------------------------
_PARTY_EN = r"(?:the\s+)?(?-i:[A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+)?|[A-Z][A-Za-z]?[A-Z]{1,3})"
_POLITICAL_ACT = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:spent\s+\w+\s+|was\s+out\s+|'ve\s+been\s+|have\s+been\s+)?"
        r"(?:canvass(?:ed|ing)?|leaflet(?:ed|ing|ted|ting)?|door-?knock(?:ed|ing)?|phone-?bank(?:ed|ing)?|"
        r"stuff(?:ed|ing)?\s+envelopes|knock(?:ed|ing)?\s+on\s+doors|volunteer(?:ed|ing)?)"
        rf"[^.!?;]{{0,30}}?\bfor\s+(?:{_PARTY_EN}|the\s+campaign|the\s+\w+\s+campaign|(?:a|the|our)\s+candidate)",
        _F,
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:'ve\s+|have\s+)?(?:phone-?banked|canvassed|leafleted)\s+for\s+the\s+(?:\w+\s+)?campaign"
        rf"|{_I}\s+{_ADV}(?:gave|donated|give|donate|sent|chipped\s+in)\s+[^.!?;]{{0,20}}?\bto\s+(?:the\s+)?"
        r"(?:[\w'’-]+\s+){0,3}(?:campaign|candidate's\s+campaign|party|re-?election\s+fund)\b"
        rf"|{_I}(?:'ve|\s+have)?\s+{_ADV}paid\s+my\s+(?-i:[A-Z][A-Za-z]+)\s+(?:dues|subs|subscription)\b"
        rf"|{_IM}\s+{_ADV}registered\s+(?:as\s+)?an?\s+(?-i:Republican|Democrat|Independent|Green|Libertarian)\b",
        _F,
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:去|在)?(?:给|帮|为)[^，。！？,!?]{{0,10}}?(?:候选人|议员|竞选团队|竞选)"
        r"[^，。！？,!?]{0,4}?(?:拉票|助选|捐|站台|发传单)"
        rf"|{_ZH_I}{_ZH_GAP}{{0,8}}?(?:给|向)[^，。！？,!?]{{0,10}}?(?:竞选团队|竞选办|竞选)[^，。！？,!?]{{0,4}}?捐"
        r"|(?:私|僕|俺)は[^。]{0,6}?[\u4e00-\u9fff\u30a0-\u30ff]{1,5}党に[^。]{0,6}?(?:寄付|献金|入党|投票)"
        r"|(?:저는|나는|제가)\s*[^.]{0,16}?(?:후보|정당|[가-힣]{1,4}당)\s*[^.]{0,4}?(?:선거운동|후원|유세)"
    ),
]

# --- criminal-justice contact -----------------------------------------------------------
_JUSTICE = [
    *_each(
        [
            rf"{_MY}\s+(?:court\s+date|court\s+case|court\s+appearance|sentencing(?:\s+hearing)?|"
            r"trial\s+date|parole\s+officer|probation\s+officer|youth\s+offending\s+worker|"
            r"licence\s+conditions|bail\s+conditions|curfew\s+tag)\b",
            r"\bunder\s+my\s+(?:licence|bail|parole|probation)\s+conditions\b",
            rf"{_I}(?:'ve|\s+have)?\s+{_ADV}(?:got|have)\s+a\s+(?:hearing|court\s+date|trial)\s+"
            r"(?:at|in)\s+(?:the\s+)?(?:magistrates'?|crown\s+court|county\s+court|court)\b",
            rf"{_I}\s+{_ADV}(?:did|served|spent)\s+(?:\w+\s+){{1,2}}(?:years?|months?|weeks?)\s+(?:in|on|at)\s+"
            # a release of the speaker, not of an album ("before my release of the album")
            r"(?-i:[A-Z][a-z]{3,})\b(?=[^.!?;]{0,50}?\b(?:(?:came|got)\s+out\s+(?:in\s+\d{4}|last\s+\w+|"
            r"\w+\s+(?:years?|months?)\s+ago)|"
            r"(?:was|got|been)\s+released|release(?!\s+of\b)|charges?\s+(?:were|was|got)|"
            r"sentence|inside|parole|licence|conviction)\b)",
        ],
        _F,
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?(?:要|得|去|被传)?(?:出庭|开庭|受审|过堂)"
        rf"|{_ZH_I}{_ZH_GAP}{{0,4}}?戴着?(?:电子脚镣|电子镣铐|定位脚环)"
        rf"|{_ZH_I}(?:今天)?去了\s*court"
    ),
    _Told(
        re.compile(
            r"(?:執行猶予中|保護観察中|仮釈放中|裁判所に出廷|出廷しないと|公判)"
            r"|보호관찰관을\s*(?:만나|만났)|(?:집행유예|보호관찰)\s*중"
        )
    ),
]

# --- immigration paperwork (reported as ``ethnicity``) ----------------------------------
_FORM_EN = (
    r"(?:(?-i:I-\d{3}[A-Z]?|N-\d{3}|H-?1B|O-1|L-1|OPT|ILR|BRP|EAD)|green\s+card|residence\s+permit|"
    r"work\s+permit|visa)"
)
_PAPERWORK = [
    re.compile(
        rf"{_MY}\s+{_FORM_EN}(?:\s+(?:application|renewal|petition|extension|interview))?\s+"
        r"(?:has\s+been|is|was|went|got|came)\s+(?:\w+\s+)?(?:pending|stuck|in|denied|refused|"
        r"approved|rejected|delayed|lost|still|held)",
        _F,
    ),
    re.compile(
        rf"{_ZH_I}的?(?:居留许可|居留证|居留卡|绿卡|工签|H-?1B|OPT|学签)[^，。！？,!?]{{0,10}}?"
        r"(?:续签|卡在|被拒|下来|没批|没中|抽签|排期|审核|过期|办)"
        rf"|{_ZH_I}的?(?:H-?1B|绿卡)抽签"
    ),
    _Told(
        re.compile(
            r"在留カード(?:の)?(?:更新|申請)|在留資格の(?:更新|変更)|入管(?:に|まで|へ)"
            r"|(?<![가-힣])제\s*(?:체류|비자)\s*[^.]{0,8}?(?:연장|신청|만료)"
        )
    ),
]

# --- identity through a community or a treatment ----------------------------------------
_IDENTITY_EN = r"(?:queer|trans|nonbinary|non-binary|lgbtq?\+?|gay|lesbian|bi|bisexual|ace|asexual)"
_COMMUNITY = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:'ve\s+been\s+|have\s+been\s+)?(?:went\s+to|go\s+to|going\s+to|joined|sing\s+in|"
        r"singing\s+in|attend|attended|run|ran)\s+(?:my\s+first\s+|a\s+|the\s+|our\s+)?(?:local\s+)?"
        rf"{_IDENTITY_EN}\s+(?:meetup|group|support\s+group|choir|night|centre|center|football\s+team|"
        r"book\s+club|chat)\b(?=[^.!?;]{0,60}?\b(?:since\s+I\s+came\s+out|at\s+home|first|felt|"
        r"finally|every|on\s+\w+days|since)\b)",
        _F,
    ),
    re.compile(rf"{_IM}\s+{_ADV}(?:\w+\s+){{0,2}}(?:years?|months?)\s+on\s+(?-i:T|E|HRT)\b", _F),
    re.compile(
        rf"(?:{_ZH_I}|我们)(?:的)?(?:拉拉|LGBT|彩虹|同志|酷儿)群"
        rf"|{_ZH_I}{_ZH_GAP}{{0,8}}?(?:去|参加)[^，。！？,!?]{{0,6}}?(?:LGBTQ?|拉拉|同志|酷儿|跨性别)"
        r"[^，。！？,!?]{0,8}?(?:support\s*group|互助|小组|聚会|活动)"
        rf"|{_ZH_I}{_ZH_GAP}{{0,8}}?(?:做|去做)了?(?:变性|性别确认|性别重置)手术"
        r"|(?:私|僕|俺)は[^。]{0,6}?(?:ゲイ|レズビアン|LGBT|トランス)の?(?:サークル|グループ|会)"
    ),
]

ACT_FRAMES: dict[str, list] = {
    "health": _stated([*_VALUE_HEALTH, *_ORGAN_HEALTH, _Breathless(), *_CARE, *_ACCESS]),
    "religion": _stated(_DIET),
    "political": _stated(_POLITICAL_ACT),
    "criminal_record": _stated(_JUSTICE),
    "ethnicity": _stated(_PAPERWORK),
    "sexual_orientation": _stated(_COMMUNITY),
}
