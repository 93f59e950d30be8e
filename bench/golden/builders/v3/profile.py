"""Golden set v3: profile (see __init__.py)."""

from __future__ import annotations

from datetime import timedelta

from .helpers import D, F, Subject, art, md_of, month_of, named, pick
from .questions import ASK
from .vocabulary import (
    ALLERGENS,
    ANSWER_STYLES,
    BOOKS,
    CARS,
    CHANNELS,
    CITIES_CN,
    CITIES_WORLD,
    COMMUTES,
    COMPANIES_EN,
    COMPANIES_ZH,
    CUISINES,
    DIETS,
    DREAM_TRIPS,
    DRINKS,
    EDITORS,
    HOBBIES,
    HOTEL_PREFS,
    JOB_TITLES,
    KID_NAMES,
    KIDS,
    LANGS_SPOKEN,
    LAPTOPS,
    LEARNING,
    MAJORS,
    MEETING_PREFS,
    MUSIC,
    NICKNAMES,
    OFFICE_DAYS,
    OSES,
    PARTNER_NAMES,
    PARTNER_REL,
    PET_NAMES,
    PETS,
    PHONES,
    PROG_LANGS,
    REPLY_LANGS,
    SEATS,
    SIBLING_NAMES,
    SIBLING_REL,
    SLEEP,
    STANDUP_TIMES,
    TEAMS,
    TRAVEL_MODES,
    UNIVERSITIES,
    WORKOUTS,
)


def g_home_city(s: Subject, L: str, moves: int):
    r = s.r
    pool = s.cities if r.random() < 0.85 else CITIES_CN + CITIES_WORLD
    cities = r.sample(pool, moves + 1)
    if moves == 2:
        starts = [s.day(D(2018, 1, 5), D(2019, 3, 1)), s.day(D(2021, 2, 1), D(2022, 6, 1)),
                  s.day(D(2024, 9, 1), D(2026, 5, 1))]  # fmt: skip
    elif moves == 1:
        starts = [s.day(D(2018, 1, 5), D(2019, 6, 1)), s.day(D(2022, 3, 1), D(2025, 9, 1))]
    else:
        starts = [s.day(D(2018, 3, 1), D(2023, 6, 1))]
    facts = [
        F(
            s.say(L, ["Home base: {c}", "Has a flat in {c} and lives there", "Lives in {c}"],
                  ["常住{c}", "家在{c}，平时都住那边", "定居在{c}"], c=cities[0][:2]),
            starts[0], predicate="home_city", value=cities[0][0],
        )
    ]  # fmt: skip
    for i in range(1, moves + 1):
        st = s.say(
            L,
            ["Packed up and left {old} for {c} in {month}", "Moved house to {c} in {month}, leaving {old} behind",
             "Since {month} has been living in {c} (previously {old})"],
            ["{month}搬家了：离开{old}，落脚{c}", "{month}起改住{c}，之前在{old}", "已于{month}迁居{c}，不再住{old}"],
            c=cities[i][:2], old=cities[i - 1][:2], month=month_of(starts[i]),
        )  # fmt: skip
        facts.append(F(st, starts[i], predicate="home_city", value=cities[i][0]))
    s.city_now, s.home_cities = cities[-1], cities
    periods = [(starts[i], starts[i + 1]) for i in range(moves)]
    return facts, {"stale": moves > 0, "periods": periods, "last_start": starts[-1]}


def g_timezone(s: Subject, L: str):
    off = s.city_now[2]
    start = s.meta["home_city"]["last_start"] + timedelta(days=s.r.randint(1, 30))
    st = s.say(
        L,
        ["Keeps working hours on UTC{o}", "Clock for scheduling: UTC{o}", "Time zone is UTC{o}"],
        ["所在时区为UTC{o}", "日程按UTC{o}来排", "工作时间以UTC{o}计"],
        o=off,
    )
    return [F(st, start, predicate="timezone", value=f"UTC{off}")], {}


