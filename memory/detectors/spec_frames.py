"""Special categories told without a category word: by what the body does, what the speaker
lives with, a role they hold, the partner they have (issue 32, round 13).

Earlier rounds read a diagnosis, a medicine, a course of treatment or an act in a frame
around the speaker. These read the classes the earlier probes still missed, each a closed
frame around a noun class closed by its kind (or an open noun in a closed frame), tied to
the speaker and read sentence by sentence, skipping a sentence that supposes or asks
(``life_frames._stated``):

- **health**
  - *a recurring bodily episode*: two or more distinct somatic signs in one sentence of the
    speaker's (heart pounding, can't breathe, hands numb; 心慌, 手抖, 喘不上气), with a word
    of recurrence (whenever, every time, 一…就, 每次) and not after exertion (a run, a
    climb, 跑步): a panic attack told by the body;
  - *a warning sign* a clinician asks about (blood in the urine or stool, weight lost
    without trying, drenched night sweats; 便血, 尿血, 盗汗) said of the speaker;
  - *a perception with no source* (hearing one's name called when no one is there);
  - *a device the speaker lives with*: a device only medicine fits (a CPAP, an ICD, a
    shunt, a port) named with I/my; any device *in/through/under* the speaker's body part
    ("a shunt in my head", 我胸口埋了一个输液港);
  - *a dose of a named medicine* ("half a tablet of X", "my last dose of X"; not
    vitamins, painkillers sold over the counter, coffee or "a dose of reality");
  - *a therapy by its name*: EMDR, DBT, CBT, ECT and TMS (closed clinical acronyms), "my
    speech therapist", 做…治疗/康复训练, 我…去 therapy;
  - *a clinic by its kind*: the speaker at, going to or booked at "the X clinic" where X
    is not a vet, a lawyer, a sport or a beauty parlour, and the speaker does not work
    there; 我…去/在…门诊 (复查, 挂号); 做…镜 (肠镜, 胃镜, not 眼镜);
  - *a Latin analyte with a value* beside a word of the clinic (我的 HbA1c 上次是 8.2，…加药);
- **religion**: a fast bounded by the sun (sunrise to sunset, from sundown); a fast or
  abstinence during a named season; a home shrine or altar; 初一十五 observances, incense
  to a deity at home, 安息日 kept, 斋月 and the speaker; kosher/halal food in Chinese;
  taking the shahada, one's own bar/bat mitzvah;
- **trade union**: a seat on a works council (职代会, 职工代表), a strike the speaker joined;
- **political**: leaflets handed out for a candidate; chairing a party's local branch;
- **sexual orientation**: the speaker's gender and a partner of the same gender ("I'm a
  man and my husband …", "my partner and I are both women", 我老公和我都是男的,
  我们俩都是女生 beside a partner word), and coming out said in English inside Chinese;
- **ethnicity**: "being half Nigerian, I …" (a demonym after half/part/mixed);
- **biometric**: 我…录了人脸/掌纹/指纹 (not 给人录);
- **criminal record**: a driving ban for drink or drugs; 我有…前科/案底; a term at an HMP;
  我…被(强制隔离)戒毒/拘留/判.

Gender identity stays unflagged by design (docs/write-policy.md); a medical transition is
health and is read by the health rules.
"""

from __future__ import annotations

import re

from memory.detectors.life_frames import _ZH_GAP, _stated
from memory.detectors.open_noun_frames import _ADV, _I, _IM, _MY, _ZH_I, _each, _WithCue
from memory.detectors.spec_roles import (
    _BIOMETRIC,
    _ETHNICITY,
    _FAITH,
    _POLITICAL,
    _RECORD,
    _SAME_GENDER,
    _UNION,
    _SameGenderText,
)
from memory.detectors.switches import detection_switch

_F = re.IGNORECASE

