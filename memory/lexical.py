"""Word segmentation for the lexical index, the same for documents and queries.

Chinese is cut into words by rjieba (search mode: "错误码" also yields "错误"), English and
other space-separated text passes through and is stemmed by PostgreSQL's ``english``
text-search configuration. Identifier-like tokens (order ids, error codes) are also
matched by trigram similarity.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import rjieba

from core.process_state import memoized

_WORD = re.compile(r"\w", re.UNICODE)
CJK_CLASS = "[\u3400-\u9fff\uf900-\ufaff]"
_CJK = re.compile(CJK_CLASS)
# "ERR-4012", "ORD-2025-0042", "INC1234", "v2.3.1", "order_no": letters and digits mixed,
# or joined by - _ . / — what people paste and word stemming breaks apart.
_IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-./:#]{2,}[A-Za-z0-9]")

# Function words that only add noise to an OR query. English stop words are removed by
# PostgreSQL's english configuration; these are the Chinese ones rjieba emits on their own.
_ZH_STOP = frozenset(
    "的 了 是 在 我 你 他 她 它 们 我们 你们 吗 呢 吧 啊 和 与 及 或 也 都 就 还 又 把 被 给 "
    "对 从 到 为 以 这 那 哪 什么 怎么 怎样 如何 多少 几 有 没有 不 要 会 能 可以 一个 之 其 "
    "请 么 呀 哦 嗯 个 现在 目前 当前 哪里 哪儿 哪个 哪些 哪家 为什么 是否 一般 平时".split()
)
# Words nearly every memory contains ("User prefers …", "用户喜欢 …"): they say nothing
# about which memory a question is after.
_DOMAIN_STOP = frozenset("user users user's 用户 person".split())
# Time words: "back then", "these days", "那时候" — the time point is as_of/known_at's job,
# and as words they would only match memories that happen to mention "then" or "now".
_TIME_STOP = frozenset(
    "back then now nowadays currently today days these those still last latest recent "
    "recently lately previous previously yesterday time 那时候 那时 当时 以前 之前 现在 如今 "
    "最近 这些 日子 时候 上次 上一次 上回 最新 刚才 刚刚 昨天 前几天 近期 近来".split()
)


# Questions about the latest experiences ("what happened last time?", "上次…怎么样？"): only
# these get the recency route; for any other question, being recent is not relevance.
_RECENT_EN = re.compile(
    r"\b(last|latest|recent|recently|lately|previous|previously|yesterday|most recent)\b",
    re.IGNORECASE,
)
_RECENT_ZH = re.compile(r"最近|上次|上一次|上回|最新|刚才|刚刚|昨天|前几天|近期|近来")


_YEAR = re.compile(r"(19|20)\d\d")


def asks_for_recent(query: str) -> bool:
    return bool(_RECENT_EN.search(query) or _RECENT_ZH.search(query))


def value_text(value: Any) -> str:
    """The searchable words of a structured value."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, dict | list):
        return " ".join(_flatten(value))
    return str(value)


def _flatten(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in (str(k), *_flatten(v))]
    if isinstance(value, list):
        return [w for v in value for w in _flatten(v)]
    if value is None:
        return []
    return [value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)]


def segment(text: str) -> list[str]:
    """Words of ``text`` (Chinese segmented, punctuation and spaces dropped)."""
    return [t.strip() for t in rjieba.cut_for_search(text) if _WORD.search(t) and t.strip()]


def document_text(*, statement: str, predicate: str, value: Any) -> str:
    """The space-joined word string the tsvector is built from."""
    predicate_words = predicate.replace("_", " ").replace(".", " ").replace(":", " ")
    return " ".join(segment(" ".join([statement, predicate_words, value_text(value)])))


# Where Chinese script meets Latin letters or digits ("新加坡的KL1412航班").
_SCRIPT_BOUNDARY = re.compile(rf"(?<={CJK_CLASS})(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?={CJK_CLASS})")


def trigram_text(*, statement: str, predicate: str, value: Any) -> str:
    """Lowercase text for trigram matching, with a space where Chinese script meets Latin
    letters or digits: pg_trgm counts Chinese characters as word characters, so an id
    inside Chinese text ("的kl1412航班") would otherwise be part of one long word and
    share almost no trigrams with the id on its own. Migration memory/0009 applies the
    same rule in SQL to stored docs."""
    text = " ".join([statement, predicate, value_text(value)]).lower()
    return _SCRIPT_BOUNDARY.sub(" ", text)