def g_hometown(s: Subject, L: str):
    pool = [c for c in s.cities if c not in s.home_cities]
    c = s.r.choice(pool)
    st = s.say(
        L,
        ["Grew up in {c}", "Originally from {c}", "A native of {c}"],
        ["老家是{c}的", "在{c}长大", "土生土长的{c}人"],
        c=c[:2],
    )
    return [F(st, s.day(D(2018, 2, 1), D(2025, 6, 1)), predicate="hometown", value=c[0])], {}


def companies(s: Subject) -> list[tuple]:
    if s.lang == "zh" and s.r.random() < 0.7:
        return COMPANIES_ZH
    return [(c, c) for c in COMPANIES_EN]


def g_employer(s: Subject, L: str, changed: bool):
    r = s.r
    (c0, c1), (j0, j1) = r.sample(companies(s), 2), r.sample(JOB_TITLES, 2)
    if changed:
        starts = [s.day(D(2018, 1, 10), D(2019, 9, 1)), s.day(D(2022, 1, 1), D(2025, 8, 1))]
    else:
        starts = [s.day(D(2018, 4, 1), D(2024, 6, 1))]
    facts = [
        F(
            s.say(L, ["Employed by {co}; title is {job}", "Works for {co} in the role of {job}",
                      "Job: {job} at {co}"],
                  ["就职于{co}，职位是{job}", "在{co}工作，担任{job}", "工作单位：{co}（{job}）"],
                  co=c0, job=j0),
            starts[0], predicate="employer", value=c0[0],
        )
    ]  # fmt: skip
    if changed:
        st = s.say(
            L,
            ["Switched employers in {month}: left {old}, now {job} at {co}",
             "Joined {co} as {ajob} in {month} after quitting {old}",
             "As of {month} works for {co} ({job}); the {old} job is over"],
            ["{month}换了工作，从{old}去了{co}做{job}", "{month}入职{co}任{job}，已从{old}辞职",
             "自{month}起在{co}上班（{job}），{old}那份工作结束了"],
            co=c1, old=c0, job=j1, ajob=(art(j1[0]), j1[1]), month=month_of(starts[1]),
        )  # fmt: skip
        facts.append(F(st, starts[1], predicate="employer", value=c1[0]))
    periods = [(starts[0], starts[1])] if changed else []
    return facts, {"stale": changed, "periods": periods}


def g_manager(s: Subject, L: str):
    p = s.people.pop()
    st = s.say(
        L,
        ["Reports directly to {p}", "Line manager: {p}", "{p} manages the user"],
        ["直属上级是{p}", "汇报对象是{p}", "{p}是该用户的领导"],
        p=p,
    )
    return [F(st, s.day(D(2019, 1, 1), D(2026, 3, 1)))], {}


def g_partner(s: Subject, L: str):
    rel, g = s.r.choice(PARTNER_REL)
    n = named(s, PARTNER_NAMES[s.lang][g])
    st = s.say(
        L,
        ["The user's {rel} is named {n}", "Shares a home with {rel} {n}", "{n} is the user's {rel}"],
        ["{rel}叫{n}", "和{rel}{n}住在一起", "{n}是该用户的{rel}"],
        rel=rel, n=n,
    )  # fmt: skip
    return [F(st, s.day(D(2018, 6, 1), D(2025, 12, 1)))], {}


def g_children(s: Subject, L: str):
    facts = []
    for kid, g in s.r.sample(KIDS, s.r.choice([1, 1, 2])):
        n, age = named(s, KID_NAMES[s.lang][g]), s.r.randint(2, 14)
        st = s.say(
            L,
            ["Has a {kid} named {n}, aged {a}", "Parent of {n}, a {a}-year-old {kid}", "The user's {kid} {n} is {a}"],
            ["有个{a}岁的{kid}叫{n}", "{kid}{n}今年{a}岁", "家里有个{kid}，名字叫{n}，{a}岁"],
            kid=kid, n=n, a=str(age),
        )  # fmt: skip
        facts.append(F(st, s.day(D(2024, 1, 1), D(2026, 6, 1))))
    return facts, {}


