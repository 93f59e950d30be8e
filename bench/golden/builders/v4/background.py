"""Golden set v4: background (see __init__.py)."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

from bench.golden.builders.common import norm

from .background_vocabulary import (
    APPOINTMENTS,
    APPT_REMARKS,
    APPT_TIMES,
    ASPECTS,
    DECISIONS,
    EVENT_OPINIONS,
    EVENTS,
    FIXES,
    FLIGHT_OUT,
    HOTEL_BRANDS,
    HOTEL_REMARKS,
    INVOICE_REMARKS,
    INVOICE_VENDORS,
    ISSUES,
    NOTES,
    ORDER_ITEMS,
    ORDER_OUT,
    PURCHASE_ITEMS,
    PURCHASE_REMARKS,
    RELATIONS,
    RESOLUTIONS,
    SERVICES,
    SHOPS_EN,
    SHOPS_ZH,
    STORES,
    SYMPTOMS,
    TRAIN_OUT,
    VENDORS_EN,
    VENDORS_ZH,
)
from .helpers import Subject, art, fill, month_day
from .ids import (
    code_appt,
    code_error,
    code_hotel,
    code_invoice,
    code_locator,
    code_order,
    code_ticket,
)
from .params import D
from .profile_keys import BG_PLAN, PERSON_FACETS, PERSON_SAY, Q
from .vocabulary import ALLERGENS, DIETS, DRINKS, HOBBIES, JOB_TITLES, PETS, PHONES

TRIP_SAY = Q(
    ["{Mode} to {dest} on {date}, locator {code} — it {out}.", "Trip log {date}: {mode} to {dest}, booking {code}; it {out}.",
     "User mentioned their {mode} to {dest} ({code}, {date}) {out}.", "I took the {mode} to {dest} on {date} (ref {code}) and it {out}."],
    ["{date}坐{mode}去{dest}，订座号{code}，{out}。", "行程记录 {date}：{dest}，{mode}，编号{code}，{out}",
     "用户说{date}去{dest}的{mode}（{code}）{out}", "{date} 去{dest}的 {mode_en}，booking ref {code}，{out}"],
)  # fmt: skip


HOTEL_SAY = Q(
    ["{hotel} {city}, {nights} nights from {date}, confirmation {code} — {rm}.",
     "Stayed {nights} nights at the {hotel} in {city} ({date}); conf. {code}. Note: {rm}.",
     "Agent note: the user's {city} stay at {hotel} (conf {code}, {date}): {rm}."],
    ["{date}入住{city}{hotel}，{nights}晚，确认号{code}，{rm}", "住宿：{city}{hotel}｜{nights}晚｜{date}｜确认号 {code}｜{rm}",
     "用户反馈{city}的{hotel}（确认号{code}）{rm}"],
)  # fmt: skip


MEETING_SAY = Q(
    ["Met {person} about the {project} {aspect} on {date}; we agreed to {dec}.",
     "Sync w/ {person}, {date} — {project} / {aspect}: decided to {dec}.",
     "1:1 with {person} ({date}). Topic: {project} {aspect}. Outcome: {dec}."],
    ["{date}和{person}开会讨论{project}项目的{aspect}，结论是{dec}", "会议纪要｜{project}·{aspect}｜{person}｜{date}｜决定：{dec}",
     "{date} 跟{person}对了一下{project}的{aspect}，最后决定{dec}", "{date} 和{person} sync 了 {project} 的{aspect}，结论：{dec}"],
)  # fmt: skip


INCIDENT_SAY = Q(
    ["Incident {date}: {svc} — {sym}. Error {code}. Fix: {fix}.", "On-call diary, {date}: {svc} threw {code}; {sym}. We {fix}.",
     "Postmortem note — {svc}, {code} ({date}): {sym}; resolved when we {fix}."],
    ["{date}故障：{svc}，{sym}，错误码{code}，处理：{fix}", "值班日记 {date}：{svc}报{code}，{sym}，最后{fix}",
     "复盘记录｜{svc}｜{code}｜{sym}｜{fix}", "{date} {svc} 出了 incident，error {code}，{sym}，我们{fix}"],
)  # fmt: skip


ORDER_SAY = Q(
    ["Ordered {a_item} from {shop} on {date} (order {code}); it {out}.", "Order {code} · {shop} · {item} · {date} → {out}",
     "User said the {item} they bought on {shop} ({code}) {out}."],
    ["{date}在{shop}买了{item}，订单号{code}，{out}。", "网购记录：{shop}｜{item}｜{code}｜{out}", "用户说{shop}下单的{item}（{code}）{out}"],
)  # fmt: skip


TICKET_SAY = Q(
    ["Support case {code} with {vendor} ({date}) about {issue}: {res}.", "Ticket {code} | {vendor} | issue: {issue} | result: {res}",
     "User opened case {code} with {vendor} over {issue}; outcome: {res}."],
    ["{date}给{vendor}提了工单{code}：{issue}，{res}。", "工单 {code}｜{vendor}｜问题：{issue}｜处理：{res}",
     "用户找{vendor}客服反映{issue}（工单{code}），结果{res}"],
)  # fmt: skip


PURCHASE_SAY = Q(
    ["Bought {a_item} at {store} for {price} ({date}); {rm}.", "Purchase — {item}, {price}, {store}: {rm}",
     "User mentioned picking up {a_item} at {store} for {price}; {rm}."],
    ["{date}在{store}花{price}买了{item}，{rm}", "购物：{item}｜{price}｜{store}｜{rm}", "用户说在{store}淘到{item}，花了{price}，{rm}"],
)  # fmt: skip


APPT_SAY = Q(
    ["Appointment: {atype}, {adate} at {time}, ref {code} — {rm}", "Booked the {atype} for {adate}, {time} (ref {code}); {rm}.",
     "User has the {atype} on {adate} at {time}; booking {code}, {rm}."],
    ["{adate} {time} 约了{atype}，预约号{code}，{rm}", "预约｜{atype}｜{adate} {time}｜{code}｜{rm}",
     "用户约了{adate}{time}的{atype}，预约号{code}，{rm}"],
)  # fmt: skip


NOTE_SAY = Q(
    ["Note to self: {text}.", "Diary, {date}: {text}.", "Household note — {text}", "User asked me to remember that {text}."],
    ["备忘：{text}", "{date} 日记：{text}", "家务笔记——{text}", "用户让我记住：{text}"],
)  # fmt: skip


INVOICE_SAY = Q(
    ["Invoice {code} from {vendor}: {amt}, dated {date} — {rm}.", "Bill {code} · {vendor} · {amt} · {rm}",
     "User forwarded invoice {code} ({vendor}, {amt}); {rm}."],
    ["{date}收到{vendor}的发票{code}，金额{amt}，{rm}", "发票 {code}｜{vendor}｜{amt}｜{rm}", "用户转来{vendor}的发票{code}，{amt}，{rm}"],
)  # fmt: skip


EVENT_SAY = Q(
    ["Went to the {event} with {p} on {date} — {op}.", "Diary, {date}: {event} with {p}. Verdict: {op}.",
     "User said the {event} ({date}, with {p}): {op}."],
    ["{date}和{p}去了{event}，{op}", "日记 {date}：和{p}参加{event}，感受：{op}", "用户说跟{p}去的{event}：{op}"],
)  # fmt: skip


def bg_add(
    s: Subject, cat: str, L: str, tpl_pool: dict, slots: dict, day: date, anchor, q: dict, code=None
):
    text = fill(s.r.choice(tpl_pool[L]), L, slots)
    if norm(text) in s.seen or any(norm(text) == norm(b["statement"]) for b in s.bg):
        return False
    s.bg.append({"cat": cat, "qcat": q.pop("_qcat", cat), "statement": text, "lang": L, "start": day,
                 "anchor": (cat, anchor), "slots": q, "code": code})  # fmt: skip
    return True


def item_slots(item: tuple) -> dict:
    return {"item": item, "a_item": (f"{art(item[0])} {item[0]}", item[1])}


def gen_background(s: Subject) -> None:
    r = s.r
    away = [c for c in s.cities if c[0] not in s.used_cities]
    shops = SHOPS_ZH if s.lang == "zh" else SHOPS_EN
    vendors = VENDORS_ZH if s.lang == "zh" else VENDORS_EN
    friends = [s.take_person() for _ in range(6)]
    others = [s.take_person() for _ in range(10)]
    rels = {p: r.choice(RELATIONS) for p in others}
    other_companies = [c for c in s.companies if c[0] not in s.used_companies]

    def made(cat, n, one):
        while sum(b["cat"] == cat for b in s.bg) < n:
            one()

    def trip():
        L, day, dest = s.lang_for(), s.bgday(), r.choice(away)[:2]
        if r.random() < 0.55:
            mode, out = ("flight", "飞机"), r.choice(FLIGHT_OUT)
        else:
            mode, out = ("train", "高铁" if s.lang == "zh" else "火车"), r.choice(TRAIN_OUT)
        code = code_locator(r)
        slots = {"Mode": mode[0].capitalize(), "mode": mode, "mode_en": mode[0], "dest": dest, "date": s.say_date(day, L),
                 "code": code, "out": out}  # fmt: skip
        bg_add(s, "trip", L, TRIP_SAY, slots, day, dest[0], {"dest": dest}, code)

    def hotel():
        L, day = s.lang_for(), s.bgday()
        brand, city = r.choice(HOTEL_BRANDS), r.choice(away)[:2]
        code = code_hotel(r)
        slots = {"hotel": brand, "city": city, "nights": r.randint(1, 6), "date": s.say_date(day, L), "code": code,
                 "rm": r.choice(HOTEL_REMARKS)}  # fmt: skip
        bg_add(
            s,
            "hotel",
            L,
            HOTEL_SAY,
            slots,
            day,
            (brand[0], city[0]),
            {"hotel": brand, "city": city},
            code,
        )

    topics = r.sample([(p, a) for p in s.projects for a in ASPECTS], BG_PLAN["meeting"])

    def meeting():
        L, day = s.lang_for(), s.bgday()
        project, aspect = topics[sum(b["cat"] == "meeting" for b in s.bg)]
        slots = {"person": r.choice(s.colleagues), "project": project, "aspect": aspect, "date": s.say_date(day, L),
                 "dec": r.choice(DECISIONS)}  # fmt: skip
        if not bg_add(s, "meeting", L, MEETING_SAY, slots, day, (project[0], aspect[0]),
                      {"project": project, "aspect": aspect}):  # fmt: skip
            raise AssertionError("meeting topics are unique")

    def incident():
        L, day, svc = s.lang_for(), s.bgday(), r.choice(SERVICES)
        code = code_error(r)
        slots = {
            "svc": svc,
            "sym": r.choice(SYMPTOMS),
            "fix": r.choice(FIXES),
            "code": code,
            "date": s.say_date(day, L),
        }
        bg_add(s, "incident", L, INCIDENT_SAY, slots, day, svc, {"svc": svc}, code)

    order_items = r.sample(ORDER_ITEMS, len(ORDER_ITEMS))

    def order():
        L, day = s.lang_for(), s.bgday()
        item = order_items[sum(b["cat"] == "order" for b in s.bg) % len(order_items)]
        code = code_order(r)
        slots = {**item_slots(item), "shop": r.choice(shops), "code": code, "out": r.choice(ORDER_OUT),
                 "date": s.say_date(day, L)}  # fmt: skip
        bg_add(s, "order", L, ORDER_SAY, slots, day, item[0], {"item": item}, code)

    def ticket():
        L, day, vendor = s.lang_for(), s.bgday(), r.choice(vendors)
        code = code_ticket(r)
        slots = {"vendor": vendor, "issue": r.choice(ISSUES), "res": r.choice(RESOLUTIONS), "code": code,
                 "date": s.say_date(day, L)}  # fmt: skip
        bg_add(s, "ticket", L, TICKET_SAY, slots, day, vendor[0], {"vendor": vendor}, code)

    purchase_items = r.sample(PURCHASE_ITEMS, len(PURCHASE_ITEMS))

    def purchase():
        L, day = s.lang_for(), s.bgday()
        item = purchase_items[sum(b["cat"] == "purchase" for b in s.bg)]
        slots = {**item_slots(item), "store": r.choice(STORES), "price": s.money(15, 420),
                 "rm": r.choice(PURCHASE_REMARKS), "date": s.say_date(day, L)}  # fmt: skip
        bg_add(s, "purchase", L, PURCHASE_SAY, slots, day, item[0], {"item": item})

    def appointment():
        L, day = s.lang_for(), s.day(D(2021, 1, 4), D(2026, 10, 20))
        atype = r.choice(APPOINTMENTS)
        code = code_appt(r)
        slots = {"atype": atype, "adate": s.say_date(day + timedelta(days=r.randint(3, 20)), L),
                 "time": r.choice(APPT_TIMES), "code": code, "rm": r.choice(APPT_REMARKS)}  # fmt: skip
        bg_add(s, "appointment", L, APPT_SAY, slots, day, atype[0], {"atype": atype}, code)

    notes = r.sample(NOTES, BG_PLAN["note"])

    def note():
        L, day = s.lang_for(), s.bgday()
        topic, text = notes[sum(b["cat"] == "note" for b in s.bg)]
        slots = {"text": text, "date": s.say_date(day, L)}
        if not bg_add(s, "note", L, NOTE_SAY, slots, day, topic[0], {"topic": topic}):
            raise AssertionError("notes are unique")

    facets = r.sample([(p, f) for p in others for f in PERSON_FACETS], BG_PLAN["person"])

    def person():
        L, day = s.lang_for(), s.bgday()
        p, facet = facets[sum(b["cat"] == "person" for b in s.bg)]
        slots = {"p": p, "rel": rels[p]}
        if facet == "city":
            slots["city"] = r.choice(away)[:2]
        elif facet == "job":
            job = r.choice(JOB_TITLES)
            slots.update(
                job=job,
                a_job=(f"{art(job[0])} {job[0]}", job[1]),
                company=r.choice(other_companies),
            )
        elif facet == "pet":
            slots.update(sp=r.choice(PETS), pn=r.choice(s.pet_names))
        elif facet == "allergy":
            slots["al"] = r.choice(ALLERGENS)
        elif facet == "drink":
            slots["dr"] = r.choice(DRINKS)
        elif facet == "phone":
            slots["ph"] = r.choice(PHONES)
        elif facet == "birthday":
            slots["md"] = month_day(D(2000, 1, 1) + timedelta(days=r.randint(0, 365)))
        elif facet == "diet":
            slots["dt"] = r.choice(DIETS)
        elif facet == "hobby":
            slots["hb"] = r.choice(HOBBIES)
        q = {"p": p, "rel": rels[p], "_qcat": f"person:{facet}"}
        if not bg_add(s, "person", L, PERSON_SAY[facet], slots, day, (p[0], facet), q):
            raise AssertionError("person facets are unique")

    def invoice():
        L, day, vendor = s.lang_for(), s.bgday(), r.choice(INVOICE_VENDORS)
        code = code_invoice(r, day.year)
        slots = {"vendor": vendor, "amt": s.money(40, 900), "rm": r.choice(INVOICE_REMARKS), "code": code,
                 "date": s.say_date(day, L)}  # fmt: skip
        bg_add(s, "invoice", L, INVOICE_SAY, slots, day, vendor[0], {"vendor": vendor}, code)

    events = r.sample(EVENTS, BG_PLAN["event"])

    def event():
        L, day = s.lang_for(), s.bgday()
        ev = events[sum(b["cat"] == "event" for b in s.bg)]
        slots = {
            "event": ev,
            "p": r.choice(friends),
            "op": r.choice(EVENT_OPINIONS),
            "date": s.say_date(day, L),
        }
        if not bg_add(s, "event", L, EVENT_SAY, slots, day, ev[0], {"event": ev}):
            raise AssertionError("events are unique")

    makers = {"trip": trip, "hotel": hotel, "meeting": meeting, "incident": incident, "order": order,
              "ticket": ticket, "purchase": purchase, "appointment": appointment, "note": note,
              "person": person, "invoice": invoice, "event": event}  # fmt: skip
    for cat, n in BG_PLAN.items():
        made(cat, n, makers[cat])
    s.bg.sort(key=lambda b: b["start"])
    counters: Counter = Counter()
    for b in s.bg:
        counters[b["cat"]] += 1
        b["key"] = f"bg:{b['cat']}:{counters[b['cat']]}"
        s.add(
            b["key"], b["statement"], b["lang"], b["start"], memory_type="episodic", code=b["code"]
        )
