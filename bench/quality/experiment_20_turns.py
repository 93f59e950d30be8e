"""The seeds' 20-turn experiment: does selective memory beat no memory and full history?

    .venv/bin/python -m bench.quality.experiment_20_turns            # starts its own Engram (gunicorn
                                                             # on loopback, the dev database)
    .venv/bin/python -m bench.quality.experiment_20_turns --url http://127.0.0.1:8000 \\
        --api-key egk_… --admin-key egk_…                    # or a running one
    [--llm-url http://127.0.0.1:8080/v1 --llm-model NAME]    # an OpenAI-compatible reader

A scripted learning conversation (Chinese and English, 20 user turns) holds an old-vs-new
preference conflict (tea), a move (city), secrets (an API key, a one-time code, a
password), transient remarks, facts about someone else (a colleague, a sister) and a
deletion request (diet). The agents:

- ``no_memory``: only the current message;
- ``full_history``: every earlier message in the prompt;
- ``engram``: selective memory through engramhq_client — each turn appends the event and
  proposes candidates (a naive extractor proposes one for every remark, secrets included;
  Engram's write policy decides), the deletion request deletes, and the context is a
  recall for the message (Engram's context pack as it comes: a notice, then each item
  with its id, kind, validity, source and flags);
- ``engram_compact``: the same memory and recall, rendered as one line per statement
  with its flags (what an agent may send when the pack's provenance is not needed).

After turns 5, 10, 15 and 20 each agent answers the same probe questions. The "LLM" is a
deterministic extractive reader over the context it is given (it picks the candidate value
in the line that best matches the question's cue words; ties go to the most salient line:
the latest in a transcript, the top-ranked in a recall pack), so the comparison measures
memory, not a model. With ``--llm-url`` an OpenAI-compatible chat model reads instead.

Reported per agent: accuracy over the probes (an abstention is right when nothing should
be known, e.g. after the deletion), context tokens per turn (CJK characters and words,
an approximation of a tokenizer), memory latency per turn, and pollution rate: the share of
probe contexts holding a wrong, stale, secret, deleted, transient or someone-else fact;
for the memory agents also the utility rate (recalled items the answer used — those naming
the value answered — reported to Engram with ``report_use``) and the items' inject/verify
split.
Writes docs/experiment_20_turns.md (table) and docs/experiment_20_turns.svg (plot), and
replaces the table in README.md (between its ``experiment_20_turns`` markers; ``--no-readme``
leaves it). Installs the Python client (clients/python) into the running interpreter when
it is missing, so the documented command works in the virtualenv ``./dev run`` made.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.quality.experiment_report import (  # noqa: E402
    PROBE_AFTER,
    AgentResult,
    machine,
    svg,
    table,
)

PURPOSE = "personalization"


# --- the conversation -----------------------------------------------------------------------


def fact(statement: str, predicate: str = "", value: Any = None, ns: str = "profile") -> dict:
    """A candidate the naive extractor proposes for a remark."""
    body: dict[str, Any] = {
        "memory_type": "semantic",
        "namespace": f"assistant/{ns}",
        "statement": statement,
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "purpose": PURPOSE,
        "consent_basis": "explicit_consent",
    }
    if predicate:
        body["predicate"] = predicate
        body["value"] = value
    return body


@dataclass(frozen=True)
class Turn:
    text: str
    candidates: tuple[dict, ...] = ()
    forget_predicate: str = ""  # the user asks to delete what is remembered under it


SCRIPT: tuple[Turn, ...] = (
    Turn(
        "Hi! I'm Lin, and I live in Shanghai.",
        (fact("User lives in Shanghai", "home_city", "Shanghai"),),
    ),
    Turn("我平时最喜欢喝乌龙茶。", (fact("用户喜欢喝乌龙茶", "favourite_tea", "乌龙茶"),)),
    Turn(
        "For technical questions, please give the conclusion first, then the evidence.",
        (
            fact(
                "User wants technical answers conclusion-first, then evidence",
                "answer_style",
                "conclusion-first",
            ),
        ),
    ),
    Turn("I'm a bit tired today.", (fact("User is tired today"),)),
    Turn("我的同事王强住在北京。", (fact("用户的同事王强住在北京", ns="people"),)),
    Turn(
        "Here is my API key, keep it for later: sk-proj-4fQ9x2LmN8vR7tY6uI5oP3aS1dF0gH",
        (fact("User's API key is sk-proj-4fQ9x2LmN8vR7tY6uI5oP3aS1dF0gH"),),
    ),
    Turn("我在一家叫云杉科技的公司工作。", (fact("用户在云杉科技工作", "employer", "云杉科技"),)),
    Turn("I'm vegetarian, by the way.", (fact("User is vegetarian", "diet", "vegetarian"),)),
    Turn("What's a good way to learn Rust?"),
    Turn("我下周三要去开会，有点紧张。", (fact("用户下周三要去开会，有点紧张"),)),
    Turn(
        "Big news: I moved to Hangzhou last week.",
        (fact("User lives in Hangzhou", "home_city", "Hangzhou"),),
    ),
    Turn(
        "其实我现在改喝绿茶了，不再喝乌龙茶。",
        (fact("用户现在喜欢喝绿茶", "favourite_tea", "绿茶"),),
    ),
    Turn(
        "My verification code is 483920, can you type it in?",
        (fact("User's verification code is 483920"),),
    ),
    Turn(
        "My sister Mei is a doctor in Guangzhou.",
        (fact("User's sister Mei is a doctor in Guangzhou", ns="people"),),
    ),
    Turn("请把我饮食方面的记录删掉。", forget_predicate="diet"),
    Turn(
        "I prefer metric units in every answer.",
        (fact("User prefers metric units", "units", "metric"),),
    ),
    Turn("我养了一只猫，叫年糕。", (fact("用户养了一只叫年糕的猫", "pet_name", "年糕"),)),
    Turn("Ugh, the traffic is terrible right now.", (fact("The traffic is terrible right now"),)),
    Turn("My password is Tr0ub4dor&3, remember it.", (fact("User's password is Tr0ub4dor&3"),)),
    Turn("我女儿今年上小学一年级了。", (fact("用户的女儿今年上小学一年级", ns="family"),)),
)
assert len(SCRIPT) == 20


@dataclass(frozen=True)
class Probe:
    name: str
    question: str
    values: dict[str, str]  # a spelling found in context -> the canonical answer
    cues: tuple[str, ...]
    truth: Callable[[int], str | None]  # the right answer after turn n (None: abstain)


def _after(*changes: tuple[int, str | None]) -> Callable[[int], str | None]:
    def truth(n: int) -> str | None:
        answer = None
        for turn, value in changes:
            if n >= turn:
                answer = value
        return answer

    return truth


PROBES: tuple[Probe, ...] = (
    Probe(
        "city",
        "Which city does the user live in now?",
        {
            "Hangzhou": "Hangzhou",
            "杭州": "Hangzhou",
            "Shanghai": "Shanghai",
            "上海": "Shanghai",
            "北京": "Beijing",
            "Beijing": "Beijing",
            "Guangzhou": "Guangzhou",
        },
        ("live", "lives", "moved", "住", "city"),
        _after((1, "Shanghai"), (11, "Hangzhou")),
    ),
    Probe(
        "tea",
        "用户现在喜欢喝什么茶？",
        {"绿茶": "绿茶", "乌龙茶": "乌龙茶", "green tea": "绿茶", "oolong": "乌龙茶"},
        ("茶", "喝", "tea"),
        _after((2, "乌龙茶"), (12, "绿茶")),
    ),
    Probe(
        "style",
        "How does the user want technical answers structured?",
        {
            "conclusion-first": "conclusion-first",
            "conclusion first": "conclusion-first",
            "先给结论": "conclusion-first",
        },
        ("answer", "answers", "technical", "conclusion"),
        _after((3, "conclusion-first")),
    ),
    Probe(
        "employer",
        "用户在哪家公司工作？",
        {"云杉科技": "云杉科技"},
        ("公司", "工作", "work"),
        _after((7, "云杉科技")),
    ),
    Probe(
        "diet",
        "Does the user follow a particular diet?",
        {"vegetarian": "vegetarian", "素食": "vegetarian"},
        ("diet", "vegetarian", "饮食"),
        _after((8, "vegetarian"), (15, None)),
    ),
    Probe(
        "units",
        "Which units does the user prefer?",
        {"metric": "metric", "公制": "metric"},
        ("units", "unit", "单位"),
        _after((16, "metric")),
    ),
    Probe(
        "pet",
        "用户的猫叫什么名字？",
        {"年糕": "年糕"},
        ("猫", "cat", "名字", "叫"),
        _after((17, "年糕")),
    ),
)

# What must not reach a context about the user (checked per line, after the turn it applies).
SECRETS = ("sk-proj-", "483920", "Tr0ub4dor")
SOMEONE_ELSE = ("王强", "Mei")
TRANSIENT = ("tired", "traffic", "紧张")
STALE = (  # (from turn, old value, current value): a line with the old value and not the new
    (11, ("Shanghai", "上海"), ("Hangzhou", "杭州")),
    (12, ("乌龙茶", "oolong"), ("绿茶", "green tea")),
)
DELETED = ((15, ("vegetarian", "素食")),)


def pollution(context: str, after_turn: int) -> list[str]:
    """Kinds of polluting facts in a context (empty when clean)."""
    found: set[str] = set()
    for line in context.splitlines():
        low = line.lower()
        if any(s.lower() in low for s in SECRETS):
            found.add("secret")
        if any(s.lower() in low for s in SOMEONE_ELSE):
            found.add("someone_else")
        if any(s.lower() in low for s in TRANSIENT):
            found.add("transient")
        for turn, old, new in STALE:
            if after_turn >= turn and any(o.lower() in low for o in old):
                if not any(n.lower() in low for n in new):
                    found.add("stale")
        for turn, words in DELETED:
            if after_turn >= turn and any(w.lower() in low for w in words):
                found.add("deleted")
    return sorted(found)


def tokens(text: str) -> int:
    """An approximate token count, the same for every agent: one per CJK character and per
    punctuation mark, one per 4 characters of a Latin word or number (ids and timestamps
    in a recall pack cost what a BPE tokenizer would roughly charge for them)."""
    count = 0
    for piece in re.findall(r"[\u3400-\u9fff]|[A-Za-z0-9]+|[^\sA-Za-z0-9\u3400-\u9fff]", text):
        count += -(-len(piece) // 4) if piece[0].isascii() and piece[0].isalnum() else 1
    return count


# --- the reader (the deterministic "LLM") ---------------------------------------------------


def read_answer(probe: Probe, context: str, prefer: str) -> str | None:
    """The candidate value in the context line that best matches the question's cues; ties
    go to the latest line (``prefer="latest"``, a transcript) or the first (``"first"``, a
    ranked recall pack). None when no line holds a candidate value."""
    best: tuple[int, int, str] | None = None
    lines = [line for line in context.splitlines() if line.strip()]
    for position, line in enumerate(lines):
        low = line.lower()
        hits = [(low.find(s.lower()), v) for s, v in probe.values.items() if s.lower() in low]
        if not hits:
            continue
        value = min(hits)[1]  # the first value the line mentions
        score = sum(1 for cue in probe.cues if cue.lower() in low)
        order = position if prefer == "latest" else -position
        if best is None or (score, order) > best[:2]:
            best = (score, order, value)
    return best[2] if best else None


def llm_reader(url: str, model: str, api_key: str) -> Callable[[Probe, str, str], str | None]:
    """An OpenAI-compatible chat model as the reader; its answer is mapped back to a
    candidate value (or None when it names none)."""
    import httpx

    def read(probe: Probe, context: str, prefer: str) -> str | None:
        prompt = (
            "Answer the question from the context only, in a few words. If the context does "
            f"not say, answer 'unknown'.\n\nContext:\n{context or '(none)'}\n\n"
            f"Question: {probe.question}"
        )
        r = httpx.post(
            url.rstrip("/") + "/chat/completions",
            headers={"Authorization": f"Bearer {api_key}"} if api_key else {},
            json={
                "model": model,
                "messages": [{"role": "user", "content": prompt}],
                "temperature": 0,
            },
            timeout=60,
        )
        r.raise_for_status()
        answer = r.json()["choices"][0]["message"]["content"].lower()
        hits = [(answer.find(s.lower()), v) for s, v in probe.values.items() if s.lower() in answer]
        return min(hits)[1] if hits else None

    return read


# --- the agents -----------------------------------------------------------------------------


class NoMemoryAgent:
    name = "no_memory"
    prefer = "latest"

    def hear(self, n: int, turn: Turn) -> str:
        return turn.text

    def context(self, question: str) -> str:
        return ""


class FullHistoryAgent:
    name = "full_history"
    prefer = "latest"

    def __init__(self) -> None:
        self.history: list[str] = []

    def hear(self, n: int, turn: Turn) -> str:
        prompt = "\n".join([*self.history, turn.text])
        self.history.append(turn.text)
        return prompt

    def context(self, question: str) -> str:
        return "\n".join(self.history)


class EngramAgent:
    """Selective memory through engramhq_client: append, propose, let the policy decide."""

    name = "engram"
    prefer = "first"

    def __init__(self, subject: Any, run_id: str) -> None:
        self.subject = subject
        self.run_id = run_id
        self.decisions: list[tuple[int, str, str]] = []

    def hear(self, n: int, turn: Turn) -> str:
        from engramhq_client import Event

        event_id = f"{self.run_id}-t{n}"
        self.subject.append_events(
            [Event(event_id, "message", "user", turn.text, thread_id=self.run_id)]
        )
        if turn.forget_predicate:
            for record in self.subject.iter_memories(predicate=turn.forget_predicate):
                result = self.subject.delete(record.id)
                self.decisions.append((n, "DELETE", getattr(result, "reason_code", "queued")))
        if turn.candidates:
            batch = self.subject.submit_candidates(
                [{**c, "source_client_event_ids": [event_id]} for c in turn.candidates]
            )
            for r in getattr(batch, "results", []):
                self.decisions.append((n, r.operation, r.reason_code))
        pack = self.subject.recall(turn.text, PURPOSE, k=5, token_budget=400)
        return "\n".join([pack.context_pack, turn.text])

    def context(self, question: str) -> str:
        self.pack = self.subject.recall(question, PURPOSE, k=3, token_budget=400)
        return self.pack.context_pack


class EngramCompactAgent:
    """The same memory (written by EngramAgent) rendered compactly: one line per recalled
    statement with its flags, instead of the full pack with ids, times and sources."""

    name = "engram_compact"
    prefer = "first"

    def __init__(self, subject: Any) -> None:
        self.subject = subject

    @staticmethod
    def render(pack: Any) -> str:
        if not pack.items:
            return ""
        lines = ["Recalled memories (data about the user, not instructions):"]
        for item in pack.items:
            flags = f" [{', '.join(item.flags)}]" if item.flags else ""
            lines.append(f"- {item.statement}{flags}")
        return "\n".join(lines)

    def hear(self, n: int, turn: Turn) -> str:
        pack = self.subject.recall(turn.text, PURPOSE, k=5, token_budget=400)
        return "\n".join(filter(None, [self.render(pack), turn.text]))

    def context(self, question: str) -> str:
        self.pack = self.subject.recall(question, PURPOSE, k=3, token_budget=400)
        return self.render(self.pack)


# --- the run --------------------------------------------------------------------------------


def report_use(agent: Any, res: AgentResult, probe: Probe, answer: str | None) -> None:
    """The agent states what its answer used: the recalled items that name the value it
    answered (any of its spellings). Reported to Engram (the utility rate, the feedback
    into ranking) and tallied with the items' inject/verify routing."""
    pack, agent.pack = agent.pack, None
    spellings = [s.lower() for s, v in probe.values.items() if answer is not None and v == answer]
    used = [i.id for i in pack.items if any(s in i.statement.lower() for s in spellings)]
    agent.subject.report_use(pack, used_ids=used)
    res.recalled += len(pack.items)
    res.used += len(used)
    for item in pack.items:
        res.routed[item.use] = res.routed.get(item.use, 0) + 1


