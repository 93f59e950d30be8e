"""A medicine the user takes, recognised by the grammar of prescribing and dosing rather
than by the medicine's name (issue 32, round 19).

``special_categories`` and ``subject_forms`` recognise a medicine by its name's shape (the
WHO INN stems, -olol/-pril/-statin/-mab …, and the Chinese approved names' transliterations
…洛尔/…普利/…他汀/…单抗) after a verb of taking. People also name a medicine by a brand
nobody lists (Zyprexa, Symbicort, 倍他乐克) or put it in another frame than "I take". These
rules read the frame, with the user as the one it is done to:

- **a clinician's act on the user**: "put/switched/started me on …", "added … to my pills",
  "prescribed me …", "upped my … to 15 mg"; the object is a medicine by its INN stem, or a
  capitalised name with a dose after it (a brand is known by its dose, not its spelling);
- **a course the user is in**: "three months into …", "my course of …", "halfway through a
  course of …", with a medicine by its INN stem;
- **a count in a medicine-only form**: "two puffs of …", "2 tabs of …", "a tablet every
  morning" — a puff, tab, capsule or tablet is what only medicines come in, so the name
  need not be known (two spoons of honey, 500 ml of water are not); a unit shared with
  food and leave (ml, units) counts only when what follows "of" is a medicine
  (``AMBIGUOUS_UNIT``, used by ``special_forms``' dose rule);
- **Chinese**: 我…吃/服 + a pill counter (片/粒/颗) + a name written only in the
  characters the approved names use for transliteration (``_TRANSLIT_ZH``, taken from the
  approved names themselves: 倍他乐克, 思瑞康, 佐匹克隆); a clinician's 给我/让我 + act + an
  approved name by its stem;
- **Japanese and Korean**: an INN stem written in katakana or hangul (…スタチン, …스타틴)
  taken (飲む/服用, 먹다/복용), in a sentence naming no other person first;
- **an acute event the user had** ("I had a stroke", a seizure, a heart attack): the
  acute events of ICD-10's circulatory and nervous chapters a person says they "had" — a
  closed class by kind, not a list of diagnoses.

Another person's medicine ("my husband takes …"), a pharmacist's work ("I hand out …"),
news and fiction pass: every frame starts at the user (I/my/me, 我 not 我们 and not 我妈)
and is read sentence by sentence, skipping a sentence that supposes or asks.
"""

from __future__ import annotations

import re

from memory.detectors.life_frames import _stated
from memory.detectors.open_noun_frames import _ADV, _I, _IM, _MY, _ZH_I, _each
from memory.detectors.subject_forms import _INN_EN, _INN_ZH

_F = re.IGNORECASE

# WHO INN stems in daily use (the published stem list): with subject_forms._INN_EN, the
# shape by which a medicine nobody listed is still a medicine.
INN_STEMS_EN = (
    r"[a-z]{3,}(?:pril|sartan|olol|statin|pram|xetine|azepam|zolam|prazole|formin|triptan|dipine|"
    r"tinib|cillin|mycin|oxacin|cycline)"
)
_MED = rf"(?:{INN_STEMS_EN}|{_INN_EN}|insulin)\b"
# A capitalised name, which is a medicine only where a dose is counted beside it.
_BRAND = r"(?-i:[A-Z][a-z]{3,}|[A-Z]{2,}[a-z]+)(?:-[A-Za-z]+)?\b"
_DOSE_NUM = r"\d+(?:\.\d+)?\s*(?:mg|mcg|µg|ug|iu|milligrams?|micrograms?)\b"
# A unit shared with food, drink and leave counts only before a medicine (or nothing).
AMBIGUOUS_UNIT = rf"(?:ml|units?)\b(?!\s+of\s+(?!{_MED}|(?-i:[A-Z])))"
_FORM = r"(?:puffs?|tabs?|tablets?|capsules?|caps|pills?|sprays?|lozenges?|suppositor(?:y|ies))"
_COUNT = r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|a|an|half\s+a|a\s+couple\s+of)"

