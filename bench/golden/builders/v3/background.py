"""Golden set v3: background (see __init__.py)."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date

from bench.golden.builders.common import norm

from .background_vocabulary import (
    AIRLINES_CN,
    AIRLINES_WORLD,
    ERROR_PREFIXES,
    FAILURE_CAUSES,
    FLIGHT_OUTCOMES,
    HOTEL_BRANDS_CN,
    HOTEL_BRANDS_WORLD,
    HOTEL_REMARKS,
    MEETING_DECISIONS,
    MEETING_TOPICS,
    ORDER_ITEMS,
    ORDER_OUTCOMES,
    ROLLBACK,
    SERVICES,
    SHOPS,
    SUPPORT_CASES,
    SYMPTOMS,
)
from .background_vocabulary_2 import (
    APPOINTMENTS,
    APPT_TIMES,
    COMPONENTS,
    DINNER_REMARKS,
    DISHES,
    EVENT_REMARKS,
    EVENTS,
    FILM_OPINIONS,
    FILMS,
    HELP_ENDINGS,
    HELP_TASKS,
    INVOICE_REMARKS,
    INVOICE_VENDORS,
    PERSON_FACETS,
    PROJECT_NOTES,
    PURCHASE_ITEMS,
    RESTAURANTS,
    STORES,
    SUPPORT_ENDINGS,
    WATCH_PLACES,
)
from .helpers import D, Subject, art, md_of, month_of, named, pick
from .profile import companies
from .vocabulary import (
    ALLERGENS,
    CITIES_CN,
    CITIES_WORLD,
    DIETS,
    DRINKS,
    HOBBIES,
    JOB_TITLES,
    PET_NAMES,
    PETS,
    RELATIONS,
)

CODES: set[str] = set()


TYPOS: dict[tuple, tuple] = {}  # (subject, query) -> (real id, typo'd id), for validate()


def new_code(make) -> str:
    while True:
        c = make()
        if c not in CODES:
            CODES.add(c)
            return c


def digits(r: random.Random, n: int) -> str:
    return str(r.randint(1, 9)) + "".join(str(r.randint(0, 9)) for _ in range(n - 1))


def bgd(s: Subject) -> date:
    return s.day(D(2021, 1, 1), D(2026, 10, 31))


def bg(st, start, cat, anchor, slots, code=None, qcat=None, memory_type="episodic") -> dict:
    return {"statement": st, "start": start, "cat": cat, "anchor": f"{cat}:{anchor}", "slots": slots,
            "code": code, "qcat": qcat or cat, "memory_type": memory_type}  # fmt: skip


def b_flight(s: Subject, L: str) -> dict:
    r = s.r
    dest, orig = r.sample(s.cities if r.random() < 0.8 else CITIES_CN + CITIES_WORLD, 2)
    air = AIRLINES_CN if s.lang == "zh" else AIRLINES_WORLD
    code = new_code(lambda: r.choice(air) + digits(r, r.choice([3, 4])))
    x = bgd(s)
    st = s.say(
        L,
        ["Flew {orig} to {dest} on {code}, {date}: {out}", "{date}: took flight {code} from {orig} to {dest}; {out}",
         "Trip on {code} ({orig} to {dest}, {date}): {out}"],
        ["{date}乘{code}从{orig}飞{dest}，{out}", "{date}的{code}航班（{orig}→{dest}）：{out}",
         "搭{code}由{orig}前往{dest}（{date}），{out}"],
        orig=orig[:2], dest=dest[:2], code=code, date=s.fmt_day(x, L), out=r.choice(FLIGHT_OUTCOMES),
    )  # fmt: skip
    month = month_of(x)
    return bg(st, x, "flight", f"{dest[0]}|{month[0]}", {"dest": dest[:2], "month": month}, code)


def b_hotel(s: Subject, L: str) -> dict:
    r = s.r
    city = r.choice(s.cities)
    brand = r.choice(HOTEL_BRANDS_CN if s.lang == "zh" else HOTEL_BRANDS_WORLD)
    x, nights = bgd(s), str(r.randint(2, 6))
    code = new_code(lambda: "BK" + digits(r, 6)) if r.random() < 0.5 else None
    ref = {"en": f" (booking {code})", "zh": f"（预订号{code}）"}[L] if code else ""
    st = s.say(
        L,
        ["Stayed at the {brand} {city} for {n} nights in {month}{ref}; {rem}",
         "{n}-night stay, {brand} in {city} ({month}){ref}: {rem}",
         "Hotel in {city}: {brand}, {month}, {n} nights{ref}; {rem}"],
        ["{month}在{city}的{brand}住了{n}晚{ref}，{rem}", "{city}{brand}，{month}入住{n}晚{ref}：{rem}",
         "住过{city}的{brand}（{month}，{n}晚）{ref}，{rem}"],
        brand=brand, city=city[:2], n=nights, month=month_of(x), ref=ref, rem=r.choice(HOTEL_REMARKS),
    )  # fmt: skip
    return bg(st, x, "hotel", f"{brand[0]}|{city[0]}", {"brand": brand, "city": city[:2]}, code)


def b_meeting(s: Subject, L: str) -> dict:
    r = s.r
    topic, p, x = r.choice(MEETING_TOPICS), r.choice(s.colleagues), bgd(s)
    st = s.say(
        L,
        ["Met {p} about {topic} on {date}; agreed to {dec}", "{date}, call with {p} re {topic}; outcome: {dec}",
         "Discussed {topic} with {p} ({date}); the call was to {dec}"],
        ["{date}和{p}讨论{topic}，决定{dec}", "{date}与{p}开会聊{topic}，结论：{dec}",
         "关于{topic}，{date}跟{p}碰了一下，定下来{dec}"],
        p=p, topic=topic, date=s.fmt_day(x, L), dec=r.choice(MEETING_DECISIONS),
    )  # fmt: skip
    return bg(st, x, "meeting", topic[0], {"topic": topic})


def b_deploy(s: Subject, L: str) -> dict:
    r = s.r
    svc, x = r.choice(SERVICES), bgd(s)
    ver = f"v{r.randint(1, 6)}.{r.randint(0, 19)}.{r.randint(0, 9)}"
    code = new_code(lambda: f"{r.choice(ERROR_PREFIXES)}-{digits(r, 4)}")
    cause, fix = r.choice(FAILURE_CAUSES)
    fix = ROLLBACK if r.random() < 0.25 else fix
    st = s.say(
        L,
        ["Deployed {svc} {ver} on {date}; it failed with {code} because of {cause}. Fix: {fix}",
         "{svc} {ver} rollout on {date} broke with error {code}, caused by {cause}; {fix}",
         "Release {svc} {ver} ({date}) hit {code}: {cause}. Resolution: {fix}"],
        ["{date}发布{svc} {ver}，报错{code}，原因是{cause}，最后{fix}", "{svc} {ver}在{date}上线失败（{code}）：{cause}；处理：{fix}",
         "{date}上线{svc} {ver}时遇到{code}，由{cause}导致，最终{fix}"],
        svc=svc, ver=ver, date=s.fmt_day(x, L), code=code, cause=cause, fix=fix,
    )  # fmt: skip
    return bg(st, x, "deploy", f"{svc}|{ver}", {"svc": svc, "ver": ver}, code)


def b_incident(s: Subject, L: str) -> dict:
    r = s.r
    sym, where = r.choice(SYMPTOMS)
    svc, x = r.choice(where), bgd(s)
    code = new_code(lambda: "INC-" + digits(r, 5))
    st = s.say(
        L,
        ["Incident {code} ({date}): {sym} on {svc}, root cause {cause}",
         "{date}, {code}: users saw {sym} in {svc}; traced to {cause}"],
        ["{date}事故{code}：{svc}出现{sym}，根因是{cause}", "{code}（{date}）{svc}{sym}，查下来是{cause}"],
        code=code, date=s.fmt_day(x, L), sym=sym, svc=svc, cause=r.choice(FAILURE_CAUSES)[0],
    )  # fmt: skip
    return bg(st, x, "incident", f"{svc}|{sym[0]}", {"svc": svc, "symptom": sym}, code)


def b_order(s: Subject, L: str, entry: tuple) -> dict:
    r = s.r
    item = entry[:2]
    aitem = (art(item[0]) if entry[2] else item[0], item[1])
    shop, x = r.choice(SHOPS[s.lang]), bgd(s)
    code = new_code(lambda: f"OD{digits(r, 3)}-{digits(r, 4)}")
    st = s.say(
        L,
        ["Online order {code} from {shop} ({date}): {item}; {out}",
         "Ordered {aitem} on {shop}, {date}, order no. {code}; {out}",
         "{date}: bought {aitem} online from {shop} (ref {code}); {out}"],
        ["{date}在{shop}下单买了{item}（单号{code}），{out}", "{shop}网购{code}：{item}，{out}",
         "网购{item}（{shop}，{date}，单号{code}）：{out}"],
        code=code, shop=shop, date=s.fmt_day(x, L), item=item, aitem=aitem, out=r.choice(ORDER_OUTCOMES),
    )  # fmt: skip
    return bg(st, x, "order", item[0], {"item": item, "shop": shop}, code)


def b_ticket(s: Subject, L: str) -> dict:
    r = s.r
    vendor, issues = r.choice(SUPPORT_CASES)
    (issue, kind), x = r.choice(issues), bgd(s)
    code = new_code(lambda: "CS-" + digits(r, 6))
    st = s.say(
        L,
        ["Support case {code} with {vendor}: {issue}; {end}", "Raised {code} with {vendor} on {date} about {issue}; {end}"],
        ["{date}向{vendor}提交工单{code}，反映{issue}，{end}", "{vendor}客服单{code}：{issue}；{end}"],
        code=code, vendor=vendor, issue=issue, date=s.fmt_day(x, L), end=r.choice(SUPPORT_ENDINGS[kind]),
    )  # fmt: skip
    return bg(st, x, "ticket", f"{vendor[0]}|{issue[0]}", {"vendor": vendor, "issue": issue}, code)


def b_help(s: Subject, L: str, task: tuple) -> dict:
    r = s.r
    x = bgd(s)
    st = s.say(
        L,
        ["{date}: the user asked for help {task}; {end}", "Assisted the user in {task} ({date}); {end}"],
        ["{date}应用户请求{task}，{end}", "协助用户{task}（{date}）：{end}"],
        date=s.fmt_day(x, L), task=task, end=r.choice(HELP_ENDINGS),
    )  # fmt: skip
    return bg(st, x, "help", task[0], {"task": task})


def b_person(s: Subject, L: str, facet: str) -> dict:
    r = s.r
    p, rel, x = s.people.pop(), r.choice(RELATIONS), bgd(s)
    slots = {"p": p, "rel": rel, "Rel": (rel[0].capitalize(), rel[1])}
    if facet == "city":
        c = r.choice(s.cities)
        en = [
            "{Rel} {p} has a place in {c}",
            "{p}, who is the user's {rel}, calls {c} home",
            "The user's {rel} {p} settled in {c} a while ago",
        ]
        zh = ["{rel}{p}现居{c}", "该用户有位{rel}叫{p}，在{c}生活", "{c}是用户的{rel}{p}现在的家"]
        slots["c"] = c[:2]
    elif facet == "job":
        en = [
            "{Rel} {p} is employed at {co}, working as {ajob}",
            "{p}, a {rel} of the user, has a job at {co} ({job})",
        ]
        zh = ["{rel}{p}供职于{co}，岗位是{job}", "{p}（{rel}）是{co}的{job}"]
        job = r.choice(JOB_TITLES)
        slots.update(co=r.choice(companies(s)), job=job, ajob=(art(job[0]), job[1]))
    elif facet == "pet":
        en = ["{Rel} {p} has {apet} named {pn}", "{p}, the user's {rel}, keeps {apet} ({pn})"]
        zh = ["{rel}{p}家里有只{pet}，小名{pn}", "{p}（{rel}）养着一只{pet}，起名{pn}"]
        pet = r.choice(PETS)
        slots.update(pet=pet, apet=(art(pet[0]), pet[1]), pn=named(s, PET_NAMES))
    elif facet == "allergy":
        en = [
            "{Rel} {p} gets an allergic reaction from {x}",
            "{p} ({rel}) can't have {x} because of an allergy",
        ]
        zh = ["{rel}{p}碰不得{x}，会过敏", "{p}（{rel}）有{x}过敏的毛病"]
        slots["x"] = r.choice(ALLERGENS)
    elif facet == "drink":
        en = ["{Rel} {p} always orders {x}", "{p}, the user's {rel}, drinks {x} all day"]
        zh = ["{rel}{p}只喝{x}", "{p}（{rel}）每回都点{x}"]
        slots["x"] = r.choice(DRINKS)
    elif facet == "birthday":
        en = ["{Rel} {p} turns a year older every {md}", "{p} ({rel}) was born on {md}"]
        zh = ["{rel}{p}每年{md}过生日", "{p}（{rel}）的生日在{md}"]
        slots["md"] = md_of(s.day(D(2001, 1, 1), D(2001, 12, 31)))
    elif facet == "hobby":
        en = ["{Rel} {p} is passionate about {x}", "{p}, the user's {rel}, is into {x}"]
        zh = ["{rel}{p}的爱好是{x}", "{p}（{rel}）迷上了{x}"]
        slots["x"] = r.choice(HOBBIES)
    else:  # diet
        en = ["{Rel} {p} keeps a {x} diet", "{p} ({rel}) has been {x} for years"]
        zh = ["{rel}{p}的饮食习惯是{x}", "{p}（{rel}）坚持{x}饮食"]
        slots["x"] = r.choice(DIETS)
    st = s.say(L, en, zh, **slots)
    return bg(st, x, "person", f"{p[0]}|{facet}", {"p": p, "rel": rel}, qcat=f"person:{facet}",
              memory_type="semantic")  # fmt: skip


def b_project_note(s: Subject, L: str, proj: str, comp: tuple) -> dict:
    r = s.r
    x = bgd(s)
    note = r.choice(PROJECT_NOTES)
    note = tuple(
        n.replace("{p}", pick(r.choice(s.colleagues), lang))
        for n, lang in zip(note, ("en", "zh"), strict=True)
    )
    st = s.say(
        L,
        ["{proj}: {comp} {note} (noted {month})", "Project {proj} update, {month}: {comp} {note}"],
        ["{proj}项目：{comp}{note}（{month}记录）", "{month}，{proj}的{comp}{note}"],
        proj=proj, comp=comp, note=note, month=month_of(x),
    )  # fmt: skip
    return bg(
        st,
        x,
        "project_note",
        f"{proj}|{comp[0]}",
        {"proj": proj, "comp": comp},
        memory_type="semantic",
    )


def b_purchase(s: Subject, L: str, entry: tuple) -> dict:
    r = s.r
    item, cny = entry[:2], entry[2]
    store, x = r.choice(STORES[s.lang]), bgd(s)
    base = cny if s.currency == "¥" else cny / 7
    price = f"{s.currency}{max(9, round(base * r.uniform(0.75, 1.3)))}"
    st = s.say(
        L,
        ["Bought {aitem} at {store} for {price} ({date})", "Picked up {aitem} from {store} on {date}, paid {price}",
         "{date}: {item}, {store}, {price}"],
        ["{date}在{store}花{price}买了{item}", "在{store}入手{item}，{price}（{date}）", "{item}：{store}购入，{price}，{date}"],
        item=item, aitem=(art(item[0]), item[1]), store=store, price=price, date=s.fmt_day(x, L),
    )  # fmt: skip
    return bg(st, x, "purchase", item[0], {"item": item})


def b_dinner(s: Subject, L: str, rest: tuple) -> dict:
    r = s.r
    x, p = bgd(s), r.choice(s.colleagues + s.people[:4])
    st = s.say(
        L,
        ["Dinner at {rest} with {p} on {date}: had {dish}; {rem}",
         "{date}, ate at {rest} with {p}; ordered {dish}, and {rem}"],
        ["{date}和{p}在{rest}吃晚饭，点了{dish}，{rem}", "{rest}（{date}，和{p}）：吃了{dish}，{rem}"],
        rest=rest, p=p, date=s.fmt_day(x, L), dish=r.choice(DISHES), rem=r.choice(DINNER_REMARKS),
    )  # fmt: skip
    return bg(st, x, "dinner", rest[0], {"rest": rest})


def b_appointment(s: Subject, L: str, appt: tuple) -> dict:
    r = s.r
    (what, place), x, t = appt, bgd(s), r.choice(APPT_TIMES)
    st = s.say(
        L,
        ["{Appt} booked at {place} for {date}, {t}", "Has {aappt} at {place} on {date} at {t}",
         "{date} {t}: {appt} ({place})"],
        ["{date}{t}在{place}约了{appt}", "{appt}预约：{place}，{date}{t}"],
        appt=what, Appt=(what[0].capitalize(), what[1]), aappt=(art(what[0]), what[1]), place=place,
        date=s.fmt_day(x, L), t=t,
    )  # fmt: skip
    return bg(st, x, "appointment", what[0], {"appt": what})


def b_media(s: Subject, L: str, film: tuple) -> dict:
    r = s.r
    x = bgd(s)
    st = s.say(
        L,
        ["Watched {film} {where} on {date}; {op}", "Saw {film} ({where}, {date}) and {op}"],
        ["{date}{where}看了《{film}》，{op}", "看完《{film}》（{where}，{date}）：{op}"],
        film=film, where=r.choice(WATCH_PLACES), date=s.fmt_day(x, L), op=r.choice(FILM_OPINIONS),
    )  # fmt: skip
    return bg(st, x, "media", film[0], {"film": film})


def b_invoice(s: Subject, L: str, vendor: tuple) -> dict:
    r = s.r
    (who, what), x = vendor, bgd(s)
    code = new_code(lambda: f"INV-{x.year}-{digits(r, 4)}")
    amount = f"{s.currency}{r.randint(300, 9000) if s.currency == '¥' else r.randint(40, 1800)}"
    st = s.say(
        L,
        ["Invoice {code} from {who}: {amount} for {what}; {rem}", "{who} billed {amount} for {what} on {date}, ref {code}; {rem}"],
        ["{who}开来发票{code}：{what}，{amount}，{rem}", "{date}收到{who}的发票（{code}），{what}共{amount}，{rem}"],
        code=code, who=who, amount=amount, what=what,
        date=s.fmt_day(x, L), rem=r.choice(INVOICE_REMARKS),
    )  # fmt: skip
    return bg(st, x, "invoice", who[0], {"vendor": who}, code)


def b_event(s: Subject, L: str, entry: tuple) -> dict:
    r = s.r
    event, asked = entry[:2], (entry[2], entry[1])
    city, x = r.choice(s.cities), bgd(s)
    st = s.say(
        L,
        ["Went to {event} in {city} in {month}; {rem}", "Attended {event} ({city}, {month}): {rem}"],
        ["{month}去{city}参加了{event}，{rem}", "{event}（{city}，{month}）：{rem}"],
        event=event, city=city[:2], month=month_of(x), rem=r.choice(EVENT_REMARKS),
    )  # fmt: skip
    return bg(st, x, "event", event[0], {"event": asked, "city": city[:2]})


# category: (generator, min, max, pool the items are drawn from without replacement or None)
BG_PLAN = {
    "flight": (b_flight, 11, 13, None),
    "hotel": (b_hotel, 6, 8, None),
    "meeting": (b_meeting, 19, 23, None),
    "deploy": (b_deploy, 10, 13, None),
    "incident": (b_incident, 6, 8, None),
    "order": (b_order, 10, 13, ORDER_ITEMS),
    "ticket": (b_ticket, 6, 8, None),
    "help": (b_help, 12, 15, HELP_TASKS),
    "person": (b_person, 19, 23, None),
    "project_note": (b_project_note, 12, 15, None),
    "purchase": (b_purchase, 8, 10, PURCHASE_ITEMS),
    "dinner": (b_dinner, 8, 10, None),
    "appointment": (b_appointment, 4, 6, APPOINTMENTS),
    "media": (b_media, 7, 9, FILMS),
    "invoice": (b_invoice, 4, 6, INVOICE_VENDORS),
    "event": (b_event, 5, 7, EVENTS),
}


def gen_background(s: Subject) -> None:
    r = s.r
    jobs: list[str] = []
    for cat, (_, lo, hi, _) in BG_PLAN.items():
        jobs += [cat] * r.randint(lo, hi)
    n = Counter(jobs)
    items = {
        cat: r.sample(pool, n[cat]) for cat, (_, _, _, pool) in BG_PLAN.items() if pool is not None
    }
    items["dinner"] = [r.choice(RESTAURANTS[s.lang]) for _ in range(n["dinner"])]
    items["person"] = [PERSON_FACETS[i % len(PERSON_FACETS)] for i in range(n["person"])]
    combos = [(p, c) for p in s.projects for c in COMPONENTS]
    items["project_note"] = r.sample(combos, n["project_note"])
    r.shuffle(jobs)
    used: Counter = Counter()
    for cat in jobs:
        fn = BG_PLAN[cat][0]
        for _ in range(50):
            L = s.lang_for()
            if cat in items:
                arg = items[cat][used[cat]]
                m = fn(s, L, *arg) if cat == "project_note" else fn(s, L, arg)
            else:
                m = fn(s, L)
            if norm(m["statement"]) not in s.seen:
                break
        else:  # pragma: no cover
            raise RuntimeError(f"no unique {cat} memory for {s.sid}")
        key = f"bg:{cat}:{used[cat]}"
        used[cat] += 1
        s.add(key, m["statement"], L, m["start"], memory_type=m["memory_type"], code=m["code"])
        s.bg.append({**m, "key": key, "lang": L})
