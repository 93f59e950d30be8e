"""Golden set v2: background (see __init__.py)."""

from __future__ import annotations

from datetime import date

from .background_vocabulary import (
    AIRLINES,
    DEPLOY_CAUSES,
    DEPLOY_FIXES,
    FLIGHT_OUTCOMES,
    FLIGHT_REASONS,
    HOTEL_BRANDS,
    HOTEL_REMARKS,
    INCIDENT_CAUSES,
    INCIDENT_SYMPTOMS,
    INFRA,
    MEETING_DECISIONS,
    MEETING_TOPICS,
    ORDER_ITEMS,
    ORDER_PROBLEMS,
    ORDER_REMEDIES,
    SERVICES,
    TICKET_ISSUES,
    TICKET_RESOLUTIONS,
    TICKET_VENDORS,
)
from .background_vocabulary_2 import HELP_OUTCOMES
from .helpers import Subject, d, fmt_date, fmt_month
from .vocabulary import ALL_CITIES, ATTENDEES_EN, ATTENDEES_ZH

CODES_USED: set[str] = set()


def new_code(make) -> str:
    while True:
        code = make()
        if code not in CODES_USED:
            CODES_USED.add(code)
            return code


def both_dates(s: Subject, x: date) -> tuple[str, str]:
    return fmt_date(s.r, x, "en"), fmt_date(s.r, x, "zh")


def bg_date(s: Subject) -> date:
    return s.date_between(d(2023, 1), d(2026, 10, 31))


def bg(st, start, cat, anchor, slots, code=None, qcat=None, memory_type="episodic") -> dict:
    return {
        "statement": st, "start": start, "cat": cat, "anchor": f"{cat}:{anchor}",
        "qcat": qcat if qcat is not None else cat, "slots": slots, "code": code, "memory_type": memory_type,
    }  # fmt: skip


def b_flight(s: Subject, L: str) -> dict:
    r = s.r
    frm, to = r.sample(ALL_CITIES, 2)
    when = bg_date(s)
    code = new_code(lambda: f"{r.choice(AIRLINES)}{r.randint(100, 9899)}")
    oc, reason, h = r.choice(FLIGHT_OUTCOMES), r.choice(FLIGHT_REASONS), str(r.randint(2, 9))
    outcome = (oc[0].format(h=h, reason=reason[0]), oc[1].format(h=h, reason=reason[1]))
    st = s.say(
        L,
        [
            "Flight {code} from {frm} to {to} on {date} {o}",
            "The user's {code} flight to {to} ({date}, from {frm}) {o}",
            "On {date} the user flew {frm} to {to} on {code}, which {o}",
        ],
        [
            "{date}用户从{frm}飞往{to}的{code}航班{o}",
            "用户{date}乘坐{code}从{frm}去{to}，航班{o}",
            "{code}航班（{frm}—{to}，{date}）{o}",
        ],
        code=code,
        frm=frm[:2],
        to=to[:2],
        date=both_dates(s, when),
        o=outcome,
    )
    return bg(st, when, "flight", to[0], {"to": to[:2]}, code)


def b_hotel(s: Subject, L: str) -> dict:
    r = s.r
    c, when = r.choice(ALL_CITIES), bg_date(s)
    st = s.say(
        L,
        [
            "User stayed {n} nights at the {b} in {c} in {m}; {x}",
            "Hotel note: {b} {c}, {n} nights in {m}, and {x}",
            "During a trip to {c} in {m} the user stayed at the {b}; {x}",
        ],
        [
            "用户{m}在{c}的{b}酒店住了{n}晚，{x}",
            "酒店记录：{c}{b}，{m}住{n}晚，{x}",
            "用户{m}去{c}时住在{b}，{x}",
        ],
        n=str(r.randint(2, 7)),
        b=r.choice(HOTEL_BRANDS),
        c=c[:2],
        m=(fmt_month(when, "en"), fmt_month(when, "zh")),
        x=r.choice(HOTEL_REMARKS),
    )
    return bg(st, when, "hotel", c[0], {"city": c[:2]})