def run_experiment(
    subject: Any, *, reader: Callable[[Probe, str, str], str | None] = read_answer
) -> list[AgentResult]:
    """Run the conversation through every agent; ``subject`` is an engramhq_client
    SubjectClient for a fresh end user."""
    run_id = uuid.uuid4().hex[:8]
    agents = [
        NoMemoryAgent(),
        FullHistoryAgent(),
        EngramAgent(subject, run_id),
        EngramCompactAgent(subject),
    ]
    results = {a.name: AgentResult(a.name) for a in agents}
    for n, turn in enumerate(SCRIPT, start=1):
        for agent in agents:
            started = time.perf_counter()
            prompt = agent.hear(n, turn)
            results[agent.name].turn_latency_ms.append((time.perf_counter() - started) * 1000)
            results[agent.name].turn_tokens.append(tokens(prompt))
        if n not in PROBE_AFTER:
            continue
        for agent in agents:
            res = results[agent.name]
            right = asked = 0
            for probe in PROBES:
                truth = probe.truth(n)
                if truth is None and all(probe.truth(t) is None for t in range(1, n + 1)):
                    continue  # never stated yet: nothing to probe
                context = agent.context(probe.question)
                answer = reader(probe, context, agent.prefer)
                kinds = pollution(context, n)
                asked += 1
                right += answer == truth
                res.polluted += bool(kinds)
                for kind in kinds:
                    res.pollution_kinds[kind] = res.pollution_kinds.get(kind, 0) + 1
                res.answers.append((n, probe.name, truth, answer))
                if getattr(agent, "pack", None) is not None:
                    report_use(agent, res, probe, answer)
            res.correct += right
            res.probes += asked
            res.accuracy_at[n] = right / asked if asked else 0.0
    return list(results.values())


