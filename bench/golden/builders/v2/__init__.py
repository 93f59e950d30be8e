"""Build the second bilingual recall golden set (bench/golden/recall_v2.json), deterministically.

Written before any tuning of the retrieval pipeline and frozen in the repository; re-running
this script reproduces the same file byte for byte. Same schema as v1 (bench/golden/builders/v1/)
so bench/quality/recall.py scores it with ``--golden bench/golden/recall_v2.json``.

What v2 fixes in v1:

* Realistic store sizes. 28 subjects, each with 200-300 memories: ~20-30 profile facts drawn
  from a pool of ~43 keys, plus ~200 background memories (flights, hotels, meetings, deploys
  and incidents with error codes, orders, support tickets, invoices, conversations, project
  notes, purchases, dinners, appointments, films, events, and facts about *other* people
  that look like the user's own). Top-10 is ~4% of a subject's store, not half of it.
* Honest held-out split. Subjects alternate tune / heldout, and in addition every question
  key's phrasings are split into two disjoint pools (tune pool, held-out pool; at least two
  phrasings per language per pool), so held-out queries use wording never seen in tuning.

Every memory has a ``key``. A query's relevant memories are the subject's memories with the
query's key and role "relevant" that are valid at the query's ``as_of`` (bench/quality/recall.py
computes that from what the write path stored). Two memories share a key only when both
answer the question (e.g. two allergies, two pets, the old and new home city).

Query kinds: paraphrase, cross_lingual (query language differs from the memory's),
background (about a background memory), code and code_typo (an id or error code, the typo
one with one digit changed), stale_current (a key whose old values were superseded),
as_of (what was true back then), same_name (the subject's own name in the question; two
subjects share every name), abstain (nothing relevant: keys other subjects have and this
one lacks, a fact that was deleted, things nobody has). Distractors that must never be
returned: superseded values (stale), a deleted memory, injected instruction text (the write
policy quarantines it), another subject with the same name, and bench/quality/recall.py's tenant-B
copy of the first subjects.

Usage: python -m bench.golden.builders.v2         (writes bench/golden/recall_v2.json)
       python -m bench.golden.builders.v2 --check    (also runs the write policy's content
                                                   detectors over every statement; needs
                                                   the project's venv)
"""

from .assemble import build

__all__ = ["build"]