# --- health: a recurring bodily episode, a warning sign --------------------------------
_SIGN_EN = (
    r"heart\s+(?:starts\s+|is\s+|was\s+|goes\s+|begins\s+)?(?:pound|rac|hammer|thump|flutter|skipp|bang)\w*",
    r"chest\s+(?:goes|gets|went|is|feels|locks|tightens|hurts|clamps|seizes)\s*(?:tight|tighter|up)?",
    r"(?:can't|cannot|couldn't|can\s+not)\s+(?:breathe|catch\s+my\s+breath|swallow|get\s+enough\s+air)"
    r"|gasping\s+for\s+(?:air|breath)|short\s+of\s+breath|hyperventilat\w+",
    r"(?:hands?|arms?|legs?|face|lips|fingers|feet)\s+(?:go|goes|went|get|gets|are|feel|start)\s+"
    r"(?:numb|tingly|tingling|weak|to\s+tingle)|pins\s+and\s+needles",
    r"throat\s+(?:closes|tightens|closing|shuts|closes\s+up)",
    r"(?:pass|passing|black|blacking)\s+out|faint(?:ing)?\b|dizz(?:y|iness)|light-?headed",
    r"vision\s+(?:blurs|narrows|tunnels|goes|went|swims)|tunnel\s+vision",
    r"(?:sure|certain|convinced|feel\s+like|feels\s+like|think)\s+i'?m\s+(?:dying|going\s+to\s+die|about\s+to\s+die|"
    r"having\s+a\s+heart\s+attack|going\s+to\s+(?:pass\s+out|faint|choke|lose\s+control|go\s+crazy))",
    r"(?:feel|feels)\s+(?:detached|unreal|like\s+i'?m\s+not\s+(?:real|there))",
)
_SIGN_EN_RE = [re.compile(r"\b" + s, _F) for s in _SIGN_EN]
_SIGN_ZH = (
    "心慌",
    "心悸",
    "手抖",
    "浑身发抖",
    "手脚发麻",
    "浑身发麻",
    "发麻",
    "喘不上气",
    "喘不过气",
    "透不过气",
    "呼吸困难",
    "窒息",
    "胸闷",
    "胸口发紧",
    "胸口疼",
    "出冷汗",
    "头晕",
    "眼前发黑",
    "腿软",
    "心跳(?:一百|加速|很快|特别快|得厉害)",
    "要死了",
    "濒死",
    "失控",
)
_SIGN_ZH_RE = [re.compile(s) for s in _SIGN_ZH]
# Every sign holds one of these (a cheap test before any pattern is run).
_SIGN_STEMS = (
    "heart",
    "chest",
    "breath",
    "gasp",
    "hyperventil",
    "numb",
    "tingl",
    "needles",
    "throat",
    "out",
    "faint",
    "dizz",
    "light",
    "vision",
    "dying",
    "die",
    "choke",
    "control",
    "crazy",
    "detached",
    "unreal",
    "real",
    "swallow",
    "air",
    "心",
    "抖",
    "麻",
    "喘",
    "透不过",
    "呼吸",
    "窒息",
    "胸",
    "汗",
    "晕",
    "发黑",
    "腿软",
    "死",
    "失控",
    "weak",
    "there",
)
_RECUR = re.compile(
    r"\b(?:whenever|every\s+time|each\s+time|when\s+it\s+hits|keep|kept|again|for\s+weeks|"
    r"for\s+months|lately|these\s+days|attacks?|episodes?|always|out\s+of\s+nowhere|for\s+no\s+reason|"
    r"until\s+it\s+passes|comes\s+over\s+me|comes\s+on|sometimes|often|times\s+(?:a|this|last)\s+(?:week|month))\b"
    r"|一到|每次|总是|经常|老是|一.{0,8}就|突然|莫名|毫无征兆|时不时|动不动|发作",
    _F,
)
_EXERTION = re.compile(
    r"\b(?:ran|run|running|jog\w*|sprint\w*|climb\w*|hike|hiking|gym|workout|race|marathon|"
    r"cycl\w+|match|film|movie|ride|rollercoaster|roller\s+coaster)\b|跑|爬|运动|健身|比赛|电影|过山车",
    _F,
)
_ME_EN = re.compile(r"\b(?:i|i'm|i've|my|me)\b", _F)
_ME_ZH = re.compile(rf"{_ZH_I}")
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")


class _Episode:
    """Two or more distinct somatic signs in one sentence of the speaker's, recurring and
    not after exertion. ``pattern`` is what the literal prefilter reads (any one sign)."""

    pattern = prefilter_pattern = re.compile(
        "|".join(rf"\b{s}" for s in _SIGN_EN) + "|" + "|".join(_SIGN_ZH), _F
    )

    def search(self, text: str):
        low = text.lower()
        if _gates_on(text) and not any(stem in low for stem in _SIGN_STEMS):
            return None
        if not self.pattern.search(text):
            return None
        for sentence in _SENTENCE.findall(text):
            en = sum(1 for p in _SIGN_EN_RE if p.search(sentence))
            zh = sum(1 for p in _SIGN_ZH_RE if p.search(sentence))
            if en + zh < 2 or _EXERTION.search(sentence) or not _RECUR.search(sentence):
                continue
            if (en and _ME_EN.search(sentence)) or (zh and _ME_ZH.search(sentence)):
                return self.pattern.search(sentence)
        return None