def b_meeting(s: Subject, L: str) -> dict:
    r = s.r
    topic, when = r.choice(MEETING_TOPICS), bg_date(s)
    p = r.choice(ATTENDEES_ZH if L == "zh" else ATTENDEES_EN)
    st = s.say(
        L,
        [
            "Meeting with {p} on {date} about {t}: agreed to {x}",
            "User met {p} on {date} to discuss {t}; the outcome was to {x}",
            "{date}: sync with {p} on {t}, decision: {x}",
        ],
        [
            "{date}用户和{p}开会讨论{t}，结论是{x}",
            "用户{date}与{p}就{t}碰了一次，决定{x}",
            "{date}{t}会议（与{p}）：决定{x}",
        ],
        p=p,
        date=both_dates(s, when),
        t=topic,
        x=r.choice(MEETING_DECISIONS),
    )
    return bg(st, when, "meeting", topic[0], {"topic": topic})


def b_deploy(s: Subject, L: str) -> dict:
    r = s.r
    svc, when = r.choice(SERVICES), bg_date(s)
    code = new_code(
        lambda: r.choice([f"ERR-{r.randint(1000, 9999)}", f"E{r.randint(10000, 99999)}"])
    )
    st = s.say(
        L,
        [
            "Deploy of the {svc} service on {date} failed with {code} because {c}; fixed by {f}",
            "{svc} release on {date} broke with error {code}: {c}. Resolved by {f}",
            "Error {code} hit the {svc} rollout on {date} ({c}); {f} sorted it",
        ],
        [
            "{date}{svc}服务发布失败，报错{code}，原因是{c}，通过{f}解决",
            "{svc}在{date}上线时出现{code}错误：{c}，后来{f}",
            "{date}部署{svc}时报{code}，根因是{c}，最后{f}",
        ],
        svc=svc,
        date=both_dates(s, when),
        code=code,
        c=r.choice(DEPLOY_CAUSES),
        f=r.choice(DEPLOY_FIXES),
    )
    return bg(st, when, "deploy", svc, {"svc": svc}, code)


def b_incident(s: Subject, L: str) -> dict:
    r = s.r
    infra, when = r.choice(INFRA), bg_date(s)
    code = new_code(lambda: f"INC-{r.randint(10000, 99999)}")
    sym = r.choice(INCIDENT_SYMPTOMS)
    vals = {
        "ms": str(r.randint(8, 40) * 100),
        "pct": str(r.randint(3, 60)),
        "n": str(r.randint(2, 90) * 1000),
    }
    sym = (sym[0].format(**vals), sym[1].format(**vals))
    st = s.say(
        L,
        [
            "Incident {code}: {sym} in {i} for {mins} minutes, caused by {c}",
            "{i} had an outage on {date} ({code}): {sym}; root cause was {c}",
            "On {date}, {code} in {i}: {sym} after {c}",
        ],
        [
            "故障{code}：{i}{sym}，持续{mins}分钟，原因是{c}",
            "{date}{i}出现故障（{code}），{sym}，根因是{c}",
            "{date}的{code}事故：{i}因{c}导致{sym}",
        ],
        code=code,
        sym=sym,
        i=infra,
        mins=str(r.randint(5, 180)),
        c=r.choice(INCIDENT_CAUSES),
        date=both_dates(s, when),
    )
    return bg(st, when, "incident", infra[0], {"infra": infra}, code)


def b_order(s: Subject, L: str) -> dict:
    r = s.r
    item, when = r.choice(ORDER_ITEMS), bg_date(s)
    code = new_code(lambda: f"ORD-{when.year}-{r.randint(10000, 99999)}")
    st = s.say(
        L,
        [
            "Order {code} ({item}) {p}; user asked for {x}",
            "The {item} from order {code} {p}, so the user requested {x}",
            "User's {item} (order {code}, bought {date}) {p}; they want {x}",
        ],
        [
            "订单{code}（{item}）{p}，用户要求{x}",
            "用户{date}买的{item}（订单号{code}）{p}，申请了{x}",
            "{item}这单（{code}）{p}，用户希望{x}",
        ],
        code=code,
        item=item,
        p=r.choice(ORDER_PROBLEMS),
        x=r.choice(ORDER_REMEDIES),
        date=both_dates(s, when),
    )
    return bg(st, when, "order", item[0], {"item": item}, code)


