"""Special categories told by a fact of the speaker's life rather than by a category word
(issue 32, round 10).

A person rarely names the category; they say what it does to their day. Each rule below is
a *closed frame* that only that category fills, around a noun class that is either closed
by its kind (a body measure, a device worn on the body, a biometric modality, a gendered
partner noun) or open and read by its shape (a party by its 党 suffix):

- **health by the body, not the diagnosis**: the speaker's body measure with a reading
  ("my blood pressure … 165 over 100", 我的血糖…数值); an aid or device worn, carried or
  relied on (ISO 9999's hearing, breathing, glucose and mobility aids: "I'm on crutches",
  "my hearing aids", 我左耳戴助听器, a …仪/…器/…泵 on a part of the body); a part of the
  body that has not worked since an event ("my left hand hasn't gripped since …"); a
  treatment the speaker goes to on a schedule (我每周去见心理咨询师, カウンセリングに通って);
  a round of fertility treatment, a pregnancy lost, a gene the speaker carries;
- **orientation by agreement**: the speaker's gender and a partner's agree ("as a woman
  married to a woman", 我和我男朋友…我也是男生, "we're both his dads");
- **faith by a habit at a place of worship**, a dietary law kept, a garment of observance;
- **politics**: a vote cast for a party read by its suffix (我投了…党);
- **migration status** (reported under ``ethnicity``, the nearest category the policy
  has): the speaker's asylum or visa process, an overstay, 签证过期了还留在这里, 난민 신청;
- **criminal justice**: the speaker arrested, on probation with its conditions, on bail;
- **biometrics**: a modality of the speaker's body taken or enrolled (scanned my iris).

Every frame ties the fact to the speaker (the pattern starts at I/my/我/私/저, or is read
only in a sentence whose subject is the speaker), so another person, news, fiction, a
question and the professional who works with the thing pass.
"""

from __future__ import annotations

import re
from functools import cached_property

from memory.detectors.concept_forms import _SENTENCE, _Spoken, _WithCue
from memory.detectors.open_noun_frames import (
    _ADV,
    _I,
    _IM,
    _MY,
    _NAME_EN,
    _SUPPLEMENT_EN,
    _ZH_I,
    _each,
)

_I_FLAGS = re.IGNORECASE
# Between 我 and the verb: a few characters that do not bring in someone else's act
# (我陪奶奶去做透析, 我家狗做了透析, 我学生坐轮椅 are another's).
# Nor a negation (我从来不去教堂, 我不戴助听器).
_ZH_GAP = r"(?:(?!陪|带|帮|替|给|家|和|跟|学生|孩子|不|没|别|未)[^，。！？,!?])"

# Body measures a person tracks because of a condition (not a run's heart rate: a resting
# heart rate counts only outside the adult band, 40-99, or told as high or racing).
_MEASURE_EN = (
    r"(?:blood\s+pressure|bp|blood\s+sugars?|sugars?(?!\s+(?:intake|content|cravings?|habit|rush|consumption|tax))|glucose(?:\s+levels?)?|sats|oxygen\s+"
    r"(?:levels?|saturation)|resting\s+heart\s+rate(?=\D{0,30}?(?:\b(?:1\d\d|[1-3]\d)\b|high|racing|through))|hba1c|a1c|inr|ketones|creatinine|"
    r"viral\s+load|cd4(?:\s+count)?|psa|platelets|potassium|thyroid\s+levels|tsh)"
)
_READING_EN = (
    r"(?:\d{2,3}\s*(?:over|/)\s*\d{2,3}|\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|high|low|sky-?high|through\s+the\s+roof|"
    r"all\s+over\s+the\s+place|a\s+guess|out\s+of\s+range|in\s+range|spiking|crashing|dropping)"
)
# Aids worn, carried or relied on for hearing, breathing, glucose and walking (ISO 9999
# classes 22, 04 and 12), by their everyday names.
_DEVICE_EN = (
    r"(?:hearing\s+aids?|cochlear\s+implants?|(?:steroid\s+|blue\s+|brown\s+)?(?:inhalers?|puffers?)|"
    r"spacer|nebuli[sz]er|insulin\s+pump|(?:glucose|sugar)\s+(?:monitor|sensor)|cgm|"
    r"cpap(?:\s+machine|\s+mask)?|crutch(?:es)?|walking\s+stick|rollator|(?:power\s*)?wheelchair|powerchair|"
    r"stoma\s+bag|catheter|pacemaker|epi-?pens?|oxygen\s+tank|feeding\s+tube)"
)
_BODY_PART_EN = (
    r"(?:(?:left|right|bad|good)\s+)?(?:hand|arm|leg|foot|feet|eye|ear|knee|hip|shoulder|"
    r"side|fingers|toes|back|neck|wrist|ankle)"
)

