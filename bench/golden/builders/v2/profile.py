"""Golden set v2: profile (see __init__.py)."""

from __future__ import annotations

from .helpers import Subject, an, d, fact, fmt_month
from .vocabulary import (
    ALL_CITIES,
    ALLERGENS,
    CHILD,
    CITIES_CN,
    CITIES_WORLD,
    COMPANIES,
    COMPANIES_ZH,
    CUISINES,
    DIETS,
    DRINKS,
    JOBS,
    OTHER_JOBS,
    PARTNER_REL,
    PET_NAMES,
    PETS,
    SIBLINGS,
)
from .vocabulary_2 import CHILD_NAMES, DEPTS, EDITORS, LAPTOPS, PHONES, TEAMS


def city_pool(s: Subject) -> list[tuple]:
    home = CITIES_CN if s.lang == "zh" else CITIES_WORLD
    return home if s.r.random() < 0.8 else ALL_CITIES


def g_home_city(s: Subject, L: str):
    r = s.r
    moves = r.choices([0, 1, 2], weights=[50, 33, 17])[0]
    cities = r.sample(city_pool(s), moves + 1)
    if moves == 2:
        starts = [
            s.date_between(d(2017, 1), d(2020, 6)),
            s.date_between(d(2021, 3), d(2023, 6)),
            s.date_between(d(2025, 3), d(2026, 6)),
        ]
    elif moves == 1:
        starts = [s.date_between(d(2017, 1), d(2020, 12)), s.date_between(d(2022, 3), d(2025, 9))]
    else:
        starts = [s.date_between(d(2016, 1), d(2023, 6))]
    facts = [
        fact(
            s.say(
                L,
                [
                    "User lives in {c}",
                    "User's home is in {c}",
                    "User is based in {c}",
                    "User rents a flat in {c}",
                ],
                ["用户住在{c}", "用户目前定居在{c}", "用户的家在{c}", "用户在{c}租房住"],
                c=cities[0][:2],
            ),
            starts[0],
            predicate="home_city",
            value=cities[0][0],
        )
    ]
    for i in range(1, moves + 1):
        facts.append(
            fact(
                s.say(
                    L,
                    [
                        "User moved from {old} to {c} in {month}",
                        "User relocated to {c}, leaving {old} behind in {month}",
                        "User now lives in {c} after moving from {old}",
                    ],
                    [
                        "用户{month}从{old}搬到了{c}",
                        "用户已经从{old}搬家到{c}",
                        "用户{month}搬去{c}定居，之前住在{old}",
                    ],
                    c=cities[i][:2],
                    old=cities[i - 1][:2],
                    month=(fmt_month(starts[i], "en"), fmt_month(starts[i], "zh")),
                ),
                starts[i],
                predicate="home_city",
                value=cities[i][0],
            )
        )
    s.current_city = cities[-1]
    periods = [(starts[i], starts[i + 1]) for i in range(moves)]
    return facts, {"stale": moves > 0, "periods": periods, "tz_start": starts[-1]}


def g_timezone(s: Subject, L: str):
    off = s.current_city[2]
    start = s.meta.get("home_city", {}).get("tz_start") or s.date_between(d(2020, 1), d(2024, 1))
    st = s.say(
        L,
        [
            "User's working hours follow UTC{o}",
            "User keeps UTC{o} office hours",
            "User plans their working day on UTC{o} time",
        ],
        ["用户按UTC{o}的时间上班", "用户的工作时间以UTC{o}为准", "用户的作息按UTC{o}时区安排"],
        o=off,
    )
    return [fact(st, start, predicate="timezone", value=f"UTC{off}")], {}


def g_hometown(s: Subject, L: str):
    c = s.r.choice([x for x in ALL_CITIES if x != s.current_city])
    s.meta_hometown = c
    st = s.say(
        L,
        ["User grew up in {c}", "User was born and raised in {c}", "User's hometown is {c}"],
        ["用户是在{c}长大的", "用户老家在{c}", "用户出生在{c}，童年也在那里度过"],
        c=c[:2],
    )
    return [fact(st, s.date_between(d(2019, 1), d(2025, 6)), predicate="hometown", value=c[0])], {}