_WARNING = _each(
    [
        rf"(?:{_I}|{_MY})\b[^.!?]{{0,40}}?\bblood\s+in\s+(?:my\s+)?(?:pee|urine|stools?|poo|wee|phlegm|sputum)\b",
        rf"{_I}\s+{_ADV}(?:'ve\s+|have\s+)?(?:lost|dropped)\s+(?:a\s+stone|\d+\s*(?:kg|kilos|pounds|lbs)|"
        r"(?:a\s+lot\s+of\s+)?weight)\s+without\s+(?:trying|dieting|meaning\s+to)\b",
        rf"{_I}\s+{_ADV}(?:'ve\s+been\s+|have\s+been\s+|keep\s+)?(?:waking|wake|woke)\s+(?:up\s+)?[^.!?]{{0,20}}?"
        r"\bdrenched\s+in\s+sweat\b",
        rf"{_I}\s+{_ADV}(?:hear|heard|keep\s+hearing|can\s+hear)\s+(?:voices|my\s+name|someone|people|whispers?|"
        r"music|things)\b[^.!?]{0,30}?\b(?:no\s+one|no-one|nobody)(?:'s|\s+is|\s+was)?\s+(?:there|around|speaking|talking)",
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?(?:便血|尿血|咳血|盗汗|淋巴结(?:肿|大))",
    ],
    _F,
)

# --- health: a device the speaker lives with -------------------------------------------
_ONLY_MEDICAL_DEVICE_EN = (
    r"(?:cpap|bipap|icd(?![-\s]?\d)|defibrillator|pacemaker|shunt|stent|catheter|stoma|colostomy\s+bag|ileostomy|"
    r"feeding\s+tube|peg\s+tube|trach(?:eostomy)?(?:\s+tube)?|insulin\s+pump|cgm|dexcom|"
    r"cochlear\s+implant|hearing\s+implant|prosthe(?:sis|tic\s+\w+)|nebuli[sz]er|oxygen\s+concentrator|"
    r"holter(?:\s+monitor)?|(?:back|spinal|neck)\s+brace|picc\s+line|portacath|port-a-cath)"
)
_BODY_EN = (
    r"(?:spine|back|neck|head|skull|brain|chest|heart|stomach|belly|abdomen|tummy|arm|leg|hip|"
    r"knee|ankle|wrist|shoulder|jaw|bladder|bowel|throat|windpipe|ear|eye|side)"
)
_IN_BODY_NOUN_EN = (
    r"(?:brace|shunt|plate|pins?|rods?|screws|port|stent|tube|line|implant|device|valve|pump|"
    r"sensor|monitor|catheter|drain|coil|mesh|clip|pacemaker|rod|stimulator|cage|nail|wire|wires|"
    r"filter|balloon|reservoir|bag)"
)
_DEVICE_ZH = (
    r"(?:起搏器|心脏支架|支架|钢钉|钢板|假肢|义肢|义眼|人工(?:关节|晶体|瓣膜|耳蜗|髋关节|膝关节)|胰岛素泵|"
    r"动态血糖仪|血糖仪|助听器|耳蜗|造口袋|导尿管|尿袋|引流管|输液港|PICC|呼吸机|矫形器|支具|分流管|除颤器)"
)
_DEVICE = _each(
    [
        rf"{_I}\s+{_ADV}(?:sleep\s+with|wear|use|rely\s+on|need|have|got|'ve\s+got|live\s+with|living\s+with|carry)\s+"
        rf"(?:a|an|my|the)\s+(?:\w+\s+)?{_ONLY_MEDICAL_DEVICE_EN}\b",
        rf"{_MY}\s+(?:\w+\s+)?{_ONLY_MEDICAL_DEVICE_EN}(?:'s)?\b(?!\s+(?:clinic|nurse|company|shop|factory))",
        rf"{_I}\s+{_ADV}(?:'ve\s+|have\s+|had\s+)?(?:got|have|has|had|wear|live\s+with)\s+(?:a|an)\s+(?:\w+\s+)?"
        rf"{_IN_BODY_NOUN_EN}\s+(?:in|on|through|into|under|along)\s+my\s+(?:left\s+|right\s+|lower\s+|upper\s+)?{_BODY_EN}\b",
        rf"(?:there's|there\s+is|with)\s+an?\s+(?:\w+\s+){{0,2}}{_IN_BODY_NOUN_EN}\s+(?:in|through|under)\s+my\s+"
        rf"(?:left\s+|right\s+|lower\s+|upper\s+)?{_BODY_EN}\b",
        rf"\b(?:put|fitted|implanted|inserted|placed)\s+(?:a|an)\s+(?:\w+\s+){{0,2}}{_IN_BODY_NOUN_EN}\s+(?:in|into)\s+"
        rf"(?:me\b|my\s+(?:left\s+|right\s+)?{_BODY_EN}\b)"
        rf"|{_I}\s+{_ADV}(?:was|got|been)\s+implanted\s+with\s+(?:a|an)\s+"
        rf"|{_I}\s+{_ADV}(?:was|got|been)\s+fitted\s+with\s+(?:a|an)\s+(?:\w+\s+){{0,2}}?"
        rf"(?:{_IN_BODY_NOUN_EN}|{_ONLY_MEDICAL_DEVICE_EN}|hearing\s+aids?)\b",
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:装|植|放|戴|挂|带|安|换|插)(?:了|着|过|上了)(?:一个|个|一副|副|一根|根)?{_DEVICE_ZH}",
        rf"{_ZH_I}(?:身上|体内|身体里)(?:有|装着|挂着|带着|留着)[^，。！？,!?]{{0,4}}?{_DEVICE_ZH}",
        rf"{_ZH_I}(?:的)?(?:胸口|胸前|心脏|脑子|脑袋|头上|头里|腿上|腿里|胳膊|手臂|腰上|腰椎|脊椎|肚子|胃里|耳朵|眼睛|"
        r"膝盖|髋|肩膀|锁骨|血管)(?:里|上|内|中)?(?:埋|装|植|放|插|置)(?:了|着|入|进)",
    ],
    _F,
)

