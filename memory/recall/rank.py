"""Steps 4–5 of recall: fusion of the routes' rankings, the relevance gate and the rerank,
over each candidate's typed ``Signals``.

The gate answers only if some memory clearly answers (exact key, trigram id match, most
query words, or a vector similarity clearly above what the memory scores against a
typical question), else abstains — an empty result is an answer; related memories then
come along. Survivors are scored by fused relevance, vector margin, structured fact,
confidence, importance and freshness.

A question about one speaker of the subject's conversations is answered from what that
speaker said (``scope_to_speaker``)."""

from __future__ import annotations

import math
import re
import uuid
from datetime import datetime

from memory import relations
from memory.models import MemoryType
from memory.recall.attribution import addressed, terms_held
from memory.recall.signals import RANKINGS, Candidate, load_records
from memory.recall.ties import recall_order
from memory.recall.weights import RecallWeights


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


def is_anchor(c: Candidate, w: RecallWeights) -> bool:
    """Strong evidence that the memory answers the question. Recency alone is not."""
    s = c.signals
    vector = _or(s.vector, 0.0)
    return (
        s.exact is not None
        or _or(s.trigram, 0.0) >= w.min_trigram_similarity
        or _or(s.lexical_coverage, 0.0) >= w.min_lexical_coverage
        or vector >= w.vector_sure_similarity
        or (
            vector >= w.vector_min_similarity
            and _or(s.vector_margin, -math.inf) >= w.vector_min_margin
        )
        or corroborated(c, w)
    )


def corroborated(c: Candidate, w: RecallWeights) -> bool:
    """Two routes that do not share evidence agree: the memory holds at least
    ``w.corroborated`` of the lexical bar's share of the question's words *and* reaches that
    share of the vector route's margin bar (above its similarity floor). Either alone
    falls just short of anchoring ("What book is Ada reading now?" against "I'm currently
    reading a novel": half the question's words, a margin a little under the bar); both
    together are as strong as one clear hit. 0: off."""
    if not w.corroborated:
        return False
    s = c.signals
    return (
        _or(s.lexical_coverage, 0.0) >= w.corroborated * w.min_lexical_coverage
        and _or(s.vector, 0.0) >= w.vector_min_similarity
        and _or(s.vector_margin, -math.inf) >= w.corroborated * w.vector_min_margin
    )


def is_related(c: Candidate, w: RecallWeights, margin_floor: float) -> bool:
    """Weaker evidence: enough to come along once some memory anchors the answer."""
    s = c.signals
    return is_anchor(c, w) or (
        _or(s.lexical_coverage, 0.0) >= w.related_lexical_coverage
        or (
            _or(s.vector, 0.0) >= w.vector_min_similarity
            and _or(s.vector_margin, -math.inf) >= margin_floor
        )
    )


