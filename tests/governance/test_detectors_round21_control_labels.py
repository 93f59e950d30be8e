"""Round 21 of issue 32: a quoted name of a control in an interface (a button, a link, a
menu entry: 'Forgot password', “忘记密码”, 「パスワードを忘れた」) is not a quoted secret.

A help page from a tool ("To reset your password, click 'Forgot password' on the sign-in
screen") was refused as ``credential_in_prose``: the quoted words after a password word read
as its value. What tells a control's name from a value is the grammar around the quotes: a
verb of acting on a control before them (click, tap, press, select, 点击, 选择, タップ, 누르다)
or a control noun after them (button, link, menu, 按钮, ボタン, 버튼). A value is typed,
entered, set or said ("type 'x'", 输入“x”, "the password is 'x'"), and stays refused,
wherever a control's name stands beside it. Found on the lead's unseen set; these cases were
written apart from it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.detectors.secrets import find_secrets

LABELS = [
    "If you forget it, press 'Reset PIN' in the app settings.",
    "I clicked “Forgot password?” three times and no email came.",
    "Tap 'Change passcode' under Face ID & Passcode.",
    "Hit the 'Show password' toggle to check what you typed.",
    "The 'Generate API key' button is greyed out for me.",
    'Select "Rotate secret" from the Actions menu to get a new one.',
    "在设置里选择“修改支付密码”就可以了",
    "点一下‘忘记密码’，然后按提示操作",
    "登录页的「忘记密码」链接点了没反应",
    "ログイン画面で「パスワードを忘れた」をタップしてください",
    "'비밀번호 찾기' 버튼을 누르세요",
    "To update your PIN, choose 'Security' and then 'Update PIN'.",
    "Forgot your passcode? Tap “Need help signing in?” below the form.",
    "For a new password, hit 'Send reset link' and check your inbox.",
    "如果忘了密码，点“找回密码”就行",
    "重设 PIN 码时，先选“安全”再选“更改 PIN”",
    "密碼忘了的話，按「重設密碼」按鈕",
]

VALUES = [
    "Type 'maple-Orbit-22' when it asks for the password.",
    "The password is 'Click-Here-77'.",
    "Enter PIN '5813' and then press 'OK'.",
    "Press 'Sign in' and use password 'tulip!Rain8'.",
    "输入密码“qz81kk”后点击“登录”",
    "我的密码是“点击123”",
    "For the router, the password: 'Fern&Vole31' (then click 'Save').",
    "To log in, type your password 'Quill-8-Harbor' and tap 'Continue'.",
]


@pytest.mark.parametrize("text", LABELS)
def test_a_quoted_control_name_is_not_a_secret(text):
    assert find_secrets(text) == [], text


@pytest.mark.parametrize("text", VALUES)
def test_a_quoted_value_beside_a_control_is_still_a_secret(text):
    assert find_secrets(text), text


_LABEL_SENTENCES = st.sampled_from(LABELS)
_SECRET_SENTENCES = st.sampled_from(
    [
        "my password is Vx8!pelican40",
        "the door code is 4719",
        "我的支付密码是 602913",
        "PIN: 3308",
    ]
)


@settings(max_examples=60, deadline=None)
@given(label=_LABEL_SENTENCES, secret=_SECRET_SENTENCES, secret_first=st.booleans())
def test_a_control_name_never_hides_a_secret_beside_it(label, secret, secret_first):
    """Precedence: the control-name reading only clears the quoted name itself; a secret in
    the same text is refused, before or after it."""
    text = f"{secret}. {label}" if secret_first else f"{label} {secret}."
    assert find_secrets(text), text
