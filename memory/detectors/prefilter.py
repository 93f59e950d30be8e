"""A literal prefilter for the detectors' regular expressions, derived from each pattern.

Python's ``re`` tries a pattern at every position of the text, and a case-insensitive one
cannot jump to a literal prefix, so a rule list of a hundred patterns costs a few
microseconds each on every text even when none can match. Most rules hold words that any
match must contain ("diagnosed", "我的"): this module reads each compiled pattern's parse
tree and derives *clauses*, each a set of literals of which every match contains one. A
text that misses every literal of one clause cannot match, and its search is skipped.

The derivation is a proof by construction over the parse tree, not a list per rule, so a
rule added later is covered without anyone declaring anything: a run of literals is a
clause; a sequence satisfies every clause of its parts; an alternation satisfies the union
of one clause from each branch (nothing if a branch has none); a repeat what its body
does when it runs at least once; a positive lookaround what it looks for. Everything else
(classes, back-references, negative lookarounds, optional parts) yields no clause. A
pattern without a clause is always searched; the three most selective are kept.

Case: a case-insensitive literal is kept only when it is ASCII or without case (CJK, kana,
Hangul: checked against ``re`` by a test) and is compared against the text lowercased. Python's case-insensitive matching also lets a few non-ASCII characters
match ASCII letters (K, the Kelvin sign, for k; ſ for s; İ for i); a text holding one of
them (``ASCII_CASE_TWINS``, checked against ``re`` itself by a test) is searched in full.

``ENGRAM_FAST_DETECTION_TEXT`` (default on) selects it; ``search_any_reference`` is the
plain loop it replaces, and tests/memory/test_detector_prefilter.py shows both agree.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from core.process_state import Cache, Slot, memoized
from memory.detectors.prefilter_ascii import ascii_variant  # noqa: F401 - for the rules
from memory.detectors.prefilter_branches import branches, live_pattern
from memory.detectors.prefilter_whole import holds_whole, whole_clauses
from memory.detectors.switches import detection_switch, detection_switches

# ``re``'s own parser is not a public API (the stack pins Python 3.11, where it is
# ``re._parser``). Should it be missing or changed, nothing is derived: every rule is then
# searched in full, as the reference does (tests/memory/test_detector_prefilter.py fails
# loudly on a Python where no rule gets a filter).
try:
    from re import _constants as _sc
    from re import _parser as _sp
except ImportError:  # pragma: no cover - another Python
    _sc = _sp = None  # type: ignore[assignment]

# Non-ASCII characters that ``re.IGNORECASE`` matches to an ASCII character: K (U+212A,
# Kelvin) to k, ſ (U+017F, long s) to s, İ (U+0130) and ı (U+0131) to i. A test derives the
# set from ``re`` over every code point and compares it with this one.
ASCII_CASE_TWINS = frozenset("\u0130\u0131\u017f\u212a")

# Characters whose ``str.lower`` is not one character for one regardless of context:
# İ (U+0130) lowercases to two, Σ (U+03A3) to σ or, ending a word, ς. A test checks that
# every other code point lowercases to one character.
UNEVEN_LOWER = frozenset("\u0130\u03a3")

_Clause = frozenset[tuple[str, bool]]  # (literal, case-insensitive): a match holds one
_CLAUSES_KEPT = 3  # the most selective clauses kept per pattern: each costs a set look-up
_REPEATS = (
    {_sc.MAX_REPEAT, _sc.MIN_REPEAT, getattr(_sc, "POSSESSIVE_REPEAT", _sc.MAX_REPEAT)}
    if _sc is not None
    else set()
)


def _caseless_or_ascii(ch: str) -> bool:
    """A character a case-insensitive literal may hold: ASCII (compared lowercased), or a
    letter without case (Lo: CJK, kana, Hangul), which matches only itself."""
    return ch.isascii() or unicodedata.category(ch) == "Lo"


def _selectivity(clause: _Clause) -> tuple[int, int]:
    return (min(min(len(s), 3) for s, _ in clause), -len(clause))


def _required(items, icase: bool) -> list[_Clause]:
    """Clauses every match of the sequence ``items`` satisfies, each a set of literals of
    which the match contains one (see the module's docstring); [] when none is derived."""
    clauses: list[_Clause] = []
    run: list[str] = []

    def close_run() -> None:
        if run:
            clauses.append(frozenset({("".join(run), icase)}))
            run.clear()

    for op, av in items:
        if op is _sc.LITERAL:
            ch = chr(av)
            if icase and not _caseless_or_ascii(ch):
                close_run()
            else:
                run.append(ch.lower() if icase else ch)
            continue
        close_run()
        if op is _sc.SUBPATTERN:
            _group, add_flags, del_flags, sub = av
            inner = (icase or bool(add_flags & re.IGNORECASE)) and not (del_flags & re.IGNORECASE)
            clauses += _required(sub, inner)
        elif op is _sc.BRANCH:
            # A match takes one branch: it holds one literal of that branch's best clause.
            branches = [_required(alt, icase) for alt in av[1]]
            if branches and all(branches):
                clauses.append(frozenset().union(*(b[0] for b in branches)))
        elif op in _REPEATS:
            low, _high, sub = av
            if low >= 1:
                clauses += _required(sub, icase)
        elif op is _sc.ASSERT:
            _direction, sub = av
            clauses += _required(sub, icase)
        elif op is getattr(_sc, "ATOMIC_GROUP", None):
            clauses += _required(av, icase)
        # Anything else (classes, ANY, anchors, back-references, negative lookarounds)
        # requires nothing and ends the run of literals: a zero-width anchor between two
        # literals would not, but ending the run there only weakens the filter.
    close_run()
    # Equal clauses once, in the order the pattern gives them; the sort is stable, so of
    # clauses equally selective the first in the pattern is kept, whatever the hash seed
    # (a set's order would make the kept clauses differ from one process to the next).
    return sorted(dict.fromkeys(clauses), key=_selectivity, reverse=True)[:_CLAUSES_KEPT]


@memoized("memory.detectors.prefilter.required_literals", maxsize=4096)
def required_literals(pattern: re.Pattern[str]) -> tuple[_Clause, ...] | None:
    """Clauses of (literal, case-insensitive) pairs: every match of ``pattern`` contains
    a literal of each clause. None when nothing is derived (the pattern is then always
    searched)."""
    if _sp is None or not isinstance(pattern.pattern, str) or pattern.flags & re.LOCALE:
        return None
    try:
        parsed = _sp.parse(pattern.pattern, pattern.flags)
        return tuple(_required(parsed, bool(parsed.state.flags & re.IGNORECASE))) or None
    except Exception:  # noqa: BLE001 - an unreadable tree only means no prefilter
        return None


# Every literal is looked for by one piece of it, ``_GRAM`` characters long (all of it when
# shorter): a text holding the literal holds that piece. The text's pieces of 1 to
# ``_GRAM`` characters are one set, so each pattern costs one set operation, not a search.
# The piece chosen is the one least likely in ordinary text, by general English statistics
# (the language's most common trigrams, then its letter frequencies): a cost, never a
# correctness matter, since any piece of the literal is implied by it.
_GRAM = 3
_COMMON_TRIGRAMS = frozenset(
    "the and ing ion tio ent ati for her ter hat tha ere ate his con res ver all ons nce "
    "men ith ted ers pro thi wit are ess not ive was ect rea com eve per int est sta cti "
    "ica ist ear ain one our iti rat ave out ght ill sho ome ove hin ith you but wer".split()
)
# Letters per thousand in English text (the common published table), most frequent first.
_LETTER_FREQUENCY = {
    "e": 127, "t": 91, "a": 82, "o": 75, "i": 70, "n": 67, "s": 63, "h": 61, "r": 60,
    "d": 43, "l": 40, "c": 28, "u": 28, "m": 24, "w": 24, "f": 22, "g": 20, "y": 20,
    "p": 19, "b": 15, "v": 10, "k": 8, "j": 2, "x": 2, "q": 1, "z": 1,
}  # fmt: skip


def _likelihood(piece: str) -> tuple[bool, int]:
    product = 1
    for c in piece:
        product *= 180 if c.isspace() else _LETTER_FREQUENCY.get(c, 5)
    return (piece.strip() in _COMMON_TRIGRAMS, product)


def _key(literal: str) -> str:
    if len(literal) <= _GRAM:
        return literal
    pieces = [literal[i : i + _GRAM] for i in range(len(literal) - _GRAM + 1)]
    return min(pieces, key=_likelihood)


_Plan = tuple[tuple[re.Pattern[str] | object, tuple[frozenset[str], ...] | None], ...]
# Keyed by the list's id, holding the list itself (so the id is not reused while kept).
_plans: Cache[int, tuple[list, int, _Plan]] = Cache(
    "memory.detectors.prefilter.plans", max_items=256, pure=True
)


def _plan(patterns: list) -> _Plan:
    """Each pattern with the keys of its required literals, lowercased (see
    ``_text_pieces``); None: always search. Kept per rule list (they are built once; a
    list of another length is planned again)."""
    cached = _plans.get(id(patterns))
    if cached is not None and cached[0] is patterns and cached[1] == len(patterns):
        return cached[2]
    plan = []
    for p in patterns:
        # A wrapper that matches only where its ``prefilter_pattern`` matches in the same
        # text (a rule read only in the speaker's sentence, or beside a cue) is skipped
        # where that pattern's literals are missing.
        inner = p if isinstance(p, re.Pattern) else getattr(p, "prefilter_pattern", None)
        clauses = required_literals(inner) if isinstance(inner, re.Pattern) else None
        keys = None
        if clauses is not None:
            keys = tuple(frozenset(_key(s.lower()) for s, _ in clause) for clause in clauses)
        plan.append((p, keys))
    _plans.put(id(patterns), (patterns, len(patterns), tuple(plan)))
    return tuple(plan)


# The detectors ask about one text for several rule lists in a row (a category each).
@memoized("memory.detectors.prefilter.text_pieces", maxsize=64)
def _text_pieces(text: str) -> frozenset[str] | None:
    """Every piece of 1 to ``_GRAM`` characters of the text lowercased, or None when the
    text holds a character that matches an ASCII letter only case-insensitively
    (``ASCII_CASE_TWINS``) or lowercases unevenly (``UNEVEN_LOWER``): then every pattern
    is searched.

    One set serves both kinds of literal: a case-insensitive one (ASCII or caseless)
    matches only characters that lowercase to its own; a case-sensitive one, present in
    the text, is present lowercased in the text lowercased, since ``str.lower`` maps each
    other character to one character, whatever surrounds it."""
    if not text.isascii() and not (
        ASCII_CASE_TWINS.isdisjoint(text) and UNEVEN_LOWER.isdisjoint(text)
    ):
        return None
    low = text.lower()
    n = len(low)
    return frozenset({low[i : i + k] for k in range(1, _GRAM + 1) for i in range(n - k + 1)})


def search_any_reference(patterns: Iterable, text: str) -> bool:
    """Whether any pattern (or object with ``search``) finds something in ``text``."""
    return any(p.search(text) for p in patterns)


def search_any_fast(patterns: list, text: str) -> bool:
    """``search_any_reference``, skipping each compiled pattern none of whose required
    literals is in ``text``."""
    pieces = _text_pieces(text)
    for p, clauses in _plan(patterns):
        if clauses is not None and pieces is not None:
            for keys in clauses:
                if keys.isdisjoint(pieces):
                    break
            else:
                if p.search(text):
                    return True
            continue
        if p.search(text):
            return True
    return False


# --- The same prefilter by an index (``ENGRAM_DETECTOR_PREFILTER_INDEX``) ---------------
#
# ``search_any_fast`` walks every pattern of a list in Python and asks its clauses one by
# one: ~150 set operations per text for the special categories alone, though a text passes
# about nine. The index keeps, per list, each pattern under the keys of one of its clauses
# (the first, the most selective): the patterns a text may match are those filed under a
# key of the text's pieces (one set intersection in C), plus those without clauses. Each
# is then checked against its other clauses and searched, in the list's order: the same
# patterns searched, so the same answer.

_Index = tuple[frozenset[str], dict[str, tuple[int, ...]], tuple[int, ...], _Plan]
_indexes: Cache[int, tuple[list, int, _Index]] = Cache(
    "memory.detectors.prefilter.indexes", max_items=256, pure=True
)


def _index(patterns: list) -> _Index:
    cached = _indexes.get(id(patterns))
    if cached is not None and cached[0] is patterns and cached[1] == len(patterns):
        return cached[2]
    plan = _plan(patterns)
    by_key: dict[str, list[int]] = {}
    always = []
    for at, (_p, clauses) in enumerate(plan):
        if clauses is None:
            always.append(at)
            continue
        for key in clauses[0]:
            by_key.setdefault(key, []).append(at)
    index = (
        frozenset(by_key),
        {key: tuple(ats) for key, ats in by_key.items()},
        tuple(always),
        plan,
    )
    _indexes.put(id(patterns), (patterns, len(patterns), index))
    return index


@memoized("memory.detectors.prefilter.text_pieces_joined", maxsize=64)
def _text_pieces_joined(text: str) -> frozenset[str] | None:
    """``_text_pieces(text)``, its pieces of two and three characters joined in C."""
    if not text.isascii() and not (
        ASCII_CASE_TWINS.isdisjoint(text) and UNEVEN_LOWER.isdisjoint(text)
    ):
        return None
    low = text.lower()
    return frozenset(
        (
            *low,
            *map(str.__add__, low, low[1:]),
            *map("".join, zip(low, low[1:], low[2:], strict=False)),
        )
    )


def search_any_indexed(patterns: list, text: str) -> bool:
    """``search_any_fast``, finding the patterns to search through the list's index."""
    pieces = _text_pieces_joined(text)
    if pieces is None:
        return search_any_reference(patterns, text)
    keys, by_key, always, plan = _index(patterns)
    ats = set(always)
    for key in keys.intersection(pieces):
        ats.update(by_key[key])
    for at in sorted(ats):
        p, clauses = plan[at]
        if clauses is not None and not all(not other.isdisjoint(pieces) for other in clauses[1:]):
            continue
        if p.search(text):
            return True
    return False


# --- One pass over a text for every list (``ENGRAM_DETECTOR_PREFILTER_ONE_PASS``) ------
#
# The literal prefilter's questions about one text answered from one pass over it
# (``ENGRAM_DETECTOR_PREFILTER_ONE_PASS``, default on; off: ``search_any_indexed``).
#
# A candidate's detectors ask ``search_any`` about thirty-five rule lists, about two texts
# (the statement's two detection forms). ``search_any_indexed`` answers each question by
# intersecting the list's keys with the text's pieces (every substring of one to three
# characters, about three per character of text): a few hundred hash look-ups per question,
# most of them for pieces no rule list has a key for, and the same look-ups again for the
# next list.
#
# Here every list's keys (the keys of all its patterns' clauses, not only the first) join
# one set, the *universe*, when the list is first asked about. A text's pieces are
# intersected with the universe once: what remains (``present``, a few dozen keys) is all
# any list's question needs, because every key a list's index or clauses hold is in the
# universe, so for such a key ``key in pieces`` is ``key in present``. Each question then
# intersects the list's keys with ``present`` and checks the other clauses against it: the
# same patterns as ``search_any_indexed`` searches, in the same order, so the same answer.
#
# The universe grows as lists are first asked about (a text's ``present`` is recomputed
# when the universe it was computed against is no longer the current one), at most
# ``_MAX_LISTS`` lists (a list beyond them is answered by ``search_any_indexed``).
# tests/memory/test_prefilter_pass.py checks it against the reference on every registered
# rule list.

_MAX_LISTS = 256
_MAX_TEXTS = 64  # texts whose ``present`` is kept (a candidate asks about two)
_ABSENT = object()


class _Universe:
    """Every indexed list's keys (``keys``), the lists' indexes by the list's id (each
    holding its list, so the id is not reused while kept) and the latest texts' present
    keys. Replaced, never changed, when a list joins; ``presents`` is only a cache."""

    __slots__ = ("indexes", "keys", "presents")

    def __init__(self, keys: frozenset[str], indexes: dict) -> None:
        self.keys = keys
        self.indexes = indexes
        self.presents: dict[str, frozenset[str] | None] = {}


_universe: Slot[_Universe] = Slot(
    "memory.detectors.prefilter.universe",
    lambda: _Universe(frozenset(), {}),
    pure=True,
)


def _joined(patterns: list) -> tuple[_Universe, tuple] | None:
    """The current universe holding ``patterns``' index (added to it if missing), with the
    list's entry: (index, each pattern's clauses after the first, each pattern's clauses
    by their whole literals, ``prefilter_whole``). None: the universe is full."""
    universe = _universe.current()
    held = universe.indexes.get(id(patterns))
    if held is not None and held[0] is patterns and held[1] == len(patterns):
        return universe, held[2]
    if len(universe.indexes) >= _MAX_LISTS:
        return None
    index = _index(patterns)
    plan = index[3]
    rest = tuple(None if clauses is None else clauses[1:] for _p, clauses in plan)
    keys = frozenset(k for _p, clauses in plan if clauses for clause in clauses for k in clause)
    whole = tuple(whole_clauses(_clauses_of(p), _GRAM) for p, _clauses in plan)
    split = tuple(_split_of(p) for p, _clauses in plan)
    entry = (index, rest, whole, split)
    grown = _Universe(
        universe.keys | keys,
        {**universe.indexes, id(patterns): (patterns, len(patterns), entry)},
    )
    # Two threads adding lists at once may each replace the other's universe: a list
    # left out is added again at its next question; a text's ``present`` is only read
    # against the universe it was computed in.
    _universe.set(grown)
    return grown, entry


def _split_of(p) -> tuple | None:
    """(the plain pattern read, its top-level branches) for a plain pattern or a wrapper
    reading its ``live_rule`` only for yes or no (``prefilter_branches``); None: not split."""
    rule = p if isinstance(p, re.Pattern) else getattr(p, "live_rule", None)
    if not isinstance(rule, re.Pattern):
        return None
    parts = branches(rule, required_literals)
    return None if parts is None else (rule, parts)


def _clauses_of(p) -> tuple | None:
    """The required literals' clauses of a pattern or wrapper, as ``_plan`` reads them."""
    inner = p if isinstance(p, re.Pattern) else getattr(p, "prefilter_pattern", None)
    return required_literals(inner) if isinstance(inner, re.Pattern) else None


def _present(universe: _Universe, text: str) -> frozenset[str] | None:
    """The universe's keys among the text's pieces (None: the text is searched in full)."""
    present = universe.presents.get(text, _ABSENT)
    if present is _ABSENT:
        pieces = _text_pieces_joined(text)
        present = None if pieces is None else universe.keys.intersection(pieces)
        if len(universe.presents) >= _MAX_TEXTS:
            universe.presents.clear()
        universe.presents[text] = present
    return present  # type: ignore[return-value]


def search_any_one_pass(patterns: list, text: str, switches: dict | None = None) -> bool:
    """``search_any_indexed``, the text's pieces narrowed to the universe's keys once
    (``switches``: ``detection_switches()`` as the caller read it)."""
    joined = _joined(patterns)
    if joined is None:
        return search_any_indexed(patterns, text)
    universe, ((keys, by_key, always, plan), rest, whole, split) = joined
    present = _present(universe, text)
    if present is None:
        return search_any_reference(patterns, text)
    hit = keys.intersection(present)
    order: list[int] | tuple[int, ...]
    if not hit:
        if not always:
            return False
        order = always
    elif len(hit) == 1 and not always:
        (key,) = hit
        order = by_key[key]  # ascending, each pattern once (``_index``)
    else:
        ats = set(always)
        for key in hit:
            ats.update(by_key[key])
        order = sorted(ats)
    # The text lowercased and the two gates' switches (``whole_on``, ``branch``), read
    # once the first pattern is to be searched.
    low = None
    whole_on = branch = False
    for at in order:
        others = rest[at]
        if others:  # a loop, not ``any`` over a generator: this runs ~50 times a candidate
            missing = False
            for other in others:
                if other.isdisjoint(present):
                    missing = True  # a required clause has no piece in the text
                    break
            if missing:
                continue
        if low is None:
            low = text.lower()
            switches = switches if switches is not None else detection_switches()
            whole_on = bool(switches.get("WHOLE_LITERAL_GATE"))
            branch = bool(switches.get("BRANCH_GATE"))
        if whole_on and whole[at] is not None and not holds_whole(whole[at], low):
            continue
        if _search(plan[at][0], text, low, split[at] if branch else None):
            return True
    return False


def _search(p, text: str, low: str, split: tuple | None) -> bool:
    """Whether ``p`` finds something in ``text``; with ``split`` (the branch gate on and
    ``_split_of(p)``), by its rule's live branches only (``prefilter_branches``)."""
    if split is None:
        return bool(p.search(text))
    rule, parts = split
    live = live_pattern(rule, parts, low)
    if live is None:
        return False
    if p is rule:
        return bool(live.search(text))
    return bool(p.search_with(live, text))


def search_any(patterns: Iterable, text: str) -> bool:
    """Whether any of ``patterns`` finds something in ``text``; with
    ``ENGRAM_FAST_DETECTION_TEXT`` through the literal prefilter (with
    ``ENGRAM_DETECTOR_PREFILTER_INDEX``, by its index; with
    ``ENGRAM_DETECTOR_PREFILTER_ONE_PASS`` too, the text's pieces narrowed once for every
    list)."""
    switches = detection_switches()
    if switches.get("FAST_DETECTION_TEXT"):
        if switches.get("PREFILTER_INDEX"):
            if switches.get("PREFILTER_ONE_PASS"):
                return search_any_one_pass(patterns, text, switches)  # type: ignore[arg-type]
            return search_any_indexed(patterns, text)  # type: ignore[arg-type]
        return search_any_fast(patterns, text)  # type: ignore[arg-type]
    return search_any_reference(patterns, text)


# --- One pattern's literals as a gate (``ENGRAM_DETECTOR_CUE_LITERAL_GATE``) -----------
#
# A rule that walks every match of one pattern (``finditer``: a credential word and the
# values after it) cannot be skipped by ``search_any``, which answers only whether there
# is one. ``may_match`` answers the step before: whether the text holds one literal of each
# of the pattern's required clauses (the same derivation and the same narrowed pieces as
# ``search_any_one_pass``). When it says no, the pattern has no match in the text, so its
# ``finditer`` yields nothing and its ``search`` finds nothing; when it says yes, the caller
# runs the pattern as before. Nothing derived, a text searched in full, or the switch off:
# always yes.


@memoized("memory.detectors.prefilter.single_lists", maxsize=256)
def _single(pattern: re.Pattern[str]) -> list:
    return [pattern]  # one list per pattern, kept, so its universe entry is found again


def may_match(pattern: re.Pattern[str], text: str) -> bool:
    """False only when no match of ``pattern`` in ``text`` is possible: a required clause
    of its literals has none in the text."""
    if not (
        detection_switch("CUE_LITERAL_GATE")
        and detection_switch("FAST_DETECTION_TEXT")
        and detection_switch("PREFILTER_INDEX")
        and detection_switch("PREFILTER_ONE_PASS")
    ):
        return True
    joined = _joined(_single(pattern))
    if joined is None:
        return True
    universe, ((_keys, _by_key, _always, plan), _rest, whole, _split) = joined
    clauses = plan[0][1]
    if clauses is None:
        return True
    present = _present(universe, text)
    if present is None:
        return True
    if not all(not clause.isdisjoint(present) for clause in clauses):
        return False
    if whole[0] is not None and detection_switch("WHOLE_LITERAL_GATE"):
        return holds_whole(whole[0], text.lower())
    return True


def matchable(patterns: list, text: str) -> frozenset[int] | None:
    """The indexes of the ``patterns`` that may match ``text`` (``may_match`` for each
    pattern of a list at once, answered by its index as ``search_any_one_pass`` chooses
    the patterns to search, without searching): a pattern left out has a required clause
    of which the text holds no literal, so it finds nothing there. None (every pattern
    may): the text is searched in full, the one pass is off, or the universe is full."""
    if not (
        detection_switch("FAST_DETECTION_TEXT")
        and detection_switch("PREFILTER_INDEX")
        and detection_switch("PREFILTER_ONE_PASS")
    ):
        return None
    joined = _joined(patterns)
    if joined is None:
        return None
    universe, ((keys, by_key, always, _plan), rest, whole, _split) = joined
    present = _present(universe, text)
    if present is None:
        return None
    found = set(always)
    low = None
    for key in keys.intersection(present):
        for at in by_key[key]:
            others = rest[at]
            if at in found or others and not all(not o.isdisjoint(present) for o in others):
                continue
            if whole[at] is not None:
                if low is None:
                    low = text.lower() if detection_switch("WHOLE_LITERAL_GATE") else ""
                if low and not holds_whole(whole[at], low):
                    continue
            found.add(at)
    return frozenset(found)
