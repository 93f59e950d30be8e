"""Special categories recognised through closed, standard classes of words, with the user
as the subject (round 4 of issue 32).

``special_categories`` and ``special_forms`` name conditions, faiths and practices; what
they cannot list is the open set of medicines, assistive products and peoples. Each of
those has a *standard* closed naming, so a rule can cover members nobody has written down:

- **medicines**: the WHO INN stem system names every drug of a class with one ending
  (-racetam, -xaban, -gliflozin, -mab …) and the Chinese approved names (中国药品通用名称)
  transliterate each stem the same way (…他汀 = -statin, …替尼 = -tinib, …西汀 = -oxetine);
- **assistive products**: the ISO 9999 classification (mobility, hearing, vision, ostomy,
  diabetes and breathing aids) — a person using one discloses a disability or condition;
- **ethnicity**: the 56 ethnic groups officially recognised in the PRC and the 16
  indigenous peoples recognised in Taiwan — a fixed, published list;
- **criminal record** (GDPR Art. 10): the closed vocabulary of the sentence itself —
  prison, licence/parole, conviction, 坐牢/服刑/前科 — with the user as the one sentenced.

The subject is the user: "I"/"my" in English, 我 not followed by 们 in Chinese, with only
words of time, frequency or dose in between, so 我妈在吃…, 我朋友是…族, "my brother was
arrested", "他汀类药物的副作用" and "I'm a pharmacist" pass.
"""

from __future__ import annotations

import re

_I = r"\b(?:i(?:'m|'ve|'d| am| have| had| was)?|(?:the\s+)?user(?: has| is| was)?)"
_IM = r"\b(?:i(?:'m| am)|(?:the\s+)?user(?:'s| is))"
_MY = r"\b(?:my|(?:the\s+)?user's)"
_ADV = r"(?:(?:also|still|now|just|recently|already|always|been|back|only|currently)\s+)*"

# WHO INN stems (closed: the INN programme's published stem list), the classes in daily
# use not already in special_categories._DRUGS_EN.
_INN_EN = (
    r"[a-z]{2,}(?:racetam|xaban|gatran|oquine|gliptin|gliflozin|glutide|lutide|[a-z]mab|apine|"
    r"peridone|asidone|setron|tidine|parin|lukast|dronate|thiazide|semide|tegravir|navir|"
    r"[cfl]ovir|buvir|(?<!s)terol|tropium|afil|olone|asone|triptyline|pramine|barbital)"
)
# The same stems as the Chinese approved names write them (closed for the same reason).
_INN_ZH = (
    r"普利|沙坦|洛尔|地平|他汀|西汀|氮平|硫平|西泮|唑仑|替尼|单抗|拉唑|替丁|格列汀|格列净|鲁肽|"
    r"西坦|沙班|加群|洛韦|韦林|司韦|那韦|特韦|他韦|米韦|司琼|曲坦|膦酸|噻嗪|司特|特罗|溴铵|米松|尼松|泼尼龙|"
    r"替林|帕明|西林|霉素|沙星|环素|拉嗪|哌酮|唑酮|利酮|奈德"
)
# Words of time, frequency, aspect and dose that may stand between 我 and the verb, so
# that no other person (我妈, 我朋友) can.
_ZH_WHEN = (
    r"(?:[上下这本]个?(?:周|週|月|星期)|明天|今天|昨天|去年|今年|最近|已经|正在|现在|一直|长期|以前|之前|曾经|"
    r"每[一两二三四\d]?个?(?:[天晚早日周週月年]|星期)|才|刚刚?|早上|晚上|早晚|睡前|饭前|饭后|起床后|都|也|还|就|要|得|会|在|按时|需要|开始)"
)
_ZH_I = r"我(?!们|們)"
_ZH_DOSE = r"(?:[一二两三四五六半\d]+(?:片|粒|颗|支|针|袋|瓶|毫克|mg)的?)?"
_SEVERE_ZH = r"(?:很|越来越|又|挺|特别|比较)?(?:严重|厉害|加重|复发|发作)"

# 我, then only time/frequency/dose words, then a verb of taking: shared with the named
# drugs of special_categories (我每晚睡前吃半片…).
ZH_TAKES = rf"{_ZH_I}{_ZH_WHEN}{{0,4}}(?:吃|服用|服|打|用|注射|喷)(?:着|了)?{_ZH_DOSE}"

