"""Golden set v3: subjects (see __init__.py)."""

from __future__ import annotations

NAMES_ZH = [
    ("Gu Xinran", "顾欣然"),
    ("Tang Haoyu", "唐浩宇"),
    ("Peng Shuyi", "彭书怡"),
    ("Lu Zhenbang", "陆振邦"),
]


NAMES_EN = [
    ("Harriet Okafor", "Harriet Okafor"),
    ("Tobias Lindqvist", "Tobias Lindqvist"),
    ("Maren Whitlock", "Maren Whitlock"),
]


PLAN = [
    ("zh", 0.3, 0, 1, True),
    ("en", 0.0, 0, 2, False),
    ("zh", 0.0, 1, 0, True),
    ("zh", 0.3, 2, 1, False),
    ("en", 0.15, 1, 0, True),
    ("zh", 0.0, 3, 1, True),
    ("en", 0.0, 2, 1, False),
    ("zh", 0.0, 0, 0, False),
    ("zh", 0.3, 1, 1, True),
    ("en", 0.0, 0, 0, True),
    ("zh", 0.0, 2, 2, False),
    ("en", 0.15, 1, 1, False),
    ("zh", 0.3, 3, 0, True),
    ("en", 0.0, 2, 0, True),
]


# Subjects asked a question with their own full name (both members of each name pair).
SAME_NAME_SUBJECTS = {0, 7, 2, 8, 1, 9, 4, 11}
