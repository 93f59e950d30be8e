"""Special categories in grammatical forms the earlier rule modules lacked (round 6 of
issue 32). Each is a form or a closed, published class, with the user as the subject:

- **a procedure possessed by the user**, named by medical word formation (``spec_shown``
  knows "I had a …ectomy"; here "my colposcopy", "my vasectomy results");
- **a medicine taken for a duration** (我吃了两年的…药): a treatment lasting years is a
  chronic condition, whatever the medicine is called;
- **a sense lost** by the user, one of the closed set of senses (我右眼看不见了, 我左耳
  听不见, "I'm deaf in one ear", "I went blind");
- **a pregnancy lost or ended** (the obstetric outcomes of ICD-10 O00–O08: miscarriage,
  ectopic pregnancy, termination, stillbirth);
- **a biometric modality of ISO/IEC 19794** (finger, face, iris, vascular/vein, hand
  geometry, signature, voice) as the user's own pattern or template;
- **a membership stated in the 是…的 cleft** (我是去年在单位入的党: Chinese splits the
  verb-object 入党 with 的 to focus on when or where);
- **ethnicity of the user's family or people** named by a capitalised proper noun
  standing alone ("my family is Hmong", "my people are …"), not followed by a noun of
  which it is an attribute ("my family are Liverpool fans").

Someone else (我妈, "my dad's vasectomy", 我朋友右眼), the topic and a job do not match.
"""

from __future__ import annotations

import re

_I = r"\b(?:i(?:'m|'ve|'d| am| have| had| was)?|(?:the\s+)?user(?: has| is| was)?)"
_IM = r"\b(?:i(?:'m| am)|(?:the\s+)?user(?:'s| is))"
_MY = r"\b(?:my|(?:the\s+)?user's)"
_ADV = r"(?:(?:also|still|now|just|recently|already|always|been|back|only|ever|finally)\s+)*"
_ZH_I = r"我(?!们|們)"
_ZH_WHEN = (
    r"(?:[上下这本]个?(?:周|週|月|星期)|明天|今天|昨天|去年|前年|今年|最近|已经|一直|长期|以前|之前|曾经|"
    r"小时候|从小|都|也|还|就|又|基本|几乎|完全|快)"
)
_DURATION_ZH = r"(?:[一二两三四五六七八九十几半\d]+|好几|十几|很多)个?多?(?:年|月|星期|周)多?"

# Organs of the trunk and neck (Terminologia Anatomica), as people name them.
_ORGAN_EN = (
    r"kidneys?|liver|heart|lungs?|pancreas|corneas?|bone\s+marrow|spleen|gallbladder|appendix|tonsils|"
    r"adenoids|thyroid|ovar(?:y|ies)|uterus|womb|cervix|prostate|bladder|colon|bowel|breasts?|"
    r"testicles?|lymph\s+nodes|adrenal\s+glands?"
)
_ORGAN_ZH = r"甲状腺|胆囊|阑尾|脾|脾脏|子宫|卵巢|乳腺|乳房|肾|肾脏|胃|肺叶|胰腺|前列腺|扁桃体|结肠|直肠|膀胱|睾丸"

# A body site of the trunk or a limb, where a device is implanted (我胸口埋了个输液港).
_SITE_ZH = r"胸口|胸前|胸部|锁骨下|肚子|腹部|手臂|胳膊|上臂|心脏|脑子|头里|耳朵|耳后|腰上|背上|腿上|膀胱|体内"
_IMPLANT_ZH = (
    r"输液港|起搏器|支架|除颤器|人工耳蜗|钢板|钢钉|分流管|引流管|造口|胰岛素泵|节育环|PICC管?"
)