def g_pet(s: Subject, L: str):
    pet, pn = s.r.choice(PETS), named(s, PET_NAMES)
    st = s.say(
        L,
        ["Owns a {pet} called {pn}", "Has a pet {pet}, {pn}", "{pn} is the user's {pet}"],
        ["养了一只{pet}，叫{pn}", "家里的{pet}名叫{pn}", "{pn}是该用户养的{pet}"],
        pet=pet, pn=pn,
    )  # fmt: skip
    return [F(st, s.day(D(2019, 1, 1), D(2026, 6, 1)))], {}


def g_allergy(s: Subject, L: str):
    facts = []
    for x in s.r.sample(ALLERGENS, s.r.choice([1, 2])):
        st = s.say(
            L,
            ["Allergic to {x}", "Gets an allergic reaction from {x}", "Has {ax} allergy"],
            ["对{x}过敏", "{x}过敏，需要避开", "有{x}过敏"],
            x=x, ax=(art(x[0]), ""),
        )  # fmt: skip
        facts.append(F(st, s.day(D(2018, 5, 1), D(2026, 6, 1))))
    return facts, {}


def g_sibling(s: Subject, L: str):
    rel, g = s.r.choice(SIBLING_REL)
    n = named(s, SIBLING_NAMES[s.lang][g])
    st = s.say(
        L,
        ["Has {ar} called {n}", "The user's {rel} is {n}", "{n} is the user's {rel}; the two are close"],
        ["有个{rel}叫{n}", "{rel}名叫{n}", "{n}是该用户的{rel}，两人关系很好"],
        rel=rel, n=n, ar=(art(rel[0]), ""),
    )  # fmt: skip
    return [F(st, s.day(D(2018, 6, 1), D(2026, 2, 1)))], {}


def g_university(s: Subject, L: str):
    u, m = s.r.choice(UNIVERSITIES), s.r.choice(MAJORS)
    st = s.say(
        L,
        ["University: {u}, {m} major", "Read {m} at {u}", "Spent college years at {u} studying {m}"],
        ["母校是{u}，学的{m}", "大学在{u}念{m}专业", "{u}{m}专业出身"],
        u=u, m=m,
    )  # fmt: skip
    return [F(st, s.day(D(2018, 3, 1), D(2025, 12, 1)))], {}


def g_nickname(s: Subject, L: str):
    x = named(s, NICKNAMES)
    st = s.say(
        L,
        [
            "Goes by {x} among friends",
            "Prefers the nickname {x}",
            "In casual chats, call the user {x}",
        ],
        ["熟人都管该用户叫{x}", "小名{x}", "喜欢别人叫自己{x}"],
        x=x,
    )
    return [F(st, s.day(D(2018, 8, 1), D(2026, 5, 1)))], {}


def g_name(s: Subject, L: str):
    if s.lang == "zh":
        en, zh = (
            [f"Full name: {s.name[0]} ({s.name[1]})", f"Introduced themselves as {s.name[0]}"],
            [
                f"全名{s.name[1]}，拼音写作{s.name[0]}",
                f"姓名：{s.name[1]}",
            ],
        )
    else:
        en, zh = (
            [f"Full name: {s.name[0]}", f"Signs emails as {s.name[0]}"],
            [
                f"姓名：{s.name[0]}",
                f"自我介绍时说叫{s.name[0]}",
            ],
        )
    st = s.r.choice(en if L == "en" else zh)
    return [F(st, s.day(D(2018, 1, 2), D(2023, 12, 1)), predicate="full_name", value=s.name[0])], {}


