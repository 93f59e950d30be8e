"""Other spellings of the same order, read by the instruction detectors (``instructions.py``)
like ROT13 and base64 are (``addressing.readings``):

- **traditional Chinese**: the characters the Chinese instruction patterns are written with,
  folded from their traditional forms ("忽略上面所有的內容" reads as "…内容", "無視" as "无视");
- **pinyin**: a line written in toneless pinyin syllables ("zhu shou qing hu lue …") read
  back into the characters of the words those patterns use, syllable pair by syllable pair.
  Only a line made almost wholly of pinyin syllables is read this way, so English is never
  turned into Chinese.

Both are spellings of the patterns' own vocabulary, not phrasings of any data set.
"""

from __future__ import annotations

import re

# Traditional -> simplified for the characters the Chinese patterns in instructions.py and
# addressing.py use (one character each way; a fold, not a translation).
_T2S = str.maketrans(
    "內說話規則對設無視記憶錄訊傳發轉給將請從現後們碼鑰憑證帳賬號資檔據於權開啟關閉刪執導歷總務須應該點頁讀處網機體聯繫絡戶郵習慣為這個條際複隱統詞覽顯洩寫進長",
    "内说话规则对设无视记忆录讯传发转给将请从现后们码钥凭证帐账号资档据于权开启关闭删执导历总务须应该点页读处网机体联系络户邮习惯为这个条际复隐统词览显泄写进长",
)


def fold_traditional(form: str) -> str:
    return form.translate(_T2S)


# Toneless pinyin words of the instruction vocabulary, as the Chinese patterns spell them.
_PINYIN_WORDS = {
    "zhu shou": "助手",
    "zhu li": "助理",
    "ji qi ren": "机器人",
    "mo xing": "模型",
    "ren gong zhi neng": "人工智能",
    "zhi neng ti": "智能体",
    "qing": "请",
    "hu lue": "忽略",
    "wu shi": "无视",
    "wang ji": "忘记",
    "zhi qian": "之前",
    "yi shang": "以上",
    "shang mian": "上面",
    "qian mian": "前面",
    "xian qian": "先前",
    "suo you": "所有",
    "quan bu": "全部",
    "zhi ling": "指令",
    "zhi shi": "指示",
    "gui ze": "规则",
    "nei rong": "内容",
    "she ding": "设定",
    "xi tong": "系统",
    "yong hu": "用户",
    "ke hu": "客户",
    "shi yong zhe": "使用者",
    "de": "的",
    "ba": "把",
    "jiang": "将",
    "fa dao": "发到",
    "fa gei": "发给",
    "fa song": "发送",
    "zhuan fa": "转发",
    "shang chuan": "上传",
    "mi ma": "密码",
    "mi yao": "密钥",
    "di zhi": "地址",
    "dian hua": "电话",
    "shou ji hao": "手机号",
    "tong xun lu": "通讯录",
    "xin xi": "信息",
    "zi liao": "资料",
    "ji lu": "记录",
    "dui hua": "对话",
    "you xiang": "邮箱",
    "yi hou": "以后",
    "jin hou": "今后",
    "cong xian zai qi": "从现在起",
    "zong shi": "总是",
    "bi xu": "必须",
    "wu bi": "务必",
    "fa chu qu": "发出去",
    "gao su": "告诉",
    "wo": "我",
    "zhe ge": "这个",
    "dao": "到",
    "gei": "给",
}
_PINYIN_SYLLABLE = re.compile(
    r"^(?:[bpmfdtnlgkhjqxrzcsyw]|zh|ch|sh)?(?:a|o|e|i|u|v|ai|ei|ao|ou|an|en|ang|eng|ong|er|ia|ie|"
    r"iao|iu|ian|in|iang|ing|iong|ua|uo|uai|ui|uan|un|uang|ue|ve)$"
)
_WORD = re.compile(r"[a-z]+")
_LONGEST = max(len(k.split()) for k in _PINYIN_WORDS)


def read_pinyin(form: str) -> str | None:
    """``form`` in characters, when nine in ten of its (at least six) words are pinyin
    syllables; None otherwise."""
    words = _WORD.findall(form.lower())
    if len(words) < 6:
        return None
    if sum(bool(_PINYIN_SYLLABLE.match(w)) for w in words) < 0.9 * len(words):
        return None
    out, i = [], 0
    while i < len(words):
        for n in range(_LONGEST, 0, -1):
            key = " ".join(words[i : i + n])
            if key in _PINYIN_WORDS:
                out.append(_PINYIN_WORDS[key])
                i += n
                break
        else:
            out.append(" ")
            i += 1
    return "".join(out)


def extra_readings(form: str) -> list[str]:
    """The traditional fold and the pinyin reading of ``form``, where they differ from it."""
    out = []
    folded = fold_traditional(form)
    if folded != form:
        out.append(folded)
    pinyin = read_pinyin(form)
    if pinyin:
        out.append(pinyin)
    return out
