"""Golden set v2: profile, continued (see __init__.py)."""

from __future__ import annotations

from datetime import date

from .helpers import Subject, an, d, fact, fmt_md, fmt_month
from .profile import (
    g_allergy,
    g_children,
    g_cuisine,
    g_diet,
    g_drink,
    g_editor,
    g_employer,
    g_home_city,
    g_hometown,
    g_laptop,
    g_manager,
    g_parents,
    g_partner,
    g_pet,
    g_phone,
    g_sibling,
    g_team,
    g_timezone,
)
from .questions import PROFILE_Q
from .vocabulary_2 import (
    ANSWER_STYLES,
    BOOKS,
    CARS,
    CHANNELS,
    COMMUTES,
    DREAM_TRIPS,
    HOBBIES,
    HOTEL_PREFS,
    LANGS_SPOKEN,
    LEARNING,
    MEETING_PREFS,
    MUSIC,
    NICKNAMES_EN,
    NICKNAMES_ZH,
    OFFICE_DAYS,
    OSES,
    PROG_LANGS,
    REPLY_LANGS,
    SEATS,
    SLEEP,
    STANDUP_TIMES,
    TRAVEL_MODES,
    UNIVERSITIES,
    WORKOUTS,
)


def g_prog_lang(s: Subject, L: str):
    st = s.say(
        L,
        [
            "User mostly writes {x} at work",
            "{x} is the user's main language on the job",
            "Most of the user's code at work is {x}",
        ],
        ["用户工作中主要写{x}", "用户的主力语言是{x}", "用户上班大部分代码都用{x}写"],
        x=s.r.choice(PROG_LANGS),
    )
    return [fact(st, s.date_between(d(2020, 1), d(2026, 6)))], {}


def g_os(s: Subject, L: str):
    st = s.say(
        L,
        [
            "User runs {x} on their own computer",
            "User's desktop is on {x}",
            "User prefers {x} for development",
        ],
        ["用户自己的电脑装的是{x}", "用户桌面系统用{x}", "用户的开发环境在{x}上"],
        x=s.r.choice(OSES),
    )
    return [fact(st, s.date_between(d(2020, 1), d(2026, 6)))], {}


def g_languages(s: Subject, L: str):
    st = s.say(
        L,
        ["User speaks {x}", "Languages the user knows: {x}", "User is comfortable in {x}"],
        ["用户会说{x}", "用户掌握的语言有{x}", "用户能用{x}交流"],
        x=s.r.choice(LANGS_SPOKEN),
    )
    return [fact(st, s.date_between(d(2019, 1), d(2026, 6)))], {}


def g_standup(s: Subject, L: str):
    changed = s.r.random() < 0.2
    a, b = s.r.sample(STANDUP_TIMES, 2)
    t0, t1 = s.date_between(d(2021, 1), d(2023, 12)), s.date_between(d(2024, 3), d(2026, 6))
    facts = [
        fact(
            s.say(
                L,
                [
                    "The user's team meets for stand-up at {t} every weekday",
                    "Daily stand-up for the user is at {t}",
                    "User has stand-up with the team at {t} each morning",
                ],
                [
                    "用户的团队每个工作日{t}开站会",
                    "用户每天{t}参加站会",
                    "用户组里的晨会定在每天{t}",
                ],
                t=a,
            ),
            t0,
            predicate="standup_time",
            value=a,
        )
    ]
    if changed:
        facts.append(
            fact(
                s.say(
                    L,
                    [
                        "User's stand-up moved from {old} to {t} in {month}",
                        "Stand-up for the user's team is now at {t} instead of {old}",
                    ],
                    ["用户团队的站会从{old}改到了{t}", "{month}起用户的站会改成{t}，原来是{old}"],
                    t=b,
                    old=a,
                    month=(fmt_month(t1, "en"), fmt_month(t1, "zh")),
                ),
                t1,
                predicate="standup_time",
                value=b,
            )
        )
    return facts, {"stale": changed, "periods": [(t0, t1)] if changed else []}


DEFAULT_START = (date(2020, 1, 1), date(2026, 6, 1))


def simple(en: list[str], zh: list[str], pool, start=DEFAULT_START, predicate=None, slot="x"):
    """A profile key with one memory: a template filled from one pool."""

    def gen(s: Subject, L: str):
        x = s.r.choice(pool)
        kw = {slot: x}
        if isinstance(x, tuple) and len(x) == 2:
            kw["ax"] = (an(x[0]), "")
        st = s.say(L, en, zh, **kw)
        extra = (
            {"predicate": predicate, "value": x[0] if isinstance(x, tuple) else x}
            if predicate
            else {}
        )
        return [fact(st, s.date_between(*start), **extra)], {}

    return gen