# Effects only a medicine has (side effects, a taper, withdrawal), the cue for a name.
_SIDE_EFFECT_EN = re.compile(
    r"\b(?:side[- ]effects?|tremors?|the\s+shakes|brain\s+zaps|withdrawals?|wean(?:ing|ed)?|"
    r"taper(?:ing|ed)?|dosage|weight\s+gain|drows(?:y|iness)|nause(?:a|ous)|dry\s+mouth|"
    r"prescri\w+|psychiatrist|gp)\b",
    re.IGNORECASE,
)

_HEALTH = [
    # my blood pressure cuff showed 165 over 100; my sugars were a guess all afternoon
    re.compile(
        rf"{_MY}\s+{_MEASURE_EN}\b(?:\s+(?:cuff|monitor|machine|meter|reading|readings|"
        r"numbers|levels?))?[^.!?;]{0,30}?\b(?:is|was|were|are|showed|read|reads|came\s+back|"
        rf"has\s+been|have\s+been|hit|went|been|drops?|dropped|falls?|fell|goes|rises|rose|spikes?|"
        rf"spiked)\b[^.!?;]{{0,12}}?{_READING_EN}",
        _I_FLAGS,
    ),
    *_each(
        [
            # I'm on crutches; I use a wheelchair; I keep a blue puffer in every pocket
            rf"{_IM}\s+{_ADV}on\s+(?:crutches|oxygen|dialysis|a\s+ventilator|insulin)\b",
            rf"{_I}\s+{_ADV}(?:wear|wore|use|used|carry|keep|need|rely\s+on|took\s+out|"
            r"take\s+out|put\s+in|charge|change|changed|swapped)\s+(?:a|an|my|the|two|both)?\s*"
            rf"(?:new\s+)?{_DEVICE_EN}\b",
            rf"{_MY}\s+(?:new\s+|old\s+|spare\s+)?{_DEVICE_EN}\b",
            # my left hand hasn't gripped properly since the stroke
            rf"{_MY}\s+{_BODY_PART_EN}\s+(?:hasn't|has\s+not|doesn't|does\s+not|won't|can't|"
            r"cannot|hasn't\s+been\s+able\s+to|stopped)\s+[^.!?;]{0,30}?\bsince\s+(?:the|my)\s+\w+",
            # a Holter monitor taped to my chest; an Omnipod on my belly that beeps
            r"\b(?:monitor|sensor|pump|patch|pod|line|port|drain|tube|catheter|cannula|pacemaker)s?\s+"
            r"(?:taped|strapped|stuck|attached|glued|stitched|implanted|fitted)\s+(?:to|on|in|into|under)\s+"
            r"my\s+(?:chest|arm|belly|stomach|tummy|back|skin|thigh|side|neck|heart)\b",
            # a second round of IVF; I lost the baby at eleven weeks
            rf"{_I}\s+{_ADV}(?:lost|miscarried)\s+(?:the|my|our)\s+(?:baby|pregnancy|twins)\b",
            r"\b(?:first|second|third|fourth|fifth|next|another|last|\d(?:st|nd|rd|th))\s+"
            r"(?:round|cycle)\s+of\s+(?:ivf|icsi|iui|egg\s+freezing)\b(?=[^.!?]*\b(?:my|I'm|I've|I)\b)",
            # I carry one copy of …; I'm a carrier for …
            rf"{_I}\s+{_ADV}(?:carry|have|inherited)\s+(?:one|two|a|both|\d)\s+cop(?:y|ies)\s+of\b",
            rf"{_IM}\s+{_ADV}a\s+carrier\s+(?:of|for)\b",
        ],
        _I_FLAGS,
    ),
    # 我的血糖 / 我血压 … with a reading
    re.compile(
        rf"{_ZH_I}(?:的)?(?:血糖|血压|血氧|糖化|尿酸|肌酐|病毒载量)[^，。！？,!?]{{0,8}}?"
        r"(?:\d|高|低|超标|数值|偏高|偏低)"
    ),
    # 我胳膊上贴着动态血糖仪 / 我左耳戴助听器 (a …仪/…器/…泵 worn on a part of the body)
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,4}}?(?:[左右两双]?耳|胳膊|手臂|肚子|腰|胸口?|腿|身上)(?:上|里)?"
        r"[^，。！？,!?]{0,4}?(?:戴|贴|装|埋|插|挂)(?:着|了)?[^，。！？,!?]{0,6}?"
        r"[\u4e00-\u9fff]{1,5}(?<!计步)(?<!耳)(?:仪|器|泵)"
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:戴|用|拄|坐|离不开)(?:着|了)?(?:助听器|人工耳蜗|胰岛素泵|呼吸机|拐杖|双拐|轮椅|助行器)"
    ),
    # 我每周四下午去见心理咨询师 / 我每两周去做一次心理治疗 / 做了两次试管 / 胎停
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?(?:去|到)?(?:见|看|找)(?:我的)?(?:心理咨询师|心理医生|"
        r"咨询师|精神科医生|治疗师)"
        rf"|{_ZH_I}{_ZH_GAP}{{0,10}}?(?:做|接受)(?:一次|了|过)?(?:心理治疗|心理咨询|康复治疗|透析)"
        rf"|{_ZH_I}{_ZH_GAP}{{0,6}}?(?:做|在做|打算做|准备做)(?:了|过)?[一两二三四五几\d]?次?试管(?!实验)"
        rf"|{_ZH_I}{_ZH_GAP}{{0,8}}?(?:胎停|胎停育|稽留流产)"
        rf"|{_ZH_I}(?:的)?基因检测[^。！？!?]{{0,12}}?(?:显示|发现|说)(?:我)?(?:是|有|携带)"
        rf"|{_ZH_I}(?:是|为)[^，。！？,!?]{{0,10}}?(?:携带者)|{_ZH_I}携带[^，。！？,!?]{{0,10}}?基因"
        rf"|{_ZH_I}{_ZH_GAP}{{0,4}}?(?:做|查)了?基因检测[^。！？!?]{{0,16}}?携带者"
        # a treatment fetched or given at a hospital on a schedule (我每个月去医院打一次长效针)
        rf"|{_ZH_I}(?:每|定期)[^，。！？,!?]{{0,6}}?(?:去|到|回)(?:医院|诊所|门诊)[^，。！？,!?]{{0,4}}?"
        r"(?:打|输|做|拿药|复查|复诊|化疗|透析)"
        # a grade of disability (我是二级肢残); a part of the body replaced (换了个人工膝盖)
        rf"|{_ZH_I}是[一二三四1-4]级[\u4e00-\u9fff]{{0,3}}残"
        rf"|{_ZH_I}{_ZH_GAP}{{0,6}}?(?:换|装|植入|做)了?(?:一?个|一副)?人工(?:膝|髋|关节|心脏|瓣膜|晶体|耳蜗|椎)"
        # a pill the speaker needs to sleep; a tablet on an empty stomach every morning
        rf"|{_ZH_I}{_ZH_GAP}{{0,6}}?吃[半一两\d][片粒颗][\u4e00-\u9fff]{{2,6}}才能(?:睡|入睡)"
        rf"|{_ZH_I}每天(?:早上|早晨|晚上)?空腹(?:吃|服)[一两半\d]+[片粒颗](?!维生素|钙|鱼油|益生菌)"
    ),
    re.compile(
        r"(?:저는|나는|제가)[^.]{0,16}?(?:정신과|상담|심리\s*치료|재활|투석|병원)에\s*(?:다니|다닌|다녀)"
    ),
    # A name the speaker takes, beside an effect only a medicine has on the body ("three
    # years I've been taking Rexulti, and the tremor …"; a language or an app has none).
    _WithCue(
        re.compile(
            rf"{_I}\s+{_ADV}(?:taking|on|started|started\s+on|come\s+off|coming\s+off|weaning\s+off)\s+"
            rf"{_SUPPLEMENT_EN}{_NAME_EN}\b",
            _I_FLAGS,
        ),
        _SIDE_EFFECT_EN,
    ),
    _WithCue(
        re.compile(r"(?:[\u30a1-\u30fa\u30fc]{3,})を(?:飲み始め|飲んで|やめて|減らし)"),
        re.compile(r"副作用|眠気|減薬|断薬|処方|吐き気|震え|離脱"),
    ),
    _WithCue(
        re.compile(
            r"(?:저는|나는|제가)?[^.]{0,8}?[가-힣]{3,}(?:을|를)\s*(?:먹기\s*시작|먹고\s*있|끊)"
        ),
        re.compile(r"부작용|처방|감량|금단|졸림|떨림|정신과"),
    ),
    # カウンセリングに通っています (the speaker)
    _Spoken(
        re.compile(
            r"(?:カウンセリング|心療内科|精神科|リハビリ|透析|不妊治療)に(?:毎週|毎月)?通(?:っ|い|う)"
        )
    ),
]