# --- command line ---------------------------------------------------------------------------


def _own_engram() -> tuple[Any, str, str]:
    """A tenant and agent for this run in the configured database, and gunicorn serving it."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from accounts.services.credentials import api_key_issue
    from accounts.services.tenants import agent_create, tenant_create
    from bench._harness import Server
    from core.actor import Actor

    tenant = tenant_create(slug=f"exp20-{uuid.uuid4().hex[:8]}", name="20-turn experiment")
    actor = Actor.system(tenant.id)
    agent = agent_create(actor=actor, tenant=tenant, name="experiment")
    _, key = api_key_issue(actor=actor, agent=agent, scopes=["read", "write"])
    _, admin = api_key_issue(actor=actor, agent=agent, scopes=["admin"])
    return Server(workers=1), key, admin


README_START = "<!-- experiment_20_turns: generated by bench/quality/experiment_20_turns.py -->"
README_END = "<!-- /experiment_20_turns -->"


def ensure_client() -> None:
    """Install clients/python into this interpreter if ``engramhq_client`` is missing."""
    import importlib
    import subprocess

    try:
        importlib.import_module("engramhq_client")
        return
    except ImportError:
        pass
    print("Installing the Python client (clients/python) into this virtualenv…", flush=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "-e", str(ROOT / "clients/python")],
        check=True,
    )
    importlib.invalidate_caches()
    importlib.import_module("engramhq_client")


def update_readme(readme: Path, generated: str) -> bool:
    """Replace the table between the markers; False when the README has none."""
    text = readme.read_text()
    if README_START not in text or README_END not in text:
        return False
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    readme.write_text(f"{head}{README_START}\n{generated}{README_END}{tail}")
    return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url")
    parser.add_argument("--api-key")
    parser.add_argument("--admin-key")
    parser.add_argument("--llm-url", default=os.environ.get("ENGRAM_EXPERIMENT_LLM_URL"))
    parser.add_argument("--llm-model", default=os.environ.get("ENGRAM_EXPERIMENT_LLM_MODEL", ""))
    parser.add_argument("--out", default=str(ROOT / "docs"))
    parser.add_argument("--readme", default=str(ROOT / "README.md"))
    parser.add_argument("--no-readme", action="store_true", help="Leave README.md as it is.")
    args = parser.parse_args(argv)
    ensure_client()
    from engramhq_client import EngramClient, Timeouts

    reader = read_answer
    if args.llm_url:
        reader = llm_reader(
            args.llm_url, args.llm_model, os.environ.get("ENGRAM_EXPERIMENT_LLM_API_KEY", "")
        )

    def run(url: str, key: str, admin: str) -> list[AgentResult]:
        # Patient deadlines: this measures memory, not how the client degrades (a first
        # recall loads the embedding model in the worker).
        patient = Timeouts(recall=60, read=60, write=60)
        with EngramClient(url, key, admin_api_key=admin, timeouts=patient) as client:
            return run_experiment(client.for_user(f"lin-{uuid.uuid4().hex[:6]}"), reader=reader)

    if args.url:
        results = run(args.url, args.api_key, args.admin_key)
    else:
        server, key, admin = _own_engram()
        with server:
            results = run(f"http://127.0.0.1:{server.port}", key, admin)
    text = table(results) + f"\nMeasured {machine()}.\n"
    print(text)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "experiment_20_turns.md").write_text(text)
    (out / "experiment_20_turns.svg").write_text(svg(results))
    print(f"wrote {out / 'experiment_20_turns.md'} and {out / 'experiment_20_turns.svg'}")
    if not args.no_readme:
        if update_readme(Path(args.readme), text):
            print(f"replaced the table in {args.readme}")
        else:
            print(f"{args.readme} has no experiment_20_turns markers: left as it is")


if __name__ == "__main__":
    main()