def name_words(names: Iterable[str]) -> frozenset[str]:
    """The lowercased words of people's names ("Ada", "Wang Fang" -> ada, wang, fang)."""
    return frozenset(
        w.lower() for n in names if isinstance(n, str) for w in segment(n) if len(w) >= 2
    )


def names_in(query: str, people: Iterable[str]) -> list[str]:
    """Which of ``people`` (names) the query names, by any word of the name (whole words,
    case-insensitive)."""
    words = {t.lower() for t in segment(query)}
    return [
        p for p in people if (has_cjk(p) and len(p) >= 2 and p in query) or name_words([p]) & words
    ]


def query_terms(query: str, scope_names: frozenset[str] = frozenset()) -> list[str]:
    """Distinct content words of a query, in order (Chinese stop words removed).

    ``scope_names``: words of the names of the people in the subject's conversations.
    They say whose memory is asked about, not what: every turn of a conversation starts
    with its speaker's name, so as content words they would match half of all memories
    at full strength."""
    seen: dict[str, None] = {}
    for name in scope_names:
        # A Chinese name runs into the next word ("王芳画了…" segments as "王芳画").
        if has_cjk(name):
            query = query.replace(name, " ")
    for token in segment(query):
        lowered = token.lower()
        if lowered in _ZH_STOP or lowered in _DOMAIN_STOP or lowered in _TIME_STOP:
            continue
        if lowered in scope_names:
            continue
        # A year ("in 2023", "2020年") is a time point — as_of's job — not a content word:
        # as a word it matches every memory dated that year.
        if _YEAR.fullmatch(lowered):
            continue
        # A single Chinese character alone matches too much ("住", "去"); keep it only
        # when the query has nothing else.
        if len(lowered) == 1 and _CJK.match(lowered):
            continue
        seen.setdefault(lowered, None)
    if not seen:
        for token in segment(query):
            lowered = token.lower()
            if lowered not in _ZH_STOP | _DOMAIN_STOP | _TIME_STOP and not _YEAR.fullmatch(lowered):
                seen.setdefault(lowered, None)
    return list(seen)


# A year on its own ("in 2020", "back in 2019", "2021年") and the preposition that
# introduces it; not one inside an identifier or a date ("2023-05-14", "ORD-2023-1").
_LONE_YEAR = re.compile(
    r"(?:\b(?:(?:way\s+)?back\s+)?(?:in|during|around|since|from|by|of)\s+)?"
    r"(?<![A-Za-z0-9_/.-])(?<!\d\s)(?<!\d,\s)(?:19|20)\d\d(?![A-Za-z0-9_/.-])(?!年?\d{1,2}月)年?",
    re.IGNORECASE,
)


# "May 14, 2023", "14 May 2023": a year that completes a date stays.
_MONTH_BEFORE = re.compile(
    r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
    r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?,?\s*$"
)


def for_embedding(query: str) -> str:
    """The question as the embedder reads it: without a lone year. The time point is
    ``as_of``'s job, and to a small embedding model "2021年那阵子用户是哪家公司的员工？" is
    first of all about 2021 — it matches everything dated that year, not the employer."""
    out = _LONE_YEAR.sub(
        lambda m: m.group(0) if _MONTH_BEFORE.search(query, 0, m.start()) else " ", query
    )
    out = re.sub(r"\s+([,.;:?!，。；：？！])", r"\1", out)
    out = re.sub(r"^[\s,，;；:：]+", "", out)
    out = re.sub(rf"(?<={CJK_CLASS})\s+(?={CJK_CLASS})", "", out)
    out = re.sub(r"\s{2,}", " ", out).strip()
    return out or query


@dataclass(frozen=True)
class BM25Doc:
    """One memory's counts of the query's lexemes: in its own text and in its
    conversation context, and both lengths (in lexemes)."""

    own: dict[str, int]
    context: dict[str, int]
    own_length: int
    context_length: int


# Okapi BM25's usual constants (Robertson & Zaragoza 2009): a word's weight saturates
# after a few repetitions (k1), long texts are normalised half-way (b).
BM25_K1 = 1.2
BM25_B = 0.75


