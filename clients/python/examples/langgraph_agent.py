"""A minimal LangGraph agent whose long-term memory is Engram (EngramStore), one compiled
graph for every user: the user comes from the run's context, and the store maps
``("users", user_id, ...)`` to that user's memory.

Each turn: recall what the store knows that is relevant to the user's message, answer
(here a deterministic stand-in for the model: it quotes the best memory), and remember
explicit "remember: ..." requests. Engram's write policy decides what is stored; a refused
memory (a password, say) is reported to the user instead of silently dropped. With Engram
down, the turn still answers ("I don't know yet") and the memory waits in the outbox.

    export ENGRAM_URL=http://127.0.0.1:8000 ENGRAM_API_KEY=$(cat .engram/demo-agent-key)
    python clients/python/examples/langgraph_agent.py alice "remember: I prefer tea over coffee"
    python clients/python/examples/langgraph_agent.py alice "what do I prefer to drink?"
    python clients/python/examples/langgraph_agent.py bob "what do I prefer to drink?"
"""

from __future__ import annotations

import os
import sys
import uuid
from dataclasses import dataclass
from typing import TypedDict

from engramhq_client import EngramClient, WriteRejected
from engramhq_client.langgraph import EngramStore
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore


@dataclass
class Context:
    user_id: str


class Turn(TypedDict, total=False):
    message: str
    memories: list[str]
    answer: str


def notes(runtime: Runtime[Context]) -> tuple[str, ...]:
    return ("users", runtime.context.user_id, "notes")


def recall(state: Turn, runtime: Runtime[Context]) -> Turn:
    found = runtime.store.search(notes(runtime), query=state["message"], limit=3)
    return {"memories": [item.value.get("text", "") for item in found]}


def respond(state: Turn) -> Turn:
    message = state["message"]
    if message.lower().startswith("remember:"):
        return {"answer": "I'll try to remember that."}
    if state.get("memories"):
        return {"answer": f"From what you told me: {state['memories'][0]}"}
    return {"answer": "I don't know yet."}


def remember(state: Turn, runtime: Runtime[Context]) -> Turn:
    message = state["message"]
    if not message.lower().startswith("remember:"):
        return {}
    text = "User said: " + message.split(":", 1)[1].strip()
    try:
        runtime.store.put(notes(runtime), uuid.uuid4().hex[:12], {"text": text})
    except WriteRejected as refused:
        return {"answer": f"I won't keep that ({refused.reason_code})."}
    return {}


def build_graph(store: BaseStore):
    graph = StateGraph(Turn, context_schema=Context)
    graph.add_node("recall", recall)
    graph.add_node("respond", respond)
    graph.add_node("remember", remember)
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "respond")
    graph.add_edge("respond", "remember")
    graph.add_edge("remember", END)
    return graph.compile(store=store)


def engram_store(client: EngramClient) -> EngramStore:
    # The user said "remember: …": an explicit statement, not an inference.
    return EngramStore(
        client, namespace_prefix=("users",), assertion_kind="user_explicit", confidence=1.0
    )


def main() -> None:
    user_id, message = sys.argv[1], sys.argv[2]
    key = os.environ["ENGRAM_API_KEY"]
    client = EngramClient(
        os.environ.get("ENGRAM_URL", "http://127.0.0.1:8000"),
        key,
        admin_api_key=os.environ.get("ENGRAM_ADMIN_API_KEY", key),
        outbox=os.environ.get("ENGRAM_OUTBOX", "~/.engramhq/outbox.sqlite"),
    )
    with client:
        graph = build_graph(engram_store(client))
        result = graph.invoke({"message": message}, context=Context(user_id=user_id))
    print(result["answer"])


if __name__ == "__main__":
    main()