def b_ticket(s: Subject, L: str) -> dict:
    r = s.r
    vendor, when = r.choice(TICKET_VENDORS), bg_date(s)
    code = new_code(
        lambda: r.choice([f"TCK-{r.randint(10000, 99999)}", f"#{r.randint(100000, 999999)}"])
    )
    res = r.choice(TICKET_RESOLUTIONS)
    vals = {"n": str(r.randint(2, 30)), "amt": r.choice(["¥50", "¥200", "$20", "$15", "€30"])}
    res = (res[0].format(**vals), res[1].format(**vals))
    st = s.say(
        L,
        [
            "Support ticket {code} with {v} about {i}: {res}",
            "User opened ticket {code} with {v} over {i}; {res}",
            "Complaint {code} to {v} ({i}): {res}",
        ],
        [
            "用户向{v}提交的工单{code}，问题是{i}，{res}",
            "工单{code}：用户投诉{v}{i}，{res}",
            "用户就{i}找{v}开了工单{code}，{res}",
        ],
        code=code,
        v=vendor,
        i=r.choice(TICKET_ISSUES),
        res=res,
    )
    return bg(st, when, "ticket", vendor[0], {"vendor": vendor}, code)


def b_help(s: Subject, L: str, task: tuple) -> dict:
    r = s.r
    when = bg_date(s)
    st = s.say(
        L,
        [
            "User asked for help {t} on {date}; {o}",
            "On {date} the user wanted a hand {t}, and {o}",
            "Helped the user with {t} on {date}; {o}",
        ],
        ["用户{date}请我帮忙{t}，{o}", "{date}帮用户{t}，{o}", "用户{date}让我协助{t}，{o}"],
        t=task,
        date=both_dates(s, when),
        o=r.choice(HELP_OUTCOMES),
    )
    return bg(st, when, "help", task[0], {"task": task})


PERSON_FACETS = {
    # facet: (en templates, zh templates, queried)
    "city": (
        [
            "User's {rel} {p} lives in {c}",
            "{p}, a {rel} of the user, is based in {c}",
            "User's {rel} {p} moved to {c} in {y}",
        ],
        ["用户的{rel}{p}住在{c}", "{p}是用户的{rel}，定居在{c}", "用户的{rel}{p}{y}年搬去了{c}"],
        True,
    ),
    "job": (
        ["User's {rel} {p} works at {co} as {aj}", "{p} (the user's {rel}) is {aj} at {co}"],
        ["用户的{rel}{p}在{co}做{job}", "{p}是用户的{rel}，在{co}当{job}"],
        True,
    ),
    "allergy": (
        [
            "User's {rel} {p} is allergic to {a}",
            "{p}, the user's {rel}, has to avoid {a} because of an allergy",
        ],
        ["用户的{rel}{p}对{a}过敏", "{p}（用户的{rel}）有{a}过敏"],
        True,
    ),
    "pet": (
        [
            "User's {rel} {p} has a {pet} called {pn}",
            "{p}, the user's {rel}, owns a {pet} named {pn}",
        ],
        ["用户的{rel}{p}养了一只{pet}，叫{pn}", "{p}是用户的{rel}，家里有只叫{pn}的{pet}"],
        True,
    ),
    "channel": (
        ["User's {rel} {p} prefers {ch} over email", "{p} ({rel}) is easiest to reach on {ch}"],
        ["用户的{rel}{p}更喜欢用{ch}沟通", "找用户的{rel}{p}最好用{ch}"],
        True,
    ),
    "diet": (
        ["User's {rel} {p} is {dt}", "{p}, a {rel} of the user, is {dt}"],
        ["用户的{rel}{p}{dt}", "{p}（用户的{rel}）{dt}"],
        True,
    ),
    "drink": (
        ["{p} ({rel}) drinks {dr} every afternoon"],
        ["用户的{rel}{p}每天下午都喝{dr}"],
        False,
    ),
    "editor": (["User's {rel} {p} codes in {e}"], ["用户的{rel}{p}用{e}写代码"], False),
    "standup": (["{p}'s team has its stand-up at {t}"], ["{p}的团队每天{t}开站会"], False),
    "phone": (["User's {rel} {p} recently got {aph}"], ["用户的{rel}{p}换了{ph}"], False),
    "seat": (["{p} ({rel}) always asks for {aseat} seat"], ["{p}坐飞机总要{seat}的座位"], False),
    "birthday": (["{p}'s birthday is on {md}"], ["{p}的生日是{md}"], False),
}