_HEALTH = [
    re.compile(
        rf"{_ZH_I}的?(?:{_SITE_ZH})(?:里|里面|上|下)?(?:{_ZH_WHEN}){{0,2}}(?:埋了|装了|放了|植入了?|插着|装着|带着|有)个?"
        rf"(?:{_IMPLANT_ZH})",
        re.IGNORECASE,
    ),
    # A rescue medicine the user carries (adrenaline auto-injector, reliever inhaler, glucagon).
    re.compile(
        rf"{_I}\s+{_ADV}(?:carry|carries|keep|have|need)\s+(?:an?|two|my|\d)\s+(?:spare\s+)?"
        r"(?:epi-?pens?|(?:adrenaline|epinephrine)\s+(?:auto-?injectors?|pens?|shots?)|auto-?injectors?|"
        r"glucagon\s+(?:kits?|pens?)|(?:gtn|nitro(?:glycerin)?)\s+spray|(?:blue\s+|reliever\s+)inhalers?)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:had|got|have\s+had)\s+(?:my|a|one|part\s+of\s+my|half\s+(?:of\s+)?my)\s+"
        rf"(?:left\s+|right\s+)?(?:{_ORGAN_EN})\s+(?:taken\s+out|removed|out)\b"
        rf"|{_I}\s+{_ADV}(?:need|needed|am\s+waiting\s+for|'m\s+waiting\s+for|got|received)\s+"
        rf"an?\s+(?:donor|new)\s+(?:{_ORGAN_EN})\b"
        rf"|{_IM}\s+on\s+the\s+(?:transplant\s+)?(?:waiting\s+)?list\s+for\s+an?\s+(?:donor\s+|new\s+)?"
        rf"(?:{_ORGAN_EN})\b"
        rf"|{_MY}\s+(?:{_ORGAN_EN})\s+transplant\b"
        r"|\b(?:reads|monitors|tracks|checks|measures|logs)\s+my\s+(?:blood\s+)?(?:glucose|sugars?|ketones)\b"
        r"(?!\s+intake)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_ZH_I}的?(?:左|右|一侧|一边)?(?:{_ORGAN_ZH})(?:{_ZH_WHEN}){{0,3}}(?:被)?(?:切了|切掉|切除|摘了|摘掉|摘除|拿掉)"
    ),
    re.compile(
        rf"{_MY}\s+(?:[\w-]+\s+)?(?!dichotomy)[a-z]{{3,}}(?:ectomy|otomy|ostomy|plasty|oscopy)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}{{0,3}}(?:在)?(?:吃|服|服用|拿|开|用)(?:了|过)?(?:{_DURATION_ZH})的?"
        r"[\u4e00-\u9fff]{0,6}?[药藥](?!店|房|材|膳|酒|妆|学|厂)"
    ),
    re.compile(
        rf"{_ZH_I}的?(?:左|右|一只|两只|双|一边的?)(?:眼睛?|耳朵?)(?:{_ZH_WHEN}){{0,3}}"
        r"(?:看不见|看不到东西|听不见|听不到|失明|失聪|聋了)"
        rf"|{_ZH_I}的?(?:眼睛?|耳朵?)(?:已经|基本|几乎|完全|从小|一直){{1,3}}(?:看不见|听不见|失明|失聪|聋了)"
        rf"|{_ZH_I}{_ZH_WHEN}{{0,3}}(?:双目|双眼|单眼|双耳|单耳)?(?:失明|失聪)"
        rf"|{_IM}\s+(?:\w+\s+)?(?:blind|deaf)\s+in\s+(?:my\s+(?:left|right)|one|both)\s+(?:eyes?|ears?)\b"
        rf"|{_I}\s+{_ADV}(?:went|have\s+gone|'ve\s+gone)\s+(?:\w+\s+)?(?:blind|deaf)\b(?!\s+drunk)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+{_ADV}(?:lost|miscarried|terminated|ended)\s+(?:a|the|my|our|an?\s+\w+)\s+"
        r"(?:pregnancy|pregnancies)\b"
        rf"|{_I}\s+{_ADV}(?:had|have\s+had)\s+(?:an?|two|three|\d|several)\s+(?:early\s+|late\s+)?"
        r"(?:miscarriages?|abortions?|terminations?|stillbirths?|ectopic\s+pregnanc(?:y|ies))\b"
        rf"|{_ZH_I}{_ZH_WHEN}{{0,3}}(?:做过|做了|有过|经历过|刚)?(?:[一二两三\d]次)?(?:流产|流过产|人流|药流|小产|胎停|宫外孕)",
        re.IGNORECASE,
    ),
]
# A practice at a place of worship: the ritual verbs of Buddhist and folk worship.
_RELIGION = [
    re.compile(
        rf"{_ZH_I}[^。！？，,\n]{{0,10}}?(?:都|会|要)?去(?:庙里|寺里|寺庙|庙|寺|道观|观里|宫里|祠堂|佛堂)"
        r"(?:上香|烧香|拜佛|拜菩萨|拜神|拜妈祖|礼佛|祈福|还愿|求签|念佛|诵经)"
    ),
]
# Same-sex attraction stated across two clauses: the gender of whom the user is drawn to
# and the user's own are the same ("I only date women, and I'm a woman myself",
# 我喜欢男生，我自己也是男生). A different gender is not flagged.
_GENDERS_EN = (
    (r"(?:men|guys|boys|other\s+men)", r"(?:man|guy|boy|male)"),
    (r"(?:women|girls|ladies|other\s+women)", r"(?:woman|girl|lady|female)"),
)
_GENDERS_ZH = (
    ("男生|男人|男的|男孩", "男生|男人|男的|男孩"),
    ("女生|女人|女的|女孩", "女生|女人|女的|女孩"),
)
_ORIENTATION = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:date|dated|dating|like|fancy|am\s+into|'m\s+into|am\s+attracted\s+to|"
        rf"'m\s+attracted\s+to|fall\s+for|love)\s+(?:only\s+)?{them}\b[^.!?\n]{{0,40}}?"
        rf"(?:{_IM}\s+(?:a\s+)?{me}\b|\b(?:a\s+)?{me}\s+myself\b|\bmyself\s+(?:a\s+)?{me}\b)",
        re.IGNORECASE,
    )
    for them, me in _GENDERS_EN
] + [
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}{{0,2}}(?:只)?(?:喜欢|爱|对)(?:{them})[^。！？\n]{{0,12}}?"
        rf"我(?:自己)?(?:也|本身也?)?是(?:个)?(?:{me})"
    )
    for them, me in _GENDERS_ZH
]
_BIOMETRIC = [
    re.compile(
        rf"{_MY}\s+(?:palm|finger|hand|wrist)?\s*(?:vein|vascular)\s+(?:pattern|template|print|scan|data)\b"
        rf"|{_MY}\s+hand\s+geometry\b|{_MY}\s+(?:signature|voice)\s+(?:template|biometrics?)\b",
        re.IGNORECASE,
    ),
    re.compile(rf"{_ZH_I}的(?:手掌|手指|掌)?静脉(?:纹路|图案|特征|信息|数据)"),
]
_POLITICAL = [
    re.compile(
        rf"{_ZH_I}是[^。！？，,\n]{{0,14}}?(?:入的党|入的团|入的盟)"
        rf"|{_ZH_I}{_ZH_WHEN}{{0,3}}(?:入了党|入党了|入过党)"
    ),
]
# Race and ethnicity as censuses publish them (closed): the US OMB SPD 15 categories, the
# ONS 2021 ethnic groups of England and Wales, the Indigenous peoples of the Canadian and
# Australian censuses. A bare nationality word (Indian, Chinese, Irish) is not among them
# alone: it is one only as part of a census name (British Pakistani, Irish Traveller).
_CENSUS_EN = (
    r"(?-i:B)lack(?:\s+(?:British|American|African|Caribbean))?|(?-i:W)hite(?:\s+British)?|"
    r"(?:black|white|brown)(?=\s+(?:woman|man|person|guy|girl|kid|lady|family|mother|father)\b)|"
    r"African[- ]American|Afro-(?:Caribbean|Latin[oa]|American)|mixed[- ]race|biracial|multiracial|"
    r"(?:half|part)[- ](?:Black|white|Asian|Latin[oa]|Native)|Latin[oax]|Latine|Hispanic|Chicano|Chicana|"
    r"Native\s+(?:American|Hawaiian)|Alaska\s+Native|(?:Pacific|Torres\s+Strait)\s+Islander|"
    r"Aboriginal|Indigenous|First\s+Nations|M[eé]tis|Inuk|Inuit|(?:an?\s+)?(?:Irish\s+)?Traveller|"
    r"Romani|Gypsy|Arab|(?:British|American|Canadian|Australian)[- ](?:Pakistani|Bangladeshi|Indian|"
    r"Chinese|Korean|Japanese|Filipino|Vietnamese|Nigerian|Somali|Caribbean|Asian|Arab)|"
    r"(?:Chinese|Korean|Japanese|Filipino|Vietnamese|Mexican|Indian|Pakistani)[- ]American|"
    r"Asian[- ](?:American|British|Canadian|Australian)"
)
_ETHNICITY = [
    re.compile(
        rf"{_IM}\s+(?:an?\s+)?(?:proud\s+)?(?:{_CENSUS_EN})"
        r"(?:\s+(?:woman|man|person|guy|girl|kid|lady|dude|family|mother|father|mum|mom|dad)\b"
        r"|(?=\s*(?:[,.;!?—–]|$|\s(?:and|but|so|myself|too|by|on|from|with)\b)))",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\bas\s+an?\s+(?:{_CENSUS_EN})(?:\s+(?:woman|man|person|guy|girl|kid|lady|mother|father))?"
        r"\s*,?\s+(?:i|my|i'm|i've)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_IM}\s+(?:half[- ])?(?-i:[A-Z])[a-z]+\s+by\s+(?:birth|blood|heritage|descent|ancestry)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}{{0,2}}是(?:一个|一名|个)?(?:黑人|白人|[\u4e00-\u9fff]{{0,3}}混血儿?|华裔|华侨后代|少数民族|"
        r"原住民|印第安人|阿拉伯人|吉普赛人)(?!的朋友|朋友|同事|演员|明星|角色)"
        r"|(?:저는|나는|제가)\s*(?:\S+\s+)?(?:혼혈|흑인|교포\s*\d세)(?:이에요|예요|입니다|이야|야|이라서|라서)"
        r"|(?:私|わたし|僕|俺)は[^。]{0,6}?(?:ハーフ|ミックス|黒人|アイヌ|在日(?:韓国人|朝鮮人|コリアン)?)(?:です|だ|なので|として)"
    ),
    re.compile(
        rf"{_MY}\s+(?:family|people|parents|ancestors|forebears|grandparents)\s+(?:is|are|were|was)\s+"
        r"(?:all\s+|both\s+)?(?-i:[A-Z])[a-z]+(?:-(?-i:[A-Z])[a-z]+)?"
        r"(?=\s*(?:[,.;!—–]|$|\s(?:and|but|so|from|by)\b))",
        re.IGNORECASE,
    ),
]

DISCLOSURE_FORMS: dict[str, list[re.Pattern[str]]] = {
    "health": _HEALTH,
    "religion": _RELIGION,
    "biometric": _BIOMETRIC,
    "political": _POLITICAL,
    "sexual_orientation": _ORIENTATION,
    "ethnicity": _ETHNICITY,
}