_SAME_PARTNER = [
    re.compile(
        r"\bas\s+an?\s+(?:woman|girl|lady)\s+(?:married\s+to|dating|engaged\s+to|with|in\s+love\s+with)"
        r"\s+an?\s+(?:woman|girl|lady)\b"
        r"|\bas\s+an?\s+(?:man|guy|boy)\s+(?:married\s+to|dating|engaged\s+to|with|in\s+love\s+with)"
        r"\s+an?\s+(?:man|guy|boy)\b"
        r"|\b(?:my\s+(?:husband|wife|partner|boyfriend|girlfriend)\s+and\s+I|we)\b[^.!?]{0,40}?"
        r"\bwe're\s+both\s+(?:his|her|their|the\s+kids'?)?\s*(?:dads|fathers|mums|moms|mothers)\b"
        r"|\b(?:i'm|i\s+am)\s+an?\s+(?:woman|girl)\s+who\s+(?:likes|loves|dates|is\s+into)\s+(?:women|girls)\b"
        r"|\b(?:i'm|i\s+am)\s+an?\s+(?:man|guy)\s+who\s+(?:likes|loves|dates|is\s+into)\s+(?:men|guys)\b",
        _I_FLAGS,
    ),
    re.compile(
        rf"{_ZH_I}(?:和|跟)我(?:的)?(?:男朋友|男友|老公|丈夫|先生)[^。！？!?]{{0,20}}?我(?:自己)?(?:也)?是"
        r"(?:个)?(?:男生|男的|男人|男孩)"
        rf"|{_ZH_I}(?:和|跟)我(?:的)?(?:女朋友|女友|老婆|妻子|太太)[^。！？!?]{{0,20}}?我(?:自己)?(?:也)?是"
        r"(?:个)?(?:女生|女的|女人|女孩)"
        rf"|{_ZH_I}是(?:个|一个)?喜欢女(?:生|人|孩)的女(?:生|人|孩)|{_ZH_I}是(?:个|一个)?喜欢男(?:生|人|孩)的男(?:生|人|孩)"
        r"|(?:저는|나는)\s*여자를\s*좋아하는\s*여자|(?:저는|나는)\s*남자를\s*좋아하는\s*남자"
    ),
]

