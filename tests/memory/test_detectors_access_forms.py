"""Round 4 of issue 32: codes found by what they open or where they are printed, in the
orders and scripts ``labelled`` lacked (memory/detectors/access_forms.py). Positives are
written here, not copied from a probe; the negatives are numbers that open nothing."""

from __future__ import annotations

import pytest

from memory.detectors.access_forms import fold_digit_chars
from memory.detectors.secrets import find_secrets, redact_secrets

POSITIVE = [
    # noun first, the lock after
    "The combination for the padlock on the shed is 4-4-1-9.",
    "Combination on Dad's safe is 3 7 2 8.",
    "The code for the key safe by the back door is 1 9 9 4.",
    "The number you key at the cash machine is 7 7 0 3.",
    # the lock takes N
    "The keypad by the back gate takes 6 6 2 0.",
    "The lock box wants 8813.",
    # purpose, then the keys
    "To switch the alarm off, key 4471 and press the tick.",
    "To get into the building, type 2 0 8 8 on the panel.",
    "解除布防，输 3 3 7 1 再按确认。",
    "开储物柜的时候，按 5 5 1 8 就行。",
    # Chinese numerals
    "门禁面板上按七三零五就能进。",
    "车库门的密码是幺九九四。",
    # card security code by where it is printed
    "The three digits on the back are 417.",
    "The security code on the back of my debit card is 0291.",
    "卡背面的三位数是 093。",
    "カードの裏面の3桁は 552 です。",
    # an answer to a standard security question
    "The security question about my first car: the answer I used was Corsa.",
    "Mother's maiden name on the card account is set to Hartwell.",
    # a dial combination read as turns
    "The safe in the office: left 12, right 40, left 3.",
    "我家保险柜是右转15左转8。",
    # Korean 비번 (short for 비밀번호) with the object marker; 备份单词 as "backup words"
    "현관 비번을 4 8 2 6 으로 바꿨어.",
    "钱包备份单词：山 水 火 木 金 土 日 月 星 云 风 雨",
    # a padlock label in Korean
    "자물쇠 번호는 3 8 2 1 이야.",
]

NEGATIVE = [
    "The number on the front door is 1407.",
    "The bus number on the back is 417.",
    "The keypad takes 2 minutes to wake up.",
    "The lock takes 2 AA batteries.",
    "The safe holds 2000 pounds of documents.",
    "To get to the station, take the 2045 train.",
    "To open the form, type 2026 in the year field.",
    "门牌号是 1203。",
    "我家在七三零五号楼。",
    "我一个人三四天就能做完。",
    "The three digits on the back of the receipt are the store number 417.",
    "Our flat number is 2 0 8 8.",
    "The safe is on the 14th floor, room 1402.",
    "My mother's maiden name was O'Brien, so we're partly Irish.",
    "My first pet was a hamster called Nibbles.",
    "Go left 2, right 3 at the lights.",
    "비번을 바꿨어.",
    "我把备份单词抄在本子上了。",
    "路口左转2右转3就到了。",
]


@pytest.mark.parametrize("text", POSITIVE)
def test_a_code_that_opens_something_is_a_secret(text):
    assert find_secrets(text), text
    redacted, count = redact_secrets(text)
    assert count >= 1 and redacted != text


@pytest.mark.parametrize("text", NEGATIVE)
def test_a_number_that_opens_nothing_is_not(text):
    assert find_secrets(text) == [], text


def test_chinese_numerals_fold_in_place_and_only_in_runs_of_four():
    assert fold_digit_chars("按七三零五就能进") == "按7305就能进"
    assert fold_digit_chars("幺九九四") == "1994"
    assert fold_digit_chars("一个人三四天") == "一个人三四天"
    assert len(fold_digit_chars("密码 八 六 零 二")) == len("密码 八 六 零 二")
