"""Writes the named-time recall set (issue 34, recall35) once; the JSON it wrote is what is
measured. Run again only to rebuild the same files (seeded):

    python tests/data/recall_time/generate.py

Each conversation: eighteen sessions over one year, each a dozen filler turns (other
people's everyday things, many with a month, a weekday or an activity the questions ask
about) around the few turns that matter. The questions name a time in the ways a user
would ("in March 2025", "in October", "in summer 2025", "in 2019", "2025年5月", "十月",
"夏天") and the evidence is told in the ways people tell it: in that time, later ("back in
April"), just after it ("last week", at the start of the next month), or before it (a plan
for December). Same format as LoCoMo's ``locomo10_v2`` JSON, so ``bench/quality/locomo.py``
reads it.
"""

from __future__ import annotations

import json
import random
from datetime import date
from pathlib import Path

HERE = Path(__file__).parent

EN_WHO = [
    "My sister",
    "A colleague",
    "Our neighbour",
    "My cousin",
    "Dad",
    "My flatmate",
    "A friend from work",
    "My aunt",
    "The guy upstairs",
    "Our team",
]
EN_DID = [
    "went for a run by the river",
    "tried a new noodle place",
    "went hiking in the hills",
    "repainted the hallway",
    "ran a 10k",
    "took the kids to the aquarium",
    "booked a trip to the coast",
    "fixed the old bike",
    "went to a pottery evening",
    "started a language course",
    "visited the botanical garden",
    "baked bread",
    "went to a concert",
    "cleaned out the garage",
    "got a new phone",
]
EN_WHEN = [
    "on Saturday",
    "last week",
    "in May",
    "yesterday",
    "on Tuesday",
    "in the spring",
    "last month",
    "over the weekend",
    "in August",
    "a few days ago",
    "in October",
    "",
]
EN_TAIL = ["", " Not bad at all.", " It was fun.", " Long day though.", " Would do it again."]
EN_CHAT = [
    "How have you been?",
    "Nice, sounds good.",
    "Ha, typical.",
    "I know what you mean.",
    "Same here, busy week.",
    "Let's catch up soon.",
]

ZH_WHO = ["我姐", "同事", "邻居", "表哥", "我爸", "室友", "朋友", "小姨", "楼上的大哥", "我们组"]
ZH_DID = [
    "去江边跑步了",
    "试了一家新开的面馆",
    "去山里徒步了",
    "重新刷了走廊",
    "跑了个十公里",
    "带孩子去了水族馆",
    "订了去海边的票",
    "修好了旧自行车",
    "去上了陶艺课",
    "报了个语言班",
    "去了植物园",
    "在家烤了面包",
    "去听了一场音乐会",
    "收拾了车库",
    "换了新手机",
]
ZH_WHEN = [
    "周六",
    "上周",
    "五月",
    "昨天",
    "周二",
    "春天的时候",
    "上个月",
    "周末",
    "八月",
    "前几天",
    "十月",
    "",
]
ZH_TAIL = ["", "挺好玩的。", "累了一天。", "下次还想去。", "还不错。"]
ZH_CHAT = [
    "最近怎么样？",
    "不错啊。",
    "哈哈，老样子。",
    "我懂。",
    "我也是，这周很忙。",
    "改天聚聚。",
]

EN_DATES = [
    date(2025, 1, 11),
    date(2025, 2, 1),
    date(2025, 3, 8),
    date(2025, 4, 5),
    date(2025, 4, 26),
    date(2025, 5, 19),
    date(2025, 6, 2),
    date(2025, 6, 28),
    date(2025, 7, 12),
    date(2025, 8, 2),
    date(2025, 9, 6),
    date(2025, 9, 20),
    date(2025, 10, 4),
    date(2025, 11, 8),
    date(2025, 11, 29),
    date(2026, 1, 10),
    date(2026, 2, 7),
    date(2026, 3, 14),
]