_HEALTH = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:take|takes|taking|took|need|am on|'m on|on|use|uses|using|inject|"
        rf"injects|was prescribed|got prescribed|been prescribed|started|stopped)\s+"
        rf"(?:my\s+|daily\s+|some\s+|\d+\s*mg\s+(?:of\s+)?)*(?:{_INN_EN})\b"
        rf"|{_MY}\s+(?:{_INN_EN})\s+(?:prescription|dose|tablets?|pills?|refill|injections?|inhaler)\b"
        rf"|\bthe\s+(?:{_INN_EN})\s+(?:gives|makes|is\s+giving|is\s+making|gave|made)\s+me\b",
        re.IGNORECASE,
    ),
    re.compile(rf"{ZH_TAKES}[\u4e00-\u9fff]{{1,6}}?(?:{_INN_ZH})(?![\u4e00-\u9fff]*类)"),
    # ISO 9999 assistive products used by the user.
    re.compile(
        rf"{_I}\s+{_ADV}(?:use|uses|rely\s+on|need|get\s+(?:about|around)\s+(?:on|with|in)|"
        r"walk\s+with|am\s+on|'m\s+on|on|wear|wears|have)\s+(?:an?\s+|my\s+)?"
        r"(?:wheelchair|mobility\s+scooter|(?:white|long)\s+cane|crutches|rollator|walking\s+frame|"
        r"zimmer\s+frame|hearing\s+aids?|(?:bone-anchored|cochlear)\s+\w+|prosthetic\s+(?:leg|arm|limb)|"
        r"prosthesis|stoma(?:\s+bag)?|colostomy\s+bag|catheter|feeding\s+tube|glucose\s+monitor|"
        r"home\s+oxygen|oxygen\s+concentrator)\b(?!\s+(?:ramp|access|space|lift|taxi|for\b))"
        rf"|{_MY}\s+(?:wheelchair|mobility\s+scooter|white\s+cane|crutches|rollator|prosthesis|"
        r"prosthetic|stoma|colostomy|feeding\s+tube|hearing\s+aids?)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_ZH_I}(?:出门|平时|走路){{0,2}}{_ZH_WHEN}{{0,3}}(?:拄着?|坐着?|用着?|戴着?|靠|装着?|埋了个?|带着?)"
        r"(?:盲杖|拐杖|轮椅|助行器|助听器|人工耳蜗|假肢|义肢|胰岛素泵|造口袋|导尿管|呼吸机|制氧机|"
        r"动态血糖仪|输液港|读屏软件)"
    ),
    re.compile(
        r"(?:^|(?:私|わたし|僕|俺)は)[^。はが]{0,12}?(?:インスリンポンプ|車椅子|車いす|白杖|補聴器|人工内耳|"
        r"義足|松葉杖|ストーマ)を[^。]{0,3}(?:付け|つけ|使っ|使い|使用|つい)"
        r"|(?:^|저는|나는|제가|내가)\s*(?:\S*[^\s가이는께]\s+){0,2}?(?:휠체어|보청기|인공와우|지팡이|인슐린\s*펌프|의족)"
        r"(?:를|을)?\s*(?:써요|쓰고|사용|타고|끼고|달고)"
    ),
    # A test or scan of the user that came back; a numbered session of a therapy for the
    # user; a medicine collected from the pharmacy or taken on a schedule (any name).
    re.compile(
        rf"{_MY}\s+(?:[\w-]+\s+){{0,2}}?(?:analysis|biopsy|scan|smear|swab|bloods|blood\s+work|screening|"
        r"mri|ct|x-ray|ultrasound|mammogram|colonoscopy|endoscopy)\s+(?:results?\s+)?(?:came\s+back|showed|"
        r"shows|found|(?:was|were)\s+(?:abnormal|clear|positive|negative|poor|normal|inconclusive))\b"
        rf"|{_MY}\s+(?:first|second|third|fourth|fifth|sixth|next|last|final|\d+(?:st|nd|rd|th))\s+"
        r"(?:session|round|cycle|dose|course|fraction)\s+of\s+(?:[\w-]+\s+){0,3}?(?:therapy|treatment|"
        r"radiotherapy|chemo(?:therapy)?|infusions?)\b"
        rf"|{_I}\s+{_ADV}(?:pick\s+up|collect|get|fetch)\s+my\s+(?!(?:mum|mom|dad|son|daughter|kids?|"
        r"wife|husband|partner|parcel|package|post|mail)\b)(?:[\w-]+\s+){1,2}?from\s+the\s+"
        r"(?:chemist|pharmacy|dispensary|clinic)\b"
        rf"|{_I}\s+{_ADV}take\s+my\s+(?-i:[A-Z])[\w-]+\s+(?:at\s+\d{{1,2}}(?::\d\d)?\s*(?:am|pm)|"
        r"before\s+bed|with\s+(?:food|a\s+snack|meals|water))",
        re.IGNORECASE,
    ),
    re.compile(
        r"我(?!们|們)(?:最近|一直|这阵子|这段时间)?(?:抑郁|焦虑|躁郁|强迫症|失眠|厌食|暴食)"
        + _SEVERE_ZH
    ),
]

