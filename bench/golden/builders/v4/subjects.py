"""Golden set v4: subjects (see __init__.py)."""

from __future__ import annotations

NAMES_ZH = [
    {"en": "Wen Jingxing", "zh": "温景行", "g": "m", "nick": ("Ah Jing", "阿景")},
    {"en": "Xiao Ruotong", "zh": "萧若彤", "g": "f", "nick": ("Tongtong", "彤彤")},
    {"en": "Huo Qiming", "zh": "霍启明", "g": "m", "nick": ("Lao Huo", "老霍")},
    {"en": "Zhuo Yaqin", "zh": "卓雅琴", "g": "f", "nick": ("Xiao Zhuo", "小卓")},
]


NAMES_EN = [
    {"en": "Imogen Castellanos", "zh": "Imogen Castellanos", "g": "f", "nick": ("Immy", "Immy")},
    {"en": "Declan Achterberg", "zh": "Declan Achterberg", "g": "m", "nick": ("Dex", "Dex")},
    {"en": "Sunniva Aaltonen", "zh": "Sunniva Aaltonen", "g": "f", "nick": ("Niva", "Niva")},
]


# (store language, share of facts in the other language, name index, city moves, new employer)
PLAN = [
    ("zh", 0.25, 0, 1, True),
    ("en", 0.0, 0, 0, True),
    ("zh", 0.0, 1, 2, False),
    ("en", 0.2, 1, 1, True),
    ("zh", 0.0, 2, 0, True),
    ("zh", 0.3, 3, 1, False),
    ("en", 0.0, 2, 1, False),
    ("zh", 0.0, 0, 0, False),
    ("zh", 0.25, 1, 1, True),
    ("en", 0.0, 0, 2, True),
    ("zh", 0.0, 2, 1, True),
    ("en", 0.2, 1, 0, False),
    ("zh", 0.0, 3, 1, True),
    ("en", 0.0, 2, 0, True),
]


# Subjects asked a question with their own full name (both members of four name pairs).
SAME_NAME_SUBJECTS = {0, 7, 2, 8, 1, 9, 6, 13}


PRON = {
    "f": {"he": "she", "He": "She", "his": "her", "him": "her", "ta": "她"},
    "m": {"he": "he", "He": "He", "his": "his", "him": "him", "ta": "他"},
}
