"""Fusion and rerank weights, and the relevance gate: per tenant, per model."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class RecallWeights:
    """Fusion and rerank weights, and the relevance gate. Per tenant via tenant policy
    ``recall_weights``; unknown keys are ignored, values are clamped to sane ranges."""

    exact: float = 1.0
    lexical: float = 1.0
    trigram: float = 1.0
    vector: float = 1.0
    recency: float = 0.2
    rrf_k: float = 10.0
    # How much of a lexical rank depends on the share of the question's words the memory
    # holds (1: all of it, 0: the rank counts whole). With BM25 a rare word already
    # counts for more than a common one; scaling by coverage on top cost LoCoMo dev
    # 0.018 Recall@10 (0.699 at 0, 0.689 at 0.5, 0.685 at 1, semantic 2).
    lexical_coverage_share: float = 0.0
    relevance: float = 1.0
    # Rerank by how much more the memory matches this question than a typical one (the
    # vector margin): rank fusion alone lets a one-word lexical match outrank the
    # paraphrase that answers. Since the lexical route scores by BM25 the fused ranks
    # carry more of the evidence: LoCoMo dev Recall@5/@10 0.632/0.712 at 0, 0.620/0.717
    # at 1, 0.617/0.699 at 2, 0.581/0.671 at the former 8 (coverage share 0).
    semantic: float = 1.0
    confidence: float = 0.1
    importance: float = 0.05
    # Bonus for a structured fact (a named predicate): chosen on the tuning split.
    structured: float = 0.1
    freshness: float = 0.05
    # Experiences age faster than facts: "what happened last time" wants the latest one.
    episodic_freshness: float = 0.3
    freshness_half_life_days: float = 180.0
    # Relevance gate: an item needs one of these to be returned at all. e5 similarities
    # sit in a narrow band (unrelated same-language pairs score ~0.80–0.90), so a vector
    # hit passes when it is near-certain on its own, or when it matches the question
    # clearly more than a typical question (margin). The floor is low enough for
    # cross-script pairs, which score ~0.05 lower. Chosen on the tuning split of golden
    # v2 with the default model: margin 0.033 -> 0.038 and sure 0.89 -> 0.92 cost 0.012
    # nDCG@10 and raised correct abstentions from 0.16 to 0.45.
    vector_sure_similarity: float = 0.92
    vector_min_similarity: float = 0.77
    vector_min_margin: float = 0.038
    min_lexical_coverage: float = 0.6
    min_trigram_similarity: float = 0.6
    # Over 0: a memory also anchors when the lexical and the vector route both nearly
    # pass their bars: its coverage reaches this share of ``min_lexical_coverage`` and its
    # margin this share of ``vector_min_margin`` (``rank.corroborated``). 0: off. LoCoMo
    # dev at 0.6-0.8 fills one empty answer on 30 only (26 and 41 unchanged), and golden
    # v1's abstention falls 0.597 -> 0.522 at 0.8 (docs/recall.md, thirteenth round).
    corroborated: float = 0.0
    # Once one memory anchors the answer, related ones pass a lower bar.
    related_vector_margin: float = 0.02
    related_margin_share: float = 0.55
    related_lexical_coverage: float = 0.3
    # The slot route: a question matches a predicate's name by meaning at this margin.
    slot_min_margin: float = 0.03
    # Penalty for a fact about someone else (a friend's city, a colleague's cat) when the
    # question is about the user; such a fact never anchors an answer either. Chosen on
    # golden v2 and v3 (0.1–0.3 all helped; nothing relevant is flagged).
    someone_else: float = 0.2
    # A word of the turn before a memory (its conversation context) counts this much of
    # one of its own in the lexical route's BM25. LoCoMo dev, an offline rank fusion of
    # BM25 and the vector margin: Recall@10 0.722 without context, 0.746 at 0.5, 0.724
    # at 1.0.
    lexical_context: float = 0.5
    # A lexical rank earned only through the context (none of the question's words are
    # the memory's own) counts this share of a rank earned by its own words: the turn
    # that says "I painted a sunset" outranks the "Thanks!" after it. Neutral on LoCoMo
    # dev (Recall@10 0.717 at 1, 0.712 at 0.5, 0.715 at 0.3).
    lexical_context_only: float = 0.5
    # A question about one speaker of the subject's conversations (``rank.scope_to_speaker``):
    # abstain unless the speaker's best statement reaches this share of the fused
    # relevance of the best turn by another speaker, and rank the speaker's own turns up
    # by ``named_speaker``. Fused relevance is built from ranks, so the share means the
    # same under any embedding model. LoCoMo dev, in process (Recall@10 / adversarial
    # abstention): 0.715 / 0.009 without either; bonus 0.2 alone 0.749 / 0.009 (0.1:
    # 0.734, 0.3: 0.741); with it, share 0.6 0.738 / 0.27, 0.65 0.733 / 0.31, 0.7 0.713 /
    # 0.36. Counting the speaker's questions as statements, share 0.65 abstains on 0.09.
    named_speaker: float = 0.2
    # 0.6 since issue 34 round 3, with ``addressed_turns`` on: chosen over 0.55 and 0.65
    # in each leave-one-conversation-out rotation (docs/performance.md).
    named_speaker_share: float = 0.6
    # Over 0: also abstain when the speaker's own statements hold under this share of the
    # question's content words that the best statement by another speaker holds
    # (``rank.not_attributable``). 0: off.
    named_speaker_terms: float = 0.0
    # Over 0: while the speaker's best statement is under this share of the best other
    # speaker's turn (a second, wider band than ``named_speaker_share``), also abstain when
    # that other turn holds more of the question's words (lexical coverage) than any of
    # the speaker's own statements: the event is told in someone else's words
    # (``rank.scope_to_speaker``). 0: off.
    named_speaker_cover: float = 0.0
    # Over 0: also abstain when a statement by another speaker beats the speaker's own
    # best on every reading at once: fused relevance, words held, vector similarity and
    # margin (``rank.outweighed``; no threshold). 0: off. A trade on LoCoMo dev: with share
    # 0.55, abstention 0.357 -> 0.491 and 13 -> 14 answerable questions empty, but 41
    # loses one inference answer at every share (docs/recall.md, thirteenth round).
    named_speaker_outweighed: float = 0.0
    # A turn of the speaker counts as their asking (not their statement) for that gate
    # when the sentences in it that ask something (end in ?/？) hold at least this share
    # of its words: "Wow! What got you into running?" asks, "Last week my grandma passed
    # away. How have you been?" states. 0: any question mark makes a turn asking (off).
    # A trade, so off: on LoCoMo dev at 0.5 Recall@10 0.739/0.745/0.713 ->
    # 0.765/0.757/0.720 but adversarial abstention 0.31 -> 0.15 (docs/recall.md).
    asking_share: float = 0.0
    # Over 0: for that gate a turn in which its speaker says "you" more than "I" (``你``
    # more than ``我``) is about the person addressed (``attribution.addressed``): not the
    # speaker's own statement, and no evidence against the speaker asked about. 0: off.
    # Alone (whole turns) a trade on LoCoMo dev: adversarial abstention 0.295 -> 0.420, but
    # Recall@10 0.764/0.769/0.766 -> 0.758/0.757/0.766 and 13 -> 17 answerable questions
    # empty (docs/recall.md). On since issue 34 round 3, with the package it is kept in
    # (``addressed_rank``, ``addressed_sentence``, ``time_asked``, share 0.6): Recall@10
    # 0.763/0.769/0.766 -> 0.797/0.769/0.771, abstention 0.304 -> 0.357, 13 answerable
    # questions empty as before (docs/performance.md).
    addressed_turns: float = 1.0
    # Over 0: such a turn of the speaker asked about gets no ``named_speaker`` bonus. 0: off
    # (with ``addressed_turns``: multi-hop @10 0.479 -> 0.495, but 30 loses 0.024).
    addressed_rank: float = 1.0
    # Over 0: both judge the person in the sentence of the turn that shares most words
    # with the question, not in the whole turn (``attribution.about_question``): a
    # thank-you before the speaker's own news no longer makes the turn addressed. 0: off.
    # With ``addressed_turns`` on LoCoMo dev: abstention 0.295 -> 0.402 with 14 answerable
    # questions empty (whole turns: 0.420, 17), but 41 loses 0.010 Recall@10 and two
    # answers; kept in round 3's package (above).
    addressed_sentence: float = 1.0
    # Added to the score of each of the best ranked memories that tells a time (a date
    # or a time resolved at ingest, ``MemoryMention`` of kind date) when the question asks
    # for one ("When did …", "什么时候"; ``timewin.time_asked``). 0: off. LoCoMo dev at
    # 0.1–0.4: Recall@10 0.761/0.769/0.766 -> 0.761/0.782/0.773 (temporal 0.892/0.962/0.870
    # -> 0.892/1.000/0.907), no loss, but 26 does not gain; kept in round 3's package.
    time_asked: float = 0.2
    # The memory of the turn right after a top hit that asks something comes along at
    # this share of the hit's score (``expand.adjacent_replies``): the answer to the
    # question the hit asked. 0: off. Kept by leave-one-conversation-out on LoCoMo dev
    # (Recall@10 per conversation 0.733/0.720/0.710 at 0 -> 0.739/0.745/0.713 at 0.9;
    # 0.5 and 0.7 lose on one; docs/recall.md).
    adjacent_reply: float = 0.9
    # Each better-ranked memory from the same conversation thread lowers a memory's score
    # by this much (``expand.spread_threads``): an answer spread over conversations is
    # not crowded out by near-repeats from one. 0: off; it lost on LoCoMo dev at 0.02,
    # 0.05 and 0.1 (docs/recall.md).
    thread_spread: float = 0.0
    # The entity index (``entities.entity_expand``): the memories naming an entity the
    # question names come along at ``entity_mention`` times the best hit's score, and
    # those naming another entity of a best hit at ``entity_hop`` times that hit's.
    # 0: off. At 0.8 / 0.6 (recall35, issue 34) LoCoMo dev Recall@10 0.797/0.769/0.784 ->
    # 0.797/0.773/0.793 (holds on 26, gains on 30 and 41) and our bilingual set 0.858 ->
    # 0.868, but the request thread's CPU grows: +4-6 ms a recall with the reference's
    # reads, +1.5-1.9 ms with ENGRAM_RECALL_ONE_ENTITY_READ (recall36), still beyond the
    # A/A noise (+-0.6 ms): off (docs/recall.md).
    entity_mention: float = 0.0
    entity_hop: float = 0.0
    # Added to the score of a ranked memory whose time (``valid_from``) falls in the time
    # the question names (``timewin.time_named``: "in May 2023", "去年"). 0: off. On
    # with ``drop_named_time``: alone it never reached a memory the routes had missed.
    time_named: float = 0.4
    # Over 0: for ``time_named`` a memory is also in the time the question names when its
    # words tell a time inside it (the entity index's ``date`` mentions: a date, or
    # "last week", "上周" resolved at ingest, or a month without a year read against when
    # it was said; ``timewin.told_in``). 0: off. On since recall35 (issue 34): LoCoMo dev
    # identical in every conversation, our named-time set's MRR 0.872 -> 0.897 (a month
    # told later, "Back in April we…", rank 9 -> 1; docs/recall.md).
    time_told: float = 1.0
    # The best memories inside that time by vector margin come along at this share of the
    # best hit's score (``timewin.in_window``). 0: off.
    time_window: float = 0.0
    # Over 0: the words naming that time are left out of what the routes search and the
    # embedder reads (``query.read_question``): a memory's time is its ``valid_from``,
    # not a date in its words. 0: off. With ``time_named`` 0.4, kept by
    # leave-one-conversation-out on LoCoMo dev: Recall@10 0.739/0.745/0.713 ->
    # 0.752/0.757/0.766, adversarial abstention unchanged but one question on 41
    # (docs/recall.md).
    drop_named_time: float = 1.0
    # Over 0: the embedder reads the names of the people of the subject's conversations
    # in a question as "someone" (``lexical.without_names``). 0: off.
    unname_speakers: float = 0.0
    # A question of several parts ("Ada and Bea", two clauses; ``decompose.parts``) is
    # recalled part by part too, each part's best memories joining at this share of the
    # whole question's best score (``decompose.by_parts``). One more embedding per part.
    # 0: off; leave-one-conversation-out on LoCoMo dev kept none of 0.5, 0.8, 1.0 (1.0
    # helps on 30 only: Recall@10 0.739/0.745/0.713 -> 0.739/0.757/0.713; docs/recall.md).
    # Issue 34 round 3: with the speaker levers on it makes every rotation gain (30:
    # 0.769 -> 0.775), but its extra embeddings, for 3 % of LoCoMo dev questions, raise
    # recall's p95 by ~7 ms (docs/performance.md): off.
    decompose: float = 0.0
    candidates_per_route: int = 30
    stale_after_days: float = 365.0
    # With a cross-encoder configured (``crossrank``): its share of the order of the top
    # candidates, against Engram's own final score (both min-max normalised over them).
    # A cross-encoder reads question and statement together and is the stronger judge of
    # relevance, so it leads; Engram's share keeps what it alone knows (a curated fact
    # for the slot, freshness, a fact about someone else) deciding near-ties. Fit per
    # reranker model with ``engram_calibrate``.
    rerank_blend: float = 0.7

    @classmethod
    def for_tenant(
        cls, policy: dict[str, Any] | None, model_id: str = "", reranker_id: str = ""
    ) -> RecallWeights:
        """The tenant's weights for the models recall serves. The gate's similarities
        and margins mean different things under different embedding models, so
        ``recall_weights_by_model[model_id]`` (calibrated for that model) overrides the
        tenant's ``recall_weights``, which override the defaults; with a reranker,
        ``recall_weights_by_model[reranker_id]`` (its ``rerank_blend``) overrides all."""
        policy = policy or {}
        raw = policy.get("recall_weights") or {}
        if not isinstance(raw, dict):
            raw = {}
        by_model = policy.get("recall_weights_by_model") or {}
        if isinstance(by_model, dict):
            for key in (model_id, reranker_id):
                if key and isinstance(by_model.get(key), dict):
                    raw = {**raw, **by_model[key]}
        known = {f.name: f for f in fields(cls)}
        updates: dict[str, Any] = {}
        for name, value in raw.items():
            if name not in known or isinstance(value, bool):
                continue
            try:
                number = float(value)
            except (TypeError, ValueError):
                continue
            if not math.isfinite(number):
                continue
            if name == "candidates_per_route":
                updates[name] = int(min(max(number, 5), 200))
            elif name in (
                "rerank_blend",
                "lexical_coverage_share",
                "lexical_context_only",
                "named_speaker_share",
                "named_speaker_terms",
                "named_speaker_cover",
                "named_speaker_outweighed",
                "asking_share",
                "addressed_turns",
                "addressed_rank",
                "addressed_sentence",
                "drop_named_time",
                "unname_speakers",
                "adjacent_reply",
                "entity_mention",
                "entity_hop",
                "time_window",
                "time_told",
                "decompose",
                "corroborated",
            ):
                updates[name] = min(max(number, 0.0), 1.0)
            else:
                updates[name] = min(max(number, 0.0), 10_000.0)
        return replace(cls(), **updates)