# 56 PRC ethnic groups and the 16 recognised Taiwan indigenous peoples (simplified and
# traditional forms): a published, fixed list.
_PEOPLES_ZH = (
    r"汉|蒙古|回|藏|维吾尔|苗|彝|壮|布依|朝鲜|满|侗|瑶|白|土家|哈尼|哈萨克|傣|黎|傈僳|佤|畲|高山|"
    r"拉祜|水|东乡|纳西|景颇|柯尔克孜|土|达斡尔|仫佬|羌|布朗|撒拉|毛南|仡佬|锡伯|阿昌|普米|"
    r"塔吉克|怒|乌孜别克|俄罗斯|鄂温克|德昂|保安|裕固|京|塔塔尔|独龙|鄂伦春|赫哲|门巴|珞巴|基诺|"
    r"阿美|泰雅|排湾|排灣|布农|布農|卑南|鲁凯|魯凱|邹|鄒|赛夏|賽夏|雅美|达悟|達悟|邵|噶玛兰|噶瑪蘭|"
    r"太鲁阁|太魯閣|撒奇莱雅|撒奇萊雅|赛德克|賽德克|拉阿鲁哇|拉阿魯哇|卡那卡那富"
)
_ETHNICITY = [
    re.compile(
        rf"{_ZH_I}(?:家)?(?:是|属于|屬於)(?:一名|一个|个)?(?:{_PEOPLES_ZH})族(?!自治|文化|歌|舞|语|服|菜|馆|箱|爱好|的朋友|朋友)"
        rf"|{_ZH_I}的?民族(?:是|为|[:：])"
    ),
    re.compile(
        rf"{_IM}\s+(?:half|part|a\s+quarter|partly)?\s*(?-i:[A-Z])[a-z]+\s+on\s+my\s+(?:mother|father|mum|mom|dad)'s\s+side\b"
        rf"|{_IM}\s+of\s+(?-i:[A-Z])[a-z]+(?:\s+(?-i:[A-Z])[a-z]+)?\s+(?:descent|heritage|ancestry|origin)\b"
        rf"|{_MY}\s+(?:ethnicity|ethnic\s+(?:background|origin|group))\b",
        re.IGNORECASE,
    ),
]

_CRIMINAL = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:(?:did|served|spent|do|doing)\s+(?:\w+\s+){{0,2}}(?:days?|nights?|weeks?|months?|years?)|did\s+time)\s+(?:in|inside)\s+(?:a\s+)?"
        r"(?:prison|jail|gaol|hmp\b|young\s+offenders|juvie|the\s+nick|(?:federal|state)\s+prison)(?!\s+(?:museum|tour|library|cafe|kitchen|as\s+a))"
        rf"|{_IM}\s+(?:out\s+)?on\s+(?:licence|license|parole)\b"
        rf"|{_IM}\s+on\s+(?:an?\s+)?(?:electronic\s+tag|ankle\s+monitor)"
        rf"|{_I}\s+{_ADV}(?:have|has|'ve\s+got|got)\s+(?:an?\s+)?(?:spent\s+|previous\s+|prior\s+|"
        r"unspent\s+|criminal\s+)*(?:conviction|criminal\s+record)\b(?!\s+that)"
        rf"|{_I}\s+{_ADV}(?:was|got|been)\s+(?:convicted|jailed|imprisoned|incarcerated|locked\s+up)\b"
        rf"|{_I}\s+{_ADV}(?:got\s+out\s+of|was\s+released\s+from|came\s+out\s+of)\s+(?:prison|jail)"
        rf"|{_MY}\s+(?:conviction\s+for|criminal\s+record|parole\s+officer|probation\s+officer|prison\s+sentence)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_WHEN}{{0,3}}(?:坐过牢|坐过监|坐了\S{{0,4}}牢|蹲过(?:监|牢|号子|大狱|[一二三四五六七八九十两半\d]+年)|服过刑|在服刑|服刑|刑满释放|"
        r"有(?:前科|案底|犯罪记录)|进过(?:监狱|看守所|局子)|从(?:监狱|看守所|拘留所|牢里)(?:里)?出来|"
        r"在(?:缓刑|假释)|被判(?:了|过)?(?:刑|缓刑|有期|无期|拘役|死缓|[一二三四五六七八九十两半\d]+(?:年|个月)))"
        rf"|{_ZH_I}(?:因为|因)[^。！？\n]{{0,12}}?(?:被判(?:了|过)?刑|判过刑|坐了?牢|被拘留|被判(?:了|过)?(?:缓刑|拘役|有期))"
        r"|(?:私|わたし|僕|俺)は[^。]{0,10}(?:前科|服役|刑務所に)"
        r"|(?:저는|나는|제가|내가)\s*(?:\S+\s+){0,2}?(?:전과가|교도소에서|감옥에서|복역)"
    ),
]

