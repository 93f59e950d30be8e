"""Build the third bilingual recall golden set (bench/golden/recall_v3.json), deterministically.

A clean held-back test set: every query is in the "heldout" split and nothing is ever tuned
on it. It was written independently of v2 (bench/golden/builders/v2/): v2 was read only for
its JSON schema, query kinds and the predicate names the write path knows. Subjects, people,
cities, companies, products, ids and error codes are new, and so are every memory statement
template and every question wording (different sentence shapes: note-style profile lines,
questions in the first person and in an agent's voice).

Same schema as v1/v2, so bench/quality/recall.py scores it with ``--golden bench/golden/recall_v3.json``:

* 14 subjects (``t000``..``t013``), Chinese, English and mixed-language stores, each with
  ~200 memories: ~25 profile facts from a pool of 42 keys and ~170 background memories
  (flights, hotels, meetings, deploys and incidents with error codes, online orders, support
  cases, help sessions, project notes, purchases, dinners, appointments, films, invoices,
  events, and facts about *other* people that look like the user's own), one memory the user
  later deleted and two injected instruction texts (the write policy quarantines them).
* Pairs of subjects share a full name; some move city or change employer (superseded values).
* A query's relevant memories are its subject's memories with the query's ``key`` and role
  "relevant" that are valid at its ``as_of`` (bench/quality/recall.py works that out from what the
  write path stored). Abstain queries have an empty key: nothing in that subject answers them.

Query kinds: paraphrase, background, cross_lingual, stale_current, as_of, code, code_typo
(one digit of the id changed), same_name, abstain.

Usage: python -m bench.golden.builders.v3         (writes bench/golden/recall_v3.json)
       python -m bench.golden.builders.v3 --check    (also runs the write policy's content
                                                   detectors over every statement; needs the
                                                   project's venv and Django settings)
"""

from .assemble import build

__all__ = ["build"]