_HABIT_EN = (
    r"(?:every|each|most|on\s+(?:\w+days|(?:sunday|monday|tuesday|wednesday|thursday|friday|"
    r"saturday)\s+(?:mornings|evenings|nights|afternoons)))"
)
_WORSHIP_PLACE_EN = (
    r"(?:gurdwara|mosque|masjid|synagogue|shul|temple|mandir|church|chapel|cathedral|"
    r"kingdom\s+hall|meeting\s+house|parish|vihara|monastery|mikveh|mikvah)(?!\s+(?:ruins|grounds|car\s+park|café|cafe))"
)
_FAITH = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:go|went|walk|head|drive|take\s+\w+)\s+(?:down\s+)?to\s+(?:the|my|our)?\s*"
        rf"(?:local\s+)?{_WORSHIP_PLACE_EN}\b[^.!?;]{{0,30}}?\b{_HABIT_EN}\b",
        _I_FLAGS,
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:only\s+eat|eat\s+only|keep|eat)\s+(?:strictly\s+)?(?:halal|kosher)\b"
        rf"|{_I}\s+{_ADV}keep\s+separate\s+(?:dishes|plates|pots|sinks|cutlery)\s+for\s+meat\s+and\s+(?:milk|dairy)\b"
        rf"|{_I}\s+{_ADV}(?:wear|wore|worn|tie|tied)\s+(?:a|an|my)\s+(?:turban|dastar|patka|burqa|abaya|jilbab|sheitel|tichel)\b",
        _I_FLAGS,
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:每|逢|都|一直|常)[^，。！？,!?]{{0,10}}?(?<![不没别])(?:去|上)"
        r"(?:教堂|清真寺|寺庙|庙里|寺里|佛寺|教会|礼拜堂|会堂|圣殿)"
        rf"|{_ZH_I}(?:家)?(?:里)?[^，。！？,!?]{{0,4}}?只吃清真"
    ),
    _Spoken(
        re.compile(
            r"毎週[^。]{0,8}?(?:教会|お寺|モスク|シナゴーグ)(?:に|へ)(?:行|通)"
            r"|(?:매주|일요일마다|주일마다)[^.]{0,8}?(?:성당|교회|절|모스크)에\s*(?:가|다녀|다니)"
        )
    ),
]