# --- health: a treatment told by the act, a condition told by a behaviour -------------
_NOT_ROUTINE_JAB_EN = r"(?!(?:flu|covid|booster|tetanus|travel|hay\s+fever)\b)"
_ACTS = _each(
    [
        rf"{_I}\s+{_ADV}(?:inject|injected|injecting|jab|jabbed)\s+myself\b",
        rf"{_I}\s+{_ADV}(?:get|have|go\s+in\s+for|receive)\s+(?:an?\s+|my\s+)?{_NOT_ROUTINE_JAB_EN}(?:\w+\s+)?"
        r"(?:infusions?|transfusions?|injections?)\s+(?:every|each|once|twice|at\s+the\s+hospital)",
        rf"{_I}\s+{_ADV}(?:cut|cutting|burn|burning|hurt|hurting|harm|harming)\s+myself\b(?!\s+(?:on|with\s+a\s+knife\s+while|shaving|cooking))",
        rf"{_I}\s+{_ADV}(?:make|made|force|forced)\s+myself\s+(?:throw\s+up|be\s+sick|sick|vomit|purge)\b",
        rf"{_IM}\s+(?:\w+\s+){{0,3}}?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few)\s+"
        r"(?:days|weeks|months|years)\s+(?:sober|clean)\b",
        rf"{_I}\s+{_ADV}(?:'ve\s+been|have\s+been|'m|am|been)\s+(?:sober|clean)\s+(?:since|for)\b",
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:给自己|自己给自己)(?:打针|注射|扎针|打胰岛素)",
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:自残|割腕|伤害自己|催吐|戒毒)|{_ZH_I}{_ZH_GAP}{{0,6}}?(?:在|正在)戒(?:酒|毒|赌)",
        # my + a condition of the list (my seizures, my long covid; not my imposter syndrome)
        rf"{_MY}\s+(?:(?:chronic|severe|mild|bad|recurring)\s+)?"
        r"(?!(?:imposter|impostor|tall\s+poppy|covid\s+test|cold|flu)\b)"
        r"(?:seizures|epilepsy|migraines?|panic\s+attacks?|ms|multiple\s+sclerosis|crohn'?s|colitis|lupus|"
        r"arthritis|psoriasis|eczema|endometriosis|pcos|insomnia|long\s+covid|fibromyalgia|ibs|copd|"
        r"[a-z]{4,}(?:itis|osis)|[a-z]+\s+(?:disease|disorder|syndrome))\b"
        r"(?!\s+(?:friend|class|course|research|project|charity|book|article|essay|thesis|lecture|patients?|"
        r"clinic|ward|unit|team|nurse|awareness|module|paper))",
        rf"{_I}\s+{_ADV}(?:'ve\s+been\s+|have\s+been\s+|'m\s+|am\s+)?(?:go|going|went|gone|started|start|"
        r"attend|attending|attended|back\s+in|in)\s+(?:to\s+)?(?:group\s+)?(?:therapy|counsell?ing|psychotherapy|rehab)\b"
        r"(?!\s+(?:dog|course|class|training|session\s+for\s+(?:my|our)\s+(?:dog|cat|horse)))",
        rf"{_IM}\s+on\s+(?:the|a)\s+(?:\w+\s+)?(?:waiting|wait|transplant)\s+list\s+for\s+(?:an?\s+|my\s+)?"
        r"(?:\w+\s+)?(?:surgery|transplant|operation|op|replacement|kidney|liver|heart|lungs?|donor|ivf|assessment)\b",
    ],
    _F,
)