def g_seat(s: Subject, L: str):
    x = s.r.choice(SEATS)
    st = s.say(
        L,
        [
            "User prefers {x} seats on flights",
            "On planes the user always picks {ax} seat",
            "User likes to sit in {ax} seat when flying",
        ],
        ["坐飞机时用户喜欢{x}的座位", "用户乘机总是选{x}座位", "用户订机票偏好{x}位置"],
        x=x,
        ax=(an(x[0]), ""),
    )
    return [fact(st, s.date_between(d(2019, 1), d(2026, 6)))], {}


def g_birthday(s: Subject, L: str):
    born = s.date_between(d(1975, 1), d(2001, 12))
    st = s.say(
        L,
        [
            "User's birthday is on {md}",
            "User was born on {md}, {y}",
            "User celebrates their birthday on {md}",
        ],
        ["用户的生日是{md}", "用户出生于{y}年{md}", "用户每年{md}过生日"],
        md=(fmt_md(born, "en"), fmt_md(born, "zh")),
        y=str(born.year),
    )
    return [fact(st, s.date_between(d(2019, 1), d(2026, 6)))], {}


def g_project(s: Subject, L: str):
    p = s.projects[0]
    st = s.say(
        L,
        [
            "User leads the {p} project, which is about {g}",
            "User's main project is {p}: {g}",
            "Most of the user's time goes into {p} ({g})",
        ],
        [
            "用户负责{p}项目，目标是{g}",
            "用户的主要项目是{p}：{g}",
            "用户大部分时间都花在{p}项目上，内容是{g}",
        ],
        p=p[0],
        g=(p[1], p[2]),
    )
    return [fact(st, s.date_between(d(2024, 1), d(2026, 6)))], {}


def g_nickname(s: Subject, L: str):
    pool = NICKNAMES_ZH if L == "zh" else NICKNAMES_EN
    st = s.say(
        L,
        [
            "User likes to be called {x}",
            "Friends call the user {x}, which the user prefers",
            "User goes by {x} informally",
        ],
        ["用户喜欢被叫作{x}", "用户的朋友都叫用户{x}", "私下里用户希望被称作{x}"],
        x=s.r.choice(pool),
    )
    return [fact(st, s.date_between(d(2019, 1), d(2026, 6)))], {}


def g_university(s: Subject, L: str):
    u = s.r.choice(UNIVERSITIES)
    st = s.say(
        L,
        [
            "User studied {m} at {u}",
            "User graduated from {u} with a degree in {m}",
            "User has {am} degree from {u}",
        ],
        ["用户在{u}读的{m}", "用户毕业于{u}{m}专业", "用户是{u}{m}系毕业的"],
        u=(u[0], u[1]),
        m=(u[2], u[3]),
        am=(an(u[2]), ""),
    )
    return [fact(st, s.date_between(d(2019, 1), d(2026, 6)))], {}


def g_name(s: Subject, L: str):
    st = s.say(
        L,
        ["User's name is {n}", "The user is called {n}"],
        ["用户的名字是{n}", "用户叫{n}"],
        n=s.name,
    )
    return [
        fact(st, s.date_between(d(2019, 1), d(2024, 1)), predicate="full_name", value=s.name[0])
    ], {}