def bm25(
    docs: dict[Any, BM25Doc],
    lexemes: list[str],
    size: int,
    mean_length: float,
    *,
    context_weight: float = 1.0,
    frequency: dict[str, int] | None = None,
) -> dict[Any, float]:
    """Okapi BM25 of each doc for ``lexemes``: ``docs`` are every doc that holds at least
    one of them (so a lexeme's document frequency is counted over them, unless
    ``frequency`` gives it), ``size`` and ``mean_length`` describe the whole scope. A
    context occurrence counts ``context_weight`` of an own one."""
    size = max(size, len(docs), 1)
    mean_length = mean_length or 1.0
    if frequency is None:
        frequency = {
            w: sum(1 for d in docs.values() if w in d.own or w in d.context) for w in lexemes
        }
    weight = {w: math.log(1 + (size - df + 0.5) / (df + 0.5)) for w, df in frequency.items() if df}
    scores = {}
    for key, d in docs.items():
        length = d.own_length + context_weight * d.context_length
        norm = BM25_K1 * (1 - BM25_B + BM25_B * length / mean_length)
        score = 0.0
        for w, idf in weight.items():
            tf = d.own.get(w, 0) + context_weight * d.context.get(w, 0)
            if tf:
                score += idf * tf * (BM25_K1 + 1) / (tf + norm)
        scores[key] = score
    return scores


def identifiers(query: str) -> list[str]:
    """Identifier-like tokens (with a digit, or joined by -_./:#) for the exact and trigram
    routes. A bare number of four digits or fewer is not one: "in 2024" is a year (the
    time point is as_of's job), and as a substring it would match every memory dated
    that year."""
    found = []
    for m in _IDENTIFIER.finditer(query):
        token = m.group(0)
        if token.isdigit() and len(token) <= 4:
            continue
        if any(c.isdigit() for c in token) or any(c in "-_./:#" for c in token):
            found.append(token.lower())
    return list(dict.fromkeys(found))


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions)."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def misspells(token: str, names: Iterable[str]) -> bool:
    """``token`` is a typo of one of ``names`` (lowercase words): one edit from a name of
    up to seven letters, two from a longer one — and not the name itself."""
    for name in names:
        allowed = 1 if len(name) < 8 else 2
        if abs(len(name) - len(token)) <= allowed and 0 < edit_distance(token, name) <= allowed:
            return True
    return False


