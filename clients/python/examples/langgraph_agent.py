"""A minimal LangGraph agent whose long-term memory is Engram (EngramStore).

Each turn: recall what the store knows that is relevant to the user's message, answer
(here a deterministic stand-in for the model: it quotes the best memory), and remember
explicit "remember: ..." requests. Engram's write policy decides what is stored; a refused
memory (a password, say) is reported to the user instead of silently dropped.

    export ENGRAM_URL=http://127.0.0.1:8000 ENGRAM_API_KEY=egk_… ENGRAM_ADMIN_API_KEY=egk_…
    python clients/python/examples/langgraph_agent.py alice "remember: I prefer tea over coffee"
    python clients/python/examples/langgraph_agent.py alice "what do I prefer to drink?"
"""

from __future__ import annotations

import os
import sys
import uuid
from typing import TypedDict

from engramhq_client import EngramClient, WriteRejected
from engramhq_client.langgraph import EngramStore
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore


class Turn(TypedDict, total=False):
    user_id: str
    message: str
    memories: list[str]
    answer: str


def recall(state: Turn, *, store: BaseStore) -> Turn:
    found = store.search((state["user_id"], "notes"), query=state["message"], limit=3)
    return {"memories": [item.value.get("text", "") for item in found]}


def respond(state: Turn) -> Turn:
    message = state["message"]
    if message.lower().startswith("remember:"):
        return {"answer": "I'll try to remember that."}
    if state.get("memories"):
        return {"answer": f"From what you told me: {state['memories'][0]}"}
    return {"answer": "I don't know yet."}


def remember(state: Turn, *, store: BaseStore) -> Turn:
    message = state["message"]
    if not message.lower().startswith("remember:"):
        return {}
    text = "User said: " + message.split(":", 1)[1].strip()
    try:
        store.put((state["user_id"], "notes"), uuid.uuid4().hex[:12], {"text": text})
    except WriteRejected as refused:
        return {"answer": f"I won't keep that ({refused.reason_code})."}
    return {}


def build_graph(store: BaseStore):
    graph = StateGraph(Turn)
    graph.add_node("recall", recall)
    graph.add_node("respond", respond)
    graph.add_node("remember", remember)
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "respond")
    graph.add_edge("respond", "remember")
    graph.add_edge("remember", END)
    return graph.compile(store=store)


def main() -> None:
    user_id, message = sys.argv[1], sys.argv[2]
    client = EngramClient(
        os.environ.get("ENGRAM_URL", "http://127.0.0.1:8000"),
        os.environ["ENGRAM_API_KEY"],
        admin_api_key=os.environ.get("ENGRAM_ADMIN_API_KEY"),
    )
    with client:
        store = EngramStore.for_user(client, user_id, assertion_kind="user_explicit", confidence=1)
        result = build_graph(store).invoke({"user_id": user_id, "message": message})
    print(result["answer"])


if __name__ == "__main__":
    main()