_HEALTH_EN = _each(
    [
        # the GP switched me from losartan; they put me on Xarelto 20 mg
        rf"\b(?:put|started|switched|moved|changed|weaned|took|got|kept)\s+me\s+(?:back\s+)?"
        rf"(?:on|onto|off|from|to|over\s+to)\s+(?:\w+\s+){{0,2}}?(?:{_MED}|{_BRAND}\s+{_DOSE_NUM})",
        rf"{_I}\s+{_ADV}(?:got|was|been|have\s+been|'ve\s+been)\s+(?:switched|moved|changed|put|"
        rf"started|weaned)\s+(?:back\s+)?(?:on|onto|off|from|to|over\s+to)\s+(?:\w+\s+){{0,2}}?"
        rf"(?:{_MED}|{_BRAND}\s+{_DOSE_NUM})",
        # added sitagliptin to my morning pills; prescribed me amoxicillin
        rf"\badded\s+{_MED}\s+to\s+my\b|\b(?:prescribed|gave|given|giving)\s+me\s+(?:some\s+|a\s+"
        rf"(?:course|prescription|box)\s+of\s+)?{_MED}",
        # the doc upped my Zyprexa to 15 mg
        rf"\b(?:upped|raised|increased|lowered|reduced|cut|doubled|halved|tapered|adjusted|"
        rf"bumped\s+up|dropped)\s+my\s+(?:{_MED}|{_BRAND}\s+(?:\w+\s+)?to\s+{_DOSE_NUM}|{_BRAND}\s+to\s+\d+)",
        # three months into imatinib; my course of flucloxacillin
        rf"{_IM}\s+(?:\w+\s+){{1,2}}(?:days?|weeks?|months?|years?)\s+into\s+(?:my\s+|a\s+|the\s+)?"
        rf"(?:course\s+of\s+)?{_MED}",
        rf"{_MY}\s+(?:\w+\s+)?(?:course|prescription|supply|script|refill|box|pack|strip)\s+of\s+{_MED}",
        rf"{_I}\s+{_ADV}(?:finished|started|completed|began|on|am\s+on|'m\s+on|halfway\s+through|"
        rf"partway\s+through|through|done\s+with|doing)\s+(?:a|my|the|another)\s+(?:\w+\s+)?"
        rf"(?:course|round|cycle)\s+of\s+{_MED}",
        # two puffs of Symbicort; 2 tabs of co-codamol
        rf"{_I}\s+{_ADV}(?:take|takes|taking|took|use|uses|using|need|have|swallow|swallows|inhale|"
        rf"inhales)\s+{_COUNT}\s+{_FORM}\b(?!\s+of\s+(?!{_MED}|(?-i:[A-Z])))",
        # I had a stroke in 2022 (an acute event, not "a stroke of luck")
        rf"{_I}\s+{_ADV}(?:had|suffered|survived)\s+(?:a|an|my\s+first|another|two|three|a\s+second|"
        r"a\s+major|a\s+minor|a\s+mild|a\s+small|a\s+massive)\s+(?:\w+\s+)?(?:stroke|heart\s+attack|"
        r"cardiac\s+arrest|seizure|mini-stroke|tia|pulmonary\s+embolism|blood\s+clot|"
        r"(?:nervous|mental)\s+breakdown|psychotic\s+episode|manic\s+episode|overdose)\b(?!\s+of\b)",
        # the menopause the user is going through
        rf"{_IM}\s+{_ADV}(?:going\s+through|in|into|starting)\s+(?:the\s+)?(?:peri-?)?menopause\b"
        rf"|{_IM}\s+{_ADV}(?:peri-?|post-?)?menopausal\b",
    ],
    _F,
)

# The characters of the Chinese approved names' transliterations (中国药品通用名称 命名
# 原则's 外文音译用字), collected from the approved names these detectors already read.
_TRANSLIT_ZH = (
    "阿艾安奥巴贝倍比吡苄丙波泊布卡坎康考可克喹拉来莱兰劳乐雷利林磷硫龙隆卢鲁仑罗洛氯马吗麦"
    "美米咪嘧莫那奈萘尼诺帕哌泮培喷匹泼普齐羟嗪曲瑞塞噻沙舍司思斯苏索他泰坦汀特替酮同托妥"
    "万韦维文西昔硝辛新欣溴亚伊依乙异吲优扎泽佐达地迪丁多度厄恩尔法芬呋伏氟福格胍哈赫环磺吉"
    "加甲拜舒唑"
)
_PILL_ZH = r"[一二两三四五六半\d]+(?:片|粒|颗)"
_ZH_WHEN = (
    r"(?:现在|每天|每日|每晚|每早|早上|晚上|睡前|空腹|饭前|饭后|早晚|长期|按时|一直|都|也|还|在|正在|"
    r"最近|要|得|各)"
)
_HEALTH_ZH = [
    # 我每天吃两粒倍他乐克; 我每晚睡前吃半片思瑞康
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}{{0,4}}(?:吃|服用|服)(?:着|了)?{_PILL_ZH}的?[{_TRANSLIT_ZH}]{{3,6}}"
        r"(?![\u4e00-\u9fff])"
    ),
    # 医生给我换成了左氧氟沙星, 医生让我加了二甲双胍
    re.compile(
        r"(?:给|让|帮|替)我(?:开了?|换成了?|换了?|加了?|停了?|减了?|改成了?|上了?)(?:点|些|一些)?"
        rf"[\u4e00-\u9fff]{{1,6}}?(?:{_INN_ZH})"
    ),
]
# Japanese and Korean: an INN stem in katakana or hangul, taken, no other person named first.
_OTHER_JAKO = (
    r"母|父|妹|姉|兄|弟|夫|妻|娘|息子|祖母|祖父|友達|友人|彼|同僚|上司|엄마|아빠|어머니|아버지|친구|"
    r"남편|아내|언니|오빠|형|누나|동생|아들|딸|할머니|할아버지|동료|그는|그녀"
)
_HEALTH_JAKO = [
    re.compile(
        rf"(?:^|(?<=[。.!?！？]))(?:(?!{_OTHER_JAKO})[^。.!?！？])*?[ァ-ヴー]{{1,}}(?:スタチン|ジピン|サルタン|プリル|ロール|"
        r"プラゾール|マブ|チニブ|シリン|マイシン|ホルミン|グリプチン|ビル|キサシン|トリプタン)を"
        r"[^。]{0,6}(?:飲|服用)",
        re.M,
    ),
    re.compile(
        rf"(?:^|(?<=[。.!?！？]))(?:(?!{_OTHER_JAKO})[^。.!?！？])*?[가-힣]{{1,}}(?:스타틴|디핀|사르탄|프릴|올롤|프라졸|맙|"
        r"티닙|실린|마이신|포르민|글립틴|비르|옥사신|트립탄)(?:을|를)?\s*(?:\S+\s+)?(?:먹|복용)",
        re.M,
    ),
]


MEDICINE_FRAMES: list = _stated(_HEALTH_EN + _HEALTH_ZH + _HEALTH_JAKO)