# Language parity: forms the English and Chinese rules know, said in Japanese or Korean
# (I'm gay / 我是同性恋; I'm a Catholic / 我是天主教徒; I go to Mass every week; union rep
# / 工会代表), and the English forms of a practice with the adverb placed first.
_ORIENTATION = [
    re.compile(
        r"(?<!\S)(?:저는|나는|난|전|나|제가)\s+(?:\S*[^\s가이는께]\s+)?(?:게이|레즈비언|양성애자|동성애자|범성애자|무성애자|"
        r"바이섹슈얼|퀴어)(?:야|이야|예요|이에요|입니다|라서|인데)"
        r"|(?:私|わたし|僕|俺|あたし)は[^。]{0,6}?(?:ゲイ|レズビアン|バイセクシュアル|同性愛者|両性愛者|"
        r"アセクシュアル|パンセクシュアル)(?:です|だ|なので|として)"
    ),
]
_RELIGION = [
    re.compile(
        r"(?:私|わたし|僕|俺)は[^。]{0,8}?(?:カトリック|クリスチャン|キリスト教徒|仏教徒|イスラム教徒|ムスリム|"
        r"ユダヤ教徒|ヒンドゥー教徒|シク教徒|モルモン教徒|エホバの証人|無神論者|(?:教|宗)の(?:信者|信徒))"
        r"(?:です|だ|なので|として)"
        r"|(?:私|わたし|僕|俺)は[^。]{0,12}?(?:毎週|毎日|毎朝|日曜(?:日)?(?:に|は)?)[^。]{0,6}?"
        r"(?:ミサ|礼拝|教会|モスク)に(?:行|通|参加)"
        r"|(?:저는|나는|제가|내가)\s*(?:\S*[^\s가이는께]\s+)?(?:천주교|가톨릭|기독교|개신교|불교|이슬람교?|원불교)\s*"
        r"(?:신자|신도|교도)(?:예요|이에요|입니다|야|이야|라서)"
    ),
    # A holy day named before the user: "每个主日我都去…" (as 斋月期间我 in special_forms).
    re.compile(r"(?:主日|安息日|主麻日)[^。！？，,\n]{0,3}我(?!们|們)"),
    re.compile(
        rf"{_I}\s+{_ADV}(?:eat|keep|buy|cook)\s+(?:only\s+|strictly\s+)?(?:halal|kosher)\b"
        rf"|{_I}\s+{_ADV}(?:fast|am\s+fasting|'m\s+fasting)\s+from\s+(?:dawn|sunrise|sun-?up|first\s+light)"
        r"\s+(?:to|until|till)\s+(?:sunset|dusk|sundown|nightfall)",
        re.IGNORECASE,
    ),
]
_TRADE_UNION = [
    re.compile(
        r"(?:저는|나는|제가|내가)\s*(?:\S*[^\s가이는께]\s+){0,3}?(?:노조|노동조합)\s*(?:\S+\s*)?"
        r"(?:위원장|분회장|지부장|지회장|대의원|간부|사무국장)(?:이에요|예요|입니다|이야|야|을|를|으로|로)"
    ),
]
# The user's body verifies the user: "the bank checks it's me by my voice", 用我的声音验证.
_BIOMETRIC = [
    re.compile(
        r"\b(?:verif(?:y|ies|ied)|checks?|checked|recogni[sz]es?|identif(?:y|ies)|authenticates?|"
        r"unlocks?)\s+(?:(?:that\s+)?it'?s\s+)?me\s+(?:by|with|from|using|through)\s+my\s+(?:voice|face|"
        r"fingerprints?|iris(?:es)?|palm|eyes?|retinas?|veins?|gait)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:用|靠|通过|通過|刷)我的(?:声音|聲音|脸|臉|面部|指纹|指紋|虹膜|掌纹|掌紋|静脉|靜脈)(?:来|來)?"
        r"(?:验证|驗證|识别|識別|解锁|解鎖|登录|登錄|确认|確認)"
    ),
]

SUBJECT_FORMS: dict[str, list[re.Pattern[str]]] = {
    "health": _HEALTH,
    "ethnicity": _ETHNICITY,
    "criminal_record": _CRIMINAL,
    "sexual_orientation": _ORIENTATION,
    "religion": _RELIGION,
    "trade_union": _TRADE_UNION,
    "biometric": _BIOMETRIC,
}