def g_birthday(s: Subject, L: str):
    born = s.day(D(1975, 1, 1), D(2001, 12, 28))
    st = s.say(
        L,
        ["Birthday falls on {md}", "Born on {md} {y}", "Celebrates a birthday every year on {md}"],
        ["生日是{md}", "{y}年{md}出生", "每年{md}过生日"],
        md=md_of(born), y=str(born.year),
    )  # fmt: skip
    return [F(st, s.day(D(2018, 4, 1), D(2026, 6, 1)))], {}


def changeable(pool, first_en, first_zh, change_en, change_zh, predicate, value=lambda x: x):
    """A single-valued key whose value may be replaced once (a stale older value)."""

    def gen(s: Subject, L: str):
        changed = s.r.random() < 0.45
        a, b = s.r.sample(pool, 2)
        if changed:
            starts = [s.day(D(2018, 6, 1), D(2022, 6, 1)), s.day(D(2023, 3, 1), D(2026, 8, 1))]
        else:
            starts = [s.day(D(2019, 1, 1), D(2026, 6, 1))]
        ax = (art(a[0]), "") if isinstance(a, tuple) else ""
        facts = [F(s.say(L, first_en, first_zh, x=a, ax=ax), starts[0], predicate=predicate,
                   value=pick(value(a), "en"))]  # fmt: skip
        if changed:
            st = s.say(L, change_en, change_zh, x=b, old=a, month=month_of(starts[1]))
            facts.append(F(st, starts[1], predicate=predicate, value=pick(value(b), "en")))
        return facts, {"stale": changed, "periods": [(starts[0], starts[1])] if changed else []}

    return gen


def simple(pool, en, zh, start=None, predicate=None):
    """A key with one memory filled from one pool."""
    start = start or (D(2018, 3, 1), D(2026, 6, 1))

    def gen(s: Subject, L: str):
        x = s.r.choice(pool)
        slots = {"x": x}
        if isinstance(x, tuple):
            slots["ax"] = (art(x[0]), "")
        st = s.say(L, en, zh, **slots)
        kw = {"predicate": predicate, "value": pick(x, "en")} if predicate else {}
        return [F(st, s.day(*start), **kw)], {}

    return gen