# (session index from 1, speaker a/b, text); order inside a session is kept.
EN_KEY = {
    1: [("b", "In 2019 I lived in Gdansk for a year, best year of my life.")],
    2: [("a", "Did a winter hike on the coastal path this morning, freezing but lovely.")],
    3: [("a", "Finally ran the Harbour half marathon this morning, 1:52!")],
    4: [("b", "We tried that Georgian place, Tbilisi Corner, the khachapuri was unreal.")],
    6: [("a", "Last weekend I took my nephew to the planetarium, he loved the dome show.")],
    7: [("b", "Last week I finally got my sailing licence.")],
    8: [("a", "Hiked the ridge trail above Zermatt with my cousin, views all the way.")],
    9: [("b", "Back in April we repainted the whole boathouse, took three weekends.")],
    11: [("b", "Zofia started primary school on Monday, she was so proud.")],
    12: [("a", "Signed up for the autumn 10k along the canal.")],
    13: [("b", "We tried the new ramen bar near the station, Kuro, really good broth.")],
    14: [("a", "For the Christmas market in December I'm baking two hundred gingerbread cookies.")],
    16: [("b", "We spent New Year's Eve at my in-laws' cabin, snowed in.")],
}
EN_QA = [
    ("Which race did Ines run in March 2025?", "the Harbour half marathon", [3], 4),
    ("Where did Ines go hiking in summer 2025?", "the ridge trail above Zermatt", [8], 4),
    ("Where did Ines hike in February?", "the coastal path", [2], 4),
    ("Which restaurant did Marek try in October?", "Kuro, a ramen bar", [13], 4),
    ("Which restaurant did Marek try in April 2025?", "Tbilisi Corner", [4], 4),
    ("What did Marek repaint in April?", "the boathouse", [9], 4),
    (
        "What licence did Marek get in May 2025?",
        "a sailing licence (the week before 2 June)",
        [7],
        4,
    ),
    ("Where did Ines take her nephew in May?", "the planetarium", [6], 4),
    ("What is Ines baking for the market in December?", "gingerbread cookies", [14], 4),
    ("Where did Marek live in 2019?", "Gdansk", [1], 4),
    ("Where did Marek spend New Year's Eve?", "his in-laws' cabin", [16], 4),
    ("When did Zofia start primary school?", "the Monday before 6 September 2025", [11], 2),
    ("When did Ines run the half marathon?", "8 March 2025", [3], 2),
    ("When did Marek get his sailing licence?", "the week before 2 June 2025", [7], 2),
    ("Which race is Ines signed up for?", "the autumn 10k along the canal", [12], 4),
]

ZH_DATES = [
    date(2025, 1, 11),
    date(2025, 1, 25),
    date(2025, 3, 15),
    date(2025, 4, 12),
    date(2025, 5, 3),
    date(2025, 5, 24),
    date(2025, 6, 3),
    date(2025, 7, 5),
    date(2025, 7, 19),
    date(2025, 8, 23),
    date(2025, 9, 6),
    date(2025, 9, 27),
    date(2025, 10, 11),
    date(2025, 11, 15),
    date(2025, 12, 6),
    date(2026, 1, 17),
    date(2026, 2, 14),
    date(2026, 3, 21),
]
ZH_KEY = {
    1: [("b", "2019年我在成都住了一年，那是最开心的一年。")],
    2: [("a", "冬天去爬了一趟香山，冻坏了。")],
    3: [("a", "今天上午去植物园看了樱花展，人特别多。")],
    4: [("b", "我们去吃了一家云南菜，叫彩云间，汽锅鸡很好吃。")],
    7: [("b", "上周我终于考过了潜水证。")],
    8: [("a", "和表妹去爬了黄山，山顶的日出太美了。")],
    9: [("b", "四月的时候我们把阳台改成了小书房，弄了三个周末。")],
    10: [("a", "下午又去植物园看荷花了。")],
    11: [("b", "女儿周一开始上小学了，特别兴奋。")],
    13: [("b", "我们试了车站旁边新开的一家日料，叫松月，味道不错。")],
    14: [("a", "十二月的圣诞集市我要烤两百块姜饼。")],
    16: [("b", "跨年那天我们在岳父母的山里小屋，被雪困住了。")],
}
ZH_QA = [
    ("周敏2025年3月在植物园看了什么？", "樱花展", [3], 4),
    ("周敏八月在植物园看了什么花？", "荷花", [10], 4),
    ("周敏2025年夏天爬了哪座山？", "黄山", [8], 4),
    ("周敏冬天爬了哪座山？", "香山", [2], 4),
    ("韩涛十月去吃了哪家店？", "松月（日料）", [13], 4),
    ("韩涛2025年4月吃了哪家餐厅？", "彩云间", [4], 4),
    ("韩涛四月改造了什么？", "阳台改成了小书房", [9], 4),
    ("韩涛2025年5月考过了什么证？", "潜水证（6月3日的上周）", [7], 4),
    ("周敏要为十二月的集市做什么？", "烤两百块姜饼", [14], 4),
    ("韩涛2019年住在哪里？", "成都", [1], 4),
    ("韩涛跨年是在哪里过的？", "岳父母的山里小屋", [16], 4),
    ("韩涛的女儿什么时候开始上小学？", "2025年9月1日（9月6日前的周一）", [11], 2),
    ("周敏什么时候去看的樱花展？", "2025年3月15日", [3], 2),
    ("韩涛什么时候考的潜水证？", "2025年6月3日的上周", [7], 2),
]


