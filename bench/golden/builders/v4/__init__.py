"""Build the fourth bilingual recall golden set (bench/golden/recall_v4.json), deterministically.

A clean held-back test set, meant to be scored once: every query is in the "heldout" split
and nothing is tuned on it. It was written without looking at the retrieval code. v3's
builder (retired; in git history) was read only for its JSON schema, its query kinds, the predicate
names the write path knows and its ``--check`` mode; everything else here is new: the
subjects' names, other people (Chinese and Western), cities, companies, products, pets,
id / order-number / error-code formats, every memory statement template (first person,
diary entries, agent observations such as "User mentioned that ...", terse "key: value"
notes and mixed Chinese-English lines) and every question wording (task-style requests
from an agent, direct and indirect questions, questions using the user's name or a
pronoun, and questions in the other language than the stored fact).

Same schema as v1-v3, so bench/quality/recall.py scores it with ``--golden bench/golden/recall_v4.json``:

* 14 subjects (``t000``..``t013``): Chinese-only, English-only and mixed-language stores,
  each with ~200 memories: ~25 profile facts drawn from a pool of 40 keys (structured ones
  carry a predicate/value, the rest are key-only), ~170 background memories (trips, hotel
  stays, meetings, incidents with error codes, online orders, support tickets, in-store
  purchases, appointments, household notes, invoices, events, and facts about *other*
  people that look like the user's own), one memory the user later deleted and two
  injected instruction texts (the write policy should quarantine them).
* Seven full names, each shared by two subjects; some subjects move city (once or twice)
  or change employer, and some replace their phone, editor, drink or stand-up time, so
  older values are stale.
* A query's relevant memories are its subject's memories with the query's ``key`` and
  role "relevant" that are valid at its ``as_of`` (bench/quality/recall.py works that out from what
  the write path stored). Abstain queries have an empty key: nothing in that subject
  answers them (``asks`` records why: a deleted fact, a key only other subjects have, or a
  topic no store mentions).

Query kinds: paraphrase, background, cross_lingual, stale_current, as_of, code, code_typo
(one character of the id changed), same_name, abstain.

Usage: python -m bench.golden.builders.v4         (writes bench/golden/recall_v4.json)
       python -m bench.golden.builders.v4 --check    (also runs the write policy's content
                                                   detectors over every statement; needs the
                                                   project's venv and Django settings)
"""

from .assemble import build

__all__ = ["build"]
