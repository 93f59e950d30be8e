"""Health disclosures recognised by the shape of medical words, not by a list of them.

Medicine names its procedures and its specialists by word formation: a removal ends in
-ectomy, an opening in -otomy/-ostomy, a repair in -plasty, a look inside in -oscopy; a
specialist ends in -ologist or -iatrist; in Chinese a procedure is a …手术, …移植, …切除 and
a hospital department is a …科. With the user as the subject ("I had …", "my …ologist",
"我做过…手术", "我…去…科复诊") these disclose the user's health whatever the organ or the
specialty, so none needs listing. Someone else's procedure ("my dad had a …ectomy",
"我陪我妈去骨科复诊") is not the user's and does not match.
"""

from __future__ import annotations

import re

_I = r"\b(?:i(?:'ve|'m| have| am)?|(?:the\s+)?user(?: has| is)?)"
_MY = r"\b(?:my|(?:the\s+)?user's)"

_PROCEDURE_EN = (
    r"[a-z]+(?:ectomy|ectomies|otomy|ostomy|plasty|oscopy)|"
    r"(?:[a-z]+[\s-]){1,2}(?:surgery|replacement|transplant|bypass|biopsy|implant|ablation|resection|excision|"
    r"emboli[sz]ation|catheteri[sz]ation|cardioversion|amputation|ligation)|"
    r"surgery|an? operation|dialysis|radiotherapy|radiation therapy|infusions?|transfusions?"
)

MEDICAL_FORMS = [
    re.compile(
        rf"{_I}\s+(?:(?:also|just|recently|finally|already|still|once)\s+)*"
        r"(?:had|got|underwent|undergo|am having|'m having|having|am recovering from|'m recovering from|"
        r"recovering from|recovered from|am scheduled for|'m scheduled for|booked (?:in )?for|"
        r"(?:am|'m) on the (?:waiting )?list for|need|needed|"
        r"go in for|went in for|am doing|'m doing|finished|started)\s+"
        rf"(?:an?\s+|my\s+|the\s+|some\s+)?(?:{_PROCEDURE_EN})\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_MY}\s+(?:\w+\s+)?[a-z]+(?:ologist|iatrist)\b"
        r"(?!\s+(?:friend|friends|neighbou?r|colleague|colleagues|sister|brother|cousin|dad|mum|mom))"
        rf"|{_I}\s+(?:(?:also|still|now|regularly)\s+)*(?:see|saw|visit|visited|am seeing|'m seeing|"
        r"started seeing)\s+(?:a|an|my)\s+[a-z]+(?:ologist|iatrist)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"我(?!们|們)(?:去年|前年|今年|最近|上个月|上個月|上周|刚刚|刚|剛|之前|以前|小时候|已经|已經)?"
        r"(?:做了|做过|做過|做完|刚做完|动了|动过|動過|接受了?|要做|在做)\S{0,8}?"
        r"(?:手术|手術|移植|切除|植入|置换|置換|搭桥|搭橋|穿刺|活检|活檢|消融|栓塞|造影|结扎|結紮)"
    ),
    re.compile(
        r"(?<![陪带帶送帮幫替和跟])我(?:每[一两二三]?[周週月天年]|定期|经常|經常|按时|按時|还要|還要|要|得|"
        r"最近|昨天|今天|明天)?(?:去|到|在)[\u4e00-\u9fff]{1,4}科"
        r"(?:复诊|複診|就诊|就診|看病|门诊|門診|住院|检查|檢查)"
    ),
]