def fuse_and_rerank(
    candidates: dict[uuid.UUID, Candidate],
    w: RecallWeights,
    *,
    as_of: datetime,
    recent: bool = False,
    about_others: bool = False,
    speaker: str = "",
    question: str = "",
    names: frozenset[str] = frozenset(),
) -> list[Candidate]:
    """``recent``: the question asks for the latest experiences; ``about_others``: it
    names another person or a relation, so facts about other people may answer it;
    ``speaker``: the one speaker of the subject's conversations it is about (see
    ``query.Question``); ``question`` (as searched) and ``names`` (the words of the
    conversation partners' names): what ``addressed_sentence`` reads."""
    ranking_weight = {r: getattr(w, r) for r in RANKINGS}
    best_possible = sum(wt / (w.rrf_k + 1) for wt in ranking_weight.values()) or 1.0
    anchors = [c for c in candidates.values() if is_anchor(c, w)]
    if not anchors:
        return []
    # How far a question's margins reach depends on the question: a specific one lifts
    # every memory a little above a typical question. A related memory comes along only
    # with a fair share of the best margin.
    best_margin = max((_or(c.signals.vector_margin, 0.0) for c in candidates.values()), default=0.0)
    margin_floor = max(w.related_vector_margin, w.related_margin_share * best_margin)
    related = [c for c in candidates.values() if is_related(c, w, margin_floor)]
    # The routes loaded the records of what they found while the question was being
    # embedded; only the vector route's own finds are loaded here.
    records = load_records([c.id for c in related if c.record is None], with_speakers=bool(speaker))
    for c in related:
        if c.record is None:
            c.record = records[c.id]
        if not about_others and relations.about_someone_else(c.record.statement):
            # "Cousin Ana lives in Porto" is no answer to where the user lives.
            c.signals.about_someone_else = True
    # Answer only if some memory clearly answers (otherwise abstain: an empty result is
    # a valid answer); then let weaker but related memories come along.
    if all(c.signals.about_someone_else for c in anchors):
        return []
    kept = []
    for c in related:
        s, r = c.signals, c.record
        # A lexical rank counts in proportion to how much of the question the memory
        # contains (``lexical_coverage_share`` of it does): ranking first on one shared
        # word of four is weak evidence.
        coverage = _or(s.lexical_coverage, 0.0)
        lexical_share = 1.0 - w.lexical_coverage_share * (1.0 - coverage)
        if s.lexical is not None and coverage == 0.0:
            # Found only by its conversation context (none of the question's words are
            # its own): the reply to the turn that answers, worth less than that turn.
            lexical_share *= w.lexical_context_only
        fused = sum(
            ranking_weight[ranking]
            * (lexical_share if ranking == "lexical" else 1.0)
            / (w.rrf_k + rank)
            for ranking, rank in c.ranks.items()
        )
        relevance = fused / best_possible
        age_days = max(0.0, (as_of - r.valid_from).total_seconds() / 86400)
        freshness = (
            0.5 ** (age_days / w.freshness_half_life_days) if w.freshness_half_life_days else 1.0
        )
        s.fused = round(relevance, 4)
        s.freshness = round(freshness, 4)
        s.confidence = r.confidence
        s.importance = r.importance
        s.final = round(
            w.relevance * relevance
            + w.semantic * max(0.0, _or(s.vector_margin, 0.0))
            + w.confidence * r.confidence
            + w.importance * r.importance
            # Experiences age faster than facts, for questions about the latest ones.
            + (
                w.episodic_freshness
                if recent and r.memory_type == MemoryType.EPISODIC
                else w.freshness
            )
            * freshness
            # A named fact ("home_city = Hangzhou") is the curated answer for its slot; a
            # note that mentions the same words is supporting context.
            + w.structured * bool(r.predicate)
            - w.someone_else * float(s.about_someone_else),
            4,
        )
        kept.append(c)
    if speaker:
        kept = scope_to_speaker(kept, speaker, w, question=question, names=names)
    kept.sort(key=recall_order)
    return kept


# A turn that asks something ("Wow! What got you into running?"). Chinese also asks
# without a question mark: a clause that ends in 吗 ("你去过杭州吗。"), or in 呢 after a
# question word or 你/您 ("你最近在忙什么呢", "你呢"; "我在忙呢" states). Only Chinese
# characters: an English turn is read as before.
_CLAUSE_END = r"(?=[\s~～…」』”’\"')）]*(?:$|[。．.！!，,；;\n]))"
ASKS = re.compile(
    r"[?？]|吗" + _CLAUSE_END + r"|(?:什么|哪|谁|怎|几|多少|[你您])[^。！？!?.]*呢" + _CLAUSE_END
)
# A sentence and the punctuation that ends it.
_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]*")
# A clause of a Chinese sentence: Chinese runs statements together with commas and asks
# in the last clause ("我上周去了青海湖，风景很好，你去过吗"), where English would end
# the statement with a full stop first.
_ZH_CLAUSE = re.compile(r"[^，,；;]+[，,；;]*")
_HAN = re.compile(r"[\u3400-\u9fff]")


def _pieces(sentence: str) -> list[str]:
    """A sentence as ``asks`` weighs it: a sentence holding Chinese characters clause by
    clause, any other whole (English turns read as before)."""
    return _ZH_CLAUSE.findall(sentence) if _HAN.search(sentence) else [sentence]


def asks(statement: str, share: float = 0.0) -> bool:
    """The turn asks something: it holds a question (``ASKS``: a question mark, or a
    Chinese clause ending in 吗/呢) and, with ``share`` over 0, its sentences that ask
    hold at least that share of its words (Chinese characters count one each; in a
    Chinese sentence only the clauses that ask count as asking, the clauses before them
    state: the question mark or 吗 that ends it asks only in its own clause)."""
    if not ASKS.search(statement):
        return False
    if share <= 0:
        return True
    asking = total = 0
    for sentence in _SENTENCE.findall(statement):
        pieces = _pieces(sentence)
        for i, piece in enumerate(pieces):
            words = len(re.findall(r"[\u3400-\u9fff]|[^\W_]+", piece))
            total += words
            # The sentence's last clause carries its question mark; a clause ending in
            # 吗/呢 (``ASKS``) asks wherever it stands.
            if ASKS.search(piece) or (i == len(pieces) - 1 and ASKS.search(sentence)):
                asking += words
    return total > 0 and asking >= share * total