# --- health: a dose of a named medicine, a therapy, a clinic ---------------------------
_NOT_MEDICINE_DOSE_EN = (
    r"(?!(?:reality|sunshine|caffeine|coffee|tea|vitamin\w*|fresh|news|humou?r|fun|nostalgia|"
    r"paracetamol|ibuprofen|aspirin|tylenol|advil|nurofen|panadol|calpol|melatonin|cough|"
    r"fish\s+oil|magnesium|zinc|iron|probiotics?|the|that|this|it|whatever)\b)"
)
_LIFE = _each(
    [
        rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:验|测)出(?:了)?(?:两|二)(?:条|道)杠",
        rf"{_MY}\s+(?:emergency\s+)?(?:c-section|caesarean|cesarean)\b"
        rf"|{_I}\b[^.!?]{{0,40}}?\b(?:after|since)\s+(?:the|my)\s+(?:emergency\s+)?(?:c-section|caesarean|cesarean)\b",
        rf"{_I}\s+{_ADV}(?:'ve\s+)?(?:got|have|hold|get|was\s+given)\s+a\s+blue\s+badge\b(?![^.!?]{{0,30}}\bfor\s+(?:my|his|her|their)\s)"
        rf"|{_I}\s+{_ADV}can(?:'t|not)\s+walk\s+(?:more|further)\s+than\s+(?:\w+\s+){{0,2}}(?:metres|meters|yards|steps)\b"
        rf"|{_I}\s+{_ADV}can(?:'t|not)\s+walk\s+without\s+(?:a|my)\s+(?:stick|cane|frame|walker|help)\b",
        rf"{_MY}\s+(?:left\s+|right\s+)?(?:knee|hip|shoulder|joint|valve|lens|disc|ankle|elbow)\s+"
        r"(?:replacement|reconstruction|surgery|op|operation)\b",
    ],
    _F,
)
_DOSE = _each(
    [
        rf"(?:{_I}|{_MY})\b[^.!?]{{0,40}}?\b(?:a|an|one|two|half\s+a|a\s+quarter\s+of\s+a|\d+)\s+"
        rf"(?:tablets?|pills?|capsules?)\s+of\s+{_NOT_MEDICINE_DOSE_EN}[a-z]{{4,}}\b",
        rf"{_MY}\s+(?:last|first|next|final|morning|evening|nightly|daily|weekly)\s+dose\s+of\s+"
        rf"{_NOT_MEDICINE_DOSE_EN}[a-z]{{4,}}\b",
    ],
    _F,
)
_THERAPY = _each(
    [
        rf"{_MY}\s+(?:speech|occupational|art|music|play|talking|grief|trauma|family|eating\s+disorder|"
        r"addiction|sleep)\s+(?:therapist|counsell?or)\b",
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:做|接受|在做|去做)[^，。！？,!?]{{0,6}}?(?:治疗|疗法|康复训练|复健|理疗)"
        r"(?!师|科|室)",
        rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:去|做|上|在做)\s*(?:therapy|counsell?ing|rehab|psychotherapy)\b",
    ],
    _F,
)
# A clinical acronym (EMDR, DBT, CBT, ECT, TMS) is a therapy only beside a word of therapy.
_ACRONYM_THERAPY = _WithCue(
    re.compile(
        rf"(?:{_I}|{_MY})\b[^.!?]{{0,40}}?\b(?-i:EMDR|DBT|CBT|ECT|TMS)\b(?!\s+(?:course|training|practitioner|"
        r"trainer|certificate|exam|module|vendor))",
        _F,
    ),
    re.compile(
        r"\b(?:sessions?|therap\w+|group|weeks?\s+into|work(?:ing)?\s+through|trauma|psycholog\w+|"
        r"counsell?\w+|nightmares|flashbacks|panic|anxiety|depression|sleep\w*)\b",
        _F,
    ),
)
_NOT_CARE_CLINIC_EN = (
    r"(?!(?:vet|veterinary|pet|animal|legal|law|tax|golf|tennis|football|soccer|coaching|beauty|"
    r"cosmetic|skin\s+care|aesthetics?|botox|laser|dental|tooth|travel|vaccination|flu|walk-in|"
    r"free|writing|careers?|job|ski|swim|climbing|dance|music|bike|computer|it|phone)\s+clinic)"
)
_AT_CLINIC = re.compile(
    rf"(?:{_I}|{_MY})\b[^.!?]{{0,50}}?\b(?:at|to|from|in|with)\s+the\s+{_NOT_CARE_CLINIC_EN}"
    r"(?:[a-z]+\s+){1,2}clinic\b(?!'s|\s+(?:car\s+park|parking|building|hall|cafe|café|shop))",
    _F,
)
_CLINIC = [
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?(?:去|到|在)[^，。！？,!?]{{0,8}}?门诊(?:(?!帮|陪|替|给|带)[^，。！？,!?]){{0,4}}?"
        r"(?:复查|复诊|挂(?:了)?号|就诊|看病|检查|拿药|开药)",
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,8}}?(?:做了|做完|做过|要做|去做|在做|约了)(?:一?[个次])?(?:无痛)?"
        r"(?:肠|胃|宫腔|腹腔|膀胱|喉|支气管|内|关节|结肠)镜(?!检查的|的)",
    ),
]
# A value with a decimal point is cut by the sentence reader: this one is read whole.
_ANALYTE_ZH = re.compile(
    rf"{_ZH_I}的\s*(?-i:[A-Za-z][A-Za-z0-9]{{1,7}})\s*(?:上次|这次|最近|现在|又)?(?:是|有|到了|查出来|升到|降到)?"
    r"\s*\d+(?:\.\d+)?(?=[^。！？!?]{0,16}(?:医生|大夫|加药|减药|复查|偏高|超标|指标|控制))",
)
# The speaker works there, or is there for someone else's visit.
_WORKS_THERE = re.compile(
    r"\b(?:i\s+work|i'm\s+a\s+\w+\s+at|i\s+volunteer|i\s+run|i\s+manage|my\s+shift|i\s+staff|i\s+teach|"
    r"i\s+clean|i\s+deliver|i\s+give\s+(?:a\s+)?talks?)\b"
    r"|\b(?:took|take|taking|drove|drive|driving|accompan\w+|while|waited\s+for)\s+(?:my|his|her|our)\s+"
    r"(?:dad|mum|mom|mother|father|son|daughter|wife|husband|partner|kid|kids|child|children|gran|grandma|"
    r"granny|grandad|grandpa|friend|sister|brother|aunt|uncle|neighbou?r)\b",
    _F,
)