_POLITICAL = [
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:投|投给|投票给|选|票投)了?(?:给)?[\u4e00-\u9fff]{{1,4}}[党黨]"
        r"(?![\u4e00-\u9fff]{0,2}(?:的人|员工))"
    ),
]

_UNION = [
    re.compile(
        rf"{_IM}\s+{_ADV}(?:the|a|our)\s+(?:shop\s+steward|union\s+rep(?:resentative)?|union\s+convenor|"
        r"branch\s+secretary\s+for\s+the\s+union)\b",
        _I_FLAGS,
    ),
    # I chair the ASLEF branch; I sit on the branch committee (a bank branch has no chair)
    re.compile(
        rf"{_I}\s+{_ADV}(?:chair|chaired|sit\s+on|sat\s+on|was\s+elected\s+to)\s+the\s+"
        r"(?:(?-i:[A-Z]{2,})\s+)?branch(?:\s+committee)?\b",
        _I_FLAGS,
    ),
]

_MIGRATION = [
    *_each(
        [
            rf"{_MY}\s+(?:asylum|refugee|immigration|residency|visa|leave\s+to\s+remain|settled\s+status|"
            r"green\s+card|citizenship)\s+(?:interview|claim|application|hearing|appeal|case|status|"
            r"expires|expired|ran\s+out|runs\s+out|lawyer|solicitor)\b",
            rf"{_I}\s+{_ADV}came\s+(?:here|over)\s+on\s+an?\s+[\w-]+\s+visa\b[^.!?]{{0,40}}?"
            r"\b(?:stayed|overstayed|ran\s+out|expired|never\s+left)\b",
            rf"{_I}\s+{_ADV}(?:overstayed|claimed\s+asylum|sought\s+asylum|applied\s+for\s+asylum)\b",
            rf"{_IM}\s+{_ADV}(?:an?\s+)?(?:asylum\s+seeker|refugee|undocumented|illegal\s+immigrant|overstayer)\b",
        ],
        _I_FLAGS,
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,4}}?签证(?:早就|已经)?(?:过期|到期)了?[，,]?(?:还|也|都)?(?:留|待|呆|住)"
        rf"|{_ZH_I}(?:现在)?是黑户|{_ZH_I}[^，。！？,!?]{{0,6}}?(?:申请|在申请|等)(?:政治)?(?:庇护|难民)"
        rf"|{_ZH_I}是难民"
    ),
    re.compile(
        r"(?:저는|나는|제가)\s*[^.]{0,8}?난민\s*(?:신청|인정|지위)"
        r"|(?:私|わたし|僕)は[^。]{0,6}?難民(?:申請|認定)"
    ),
]