def g_employer(s: Subject, L: str):
    r = s.r
    pool = COMPANIES_ZH if (s.lang == "zh" and r.random() < 0.6) else COMPANIES
    changed = r.random() < 0.35
    (c0, c1), (j0, j1) = r.sample(pool, 2), r.sample(JOBS, 2)
    starts = [s.date_between(d(2016, 1), d(2020, 10)), s.date_between(d(2022, 2), d(2025, 8))]
    first = s.say(
        L,
        [
            "User works at {co} as {aj}",
            "User is {aj} at {co}",
            "User has a job at {co}, working as {aj}",
        ],
        ["用户在{co}做{job}", "用户是{co}的{job}", "用户在{co}上班，岗位是{job}"],
        co=c0,
        job=j0,
        aj=(an(j0[0]), ""),
    )
    facts = [
        fact(
            first,
            starts[0] if changed else s.date_between(d(2018, 1), d(2024, 6)),
            predicate="employer",
            value=c0[0],
        )
    ]
    if changed:
        month = (fmt_month(starts[1], "en"), fmt_month(starts[1], "zh"))
        st = s.say(
            L,
            [
                "User left {old} and joined {co} as {aj} in {month}",
                "User changed jobs in {month}: now {aj} at {co}, previously at {old}",
                "User started a new role as {aj} at {co} after leaving {old}",
            ],
            [
                "用户{month}从{old}离职，加入{co}担任{job}",
                "用户{month}跳槽到了{co}，现在做{job}，之前在{old}",
                "用户离开{old}后去了{co}当{job}",
            ],
            co=c1,
            old=c0,
            job=j1,
            aj=(an(j1[0]), ""),
            month=month,
        )
        facts.append(fact(st, starts[1], predicate="employer", value=c1[0]))
    periods = [(starts[0], starts[1])] if changed else []
    return facts, {"stale": changed, "periods": periods}


def g_manager(s: Subject, L: str):
    p = s.take_person(L)
    st = s.say(
        L,
        [
            "User reports to {p}, who heads {dept}",
            "User's manager is {p} from the {dept} side",
            "{p} is the user's line manager",
        ],
        ["用户向{p}汇报，{p}负责{dept}", "用户的直属上级是{dept}的{p}", "{p}是用户的主管"],
        p=p,
        dept=s.r.choice(DEPTS),
    )
    return [fact(st, s.date_between(d(2022, 1), d(2026, 6)))], {}


def g_team(s: Subject, L: str):
    st = s.say(
        L,
        [
            "User is on the {t} team, {n} people in total",
            "User belongs to the {t} group, which has {n} members",
            "User sits in a {n}-person {t} team",
        ],
        [
            "用户在{t}团队，一共{n}个人",
            "用户属于{t}组，组里有{n}人",
            "用户所在的{t}小组共{n}名成员",
        ],
        t=s.r.choice(TEAMS),
        n=str(s.r.randint(4, 15)),
    )
    return [fact(st, s.date_between(d(2022, 1), d(2026, 6)))], {}


def g_diet(s: Subject, L: str):
    st = s.say(
        L,
        ["User is {x}", "When it comes to food, the user is {x}", "Dietary note: user is {x}"],
        ["用户{x}", "饮食方面，用户{x}", "用户吃饭的习惯是{x}"],
        x=s.r.choice(DIETS),
    )
    return [fact(st, s.date_between(d(2020, 1), d(2026, 6)))], {}


def g_allergy(s: Subject, L: str):
    facts = []
    for a in s.r.sample(ALLERGENS, 1 if s.r.random() < 0.7 else 2):
        st = s.say(
            L,
            [
                "User is allergic to {a}",
                "User has an allergy to {a}",
                "User reacts badly to {a} (allergy)",
            ],
            ["用户对{a}过敏", "用户有{a}过敏", "用户一碰{a}就过敏"],
            a=a,
        )
        facts.append(fact(st, s.date_between(d(2019, 1), d(2026, 6))))
    return facts, {}