class _AtClinic:
    """The speaker at a clinic of care, unless the sentence says they work there."""

    def __init__(self, rule: re.Pattern[str]) -> None:
        self.rule = rule
        self.pattern = self.prefilter_pattern = rule

    def search(self, text: str):
        m = self.rule.search(text)
        return m if m and not _WORKS_THERE.search(text) else None


# Letters that case-fold to ASCII from outside it (İ, ı, ſ, K, Å): a text holding one is
# searched ungated, as the literal prefilter does.
_CASE_TWINS = frozenset("\u0130\u0131\u017f\u212a\u212b")


def _gates_on(text: str) -> bool:
    """Whether the word gates may skip a rule for ``text``: with the literal prefilter's
    switch (``ENGRAM_WRITE_BATCH["FAST_DETECTION_TEXT"]``) on and no letter that folds to
    ASCII from outside it. Off, every rule is searched (the reference)."""
    if not text.isascii() and any(c in _CASE_TWINS for c in text):
        return False
    return detection_switch("FAST_DETECTION_TEXT")


class _Gate:
    """A rule run only on a text holding one of ``words`` (lower-cased substrings): most
    of these rules open at I/my, which nearly every turn has, so the literal prefilter
    alone would search them on almost every text."""

    def __init__(self, rule, words: tuple[str, ...]) -> None:
        self.rule, self.words = rule, words
        inner = rule if isinstance(rule, re.Pattern) else rule.prefilter_pattern
        self.pattern = self.prefilter_pattern = inner

    def search(self, text: str):
        if _gates_on(text) and not any(w in text.lower() for w in self.words):
            return None
        return self.rule.search(text)