_CUSTODY = [
    *_each(
        [
            rf"{_I}\s+{_ADV}(?:was|got|been|have\s+been)\s+(?:arrested|remanded|cautioned\s+for|"
            r"charged\s+with|bailed)\b",
            rf"{_IM}\s+{_ADV}on\s+(?:bail|parole|licence|remand)\b",
            rf"{_I}\s+{_ADV}(?:have|has|got|had|'ve\s+got)\s+(?:a|an)\s+(?:police\s+)?(?:caution|conviction|"
            r"criminal\s+record)\s+for\b",
        ],
        _I_FLAGS,
    ),
    _Spoken(re.compile(r"\breleased\s+on\s+(?:parole|licence)\b", _I_FLAGS)),
    _WithCue(
        re.compile(rf"{_IM}\s+{_ADV}on\s+probation\b", _I_FLAGS),
        re.compile(
            r"can't\s+leave\s+the\s+(?:county|state|country|area|city)|curfew|tag\b|report\s+to|"
            r"officer|court|sentence|conviction|offence",
            _I_FLAGS,
        ),
    ),
]

_BIOMETRIC = [
    re.compile(
        r"\b(?:scanned|took|recorded|captured|registered|enrolled|stored|saved|photographed)\s+my\s+"
        r"(?:iris(?:es)?|retinas?|fingerprints?|finger\s?prints|palm\s?prints?|palm\s+veins?|voice\s?print|"
        r"face\s+(?:print|template|geometry)|facial\s+(?:scan|data|geometry))\b",
        _I_FLAGS,
    ),
    re.compile(
        r"(?:录|采集|扫描?|登记|录入)了?我的?(?:指纹|虹膜|人脸|面部信息|声纹|掌纹|静脉)"
        rf"|{_ZH_I}{_ZH_GAP}{{0,6}}?(?:录|采集|录入)了?(?:指纹|虹膜|声纹|掌纹)"
        rf"|{_ZH_I}把(?:自己|我)的?(?:面容|人脸|脸|指纹|虹膜|声纹|掌纹)(?:录|存|登记|采集)"
    ),
]

# A sentence that supposes, asks or wonders states nothing about the speaker.
_SUPPOSED = re.compile(
    r"\b(?:if|unless|suppose|supposing|imagine|would|whether|in\s+case)\b|\?|？"
    r"|如果|要是|假如|假设|万一|的话|吗|もし|なら|만약|다면",
    re.IGNORECASE,
)


class StatedText(str):
    """A text that carries its stated sentences (those ``_SENTENCE`` finds that do not
    suppose or ask), read on first use and then by every ``_Stated`` rule asked of it:
    a per-call object ``find_special_categories`` passes down through ``search_any``
    (``ENGRAM_DETECTOR_STATED_ONCE``), where each rule would split and test the text
    again. Equal to, and hashed as, the text itself."""

    @cached_property
    def stated(self) -> tuple[str, ...]:
        return tuple(s for s in _SENTENCE.findall(self) if not _SUPPOSED.search(s))


class _Stated:
    """A rule read sentence by sentence, skipping a sentence that supposes or asks
    ("If I ever needed IVF, …", 要是我以后得戴助听器…？). It matches only where its inner
    rule does, so the literal prefilter may skip it by that rule's literals."""

    def __init__(self, rule) -> None:
        self.rule = rule
        inner = rule if isinstance(rule, re.Pattern) else rule.prefilter_pattern
        self.pattern = self.prefilter_pattern = inner
        # A plain rule is asked only whether it matches a sentence: the prefilter may ask
        # instead its live branches (``prefilter_branches``, through ``search_with``).
        self.live_rule = rule if isinstance(rule, re.Pattern) else None

    def search(self, text: str):
        return self.search_with(self.rule, text)

    def search_with(self, rule, text: str):
        """``search`` with ``rule`` read in place of the inner rule."""
        if isinstance(text, StatedText):
            for sentence in text.stated:
                m = rule.search(sentence)
                if m:
                    return m
            return None
        for sentence in _SENTENCE.findall(text):
            if _SUPPOSED.search(sentence):
                continue
            m = rule.search(sentence)
            if m:
                return m
        return None


def _stated(rules: list) -> list:
    return [_Stated(rule) for rule in rules]


LIFE_FRAMES: dict[str, list] = {
    "health": _stated(_HEALTH),
    "sexual_orientation": _stated(_SAME_PARTNER),
    "religion": _stated(_FAITH),
    "political": _stated(_POLITICAL),
    "trade_union": _stated(_UNION),
    "ethnicity": _stated(_MIGRATION),
    "criminal_record": _stated(_CUSTODY),
    "biometric": _stated(_BIOMETRIC),
}