def g_drink(s: Subject, L: str):
    x = s.r.choice(DRINKS)
    st = s.say(
        L,
        [
            "User's favourite drink is {x}",
            "User drinks {x} more than anything else",
            "User loves {x}",
        ],
        ["用户最喜欢喝{x}", "用户每天都离不开{x}", "用户特别爱喝{x}"],
        x=x,
    )
    return [
        fact(st, s.date_between(d(2020, 1), d(2026, 6)), predicate="favourite_drink", value=x[0])
    ], {}


def g_cuisine(s: Subject, L: str):
    st = s.say(
        L,
        [
            "User's favourite food is {x}",
            "User could eat {x} every week",
            "User loves {x} above all other food",
        ],
        ["用户最爱吃{x}", "用户每周都想吃{x}", "用户最喜欢的菜系是{x}"],
        x=s.r.choice(CUISINES),
    )
    return [fact(st, s.date_between(d(2020, 1), d(2026, 6)))], {}


def g_pet(s: Subject, L: str):
    facts = []
    kinds = s.r.sample(PETS, 1 if s.r.random() < 0.75 else 2)
    for kind, name in zip(kinds, s.r.sample(PET_NAMES, len(kinds)), strict=True):
        start = s.date_between(d(2016, 1), d(2025, 12))
        st = s.say(
            L,
            [
                "User has a {k} called {n}",
                "User's {k}, {n}, lives with them",
                "User adopted a {k} named {n} in {y}",
            ],
            ["用户养了一只{k}，叫{n}", "用户家的{k}名叫{n}", "用户{y}年领养了一只叫{n}的{k}"],
            k=kind,
            n=name,
            y=str(start.year),
        )
        facts.append(fact(st, start))
    return facts, {}


def g_partner(s: Subject, L: str):
    job = s.r.choice(OTHER_JOBS)
    rel, names = s.r.choice(PARTNER_REL)
    st = s.say(
        L,
        [
            "User's {rel} {n} is {aj}",
            "User is with {n} ({rel}), who works as {aj}",
            "{n}, the user's {rel}, works as {aj}",
        ],
        [
            "用户的{rel}{n}是{job}",
            "用户和{rel}{n}在一起，对方是{job}",
            "{n}是用户的{rel}，职业是{job}",
        ],
        rel=rel,
        n=s.r.choice(names),
        job=job,
        aj=(an(job[0]), ""),
    )
    return [fact(st, s.date_between(d(2018, 1), d(2026, 3)))], {}


def g_sibling(s: Subject, L: str):
    rel, job = s.r.choice(SIBLINGS), s.r.choice(OTHER_JOBS)
    c = s.r.choice([x for x in ALL_CITIES if x != s.current_city])
    st = s.say(
        L,
        [
            "User's {rel} lives in {c} and works as {aj}",
            "The user's {rel} is {aj} based in {c}",
            "User's {rel} moved to {c} and is {aj} there",
        ],
        [
            "用户的{rel}住在{c}，是一名{job}",
            "用户{rel}在{c}当{job}",
            "用户的{rel}定居{c}，职业是{job}",
        ],
        rel=rel,
        c=c[:2],
        job=job,
        aj=(an(job[0]), ""),
    )
    return [fact(st, s.date_between(d(2019, 1), d(2026, 6)))], {"slots": {"rel": rel}}


def g_parents(s: Subject, L: str):
    home = s.meta_hometown
    c = (
        home
        if home and s.r.random() < 0.5
        else s.r.choice([x for x in ALL_CITIES if x != s.current_city])
    )
    st = s.say(
        L,
        [
            "User's parents live in {c}",
            "The user's mum and dad are in {c}",
            "User visits their parents in {c} a few times a year",
        ],
        ["用户的父母住在{c}", "用户爸妈在{c}生活", "用户每年回{c}看几次父母"],
        c=c[:2],
    )
    return [fact(st, s.date_between(d(2019, 1), d(2026, 6)))], {}