def _gated(rules: list, words: tuple[str, ...]) -> list:
    return [_Gate(rule, words) for rule in _stated(rules)]


_DEVICE_WORDS = (
    "cpap",
    "bipap",
    "icd",
    "defib",
    "pacemaker",
    "shunt",
    "stent",
    "cathet",
    "stoma",
    "ostomy",
    "tube",
    "trach",
    "pump",
    "cgm",
    "dexcom",
    "implant",
    "prosthe",
    "nebuli",
    "oxygen",
    "holter",
    "brace",
    "picc",
    "port",
    "plate",
    "pin",
    "rod",
    "screw",
    "valve",
    "sensor",
    "monitor",
    "drain",
    "coil",
    "mesh",
    "clip",
    "stimulator",
    "cage",
    "nail",
    "wire",
    "filter",
    "balloon",
    "reservoir",
    "bag",
    "hearing",
    "起搏器",
    "支架",
    "钢",
    "假肢",
    "义",
    "人工",
    "泵",
    "血糖仪",
    "助听器",
    "耳蜗",
    "造口",
    "尿",
    "引流管",
    "输液港",
    "呼吸机",
    "矫形器",
    "支具",
    "分流管",
    "除颤器",
    "埋",
    "植",
    "插",
    "置",
    "line",
    "device",
    "装",
    "放",
)
_ACT_WORDS = (
    "myself",
    "infusion",
    "transfusion",
    "injection",
    "sober",
    "clean",
    "自己",
    "戒",
    "自残",
    "割腕",
    "催吐",
    "seizure",
    "epilep",
    "migraine",
    "panic",
    "ms",
    "sclerosis",
    "crohn",
    "colitis",
    "lupus",
    "arthritis",
    "psoriasis",
    "eczema",
    "endometriosis",
    "pcos",
    "insomnia",
    "covid",
    "fibromyalgia",
    "ibs",
    "copd",
    "itis",
    "osis",
    "disease",
    "disorder",
    "syndrome",
    "therap",
    "counsel",
    "rehab",
    "list",
)
SPEC_FRAMES: dict[str, list] = {
    "health": [
        *_stated([_Episode()]),
        *_gated(_WARNING[:1], ("blood",)),
        *_gated(_WARNING[1:2], ("without",)),
        *_gated(_WARNING[2:3], ("drenched",)),
        *_gated(_WARNING[3:4], ("one", "nobody")),
        *_gated(_WARNING[4:], ("便血", "尿血", "咳血", "盗汗", "淋巴")),
        *_gated(_DEVICE, _DEVICE_WORDS),
        *_gated(_DOSE, ("tablet", "pill", "capsule", "dose")),
        *_gated(
            _THERAPY,
            ("therapist", "counsel", "治疗", "疗法", "康复", "复健", "理疗", "therapy", "rehab"),
        ),
        *_gated([_ACRONYM_THERAPY], ("emdr", "dbt", "cbt", "ect", "tms")),
        *_gated([_AtClinic(_AT_CLINIC)], ("clinic",)),
        *_gated(_CLINIC, ("门诊", "镜")),
        *_gated(
            _LIFE,
            (
                "杠",
                "section",
                "caesarean",
                "cesarean",
                "badge",
                "walk",
                "replacement",
                "reconstruction",
                "surgery",
                "op",
                "operation",
            ),
        ),
        *_gated(_ACTS, _ACT_WORDS),
    ]
    + [_ANALYTE_ZH],
    "religion": _stated(_FAITH),
    "trade_union": _stated(_UNION),
    "political": _stated(_POLITICAL),
    "sexual_orientation": [*_stated(_SAME_GENDER), _SameGenderText()],
    "ethnicity": _stated(_ETHNICITY),
    "biometric": _stated(_BIOMETRIC),
    "criminal_record": _stated(_RECORD),
}