def scope_to_speaker(
    kept: list[Candidate],
    speaker: str,
    w: RecallWeights,
    *,
    question: str = "",
    names: frozenset[str] = frozenset(),
) -> list[Candidate]:
    """A question about one speaker is answered by what that speaker said. Abstain when
    the speaker's best statement ranks far below (under ``named_speaker_share`` of the
    fused relevance of) the best turn of another speaker: the question then most likely
    names the wrong person ("What did Ada realise after her charity race?" when Bea
    ran it). A turn in which the speaker asks something does not count as their
    statement: the words of "What got you into running?" are the asker's, the facts are
    the one's who answers. Otherwise the speaker's own turns rank above the others'
    (``named_speaker``); the others' come along as context.

    Memories derived from no event with a speaker (facts written directly) take no side:
    they neither count against the speaker nor for them."""
    said = [c for c in kept if speaker in c.record.source_speakers]
    by_others = [
        c for c in kept if speaker not in c.record.source_speakers and any(c.record.source_speakers)
    ]
    # With ``addressed_turns``, a turn that speaks to someone ("your race sounds great")
    # is the addressee's story: it neither answers for its speaker nor, told to the
    # speaker asked about, counts against them (``attribution.addressed``). With
    # ``addressed_sentence`` the person is judged in the sentence that matches the
    # question (whether the speaker asks stays judged on the whole turn: judged on that
    # sentence too, adversarial abstention on LoCoMo dev fell 0.295 -> 0.196).
    asked = question if w.addressed_sentence else ""

    def to_other(c: Candidate) -> bool:
        return bool(w.addressed_turns) and addressed(c.record.statement, asked, names)

    own = [c for c in said if not asks(c.record.statement, w.asking_share) and not to_other(c)]
    against = [c for c in by_others if not to_other(c)]
    if against:
        best_other = max(_or(c.signals.fused, 0.0) for c in against)
        best_said = max((_or(c.signals.fused, 0.0) for c in own), default=0.0)
        if best_said < w.named_speaker_share * best_other:
            return []
        if w.named_speaker_terms and not_attributable(own, against, w, question, names):
            return []
        if best_said < w.named_speaker_cover * best_other and told_by_others(own, against):
            return []
        if w.named_speaker_outweighed and outweighed(own, against):
            return []
    for c in said:
        c.signals.spoken_by_speaker = True
        if w.addressed_rank and addressed(c.record.statement, asked, names):
            continue  # spoken to someone else, about them: no rank for the speaker
        c.signals.final = round(_or(c.signals.final, 0.0) + w.named_speaker, 4)
    return kept


# What each route says about how well a memory matches the question: the fused ranks,
# the share of the question's words it holds, its vector similarity and its margin over
# a typical question.
_EVIDENCE = ("fused", "lexical_coverage", "vector", "vector_margin")


def outweighed(own: list[Candidate], against: list[Candidate]) -> bool:
    """What the question asks about is supported, but not by the speaker asked about: a
    statement by another speaker beats the speaker's own best on *every* reading at once
    (``_EVIDENCE``: fused relevance, words held, similarity, margin; each side's best).
    The premise exists in the conversations, told by someone else; the speaker's turns
    match it only as well as any of their turns would. A turn that asks something states
    nothing and does not count for the others ("What's your favourite dance?"). No
    threshold: one reading in the speaker's favour, or a tie, keeps the answer."""
    stating = [c for c in against if not asks(c.record.statement)]
    if not stating:
        return False
    return all(
        max((_or(getattr(c.signals, name), 0.0) for c in own), default=0.0)
        < max(_or(getattr(c.signals, name), 0.0) for c in stating)
        for name in _EVIDENCE
    )


def told_by_others(own: list[Candidate], against: list[Candidate]) -> bool:
    """Another speaker's turn holds more of the question's words (the lexical route's
    coverage) than any of the speaker's own statements."""
    best_other = max(_or(c.signals.lexical_coverage, 0.0) for c in against)
    return max((_or(c.signals.lexical_coverage, 0.0) for c in own), default=0.0) < best_other


def not_attributable(
    own: list[Candidate],
    against: list[Candidate],
    w: RecallWeights,
    question: str,
    names: frozenset[str],
) -> bool:
    """What the question asks about was said by others, not by the speaker asked about:
    the speaker's own statements hold under ``named_speaker_terms`` of the share of the
    question's content words (``attribution.terms_held``, the speakers' names left out)
    that the best statement by another speaker holds. Fused relevance alone lets the
    speaker's unrelated turns pass on the vector route's likeness; the words the event
    is told in do not travel to the wrong person. A question none of whose content words
    anyone said takes no side."""
    best_other = max(terms_held(c.record.statement, question, names) for c in against)
    if not best_other:
        return False
    best_own = max((terms_held(c.record.statement, question, names) for c in own), default=0.0)
    return best_own < w.named_speaker_terms * best_other