def closest_identifier_score(token: str, text: str) -> float:
    """1 − edits / length against the closest identifier in ``text`` when that is within
    one edit per six characters (a typo), else 0.0. ``token`` is lowercase."""
    allowed = max(1, len(token) // 6)
    best = 0.0
    for m in _IDENTIFIER.finditer(text.lower()):
        candidate = m.group(0)
        if abs(len(candidate) - len(token)) > allowed:
            continue
        edits = edit_distance(token, candidate)
        if edits <= allowed:
            best = max(best, 1.0 - edits / len(token))
    return best


_NAME = re.compile(r"(?<![A-Za-z])[A-Z][a-z]+(?:[A-Z][a-z]+)*|[A-Z]{2,}[a-z]*")


def names(query: str, scope_names: frozenset[str] = frozenset()) -> list[str]:
    """Capitalised Latin words of four letters or more (names, products, places) — the
    words most often misspelt and least helped by stemming. ``scope_names`` (the people
    of the subject's conversations, see ``query_terms``) are not among them."""
    return list(
        dict.fromkeys(
            m.lower()
            for m in _NAME.findall(query)
            if len(m) >= 4 and m.lower() not in _SENTENCE_STARTERS and m.lower() not in scope_names
        )
    )


# Capitalised only because they start a sentence.
_SENTENCE_STARTERS = frozenset(
    "what when where which while who whom whose does did have has how please tell show "
    "give find list remind the this that there these those user users should could would "
    "is are was were will can any some".split()
)


def has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


def estimate_tokens(text: str) -> int:
    """A model-agnostic token estimate for the budget: one per CJK character, one per four
    other characters (rounded up). Errs on the high side for English."""
    cjk = len(_CJK.findall(text))
    other = len(text) - cjk
    return cjk + (other + 3) // 4


# Third-person pronouns in a question about one subject: that subject. "her" is
# possessive before a word ("her sister"), an object otherwise ("ask her", "tell her
# about").
_EN_PRONOUN = re.compile(
    r"\b(he|him|she|his|hers|her)\b(\s+(?!(?:about|to|for|with|at|in|on|if|and|or|that|"
    r"what|why|how|when|where|again|back|up|out|now|today|yesterday)\b)(?=[A-Za-z]))?",
    re.IGNORECASE,
)
_ZH_PRONOUNS = frozenset({"他", "她"})


def _pronoun_to_user(m: re.Match) -> str:
    word, space = m.group(1).lower(), m.group(2) or ""
    if word in ("his", "hers") or (word == "her" and space):
        return "the user's" + space
    return "the user" + space


def refer_to_user(query: str, self_names: Iterable[str], others: Iterable[str] = ()) -> str:
    """The query with the subject's own names, and third-person pronouns, replaced by
    "the user" ("用户" in a Chinese question): recall is about one subject, so "Where does
    Olivia Harris live?" and "他住在哪里？" ask where *the user* lives, and memories say
    "the user" — a question naming them would otherwise match the name memory instead of
    the answer. Latin names match whole words, case-insensitively; names shorter than two
    characters (three in Latin script) are ignored; "他们" and "其他" are not pronouns of
    one person.

    ``others``: the other people of the subject's conversations (speakers of its events).
    A question that names one of them ("What did Ada realise after her race?") is
    about that person: its pronouns refer to them, not to the user, and stay."""
    replacement = "用户" if has_cjk(query) else "the user"
    out = query
    names = {n.strip() for n in self_names if isinstance(n, str)}
    other_people = [o for o in others if isinstance(o, str) and o.strip() not in names]
    if not names_in(query, other_people):
        if has_cjk(out):
            out = "".join("用户" if t in _ZH_PRONOUNS else t for t in rjieba.cut(out))
        out = _EN_PRONOUN.sub(_pronoun_to_user, out)
    # A Chinese name kept in pinyin ("Wang Fang") is written in characters in a Chinese
    # question ("王芳住在哪里？").
    names |= {span for name in names for span in hanzi_spellings(name, query)}
    for name in sorted(names, key=len, reverse=True):
        if len(name) < 2 or (len(name) < 3 and not has_cjk(name)):
            continue
        if has_cjk(name):
            out = out.replace(name, replacement)
        else:
            # Latin word boundaries (a name runs straight into Chinese text: "Olivia在…").
            out = re.sub(
                rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])",
                replacement,
                out,
                flags=re.IGNORECASE,
            )
    return out


def without_names(query: str, names: Iterable[str]) -> str:
    """``query`` with each of ``names`` (and each word of a Latin one, three letters or
    more) read as "someone" ("某人" in Chinese): "When did Ada's grandmother pass
    away?" -> "When did someone's grandmother pass away?". For the embedder: the names
    of the people in a subject's conversations say whose turn answers, not what it says
    (``query_terms`` leaves them out as words, the speaker gate reads them)."""
    out = query
    spans = {n.strip() for n in names if isinstance(n, str)}
    spans |= {w for n in list(spans) if not has_cjk(n) for w in n.split()}
    for name in sorted(spans, key=len, reverse=True):
        if has_cjk(name):
            if len(name) >= 2:
                out = out.replace(name, "某人")
        elif len(name) >= 3:
            out = re.sub(
                rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])",
                "someone",
                out,
                flags=re.IGNORECASE,
            )
    return out


_TONE_MARKS = str.maketrans("āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜńňǹḿ", "aaaaeeeeiiiioooouuuuüüüünnnm")


@memoized("memory.lexical._readings", maxsize=4096)
def _readings(char: str) -> frozenset[str]:
    """The toneless pinyin readings of one Chinese character ("曾" → {"ceng", "zeng"}); ü
    as romanised in names: u, v or yu ("吕" → Lu, Lv, Lyu)."""
    from pypinyin.pinyin_dict import pinyin_dict

    out: set[str] = set()
    for reading in pinyin_dict.get(ord(char), "").split(","):
        plain = reading.strip().translate(_TONE_MARKS)
        if "ü" in plain:
            out.update(plain.replace("ü", v) for v in ("u", "v", "yu"))
        elif plain:
            out.add(plain)
    return frozenset(out)


@memoized("memory.lexical._syllables", maxsize=1)
def _syllables() -> frozenset[str]:
    """Every toneless pinyin syllable (about 400)."""
    from pypinyin.pinyin_dict import pinyin_dict

    return frozenset(
        r for code in pinyin_dict for r in _readings(chr(code)) if r.isascii() and r.isalpha()
    )


