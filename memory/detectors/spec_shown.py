"""Special categories shown by a measure, a word's form, an aid, an enrolment or an
observance, with the speaker as subject (issue 32, rounds 20 and 21).

Earlier rounds read a diagnosis, a medicine, a device in the body, a faith named. These
read what unseen probe sets (the lead's, not the held-out set) still stored, each as a closed
frame around the speaker. Since round 21 this is the one place that reads pregnancy by its
measures and a procedure or a specialist by medical word formation (what ``medical_forms``,
``special_forms`` and ``subject_forms`` read of them before is here, once):

- **health**
  - *pregnancy by its measures*: weeks counted along ("I'm 24 weeks pregnant", "sixteen
    weeks along", 孕26周, 怀孕第20周, 怀上二胎, 妊娠30週, 임신 20주), a trimester or
    孕早/中/晚期, the speaker's due date, midwife or scan, being due/expecting in a month or
    expecting a child; 备孕, 我的产检/孕检; a caesarean or VBAC the speaker had;
  - *a procedure by medical word-formation*: an English word in one of the suffix families
    of surgical and diagnostic procedures (-ectomy, -otomy, -ostomy, -oscopy, -oplasty,
    -ography, -ogram; closed list of everyday words of the same shape excluded:
    photography, kilogram, dichotomy …) undergone, booked or recovered from by the
    speaker, or "my …ectomy"; a procedure by its head noun (open-heart surgery, a kidney
    transplant, dialysis, a hip replacement); a specialist in -ologist/-iatrist the speaker
    sees; in Chinese, 做/动/接受 + a procedure head (…切除术, …造影, …镜(检查), 搭桥, 穿刺,
    活检, an organ's 移植) with 我 as subject, a department (…科) the speaker is seen at; in
    Japanese, …を受けました or …を摘出しました with no other person as topic; in Korean, 수술을
    받았어요 with no other subject; a procedure's Latin name inside Chinese;
  - *disability shown by an aid*: the speaker's guide/service/hearing dog, white cane,
    mobility scooter, screen reader, braille display, 导盲犬, 盲杖, 助听器, 人工耳蜗;
    walking with a cane; being registered/legally blind or deaf or partially sighted;
    我是…级…残疾;
  - *fertility treatment* (IVF, ICSI, IUI, egg retrieval, embryo transfer; 试管, 促排,
    取卵, 胚胎移植) the speaker or "we" go through;
  - *recovery* from addiction: meetings (AA, NA, Narcotics/Alcoholics/Gamblers Anonymous,
    twelve-step; 戒酒/戒毒互助会) the speaker attends, a sobriety chip the speaker got, or
    being "in recovery" with nothing governed (for eight months, since 2019);
- **religion**: an observance kept or broken (keep the fast, observe the Sabbath, fast
  for a named holy season, give something up for Lent, break the fast at sunset or at a
  place of worship); a rite done by the speaker (puja, aarti, namaz, the rosary, communion,
  confession, lighting Shabbat or Hanukkah candles, Sunday mass); friends named by a place
  of worship in a sentence with a rite (my mosque friends … iftar); 封斋/守斋/开斋, 斋月
  with fasting, 望弥撒;
- **biometric**: the speaker's face, palm, iris, voice or fingerprints enrolled, registered,
  scanned or given (voice ID set up; 录入/登记/采集 + 声纹/虹膜/掌静脉/指静脉).

Each rule reads sentence by sentence and skips a sentence that supposes or asks, and one
framed as news, fiction or hearsay (``_REPORTED``): precedence is other person < frame <
negation, all stored; a future phrase does not lift the hold (a booked procedure is health).

A term medicine lends to other trades (surgery, transplant, replacement, weeks along,
expecting, recovery, 移植) counts only where what it governs is medicine's own: the body, a
time, a child, or nothing (``_acts_off_the_body`` and the complements in the pregnancy and
recovery rules). The borrowing domains are never listed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.detectors.life_frames import _SENTENCE, _SUPPOSED, _ZH_GAP, StatedText
from memory.detectors.open_noun_frames import _ADV, _I, _IM, _MY
from memory.detectors.open_noun_frames import _ZH_I as _ZH_SPEAKER

_F = re.IGNORECASE
# Whether a match of a rule is a term another domain borrowed (read in the match's sentence).
_Borrowed = Callable[[str, re.Match[str]], bool]
# The speaker, also in a plan or a past habit (a booked procedure, a rite to come, "used to").
_I_WILL = (
    rf"(?:{_I}|\bi(?:(?:'ll|\s+will)(?:\s+be)?|'m\s+going\s+to|\s+am\s+going\s+to|\s+used\s+to))"
)
# 我 not before an in-law or a relative the shared list leaves out (我婆婆, 我岳父, 我表姐).
_ZH_I = (
    _ZH_SPEAKER
    + r"(?!婆婆|公公|岳父|岳母|丈母娘|老丈人|家婆|家公|外甥|侄|孙|孫|表[哥姐弟妹]|堂[哥姐弟妹]|嫂|姐夫|妹夫|舅妈|伯)"
)
# A sentence framed as news, fiction or hearsay: told about, not by, the speaker.
_REPORTED = re.compile(
    r"\b(?:according\s+to|reportedly|the\s+(?:article|news|report|paper|novel|film|show|story|book|"
    r"documentary)|in\s+(?:the|a|my|this)\s+(?:novel|film|movie|show|series|book|story|play|script|"
    r"game|dream)|headlines?|a\s+study|researchers|(?:he|she|they)\s+(?:said|says|told|claims?))\b"
    r"|新闻|报道|據|据悉|据说|听说|小说|电影|电视剧|剧里|书里|故事|网上说|热搜|ニュース|小説|뉴스|소설",
    _F,
)


class _Told:
    """``rule`` read in each stated sentence of the speaker's that is not reported, in a
    text holding one of ``words`` (lower-cased) and matching ``rule`` as a whole (a cheap
    first test: a text the rule does not match is not split): the literal prefilter reads
    ``rule``."""

    def __init__(
        self, rule: re.Pattern[str], words: tuple[str, ...], borrowed: _Borrowed | None = None
    ) -> None:
        self.rule, self.words, self.borrowed = rule, words, borrowed
        self.pattern = self.prefilter_pattern = rule

    def search(self, text: str):
        low = text.lower() + " "  # a word that ends the text ends with a space
        if not any(w in low for w in self.words) or not self.rule.search(text):
            return None
        sentences = (
            text.stated
            if isinstance(text, StatedText)
            else [s for s in _SENTENCE.findall(text) if not _SUPPOSED.search(s)]
        )
        for sentence in sentences:
            if _REPORTED.search(sentence):
                continue
            for m in self.rule.finditer(sentence):
                if self.borrowed is None or not self.borrowed(sentence, m):
                    return m
        return None


def _told(
    words: tuple[str, ...], *alternatives: str, borrowed: _Borrowed | None = None
) -> list[_Told]:
    return [_Told(re.compile(a, _F), words, borrowed) for a in alternatives]


# --- a term borrowed by another domain ---------------------------------------------------
# Medicine lends its words to every trade: a transplant of the billing service, surgery on
# the checkout flow, a battery replacement, weeks along in a course, a due date for a
# thesis, a delivery one is expecting. What the term governs says whose word it is: in
# medicine a procedure acts on the body (or on a pronoun standing for it, or at a time); a
# pregnancy's measure governs nothing; an ordinal after "expecting" governs a child. So a
# term counts only where its complement is medicine's own: not by a list of the domains
# that borrow it (courses, code, parcels …), which no list could close.
_BODY_EN = (
    r"(?:head|skull|brain|face|eyes?|eyelids?|ears?|nose|sinus(?:es)?|jaw|mouth|teeth|tooth|gums?|"
    r"tongue|tonsils?|adenoids|throat|larynx|neck|spine|back|shoulders?|arms?|elbows?|wrists?|hands?|"
    r"fingers?|thumbs?|chest|breasts?|heart|lungs?|ribs?|stomach|belly|abdomen|tummy|liver|kidneys?|"
    r"gall\s*bladder|pancreas|spleen|bowels?|colon|appendix|bladder|prostate|uterus|womb|ovar(?:y|ies)|"
    r"cervix|tubes|hips?|pelvis|legs?|thighs?|knees?|kneecaps?|ankles?|feet|foot|toes?|heels?|skin|"
    r"bones?|joints?|valves?|arter(?:y|ies)|veins?|cornea|retina|lens|thyroid|hernia|discs?|"
    r"ligaments?|acl|mcl|meniscus|tendons?|achilles|rotator\s+cuff|cataracts?|marrow|side|body|"
    r"me|it|them|sort|kind)"
)
_TIME_EN = (
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan(?:uary)?|feb(?:ruary)?|march|april|may|"
    r"june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d\w*|week|"
    r"weekend|month|year|day|morning|afternoon|evening|night|today|tomorrow|yesterday|spring|"
    r"summer|autumn|fall|winter|christmas|easter"
)
# The noun phrase a term governs through "on", "of", "to": up to four words, ending before
# a time adverb, a preposition or a conjunction that starts the clause's next part.
_GOVERNED_EN = re.compile(
    r"\s+(?:on|of|to)\s+((?:(?!(?:last|this|next|in|at|for|and|but|after|before|with|when|because|"
    r"so|since|until)\b)[\w'-]+\s*){1,4})",
    _F,
)
_MEDICINES_OWN_EN = re.compile(rf"\b(?:{_BODY_EN}|{_TIME_EN})\b", _F)


def _acts_off_the_body(sentence: str, m: re.Match[str]) -> bool:
    """A procedure's term (``m``) governs a noun phrase that names no part of a body, no
    pronoun and no time (surgery on the checkout flow, a transplant of the billing service):
    the term is borrowed."""
    governed = _GOVERNED_EN.match(sentence, m.end())
    return bool(governed) and not _MEDICINES_OWN_EN.search(governed.group(1))


_NUM_EN = (
    r"(?:\d{1,2}(?:\s*\+\s*\d)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty(?:[- ]\w+)?|thirty(?:[- ]\w+)?|"
    r"forty)"
)
_NUM_ZH = r"[\d一二三四五六七八九十两]{1,3}"
_MONTH_EN = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|the\s+(?:spring|summer|autumn|fall|winter|new\s+year))"
)
_ABOUT = r"(?:(?:about|almost|nearly|only|just|now|officially|already|over|at)\s+)*"

# --- health: pregnancy by its measures -------------------------------------------------
_PREGNANCY = [
    *_told(
        ("pregnant", "along", "gone", "trimester"),
        # a pregnancy's measure governs nothing but the pregnancy: weeks along in a course,
        # into a project or on a diet are another count's
        rf"{_IM}\s+{_ABOUT}{_NUM_EN}\s+weeks?\s+(?:pregnant|along|gone)\b"
        r"(?!\s+(?:in|into|with|on|through)\s+(?!(?:(?:my|this|our|a|the)\s+)?(?:pregnancy|baby|boy|girl|"
        r"twins|triplets|son|daughter|child|first|second|third|fourth|\d(?:st|nd|rd|th))\b))",
        rf"{_IM}\s+{_ABOUT}(?:in\s+)?my\s+(?:first|second|third|last|final|1st|2nd|3rd)\s+trimester\b",
    ),
    *_told(
        (
            "due",
            "expecting",
            "line",
            "midwife",
            "obstetric",
            "gyn",
            "doula",
            "pregnan",
            "natal",
            "scan",
        ),
        rf"{_MY}\s+due\s+date\b(?!\s+(?:for|on\s+the|at\s+work))"
        r"(?![^.!?]{0,40}\b(?:essay|report|assignment|paper|project|thesis|library|invoice|bill|rent|tax|"
        r"payment|book|return|deadline)s?\b)",
        rf"{_IM}\s+{_ABOUT}(?:due|expecting)\s+(?:(?:in|on|around|at\s+the\s+(?:end|start|beginning)\s+of|"
        r"next|early|late|mid-?)\s+)*"
        rf"(?:{_MONTH_EN}|(?:a\s+few\s+|two\s+|\d\s+)?weeks?|month|any\s+day(?:\s+now)?)\b(?![^.!?]{{0,30}}\b(?:for\s+(?:my|a|an|the|our)|report|results?|paycheck|bonus|review|"
        r"visit|parcel|delivery|promotion|raise|leave|renewal)\b)",
        rf"{_IM}\s+{_ABOUT}(?:due|expecting)\b[^.!?]{{0,30}}?\bwith\s+(?:our|my)\s+(?:first|second|third|"
        r"fourth|\d(?:st|nd|rd|th)|baby|twins|son|daughter|little\s+one)\b"
        # an ordinal after "expecting" governs a child (our first, our second baby), not a
        # shipment or a refund
        rf"|{_IM}\s+{_ABOUT}expecting\s+(?:a\s+(?:baby|boy|girl)|baby|twins|triplets|"
        r"(?:our|my)\s+(?:first|second|third|fourth)(?:\s+(?:baby|child|kid))?\b"
        r"(?!\s+(?!(?:baby|child|kid|in|this|next|and|any|soon|later|at|around|due)\b)[a-z])|"
        r"(?:our|my)\s+(?:baby|child|\w+\s+child))\b",
        rf"{_MY}\s+(?:midwife|obstetrician|ob-?gyn|doula|pregnancy|prenatal|antenatal|"
        r"(?:\d+|[a-z]+)[- ]week\s+scan)\b",
        # a second line on the test: a pregnancy read off the stick
        r"(?:\bi\s+|^|(?<=[.!?]\s))(?:got|saw|have|had)\s+(?:a\s+|my\s+)?(?:very\s+)?(?:faint\s+|"
        r"clear\s+)?(?:second|two|double|2)\s+(?:pink\s+|blue\s+)?lines?\s+on\s+(?:the|a|my)\s+"
        r"(?:stick|test|pregnancy\s+test)\b",
    ),
    *_told(
        ("section", "caesarean", "cesarean", "vbac"),
        rf"{_I_WILL}\s+{_ADV}(?:'ve\s+|have\s+)?(?:had|have|got|having|need(?:ed)?|"
        r"booked\s+(?:in\s+)?for|hoping\s+for|want)\s+(?:an?\s+)?"
        r"(?:(?:emergency|planned|elective|second|repeat)\s+)?(?:c-section|caesarean|cesarean|vbac)\b",
    ),
    *_told(
        tuple(
            "due 孕 怀 懷 预产期 預產期 剖 妊娠 임신 产检 產檢 助产 助產 产科 產科 建档 建檔 唐筛 唐篩 糖耐 四维 四維 nt检查".split()
        ),
        rf"{_ZH_I}{_ZH_GAP}{{0,4}}?(?:怀孕|懷孕|孕)(?:第)?{_NUM_ZH}\s*(?:周|週|个月|個月)",
        rf"{_ZH_I}{_ZH_GAP}{{0,4}}?(?:在|处于|已经|到了)?孕(?:早|中|晚)期",
        rf"{_ZH_I}{_ZH_GAP}{{0,4}}?(?:怀孕|懷孕|怀了|懷了|怀上了?|懷上了?)[^。！？，,\n]{{0,6}}?(?:周|週|个月|個月|胎)"
        rf"|{_ZH_I}{_ZH_GAP}{{0,4}}?(?:怀|懷)(?:二|三|头|頭|第[一二三])胎",
        rf"{_ZH_I}(?:的)?(?:预产期|預產期|产检|產檢|孕检|孕檢|孕周|孕週|助产士|助產士|产科医生|產科醫生)",
        rf"{_ZH_I}{_ZH_GAP}{{0,4}}?(?:备孕|備孕)|{_ZH_I}{_ZH_GAP}{{0,6}}?\s*due\s*了",
        rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:去|做|在|的|约|約)(?:了)?(?:产检|產檢|建档|建檔|唐筛|唐篩|糖耐|四维彩超|四維彩超|NT检查)",
        rf"{_ZH_I}{_ZH_GAP}{{0,4}}?(?:剖腹产|剖宫产|剖腹產|剖宮產|顺转剖)",
        r"(?:^\s*|(?:私|わたし)(?:は|、))\s*(?:今|現在|もう)?(?:妊娠)\s*\d{1,2}\s*(?:週|ヶ月|か月)",
        r"(?:^\s*|(?:저는|제가|나는|내가)\s*)(?:지금\s*)?임신\s*\d{1,2}\s*(?:주|개월)",
    ),
]

# --- health: a procedure by medical word-formation -------------------------------------
_NOT_PROCEDURE = (
    r"(?!(?:photo|bio|geo|choreo|cinemato|typo|porno|carto|biblio|demo|oceano|disco|filmo|steno|"
    r"litho|topo|crypto|hagio|ethno|historio|lexico|calli|holo|histo|mono|kilo|tele|dicho|micro|"
    r"spectro|telescopy|seism|insta|anagr|epigr|paragr|progr|diagr)\w*\b)"
)
_PROCEDURE_EN = (
    rf"{_NOT_PROCEDURE}[a-z]{{3,}}(?:ectom(?:y|ies)|otom(?:y|ies)|ostom(?:y|ies)|oscop(?:y|ies)|"
    r"oplast(?:y|ies)|ograph(?:y|ies)|ograms?|ocentes[ie]s|otrips(?:y|ies))"
)
# A procedure named by its head noun rather than its suffix (open-heart surgery, a kidney
# transplant, dialysis); a replacement or an implant is medicine's only on a part of the body
# (a hip replacement, not a battery replacement).
_PROCEDURE_HEAD_EN = (
    r"(?:surgery|an?\s+operation|dialysis|radiotherapy|radiation\s+therapy|infusions?|transfusions?|"
    rf"(?:(?:total|partial|full)\s+)?{_BODY_EN}[\s-](?:replacement|implant)s?|"
    # up to two modifiers (open-heart, gastric), never a negation or a verb (never had surgery)
    r"(?:(?!(?:never|not|no|had|have|has|got|get|been|any|ever)\b)[a-z]+[\s-]){1,2}(?:surgery|transplant|bypass|biopsy|ablation|resection|excision|"
    r"emboli[sz]ation|catheteri[sz]ation|cardioversion|amputation|ligation))"
)
_UNDERGO_EN = (
    r"(?:'ve\s+|have\s+|had\s+)?(?:had|have|got|get|getting|having|was\s+having|"
    r"need(?:ed)?|underwent|undergo|went\s+in\s+for|go\s+in\s+for|(?:'m\s+|am\s+)?going\s+(?:in\s+)?for|"
    r"had\s+to\s+have|(?:booked|scheduled|down|due|listed)\s+(?:in\s+)?for|(?:'m\s+|am\s+)?on\s+the\s+"
    r"(?:waiting\s+)?list\s+for|recover(?:ed|ing)\s+from|was\s+(?:sent|referred)\s+for|"
    r"prep(?:ping|ped)\s+for|finished|started|(?:'m\s+|am\s+)?doing)"
)
_ZH_PROCEDURE = (
    r"(?:[\u4e00-\u9fff]{1,6}?(?:镜检查|鏡檢查|镜|鏡)"
    r"|[\u4e00-\u9fffA-Za-z ]{0,8}?(?:切除|造影|搭桥|搭橋|穿刺|活检|活檢|消融|介入|栓塞|结扎|結紮|植入)(?:术|術|手术|手術)?"
    r"|[\u4e00-\u9fff]{0,4}?(?:关节|關節|瓣膜)(?:置换|置換)"
    # a transplant of an organ or a tissue; a port of code (代码移植) is another trade's
    r"|(?:骨髓|肝脏?|肝臟?|肾脏?|腎臟?|心脏|心臟|肺|角膜|干细胞|幹細胞|毛发|毛髮|头发|頭髮|皮肤|皮膚|胚胎)移植"
    r"|[\u4e00-\u9fff]{1,6}?(?:置换|置換|成形|移植|修复|修復)(?:术|術|手术|手術)"
    # an operation named by its 术 (…缝合术, …矫正术, LASIK 手术: a modifier may be a Latin
    # name); not the arts, skills and sums that end alike
    r"|[\u4e00-\u9fffA-Za-z ]{1,8}?(?<![技艺藝美算学學武魔战戰法骗騙巫话話心权權])(?:术|術)"
    r"|心导管|心導管|试管婴儿|試管嬰兒)"
)
# Studying, teaching or building a procedure is work on it, not undergoing it; a procedure
# before 的 describes someone (看望刚做完手术的同事).
_ZH_NOT_STUDY = (
    r"(?:(?!学|學|研究|写|寫|教|讲|講|拍|编|編|开发|開發|看望|探望|照顾|照顧)" + _ZH_GAP + ")"
)
_NOT_WORK_ZH = r"(?!的|(?:算法|研究|论文|論文|项目|項目|课题|課題|实验|實驗|软件|軟體|系统|系統|模型|数据|數據|机器|機器|设备|設備))"
_NOT_COMPANION = (
    r"(?!\s+(?:friend|friends|neighbou?r|colleague|colleagues|sister|brother|cousin|dad|mum|mom))"
)
_PROCEDURE = [
    *_told(
        ("ectom", "otom", "ostom", "oscop", "oplast", "ograph", "ogram", "centes", "otrips"),
        rf"{_I_WILL}\s+{_ADV}{_UNDERGO_EN}\s+(?:an?\s+|my\s+|another\s+|the\s+|two\s+|three\s+)?"
        rf"(?:[\w-]+\s+){{0,2}}?{_PROCEDURE_EN}\b",
        rf"{_MY}\s+(?:(?:last|first|recent|next|follow-up|annual|routine|\w+)\s+)?{_PROCEDURE_EN}\b"
        r"(?!\s+(?:class|course|lecture|exam|project|club|business|studio|skills|software))",
        rf"{_ZH_I}{_ZH_GAP}{{0,10}}?做\S{{0,3}}?\s*[A-Za-z]{{3,}}(?:ectomy|otomy|oscopy|oplasty|ography|ogram)\b",
    ),
    *_told(
        tuple(
            "surgery operation dialysis radi fusion replacement implant transplant bypass biopsy ablation section excision ation cardioversion".split()
        ),
        rf"{_I_WILL}\s+{_ADV}{_UNDERGO_EN}\s+(?:an?\s+|my\s+|the\s+|some\s+)?{_PROCEDURE_HEAD_EN}\b",
        borrowed=_acts_off_the_body,
    ),
    # a specialist named by medicine's word formation, the speaker's own
    *_told(
        ("ologist", "iatrist"),
        rf"{_MY}\s+(?:\w+\s+)?[a-z]+(?:ologist|iatrist)\b{_NOT_COMPANION}"
        rf"|{_I_WILL}\s+{_ADV}(?:see|saw|visit|visited|am\s+seeing|'m\s+seeing|started\s+seeing)\s+"
        r"(?:a|an|my)\s+[a-z]+(?:ologist|iatrist)\b",
    ),
    *_told(
        tuple(
            "术 術 置换 置換 成形 移植 修复 修復 镜 鏡 切除 造影 搭桥 搭橋 穿刺 活检 活檢 消融 介入 导管 導管 栓塞 结扎 結紮 植入 科".split()
        ),
        rf"{_ZH_I}{_ZH_NOT_STUDY}{{0,8}}?(?<!是)(?:做|接受|进行|進行|动|動)(?:了|过|過|完|完了)?"
        r"(?:一次|个|個|第[一二三四\d]次)?"
        # a count of operations (做五台手术, 做了三十例) is a surgeon's day, not the speaker's
        r"(?![一二两三四五六七八九十几百千\d]+(?:台|臺|例|场|場))"
        rf"{_ZH_PROCEDURE}(?![子头頭片框面像])(?<!眼镜|眼鏡|墨镜){_NOT_WORK_ZH}",
        # a hospital department the speaker goes back to (我每周去心内科复诊), not one worked in
        r"(?<![陪带帶送帮幫替和跟])我(?:每[一两二三]?[周週月天年]|定期|经常|經常|按时|按時|还要|還要|要|得|"
        r"最近|昨天|今天|明天)?(?:去|到|在)[\u4e00-\u9fff]{1,4}科"
        r"(?:复诊|複診|就诊|就診|看病|门诊|門診|住院|检查|檢查)",
    ),
    *_told(
        ("を受け", "摘出し", "切除し", "手術を", "수술"),
        r"(?:^\s*|(?:私|わたし|僕|俺)(?:は|も|、))[^。はが]{0,16}?(?:内視鏡|胃カメラ|大腸カメラ|カテーテル|造影|"
        r"切除|摘出|生検|手術|透析)[^。はが]{0,6}?を受け(?:ました|た|ます|る|て)",
        # an organ of the speaker's taken out (胆のうを摘出しました)
        r"(?:^\s*|(?:私|わたし|僕|俺)(?:は|も|、))[^。はが]{0,12}?(?:を(?:摘出|切除)|手術を)(?:しました|した|して|する)",
        # Korean: the speaker's surgery, the subject said or dropped; a word ending in the
        # subject particle 이/가 before it is someone else (남편이 … 수술을 받았어요)
        r"(?:^\s*|(?:저는|나는|제가|내가)\s*)(?:\S*[^\s가이서]\s+){0,3}?\S*수술을?\s*(?:받았|받을|받아|받고|했)",
    ),
]

# --- health: disability shown by an aid, fertility treatment, recovery meetings -------
_AID_EN = (
    r"(?:guide\s+dog|seeing[- ]eye\s+dog|service\s+dog|assistance\s+dog|hearing\s+dog|"
    r"(?:white|long|red-and-white)\s+cane|mobility\s+scooter|screen\s*reader|braille\s+display|"
    r"hearing\s+aids?|cochlear\s+implants?|zimmer\s+frame|walking\s+frame|prosthetic\s+\w+)"
)
_AID_ZH = r"(?:导盲犬|導盲犬|盲杖|助听器|助聽器|人工耳蜗|人工耳蝸|导听犬|读屏软件|讀屏軟體)"
_AIDS = [
    *_told(
        (
            "guide dog",
            "service dog",
            "assistance dog",
            "hearing dog",
            "eye dog",
            "cane",
            "scooter",
            "reader",
            "braille",
            "hearing aid",
            "cochlear",
            "zimmer",
            "walking frame",
            "prosthetic",
        ),
        rf"{_MY}\s+(?:(?:new|old|first|trusty|loyal)\s+)?{_AID_EN}\b(?!\s+(?:charity|trainer|school|programme|program))",
        rf"{_I_WILL}\s+{_ADV}(?:walk|get\s+around|go\s+out|travel|live|rely\s+on|use|need|depend\s+on)\s+"
        rf"(?:\w+\s+){{0,2}}?(?:with|on)?\s*(?:a|an|my)\s+{_AID_EN}\b",
    ),
    *_told(
        ("blind", "deaf", "sighted", "sight"),
        rf"{_IM}\s+{_ADV}(?:registered|legally|certified|officially)\s+(?:as\s+)?(?:partially\s+|severely\s+)?"
        r"(?:blind|deaf|sighted|sight[- ]impaired|disabled)\b"
        rf"|{_IM}\s+{_ADV}(?:partially\s+sighted|blind\s+in\s+(?:my|one|both)\b|deaf\s+in\s+(?:my|one|both)\b)",
    ),
    *_told(
        tuple(
            "导盲 導盲 盲杖 助听 助聽 耳蜗 耳蝸 读屏 讀屏 残疾 殘疾 盲導犬 補聴器 보청기 안내견".split()
        ),
        rf"{_ZH_I}(?:的){_AID_ZH}",
        rf"{_ZH_I}{_ZH_GAP}{{0,4}}?(?:戴|用|拄|靠|带|帶|配)(?:着|著|了)?(?:一副|副|个|個)?{_AID_ZH}",
        rf"{_ZH_I}(?:是)?(?:[一二三四]级|[一二三四]級)?(?:视力|视障|听力|肢体|言语|視力|聽力|肢體)"
        r"(?:[一二三四]级|[一二三四]級)?(?:残疾|殘疾)",
        r"(?:^\s*|(?:私|わたし|僕|俺)(?:は|も|、))[^。はが]{0,10}?(?:盲導犬|補聴器|白杖|人工内耳)",
        r"(?:저는|제가|나는|내가|제|내)\s*(?:\S+\s*){0,2}?(?:보청기|안내견|인공와우|흰\s*지팡이)",
    ),
]
_FERTILITY = _told(
    ("ivf", "icsi", "iui", "egg", "embryo", "fertility", "试管", "試管", "促排", "取卵", "胚胎"),
    rf"(?:{_I}|\bwe(?:'re|'ve|\s+are|\s+have)?)\s+{_ADV}(?:going\s+through|doing|on|having|had|started|starting|"
    r"trying|tried|in\s+the\s+middle\s+of|about\s+to\s+start)\s+"
    r"(?:(?:our|my|a|an|another|the|first|second|third|fourth|\d(?:st|nd|rd|th)|last|next|round|cycle|of|"
    r"fresh|frozen)\s+)*(?:ivf|icsi|iui|egg\s+(?:retrieval|collection|freezing)|embryo\s+transfer|"
    r"fertility\s+(?:treatment|injections|drugs))\b",
    rf"{_I_WILL}\s+{_ADV}(?:had|have|got|having)\s+(?:an?\s+|my\s+)?(?:\w+\s+)?"
    r"(?:egg\s+retrieval|embryo\s+transfer|egg\s+collection)\b",
    r"\b(?:my|our)\s+(?:(?:first|second|third|fourth|last|next|latest|failed|new|fresh|frozen)\s+)?(?:ivf|icsi|iui)\s+"
    r"(?:cycle|round|attempt|journey|transfer|treatment|injections|meds|retrieval)s?\b",
    rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:做|打|在做)(?:了|过)?(?:第[一二三四五\d]次|第[一二三四五\d]轮)?"
    r"(?:试管(?!实验|實驗|架|刷)|試管(?!实验|實驗|架|刷)|促排|取卵|胚胎移植|人工授精)",
)
_MEETINGS = _told(
    (
        "aa ",
        "aa.",
        "aa,",
        "na ",
        "na.",
        "na,",
        "anonymous",
        "step",
        "al-anon",
        "alanon",
        "chip",
        "coin",
        "keytag",
        "key tag",
        "recovery",
        "戒酒",
        "戒毒",
        "戒赌",
        "戒賭",
    ),
    rf"{_I_WILL}\s+{_ADV}(?:'ve\s+been\s+|have\s+been\s+|been\s+)?(?:go|goes|going|went|gone|attend\w*|been)\s+"
    r"(?:to\s+)?(?:\w+\s+){0,2}?(?:(?-i:AA|NA|CA|GA)|narcotics\s+anonymous|alcoholics\s+anonymous|"
    r"gamblers\s+anonymous|cocaine\s+anonymous|al-?anon|twelve[- ]step|12[- ]step|smart\s+recovery)\b",
    # "in recovery" that governs nothing is recovery from addiction (I've been in recovery
    # for eight months); recovery mode, or recovery after a deadline, governs another thing
    rf"{_I_WILL}\s+{_ADV}(?:'m\s+|am\s+|'ve\s+been\s+|have\s+been\s+|been\s+)?in\s+recovery"
    r"(?=\s*(?:[.!;,]|$|\s+(?:for|since)\s+(?:\w+\s+){0,2}?(?:days?|weeks?|months?|years?|\d{4})\b))",
    rf"{_I_WILL}\s+{_ADV}(?:got|get|picked\s+up|received)\s+my\s+(?:[\w-]+\s+){{0,2}}(?:chip|coin|keytag|key\s+tag)\b"
    r"[^.!?]{0,30}\b(?:anonymous|meeting|sober|sobriety|(?-i:AA|NA))",
    rf"{_IM}\s+{_ADV}in\s+(?-i:AA|NA)\b|{_MY}\s+(?:(?-i:AA|NA)\s+)(?:sponsor|meetings?|group|home\s+group)\b"
    rf"|{_MY}\s+sponsor\s+(?:in|from|at)\s+(?-i:AA|NA)\b",
    rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:去|参加|參加|在){{1,2}}(?:了)?(?:戒酒|戒毒|戒赌|戒賭)(?:的)?(?:互助|匿名|小组|小組|会|會)",
)

# --- religion: an observance kept, a rite done ------------------------------------------
_SEASON = (
    r"(?:ramadan|ramzan|lent|navratri|yom\s+kippur|passover|pesach|ekadashi|karwa\s+chauth|karva\s+chauth|"
    r"tisha\s+b'?av|advent|ash\s+wednesday|good\s+friday|ashura|paryushan|the\s+holy\s+month|"
    r"the\s+sabbath|shabbat|sabbath|the\s+fast|shivratri|vesak|uposatha|eid)"
)
_RITE = (
    r"(?:iftar|suhoor|sehri|seder|shabbat|sabbath|mass|communion|prayers?|puja|pooja|aarti|eid|diwali|"
    r"bible\s+study|blessings?|service|vespers|kiddush|havdalah|namaz|jummah|jumu'ah|satsang|kirtan|langar)"
)
_WE = r"\bwe(?:'re|'ve|\s+are|\s+have)?"
_OBSERVANCE = _told(
    tuple(
        "fast sabbath shabbat lent ramadan navratri kippur passover puja pooja aarti namaz salah salat rosary communion confession candle mass mosque masjid synagogue shul church temple gurdwara parish congregation diya menorah havan".split()
    ),
    rf"(?:{_I_WILL}|{_WE})\s+{_ADV}(?:'m\s+|am\s+|was\s+)?(?:kept|keep|keeps|keeping|observe[ds]?|observing|honou?r(?:ed|ing)?)\s+"
    rf"(?:the\s+)?{_SEASON}\b",
    rf"(?:{_I_WILL}|{_WE})\s+{_ADV}(?:'m\s+|am\s+|was\s+|'ve\s+been\s+|have\s+been\s+|been\s+)?(?:fast|fasted|fasting)\s+"
    rf"(?:for|during|on|through|over)\s+{_SEASON}\b",
    rf"(?:{_I_WILL}|{_WE})\s+{_ADV}(?:'m\s+|am\s+|'ve\s+)?(?:giving|gave|given|give)\s+up\s+(?:\w+\s+){{1,3}}?for\s+(?:lent|ramadan|"
    r"advent|navratri|the\s+holy\s+month)\b",
    rf"(?:{_I_WILL}|{_WE})\s+{_ADV}(?:broke|break|breaking|'ll\s+break)\s+(?:my|the|our)\s+fast\b"
    r"(?=[^.!?]{0,60}\b(?:sunset|sundown|dusk|maghrib|iftar|mosque|masjid|temple|church|prayers?|adhan|azan))",
    rf"(?:{_I_WILL}|{_WE})\s+{_ADV}(?:do|did|doing|does|perform\w*|offer\w*|say|said|saying|pray|prayed|praying|recite\w*)\s+"
    r"(?:(?:a|the|my|our|daily|morning|evening|nightly|the\s+daily)\s+)*(?:puja|pooja|aarti|arti|namaz|salah|salat|"
    r"rosary|havan|sandhya|fajr|maghrib|isha|zuhr|asr|jummah)\b",
    rf"(?:{_I_WILL}|{_WE})\s+{_ADV}(?:took|take|taking|received|receive|went\s+to|go\s+to|going\s+to)\s+"
    r"(?:(?:holy|my\s+first|first|the)\s+)*(?:communion|confession)\b",
    rf"(?:{_I_WILL}|{_WE})\s+{_ADV}(?:go|goes|went|going)\s+to\s+(?:(?:sunday|saturday|friday|midnight|easter|christmas|"
    r"evening|morning|the)\s+)+(?:mass|service|jummah|shacharit)\b",
    rf"(?:{_I_WILL}|{_WE})\s+{_ADV}(?:lit|light|lighting|lights)\s+(?:the\s+|my\s+|our\s+)?(?:shabbat|sabbath|hanukkah|chanukah|"
    r"menorah|diwali|yahrzeit|advent)\s*(?:candles?|lights?|lamps?|menorah)?\b|"
    rf"(?:{_I_WILL}|{_WE})\s+{_ADV}(?:lit|light|lighting)\s+(?:the\s+|a\s+|my\s+)?(?:diyas?|menorah)\b",
    rf"{_MY}\s+(?:mosque|masjid|synagogue|shul|church|temple|gurdwara|parish|congregation)\s+"
    rf"(?:friends?|buddies|pals?|community|group|sisters|brothers)\b[^.!?]{{0,60}}?\b{_RITE}\b",
)
_OBSERVANCE_ZH = _told(
    ("斋", "齋", "弥撒", "彌撒", "礼拜", "禮拜"),
    rf"{_ZH_I}{_ZH_GAP}{{0,6}}?(?:封斋|守斋|把斋|开斋|封齋|守齋|把齋|開齋)",
    rf"{_ZH_I}{_ZH_GAP}{{0,4}}?(?:斋月|齋月)(?:期间|期間|里|裡|的时候)?[^，。！？]{{0,6}}?"
    r"(?:不吃|不喝|禁食|白天|封斋|守斋|把斋)",
    rf"{_ZH_I}{_ZH_GAP}{{0,10}}?(?:去|参加|參加|上)(?:了)?(?:望|做|參加|参加)?(?:弥撒|彌撒|主日礼拜|主日禮拜)",
)

# --- biometric: enrolment ---------------------------------------------------------------
_BIO_EN = (
    r"(?:face|faces|palm|palms|palm[- ]vein|iris|irises|eyes|retina|fingerprints?|thumbprints?|"
    r"finger\s+veins?|voice(?:print)?|voice\s+(?:sample|print|recording))"
)
_ENROLMENT = _told(
    tuple(
        "face palm iris eye retina finger thumb voice 刷掌 声纹 虹膜 掌 指静脉 聲紋 指靜脈".split()
    ),
    rf"{_I_WILL}\s+{_ADV}(?:enrol+(?:ed|ing|s)?|register(?:ed|ing|s)?|set\s+up|add(?:ed)?|submit(?:ted)?|"
    rf"scan(?:ned)?|record(?:ed)?|gave|give|upload(?:ed)?|verif(?:y|ied))\s+(?:(?:my|the|a)\s+)?(?:[\w-]+\s+){{0,3}}?(?:(?:my|a|the)\s+)?{_BIO_EN}\b"
    # enrolled with an institution that recognises the person (a door, a border, a bank),
    # not a phone's own unlock, which keeps the template on the device
    r"(?=[^.!?]{0,60}\b(?:turnstiles?|gates?|doors?|entry|access|border|airport|immigration|customs|"
    r"banks?|banking|payments?|pay|kiosk|login|log\s+in|verification|authentication|"
    r"security|attendance|clock(?:ing)?\s+in|check-?in|office|gym|building|trusted|traveller|traveler)\b)",
    rf"{_I_WILL}\s+{_ADV}(?:had|got|have)\s+my\s+{_BIO_EN}\s+(?:scanned|registered|enrolled|recorded|captured|"
    r"taken|read|mapped)\b",
    rf"{_I_WILL}\s+{_ADV}(?:set\s+up|enrol+ed\s+in|turned\s+on|activated|registered\s+for)\s+(?:the\s+)?"
    r"(?:voice|palm|iris|finger(?:print)?)\s*(?:id|print|recognition|verification|authentication|login|pay)\b",
    rf"{_MY}\s+(?:palm[- ]vein|finger[- ]vein|palm|iris|face|voice|fingerprint)\s+(?:enrol+ment|registration|scan|"
    r"template|sample|print)\b(?!\s+(?:feature|sensor|reader)s?\b)",
    rf"{_ZH_I}{_ZH_GAP}{{0,10}}?开通(?:了)?(?:刷掌|掌静脉|掌靜脈|声纹|聲紋|虹膜)",
    rf"{_ZH_I}{_ZH_GAP}{{0,10}}?(?:录|錄|登记|登記|采集|採集|注册|註冊|绑定|綁定|留)(?:入|了|过|過)?(?:了)?(?:我的)?"
    r"(?:声纹|聲紋|虹膜|掌静脉|掌靜脈|指静脉|指靜脈|掌纹|掌紋|人脸|人臉|面部信息)",
)

SHOWN: dict[str, list] = {
    "health": [*_PREGNANCY, *_PROCEDURE, *_AIDS, *_FERTILITY, *_MEETINGS],
    "religion": [*_OBSERVANCE, *_OBSERVANCE_ZH],
    "biometric": _ENROLMENT,
}


def shown_categories(text: str) -> list[str]:
    """The categories these frames alone find in ``text`` (sorted; for tests and benches:
    the write path reads them through ``special_categories.CATEGORIES``)."""
    return sorted(name for name, rules in SHOWN.items() if any(r.search(text) for r in rules))