def g_children(s: Subject, L: str):
    st = s.say(
        L,
        [
            "User has a {age}-year-old {c} called {n}",
            "User's {c} {n} is {age}",
            "User is parent to {n}, a {c} aged {age}",
        ],
        ["用户有个{age}岁的{c}，叫{n}", "用户的{c}{n}今年{age}岁", "用户家{c}{n}{age}岁了"],
        age=str(s.r.randint(1, 14)),
        c=s.r.choice(CHILD),
        n=s.r.choice(CHILD_NAMES),
    )
    return [fact(st, s.date_between(d(2024, 1), d(2026, 6)))], {}


def g_phone(s: Subject, L: str):
    changed = s.r.random() < 0.3
    p0, p1 = s.r.sample(PHONES, 2)
    t0, t1 = s.date_between(d(2020, 1), d(2023, 6)), s.date_between(d(2024, 1), d(2026, 6))
    facts = [
        fact(
            s.say(
                L,
                ["User uses {ap}", "User's phone is {ap}", "User carries {ap}"],
                ["用户用的是{p}", "用户的手机是{p}", "用户拿的手机是{p}"],
                p=p0,
                ap=(an(p0), ""),
            ),
            t0,
            predicate="phone_model",
            value=p0,
        )
    ]
    if changed:
        facts.append(
            fact(
                s.say(
                    L,
                    [
                        "User upgraded from {old} to {ap} in {month}",
                        "User switched phones in {month}: now {ap}, previously {aold}",
                    ],
                    ["用户{month}把手机从{old}换成了{p}", "用户换了新手机{p}，之前用{old}"],
                    p=p1,
                    ap=(an(p1), ""),
                    old=p0,
                    aold=(an(p0), ""),
                    month=(fmt_month(t1, "en"), fmt_month(t1, "zh")),
                ),
                t1,
                predicate="phone_model",
                value=p1,
            )
        )
    return facts, {"stale": changed, "periods": [(t0, t1)] if changed else []}


def g_laptop(s: Subject, L: str):
    x = s.r.choice(LAPTOPS)
    st = s.say(
        L,
        ["User's work laptop is {a}", "User does their work on {a}", "User got {a} from IT"],
        ["用户工作用的笔记本是{x}", "用户用{x}办公", "公司给用户配了一台{x}"],
        x=x,
        a=(an(x), ""),
    )
    return [fact(st, s.date_between(d(2021, 1), d(2026, 6)))], {}


def g_editor(s: Subject, L: str):
    changed = s.r.random() < 0.25
    e0, e1 = s.r.sample(EDITORS, 2)
    t0, t1 = s.date_between(d(2018, 1), d(2023, 6)), s.date_between(d(2024, 1), d(2026, 6))
    facts = [
        fact(
            s.say(
                L,
                ["User codes in {e}", "User's editor of choice is {e}", "User writes code in {e}"],
                ["用户平时用{e}写程序", "用户习惯用{e}写代码", "用户的编辑器是{e}"],
                e=e0,
            ),
            t0,
            predicate="editor",
            value=e0,
        )
    ]
    if changed:
        facts.append(
            fact(
                s.say(
                    L,
                    [
                        "User switched from {old} to {e} in {month}",
                        "User moved their coding setup from {old} to {e}",
                    ],
                    ["用户{month}从{old}换到了{e}", "用户已经不用{old}了，改用{e}写代码"],
                    e=e1,
                    old=e0,
                    month=(fmt_month(t1, "en"), fmt_month(t1, "zh")),
                ),
                t1,
                predicate="editor",
                value=e1,
            )
        )
    return facts, {"stale": changed, "periods": [(t0, t1)] if changed else []}