def _split_syllables(word: str, limit: int = 4) -> list[tuple[str, ...]]:
    """Every way to read ``word`` as at most ``limit`` pinyin syllables ("xiaoming" →
    [("xiao", "ming")])."""
    if not word:
        return [()]
    if limit == 0:
        return []
    out = []
    for end in range(1, min(len(word), 6) + 1):
        if word[:end] in _syllables():
            out.extend((word[:end], *rest) for rest in _split_syllables(word[end:], limit - 1))
    return out


def hanzi_spellings(name: str, query: str) -> list[str]:
    """The words of a Chinese ``query`` that spell the pinyin ``name`` in characters
    ("Wang Fang" → "王芳" in "王芳住在哪里？"), in either name order ("Fang Wang"). Only
    words the segmenter tags as a person's name count, so "Zhang Wei" is not found in
    "这张伟大的照片" nor "Li Na" read backwards in "哪里"; two to four syllables only."""
    if has_cjk(name) or not has_cjk(query):
        return []
    words = re.findall(r"[a-z]+", name.lower())
    if not 1 <= len(words) <= 4:
        return []
    readings: set[tuple[str, ...]] = set()
    for order in (words, words[::-1]):
        combos: list[tuple[str, ...]] = [()]
        for word in order:
            combos = [c + s for c in combos for s in _split_syllables(word)][:32]
        readings.update(c for c in combos if 2 <= len(c) <= 4)
    if not readings:
        return []
    found = []
    for word, tag in rjieba.tag(query):
        if not tag.startswith("nr"):  # a person's name, as the segmenter tags it
            continue
        for syllables in readings:
            if len(word) == len(syllables) and all(
                s in _readings(ch) for ch, s in zip(word, syllables, strict=True)
            ):
                found.append(word)
    return list(dict.fromkeys(found))


# What the segmenter tags an ordinary word that is not a name: time words ("明天",
# "天天"), verbs, adjectives, adverbs, pronouns, numbers, measure words, locality words.
_NOT_A_NAME_TAG = re.compile(r"^(?:t|v|a|d|r|m|q|f|s|p|c|u|y|e|o|z|b)")
# Quoted words are someone else's ("小林说'我饿了'").
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"")


def speakers_named_in_chinese(query: str, speakers: Iterable[str]) -> list[str]:
    """Which of ``speakers`` a Chinese (or mixed) question names. A Latin name by its
    words, as ``names_in``, or a pinyin one written in characters (``hanzi_spellings``).
    A Chinese name (two characters or more) by its characters,
    where they are read as that name:

    - the longest speaker's name wins: "小林子" names 小林子, not also 小林;
    - the name starts a word of the question (as the segmenter cuts it): speaker 华明 is
      not in "中华明珠"; it may run into the next word ("王芳画了什么" cuts as 王芳画);
    - a name that the segmenter reads as an ordinary word here (a time word, verb,
      adverb…: speaker 天天 in "阿杰天天跑步吗") is that word, not the person."""
    people = [p.strip() for p in speakers if isinstance(p, str) and p.strip()]
    latin = [p for p in people if not has_cjk(p)]
    # A pinyin name may be written in characters ("王芳" for speaker Wang Fang).
    found = [p for p in latin if p in names_in(query, [p]) or hanzi_spellings(p, query)]
    chinese = sorted({p for p in people if has_cjk(p) and len(p) >= 2}, key=lambda p: (-len(p), p))
    if not chinese:
        return found
    starts: dict[int, tuple[str, str]] = {}  # where each word of the question starts
    at = 0
    for word, tag in rjieba.tag(query):
        starts[at] = (word, tag)
        at += len(word)
    taken: set[int] = set()
    for name in chinese:
        for m in re.finditer(re.escape(name), query):
            span = set(range(m.start(), m.end()))
            if span & taken:
                continue  # inside a longer speaker's name
            taken |= span
            word, tag = starts.get(m.start(), ("", ""))
            if not word:
                continue  # starts inside another word
            if word == name and _NOT_A_NAME_TAG.match(tag):
                continue
            if name not in found:
                found.append(name)
    return found


def in_first_person(query: str) -> bool:
    """The question speaks of its asker, outside quoted words: "我上周去了哪里？" is about
    the user, as "I" is in English (我, 我们, 咱们)."""
    return re.search(r"[我咱]", _QUOTED.sub("", query)) is not None
