"""A phone number is held as it is written, not as any run of digits a region could dial.

Read as Chinese, phonenumbers accepts a national number without its trunk prefix: the
order number "2023118845" parses as a Guangzhou landline (area code 20) and the candidate
was held as personal data. People write a Chinese landline with its trunk prefix 0 (or the
country code), a mobile number with its leading 1, and a number from abroad with a plus
sign or 00; ``memory.detectors.phone_runs.written_as_phone_number`` keeps the matches
written so. These cases were written before the rule, with numbers of every kind.
"""

from __future__ import annotations

import pytest

from memory.content_rules import find_sensitive_personal_data

pytestmark = pytest.mark.django_db

PHONE_NUMBERS = [
    "我的手机号是13812345678",
    "手机 138-1234-5678，有事打我",
    "my number is +86 138 1234 5678",
    "我家座机 020-23118845",
    "办公室电话 (010) 6552 9988",
    "0755 8888 6666 是我公司的电话",
    "call me at +1 415 555 2671",
    "my London number is +44 20 7946 0958",
    "0086 10 6552 9988 is my Beijing office line",
    "我的电话：021 5432 1098",
    "my cell is 139 0011 2233",
    "新号码 15900001111，旧的别打了",
    "我的手机号码是 186 2233 4455",
    "家里电话 0571-87654321",
    "reach me on +852 9123 4567 while I'm in Hong Kong",
    "my Tokyo mobile is +81 90 1234 5678",
    "我的号码 +86-177-0000-1234",
    "电话 8620 2311 8845 是我们家的",
]

NOT_PHONE_NUMBERS = [
    "我的订单号是 2023118845，快递还没到。",
    "发票号码 3106221130",
    "工号 2710034567，报销的时候要填",
    "order 2088123456 shipped yesterday",
    "申请编号 5109876543 已经提交了",
    "my library card barcode is 2911456780",
    "the reservation code is 7410258963",
    "合同编号 3301234567",
    "the model number on the fridge is 2413579864",
    "我的学号是 2021304055",
]


@pytest.mark.parametrize("text", PHONE_NUMBERS)
def test_a_phone_number_as_people_write_it_is_found(text):
    assert "phone_number" in find_sensitive_personal_data(text)


@pytest.mark.parametrize("text", NOT_PHONE_NUMBERS)
def test_a_code_a_region_could_dial_is_not_a_phone_number(text):
    assert "phone_number" not in find_sensitive_personal_data(text)


@pytest.mark.parametrize(
    "raw, region, expected",
    [
        ("020-23118845", "CN", True),
        ("2023118845", "CN", False),
        ("13812345678", "CN", True),
        ("+86 20 2311 8845", "CN", True),
        ("0086 20 2311 8845", "CN", True),
        ("86 20 2311 8845", "CN", True),
        ("+44 20 7946 0958", None, True),
        ("＋44 20 7946 0958", None, True),
        ("(020) 2311 8845", "CN", True),
        ("4008208820", "CN", False),
    ],
)
def test_written_forms(raw, region, expected):
    from memory.detectors.phone_runs import written_as_phone_number

    assert written_as_phone_number(raw, region) is expected
