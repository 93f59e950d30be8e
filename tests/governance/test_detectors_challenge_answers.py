"""The answer to a security question is a credential (issue 32, lead's round 16).

A service that asks for a first school or a mother's maiden name before it lets someone in has
made that answer a password; "my first school was X" stays an ordinary fact. The sentences
here were written apart from the ones the module was shaped on.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory.detectors.access_forms import security_answer_spans
from memory.detectors.secrets import find_secrets, redact_secrets
from tests.helpers.memories import COMPOSED_FRAMES, decide_user_statement

POSITIVE = [
    ("My secret answer for the insurance portal is Grimsby.", "Grimsby"),
    ("Security Q&A on the pension site: favourite teacher, answer Mrs Adeyemi.", "Mrs Adeyemi"),
    (
        "The reply I set for the recovery question 'street you grew up on' is Wexford Road.",
        "Wexford Road",
    ),
    ("For the memorable question on my ISA I used tangerine.", "tangerine"),
    ("On the airline account, for the security question I typed Bluebell 77.", "Bluebell 77"),
    ("安全问题的答案：红星中学。", "红星中学"),
    ("邮箱的密保答案是 大黄。", "大黄"),
    ("预留问题我填的是 王建国。", "王建国"),
    ("秘密の質問の答えは ポチ です。", "ポチ"),
    ("보안 질문 답은 해바라기입니다.", "해바라기"),
]

NEGATIVE = [
    "My first school was Larchmont Elementary, a tiny place by the river.",
    "I forgot the answer to my security question and got locked out.",
    "What did I put as the answer to the recovery question?",
    "The security questions on that site are really easy to guess.",
    "The answer to my security question is wrong, apparently.",
    "My security answer is something only I would know.",
    "密保问题我都忘了，只能去营业厅。",
    "The answer to the quiz question was Canberra.",
    "I answered the security questions when I opened the account.",
    "セキュリティの質問を忘れました。",
]


@pytest.mark.parametrize("text, value", POSITIVE)
def test_a_security_answer_is_refused_and_redacted(text, value):
    assert find_secrets(text), text
    assert value not in redact_secrets(text)[0], text


@pytest.mark.parametrize("text", NEGATIVE)
def test_the_question_without_its_answer_or_a_fact_without_the_question_pass(text):
    assert security_answer_spans(text) == [], text
    assert not find_secrets(text), text


def test_the_challenge_decides_not_the_answer():
    # the same answer is a secret after a security question and a fact after a quiz
    assert security_answer_spans("The answer to my security question is Portishead.")
    assert not security_answer_spans("The answer to the pub quiz question is Portishead.")
    # a challenge named in another sentence does not reach this one's answer
    assert not security_answer_spans("I reset my security question. The answer is 42 days.")


# Round 16 found the older zh reading taking what follows 填的是, or the 答 of 答案, as the
# answer; these say which answer, or how it is, and give none. Since the two readings are one
# (``access_forms.security_answer_spans``) every value passes the same test.
NOT_ANSWERS_ZH = [
    "密保问题我填的是奶奶的名字。",
    "安全问题的答案太简单了，我想改。",
    "安全问题我设置好了，下次再说。",
    "密保问题我答了好几次都不对。",
    "找回密码的那道问题我早就忘了。",
]


@pytest.mark.parametrize("text", NOT_ANSWERS_ZH)
def test_a_zh_security_question_without_its_answer_passes(text):
    assert security_answer_spans(text) == [], text
    assert not find_secrets(text), text


def test_the_question_first_orders_still_read_their_answers():
    # the question named first, then what was filled, answered or set: every script
    for text, value in [
        ("密保问题我填的是 陈晓梅", "陈晓梅"),
        ("安全問題我寫了：小白", "小白"),
        ("秘密の質問の答えは「たま」", "たま"),
        ("보안 질문 답변은 '바다'", "바다"),
        ("My mother's maiden name answer is Okafor", "Okafor"),
        ("For the first pet question I always put Biscuit", "Biscuit"),
    ]:
        assert [text[a:b] for a, b in security_answer_spans(text)].count(value) >= 1, text
        assert value not in redact_secrets(text)[0], text


# Where rules meet: an answer told for later, beside an ordinary sentence, quoted from a
# flatmate, in a zh/en mix, from a tool, is refused (the credential rule precedes dating
# and holding) and redacted.
_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
_ANSWERS = st.sampled_from(["Kestrel Lane", "Biscuit88", "Ms Oyelaran", "嘉陵江", "Ptarmigan"])
_TELLINGS = st.sampled_from(
    [
        "the answer to my security question is {a}",
        "my secret answer is {a}",
        "for the recovery question I put {a}",
        "密保问题的答案是 {a}",
    ]
)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    answer=_ANSWERS,
    telling=_TELLINGS,
    frame=st.sampled_from(COMPOSED_FRAMES),
    roles=st.sampled_from([("user",), ("tool",), ("user", "tool")]),
)
def test_a_security_answer_in_another_rules_frame_is_refused(answer, telling, frame, roles):
    text = frame.format(s=telling.format(a=answer))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True, roles=roles)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    assert answer not in redact_secrets(text)[0], text