def _filler(rng: random.Random, zh: bool) -> str:
    if rng.random() < 0.2:
        return rng.choice(ZH_CHAT if zh else EN_CHAT)
    if zh:
        return (
            rng.choice(ZH_WHEN)
            + rng.choice(ZH_WHO)
            + rng.choice(ZH_DID)
            + "，"
            + rng.choice(ZH_TAIL)
        )
    when = rng.choice(EN_WHEN)
    text = f"{rng.choice(EN_WHO)} {rng.choice(EN_DID)}{' ' + when if when else ''}."
    return text + rng.choice(EN_TAIL)


def build(a: str, b: str, dates, key, qa, zh: bool, seed: int) -> dict:
    rng = random.Random(seed)
    conv: dict = {"speaker_a": a, "speaker_b": b}
    where: dict[int, str] = {}
    for n, day in enumerate(dates, start=1):
        hour = rng.choice([9, 10, 11, 1, 2, 3, 4, 7, 8])
        ampm = "AM" if hour >= 7 and hour <= 11 else "PM"
        conv[f"session_{n}_date_time"] = (
            f"{hour}:{rng.choice(['05', '20', '41'])} {ampm} on {day.day} {day:%B}, {day.year}"
        )
        turns = [_filler(rng, zh) for _ in range(12)]
        for who, text in key.get(n, []):
            turns.insert(rng.randint(2, 9), (who, text))
        session = []
        for i, t in enumerate(turns, start=1):
            if isinstance(t, tuple):
                speaker = a if t[0] == "a" else b
                where[n] = f"D{n}:{i}"
                text = t[1]
            else:
                speaker = a if i % 2 else b
                text = t
            session.append({"speaker": speaker, "dia_id": f"D{n}:{i}", "text": text})
        if {s["speaker"] for s in session} != {a, b}:
            session[-1]["speaker"] = b if session[-1]["speaker"] == a else a
        conv[f"session_{n}"] = session
    conv["qa"] = [
        {"question": q, "answer": ans, "evidence": [where[s] for s in sessions], "category": cat}
        for q, ans, sessions, cat in qa
    ]
    return conv


def main() -> None:
    sets = {
        "en_ines_marek": build("Ines", "Marek", EN_DATES, EN_KEY, EN_QA, False, 3501),
        "zh_zhoumin_hantao": build("周敏", "韩涛", ZH_DATES, ZH_KEY, ZH_QA, True, 3502),
    }
    for name, conv in sets.items():
        (HERE / f"{name}.json").write_text(json.dumps(conv, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