PROFILE_GEN = {
    "home_city": g_home_city,
    "timezone": g_timezone,
    "hometown": g_hometown,
    "employer": g_employer,
    "manager": g_manager,
    "team": g_team,
    "diet": g_diet,
    "allergy": g_allergy,
    "drink": g_drink,
    "cuisine": g_cuisine,
    "pet": g_pet,
    "partner": g_partner,
    "sibling": g_sibling,
    "parents": g_parents,
    "children": g_children,
    "phone": g_phone,
    "laptop": g_laptop,
    "editor": g_editor,
    "prog_lang": g_prog_lang,
    "os": g_os,
    "languages": g_languages,
    "standup": g_standup,
    "meeting_pref": simple(
        ["User prefers {x}", "For scheduling, the user asks for {x}", "User's calendar habit: {x}"],
        ["用户希望{x}", "安排日程时用户要求{x}", "用户的日程习惯：{x}"],
        MEETING_PREFS,
    ),
    "seat": g_seat,
    "travel_mode": simple(
        ["User prefers {x}", "For getting between cities, the user favours {x}"],
        ["用户出行习惯是{x}", "城际出行时用户一般{x}"],
        TRAVEL_MODES,
    ),
    "hotel_pref": simple(
        ["User likes {x}", "When travelling, the user books {x}", "User's hotel preference: {x}"],
        ["用户住酒店喜欢{x}", "出差时用户会订{x}", "用户对住宿的偏好：{x}"],
        HOTEL_PREFS,
    ),
    "answer_style": simple(
        [
            "User wants answers with {x}",
            "User asked for responses that give {x}",
            "User prefers replies written as {x}",
        ],
        ["用户希望回答{x}", "用户要求回复时{x}", "用户喜欢的回答方式是{x}"],
        ANSWER_STYLES,
        predicate="answer_style",
    ),
    "reply_lang": simple(
        ["User wants {x}", "User asked for {x}", "Language preference: the user expects {x}"],
        ["用户要求{x}", "用户希望{x}", "语言偏好：用户希望{x}"],
        REPLY_LANGS,
    ),
    "hobby": simple(
        [
            "User's favourite pastime is {x}",
            "User spends weekends on {x}",
            "User is really into {x}",
        ],
        ["用户业余最喜欢{x}", "用户周末常常{x}", "用户很热衷于{x}"],
        HOBBIES,
    ),
    "music": simple(
        ["User listens to {x} a lot", "User's favourite music is {x}", "User mostly plays {x}"],
        ["用户经常听{x}", "用户最喜欢的音乐是{x}", "用户歌单里大多是{x}"],
        MUSIC,
    ),
    "book": simple(
        ["User is reading {x}", "User is halfway through {x}", "User started reading {x} recently"],
        ["用户在读《{x}》", "用户的《{x}》读了一半", "用户最近开始看《{x}》"],
        BOOKS,
        start=(d(2025, 6), d(2026, 10)),
    ),
    "commute": simple(
        ["To get to work the user {x}", "For the commute, the user {x}"],
        ["用户上班{x}", "用户通勤{x}"],
        COMMUTES,
    ),
    "car": simple(
        ["User drives {x}", "User owns {x}", "User's car is {x}"],
        ["用户开的是{x}", "用户有{x}", "用户的车是{x}"],
        CARS,
    ),
    "workout": simple(
        ["User {x}", "To stay fit the user {x}", "Exercise-wise, the user {x}"],
        ["用户{x}", "为了保持身材，用户{x}", "运动方面，用户{x}"],
        WORKOUTS,
    ),
    "birthday": g_birthday,
    "project": g_project,
    "channel": simple(
        [
            "User prefers {x} for quick questions and email for formal matters",
            "The user is easiest to reach on {x}",
            "User asked to be contacted via {x} rather than email",
        ],
        [
            "用户日常沟通偏好{x}，正式事务才发邮件",
            "找用户最快的方式是{x}",
            "用户希望通过{x}联系，而不是邮件",
        ],
        CHANNELS,
    ),
    "office_days": simple(
        ["User {x}", "Work pattern: the user {x}", "On the hybrid schedule, the user {x}"],
        ["用户{x}", "工作安排上，用户{x}", "用户的上班安排是{x}"],
        OFFICE_DAYS,
    ),
    "sleep": simple(
        ["User {x}", "Sleep-wise, the user {x}"], ["用户{x}", "作息上，用户{x}"], SLEEP
    ),
    "learning": simple(
        [
            "User is learning {x}",
            "User has started lessons in {x}",
            "User practises {x} in the evenings",
        ],
        ["用户在学{x}", "用户报了{x}课", "用户最近在钻研{x}"],
        LEARNING,
        start=(d(2025, 1), d(2026, 10)),
    ),
    "nickname": g_nickname,
    "university": g_university,
    "dream_trip": simple(
        [
            "User's dream trip is {x}",
            "Top of the user's travel wish list: {x}",
            "User keeps talking about {x} one day",
        ],
        ["用户的梦想是{x}", "用户一直想{x}", "用户旅行清单上排第一的是{x}"],
        DREAM_TRIPS,
    ),
    "name": g_name,
}


assert set(PROFILE_GEN) == set(PROFILE_Q), set(PROFILE_GEN) ^ set(PROFILE_Q)


ALWAYS = ["home_city", "employer", "name"]


# Generation order: keys whose values others depend on come first.
ORDER = ["home_city", "hometown", "employer"] + [
    k for k in PROFILE_GEN if k not in ("home_city", "hometown", "employer")
]


# Keys never used for "must get nothing" questions: another memory of the subject would
# answer them in part (the home city implies the time zone, concerts imply music taste, …).
ABSTAIN_EXCLUDE = {
    "timezone", "languages", "reply_lang", "hometown", "parents", "commute", "car", "office_days",
    "project", "prog_lang", "travel_mode", "music", "hobby", "cuisine", "name", "home_city", "employer",
    "laptop", "os", "workout",
}  # fmt: skip


STALE_KEYS = ["home_city", "employer", "phone", "editor", "standup"]
