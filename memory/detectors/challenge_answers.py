"""The answer to a security question: a credential told as a fact about oneself.

A service that asks "your first school?" or "your mother's maiden name?" before it lets
someone in has made the answer a password. Told on its own the same words are an ordinary
fact ("my first school was Larchmont Elementary"); told as *the answer to the question* that
guards an account they are a secret, and were stored because no value reader looks for a
name after "answer". Here a value is read as a secret when:

- the sentence names the challenge: a question or answer qualified as security, secret,
  memorable, challenge, recovery or verification (密保, 安全问题, 保密问题, 密码提示问题,
  预留问题, 秘密の質問, 보안 질문), or a quoted question followed by "question";
- the value is given as that challenge's answer: "the answer (to/for …) is X", "security
  answer: X", "…, answer X", "for the … question I put/use/gave X", 答案是 X, 我填的是 X, の答えは X, 답은 X;
- the value is a value: quoted, or carrying a capital, a digit or CJK text, or one to three
  plain words none of which is a function word or a word about the answer rather than the
  answer itself ("is wrong", "is too easy", "is something only I know").

The challenge terms are the closed vocabulary services use for knowledge-based
authentication, not a list of phrasings; what fills the value is open.
"""

from __future__ import annotations

import re

_CHALLENGE = (
    r"(?:security|secret|memorable|challenge|recovery|verification|safety)\s+"
    r"(?:questions?|answers?|q\s*&\s*a)"
    r"|[\"“'‘][^\"”'’\n]{3,60}[\"”'’]\s+question"
    r"|密保(?:问题)?|安全问题|保密问题|密码提示问题|预留问题|验证问题|秘密の質問|보안\s*질문"
)
_HAS_CHALLENGE = re.compile(_CHALLENGE, re.IGNORECASE)
_GATE = ("question", "answer", "q&a", "q & a", "密保", "问题", "質問", "질문")
_END = r"(?=\s*(?:[.!?;。！？；\n,，]|$))"
_VALUE = r"(?P<value>[^.!?;。！？；\n，,]{1,48}?)"
_EN_COPULA = re.compile(
    rf"\b(?:answers?|reply)\b[^.!?;\n]{{0,60}}?(?:\s*[:=]|\s+(?:is|was|are|will\s+be|is\s+now|"
    rf"has\s+always\s+been|'s))\s+{_VALUE}{_END}",
    re.IGNORECASE,
)
_EN_LABEL = re.compile(rf"(?:^|[,:;]\s*)answer\s*[:=]?\s+{_VALUE}{_END}", re.IGNORECASE)
_EN_PUT = re.compile(
    rf"\b(?:question|answer)s?\b[^.!?;\n]{{0,40}}?\bI\s+(?:always\s+|usually\s+|just\s+)?"
    rf"(?:put|use|used|gave|give|wrote|write|typed|type|entered|enter|chose|picked|said|say)"
    rf"(?:\s+down|\s+in)?\s+{_VALUE}{_END}",
    re.IGNORECASE,
)
_ZH_GIVEN = re.compile(
    r"(?:答案|回答|答)(?:是|为|：|:|=)\s*(?P<value>[^。！？；\n，,]{1,24}?)"
    r"(?=[。！？；\n，,]|$)"
    r"|我(?:填|写|设|用|选)(?:了|的)(?:是)?\s*(?P<value2>[^。！？；\n，,]{1,24}?)(?=[。！？；\n，,]|$)"
    r"|の答え(?:は|が)\s*(?P<value3>[^。！？\n、]{1,24}?)(?=(?:です|だ|でした)?(?:[。！？\n、]|$))"
    r"|(?:답|대답)(?:은|는|이)\s*(?P<value4>[^.!?\n]{1,24}?)(?=(?:입니다|이에요|예요|야)?(?:[.!?\n]|$))"
)
_FUNCTION = frozenset(
    """
    a an the and or but of to in on at by for with from as than so if is are was were be
    not no any some this that it its my our your their his her me him them what which who
    something nothing same different
    """.split()
)
# Words about an answer rather than an answer: how it is (its quality, its state).
_ABOUT = frozenset(
    """
    wrong right correct incorrect easy hard simple obvious silly stupid weird long short
    private secret lost forgotten outdated old new fine ok okay case-sensitive
    """.split()
)
_ABOUT_SUFFIX = re.compile(r"(?:ly|ous|ful|able|ible|less)$")
_ZH_NOT_VALUE = re.compile(r"^(?:很|太|挺|不|没|忘|什么|啥|一个|错|对)")


def _is_value(value: str) -> bool:
    value = value.strip()
    if not value:
        return False
    if value[0] in "\"“'‘" and value[-1] in "\"”'’":
        return len(value) > 2
    if _CJK.search(value):
        # "奶奶的名字" says which answer, not the answer
        return not _ZH_NOT_VALUE.match(value) and "的" not in value
    words = value.split()
    if words[0].lower() in _FUNCTION or words[0].lower() in _ABOUT:
        return False
    if re.search(r"[A-Z0-9]", value):
        return len(words) <= 5
    if len(words) > 3:
        return False
    return not any(
        w.lower() in _FUNCTION or w.lower() in _ABOUT or _ABOUT_SUFFIX.search(w.lower())
        for w in words
    )


_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？\n]?")
_GROUPS = ("value", "value2", "value3", "value4")
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")


def challenge_answer_spans(text: str) -> list[tuple[int, int]]:
    """Spans of answers given to a security question named in the same sentence."""
    low = text.lower()
    if not any(word in low for word in _GATE) or not _HAS_CHALLENGE.search(text):
        return []  # every challenge term holds one of these
    spans: list[tuple[int, int]] = []
    for sentence in _SENTENCE.finditer(text):
        part, base = sentence.group(), sentence.start()
        if not _HAS_CHALLENGE.search(part):
            continue
        for pattern in (_EN_COPULA, _EN_LABEL, _EN_PUT, _ZH_GIVEN):
            for m in pattern.finditer(part):
                group = next(g for g in _GROUPS if g in pattern.groupindex and m.group(g))
                value, lo = m.group(group).rstrip(), base + m.start(group)
                cut = max(value.rfind("："), value.rfind(":"))  # 我小学的名字：实验小学
                if cut >= 0:
                    lo += cut + 1 + len(value[cut + 1 :]) - len(value[cut + 1 :].lstrip())
                    value = value[cut + 1 :].strip()
                script = _CJK.search(value)
                if script and script.start() > 0 and value[0].isascii():
                    value = value[
                        : script.start()
                    ].rstrip()  # an English answer ends where Chinese starts
                if _is_value(value):
                    spans.append((lo, lo + len(value)))
    return spans