PROFILE_GEN = {
    "home_city": None,  # needs the plan; see build()
    "timezone": g_timezone,
    "hometown": g_hometown,
    "employer": None,  # needs the plan
    "manager": g_manager,
    "team": simple(TEAMS, ["Sits in the {x}", "Member of the {x}", "Belongs to the {x} at work"],
                   ["所在团队是{x}", "是{x}的成员", "工作上隶属{x}"]),
    "partner": g_partner,
    "children": g_children,
    "pet": g_pet,
    "diet": simple(DIETS, ["Keeps to a {x} diet", "Diet-wise the user is {x}", "Has eaten {x} for years"],
                   ["饮食习惯：{x}", "坚持{x}饮食", "这几年一直是{x}饮食"]),
    "allergy": g_allergy,
    "drink": simple(DRINKS, ["Go-to drink: {x}", "Orders {ax} almost every time", "Drink of choice is {x}"],
                    ["最爱喝{x}", "点饮料基本都要{x}", "常喝的是{x}"], predicate="favourite_drink"),
    "cuisine": simple(CUISINES, ["Loves {x} more than any other cuisine", "When eating out, picks {x} if possible",
                                 "Favourite cuisine: {x}"],
                      ["最喜欢吃{x}", "下馆子首选{x}", "口味上偏爱{x}"]),
    "hobby": simple(HOBBIES, ["Spends free time on {x}", "Main hobby: {x}", "Has been getting into {x} lately"],
                    ["业余爱好是{x}", "最大的兴趣是{x}", "这几年迷上了{x}"]),
    "workout": simple(WORKOUTS, ["Exercise: {x}", "Keeps fit; {x}", "For fitness the user {x}"],
                      ["运动习惯：{x}", "为了健身，{x}", "平时锻炼的方式是{x}"]),
    "sleep": simple(SLEEP, ["Bedtime habits: the user {x}", "Routine note: {x}", "As a rule the user {x}"],
                    ["作息：{x}", "睡眠习惯是{x}", "一般{x}"]),
    "music": simple(MUSIC, ["Mostly listens to {x}", "Music taste: {x}", "Puts on {x} while working"],
                    ["主要听{x}", "音乐口味偏{x}", "工作时爱放{x}"]),
    "book": simple(BOOKS, ["Currently reading {x}", "Picked up {x} last month and is still on it",
                           "Nightstand book: {x}"],
                   ["正在读《{x}》", "上个月开始看《{x}》，还没看完", "床头在看的书是《{x}》"],
                   start=(D(2025, 6, 1), D(2026, 10, 1))),
    "editor": changeable(
        EDITORS,
        ["Writes code in {x}", "Editor of choice: {x}", "Uses {x} as the main editor"],
        ["写代码用{x}", "主力编辑器是{x}", "日常开发在{x}里进行"],
        ["Switched editors in {month}: {old} out, {x} in", "Gave up {old} for {x} ({month})",
         "Since {month} codes in {x}, no longer {old}"],
        ["{month}起主力编辑器由{old}变为{x}", "{month}起弃用{old}，改用{x}", "从{month}开始用{x}写代码，不再用{old}"],
        "editor",
    ),
    "prog_lang": simple(PROG_LANGS, ["Strongest language is {x}", "Prefers {x} for new services",
                                     "Day-to-day programming language: {x}"],
                        ["最擅长的语言是{x}", "新服务更愿意用{x}写", "日常主要写{x}"]),
    "laptop": simple(LAPTOPS, ["Works on {x}", "Laptop: {x}", "Daily machine is {x}"],
                     ["笔记本是{x}", "办公电脑用的是{x}", "随身带一台{x}"]),
    "phone": changeable(
        PHONES,
        ["Phone: {x}", "Carries {ax} as the personal phone", "The user's handset is {ax}"],
        ["手机是{x}", "平时用{x}", "用的手机型号是{x}"],
        ["Swapped the {old} for a new {x} in {month}", "Replaced the {old} with the {x} in {month}",
         "New phone since {month}: {x} (the {old} was retired)"],
        ["{month}换机：{old}退役，改用{x}", "{month}入手{x}，替掉了{old}", "从{month}起改用{x}，{old}不用了"],
        "phone_model",
    ),
    "os": simple(OSES, ["Runs {x} on the work machine", "Operating system of choice: {x}", "Desktop OS is {x}"],
                 ["电脑系统用{x}", "工作机装的是{x}", "首选操作系统是{x}"]),
    "standup": changeable(
        STANDUP_TIMES,
        ["Daily stand-up is at {x}", "Team stand-up happens every weekday at {x}", "Stand-up slot: {x} each morning"],
        ["每天{x}开站会", "团队晨会定在每个工作日{x}", "站会时间：每天早上{x}"],
        ["Stand-up moved to {x} in {month} (it used to be {old})",
         "From {month} the daily stand-up is at {x} instead of {old}", "Since {month}: stand-up at {x}, no longer {old}"],
        ["{month}起站会从{old}改到{x}", "站会{month}挪到了{x}，原来是{old}", "从{month}开始每天{x}开站会，不再是{old}"],
        "standup_time",
    ),
    "meeting_pref": simple(MEETING_PREFS, ["Meeting preference: {x}", "Asks for {x}", "Wants {x} when scheduling"],
                           ["开会偏好：{x}", "希望{x}", "排会的要求是{x}"]),
    "answer_style": simple(ANSWER_STYLES, ["Answer format the user likes: {x}", "Asked for replies in this shape: {x}",
                                           "Preferred response style: {x}"],
                           ["回答格式偏好：{x}", "希望回复时{x}", "要求答复做到{x}"], predicate="answer_style"),
    "reply_lang": simple(REPLY_LANGS, ["Language for replies: {x}", "Wants {x}", "Reply language setting: {x}"],
                         ["回复语言：{x}", "希望{x}", "语言方面的要求是{x}"]),
    "nickname": g_nickname,
    "name": g_name,
    "birthday": g_birthday,
    "travel_mode": simple(TRAVEL_MODES, ["Travel habit: {x}", "Between cities the user prefers {x}",
                                         "Chooses {x} when travelling"],
                          ["出行习惯：{x}", "出远门一般{x}", "交通方式上倾向于{x}"]),
    "seat": simple(SEATS, ["Books {x} seats whenever flying", "Seat preference on planes: {x}",
                           "Picks {ax} seat on every flight"],
                   ["坐飞机选{x}的座位", "机上座位偏好：{x}", "订机票时要{x}的位子"]),
    "hotel_pref": simple(HOTEL_PREFS, ["Accommodation wish: {x}", "When booking hotels, wants {x}",
                                       "Likes {x} when staying away"],
                         ["住宿偏好：{x}", "订酒店要{x}", "出门住店希望{x}"]),
    "commute": simple(COMMUTES, ["Commute: the user {x}", "Workday mornings: the user {x}", "On the way to work the user {x}"],
                      ["通勤方式：{x}", "上班路上{x}", "每天去公司{x}"]),
    "learning": simple(LEARNING, ["Learning goal: {x}", "Taking evening classes in {x}",
                                  "Working through an online course on {x}"],
                       ["学习目标：{x}", "晚上在上{x}课", "在网上自学{x}"], start=(D(2025, 1, 1), D(2026, 10, 1))),
    "dream_trip": simple(DREAM_TRIPS, ["Dream trip: {x}", "Top of the travel bucket list: {x}",
                                       "Has long dreamed of {x}"],
                         ["梦想之旅：{x}", "一直想找机会{x}", "人生清单上的旅行是{x}"]),
    "sibling": g_sibling,
    "university": g_university,
    "car": simple(CARS, ["Drives {x}", "Car: {x}", "Owns {x}, mostly for weekend trips"],
                  ["开{x}", "座驾是{x}", "家里有{x}，主要周末开"]),
    "channel": simple(CHANNELS, ["Best reached via {x}", "Prefers {x} over email", "Contact channel: {x}"],
                      ["找本人最好用{x}", "比起邮件更喜欢用{x}", "联系方式偏好：{x}"]),
    "office_days": simple(OFFICE_DAYS, ["Office pattern: {x}", "Hybrid arrangement: {x}", "Work setup: {x}"],
                          ["办公安排：{x}", "混合办公，{x}", "坐班情况：{x}"]),
    "languages": simple(LANGS_SPOKEN, ["Speaks {x}", "Languages: {x}", "Fluent in {x}"],
                        ["会说{x}", "掌握的语言：{x}", "能流利使用{x}"]),
}  # fmt: skip


assert set(PROFILE_GEN) == set(ASK), set(PROFILE_GEN) ^ set(ASK)


ALWAYS = ["home_city", "employer", "name"]


ORDER = ["home_city", "timezone", "hometown", "employer"] + [
    k for k in PROFILE_GEN if k not in ("home_city", "timezone", "hometown", "employer")
]


STALE_KEYS = ["home_city", "employer", "phone", "editor", "standup"]


# Keys an abstain question may ask about when the subject lacks them: nothing else in a
# store (background memories included) answers them even in part.
ABSTAIN_OK = [
    "partner", "children", "pet", "diet", "allergy", "drink", "sleep", "book", "editor", "phone",
    "standup", "meeting_pref", "answer_style", "nickname", "birthday", "seat", "learning",
    "dream_trip", "sibling", "university", "channel", "manager", "team",
]  # fmt: skip
