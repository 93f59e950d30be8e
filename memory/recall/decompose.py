"""Step 5a of recall: a question of several parts, recalled part by part
(``decompose``, a share; 0: off).

A question that asks about several things at once ("What do Ada and Bea both like?",
"Where did she move, and when did she start the job?", "王芳和李雷都喜欢什么？") is
matched by the whole question's routes mostly on whichever part dominates its words and
its embedding; the memories that answer the other part rank low. Such a question is split
(``parts``) into at most ``MAX_PARTS`` parts:

- **coordinated entities**: names the entity extractor (``memory.entities``) finds, joined
  by "and", "or", "&", commas, 和, 与, 以及, 还是, 跟, 及 or 或, give one part each, the
  rest of the question kept around each name ("both", "either" and 都 dropped);
- otherwise **clauses**: the question is cut at semicolons, commas and the conjunctions
  "and", "or", "but", "as well as", 并且, 而且, 以及, 还是, 然后; a piece too short to be
  a question on its own (fewer than ``MIN_WORDS`` words, or ``MIN_CJK`` Chinese
  characters), or an English one that does not open with a question word or an
  auxiliary verb, stays with the piece before it ("What did she and her kids make?",
  "According to Ada, what ...?" are one part).

Each part is recalled with the same routes, fusion and gate as the whole question and with
the request's own eligibility (``Eligible``: tenant, subject, clearance, purpose, status,
validity, supersession, deletion), one more embedding per part. Fusion: a memory a part
ranks gets ``decompose`` times the whole question's best score times its score within the
part normalised by the part's best, and keeps the higher of that and its own: the best
answer to each part stands beside the whole question's best. A question of one part is
untouched, and so is every question at weight 0."""

from __future__ import annotations

import re
from collections.abc import Callable

from memory import entities
from memory.recall.joined import order
from memory.recall.signals import Candidate
from memory.recall.weights import RecallWeights

MAX_PARTS = 3
# How far down each part's ranking its memories join the answer.
DEPTH = 10
MIN_WORDS = 3
MIN_CJK = 4

_CONJ = r"(?:\band\b|\bor\b|&|以及|还是|和|与|跟|及|或)"
_LIST_SEP = r"(?:\s*[,，、]\s*)"
_BOTH = re.compile(r"\s*\b(?:both|either)\b|都", re.IGNORECASE)
_INNER = re.compile(r"\s*(?:,|，|、|\band\b|\bor\b|&)\s*", re.IGNORECASE)
_CLAUSE = re.compile(
    r"(\s*(?:[;；,，]\s*(?:(?:and|or|but)\b)?|\b(?:and|or|but|as well as)\b"
    r"|并且|而且|以及|还是|然后)\s*)",
    re.IGNORECASE,
)
# An English piece is a clause of its own only if it opens with a question word or an
# auxiliary verb: "What did she and her kids make" and "According to Ada, what ..." are one.
_OPENS_CLAUSE = re.compile(
    r"(?:what|where|when|who|whom|whose|why|how|which|did|does|do|is|are|was|were|has|"
    r"have|had|can|could|will|would|should)\b",
    re.IGNORECASE,
)
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[^\W\d_]{2,}|\d+", re.UNICODE)


def _names(question: str) -> list[str]:
    """The entities ``question`` names, a span the extractor read as one ("Ada and Bea")
    split into its names, longest first."""
    out: set[str] = set()
    for mention in entities.extract(question, phrases=False):
        if mention.alias_of:
            continue
        for piece in _INNER.split(mention.surface):
            if len(piece.strip()) >= 2 and piece in question:
                out.add(piece.strip())
    return sorted(out, key=lambda n: (-len(n), n))


def _coordinated(question: str) -> list[str]:
    names = _names(question)
    if len(names) < 2:
        return []
    name = "(?:" + "|".join(re.escape(n) for n in names) + ")"
    chain = re.search(rf"{name}(?:{_LIST_SEP}{name})*(?:{_LIST_SEP}?\s*{_CONJ}\s*{name})", question)
    if chain is None:
        return []
    items = list(dict.fromkeys(re.findall(name, chain.group(0))))
    if len(items) < 2:
        return []
    head, tail = question[: chain.start()], question[chain.end() :]
    return [" ".join(_BOTH.sub("", head + item + tail).split()) for item in items[:MAX_PARTS]]


def _stands_alone(piece: str) -> bool:
    if _CJK.search(piece):
        return len(_CJK.findall(piece)) >= MIN_CJK
    return len(_WORD.findall(piece)) >= MIN_WORDS and _OPENS_CLAUSE.match(piece) is not None


def _clauses(question: str) -> list[str]:
    tokens = _CLAUSE.split(question)
    out: list[str] = []
    joined = ""  # pieces that do not stand alone, waiting for the next piece
    for i in range(0, len(tokens), 2):
        piece, sep = tokens[i], tokens[i + 1] if i + 1 < len(tokens) else ""
        if _stands_alone(piece.strip()):
            out.append(joined + piece)
        elif out:
            out[-1] += tokens[i - 1] + piece
        else:
            joined += piece + sep
            continue
        joined = ""
    if joined:
        out.append(joined)
    out = [" ".join(p.strip(" ,，;；").split()) for p in out]
    if len(out) > MAX_PARTS:
        out = out[: MAX_PARTS - 1] + [" ".join(out[MAX_PARTS - 1 :])]
    return out


def parts(question: str) -> list[str]:
    """The parts of ``question`` (see the module), or ``[question]`` if it has one."""
    split = _coordinated(question) or _clauses(question)
    split = list(dict.fromkeys(p for p in split if p))
    return split if len(split) > 1 else [question]


def by_parts(
    ranked: list[Candidate],
    w: RecallWeights,
    *,
    question: str,
    rank_part: Callable[[str], list[Candidate]],
) -> list[Candidate]:
    """``ranked`` (the whole question's) fused with what ``rank_part`` ranks for each part
    of ``question``, as the module says. Unchanged at weight 0 or for one part."""
    if not w.decompose:
        return ranked
    split = parts(question)
    if len(split) < 2:
        return ranked
    by_id = {c.id: c for c in ranked}
    out = list(ranked)
    top = max((c.signals.final or 0.0 for c in ranked), default=0.0)
    for part in split:
        part_ranked = rank_part(part)[:DEPTH]
        part_top = max((c.signals.final or 0.0 for c in part_ranked), default=0.0)
        if part_top <= 0:
            continue
        scale = top or part_top
        for c in part_ranked:
            score = round(w.decompose * scale * (c.signals.final or 0.0) / part_top, 4)
            own = by_id.get(c.id)
            if own is None:
                c.signals.final = score
                by_id[c.id] = c
                out.append(c)
            elif own.signals.final is None or score > own.signals.final:
                own.signals.final = score
    return order(out)
