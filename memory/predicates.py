"""The canonical predicate vocabulary, shared by extraction and the API.

One slot, one name: "home city", "location", "residence", "city", "住址" … are all
``home_city``. The write path maps every candidate's predicate to its canonical name before
the policy compares it with what is known (``memory.services.writes``), and looks existing
records up under every spelling, so records written before this vocabulary existed (as
``location``, say) are still the same slot. Predicates not in the vocabulary pass through
normalised (lower case, ``_`` for spaces and dashes).

Each canonical predicate may name a value shape. A value that does not fit its shape is
refused by the write policy (``invalid_value``): "Hangzhou in June, I live there now" is
a sentence, not a city.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class PredicateSpec:
    name: str
    synonyms: tuple[str, ...]
    # "place": a short place name; "name": a short name (team, employer); "" = any value.
    value_kind: str = ""


VOCABULARY: tuple[PredicateSpec, ...] = (
    PredicateSpec(
        "home_city",
        (
            "city",
            "home",
            "location",
            "residence",
            "current_city",
            "current_location",
            "home_location",
            "home_town_current",
            "lives_in",
            "living_in",
            "place_of_residence",
            "residence_city",
            "user_city",
            "user_location",
            "居住地",
            "居住城市",
            "住址",
            "住所",
            "所在城市",
            "城市",
        ),
        value_kind="place",
    ),
    PredicateSpec(
        "team", ("current_team", "team_name", "department", "group", "团队", "部门"), "name"
    ),
    PredicateSpec(
        "employer",
        ("company", "workplace", "works_at", "current_employer", "公司", "雇主", "工作单位"),
        "name",
    ),
    PredicateSpec("version", ("software_version", "current_version", "版本")),
    PredicateSpec(
        "answer_style",
        ("response_style", "reply_style", "answer_format", "回答风格", "回答方式"),
    ),
)

_SEPARATORS = re.compile(r"[\s\-]+")
_BY_NAME: dict[str, PredicateSpec] = {}
for _spec in VOCABULARY:
    _BY_NAME[_spec.name] = _spec
    for _synonym in _spec.synonyms:
        _BY_NAME[_synonym] = _spec


def _normal(predicate: str) -> str:
    return _SEPARATORS.sub("_", predicate.strip().casefold())


def canonical_predicate(predicate: str) -> str:
    """The vocabulary's name for ``predicate`` ("" stays "")."""
    if not predicate:
        return ""
    key = _normal(predicate)
    spec = _BY_NAME.get(key)
    return spec.name if spec else key


def predicate_spellings(predicate: str) -> list[str]:
    """Every stored spelling of ``predicate``'s slot (canonical name first)."""
    name = canonical_predicate(predicate)
    spec = _BY_NAME.get(name)
    if spec is None:
        return [name] if name == predicate else [name, predicate]
    return [spec.name, *spec.synonyms]


def same_slot(a: str, b: str) -> bool:
    return canonical_predicate(a) == canonical_predicate(b)


# --- value shapes ----------------------------------------------------------------------

# A sentence, not a name: clause punctuation, or words only a sentence has.
_CLAUSE_PUNCTUATION = re.compile(r"[,，。;；!！?？:：\n]|(?<!\b[A-Z][a-z])(?<!\b[A-Z])\.\s")
_SENTENCE_WORDS_EN = re.compile(
    r"\b(?:i|i'm|im|me|my|we|you|he|she|they|there|here|now|live|lives|living|lived|moved?|"
    r"moving|am|is|are|was|were|will|going|currently|since|until|from|next|last|"
    r"january|february|march|april|may|june|july|august|september|october|november|"
    r"december|today|tomorrow|yesterday|week|month|year)\b",
    re.IGNORECASE,
)
_SENTENCE_WORDS_ZH = re.compile(r"[我你他她它们]|住|搬|现在|目前|以后|下个?月|明年|年底|那里|这里")
_CJK = re.compile(r"[\u3400-\u9fff]")


def value_problem(predicate: str, value: object) -> str | None:
    """Why ``value`` cannot be the value of ``predicate``'s slot, or None."""
    spec = _BY_NAME.get(canonical_predicate(predicate))
    if spec is None or not spec.value_kind or value is None:
        return None
    if not isinstance(value, str):
        return "not_text"
    text = value.strip()
    if not text:
        return "empty"
    cjk = len(_CJK.findall(text))
    if len(text) > 60 or cjk > 16 or len(text.split()) > 5:
        return "too_long"
    if _CLAUSE_PUNCTUATION.search(text):
        return "sentence_not_a_name"
    if spec.value_kind == "place" and (
        _SENTENCE_WORDS_EN.search(text) or _SENTENCE_WORDS_ZH.search(text)
    ):
        return "sentence_not_a_name"
    return None


# Trailing time phrases and clauses an extractor cuts off a place ("Hangzhou in June",
# "上海了", "Berlin now, I think").
_TRAILING_EN = re.compile(
    r"\s+(?:in|on|at|by|from|since|until|around|after|before|for|during|over)\s+.*$|\s+(?:now|today|"
    r"currently|recently|already|again|too|as\s+well|next\s+\w+|last\s+\w+|this\s+\w+|"
    r"yesterday|earlier|(?:the\s+)?(?:day|week)\s+before|(?:a\s+couple\s+of|a\s+few|\w+)\s+"
    r"(?:day|week|fortnight|month|year)s?\s+ago)\b.*$",
    re.IGNORECASE,
)
_TRAILING_ZH = re.compile(r"(?:了|啦|呢|吧|啊|去了|来了|住|生活|工作|居住|定居)+$")


def clean_place(raw: str) -> str:
    """The place name at the start of an extracted phrase, or "" when there is none."""
    head = re.split(r"[,，。;；!！?？:：\n]|\s[-–—]\s", raw, maxsplit=1)[0].strip()
    head = _TRAILING_EN.sub("", head).strip()
    head = _TRAILING_ZH.sub("", head).strip()
    head = re.sub(r"^(?:the\s+city\s+of\s+)", "", head, flags=re.IGNORECASE)
    return head if head and value_problem("home_city", head) is None else ""
