"""The detectors' CPU per text, module by module, in process, with no database.

    cd <worktree> && OMP_NUM_THREADS=1 .venv/bin/python bench/perf/write_detector_modules_cpu.py \\
        [bench|locomo] [--rounds 3] [--n 1200] [--run a3f09b12]

``write_detectors_cpu.py`` times each detector ``decide`` calls; this opens the two largest,
the secret scan and the sensitive-data rules, into their parts: the text forms they read
(computed first, so each part is timed on the input it gets in ``secret_spans``), each rule
module's span function, and each special category's rule list (``search_any`` as the
detector asks it). One part at a time over ``--n`` texts (more than the per-text caches
hold, so every call starts cold as in a request); this thread's CPU per text, min and
median over ``--rounds``. Parts of the secret scan that run only on some texts (the ROT13
reading, detect-secrets' plugins) are timed as the scan calls them, their gates included.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "bench", "perf"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from detector_prefilter_ab import candidates  # noqa: E402

from memory import content_rules  # noqa: E402
from memory.detectors import secrets as s  # noqa: E402
from memory.detectors import special_categories as sc  # noqa: E402
from memory.detectors.access_forms import security_answer_spans  # noqa: E402
from memory.detectors.code_phrases import code_phrase_spans  # noqa: E402
from memory.detectors.prefilter import search_any  # noqa: E402
from memory.detectors.spelled_readings import spelled_runs  # noqa: E402
from memory.temporal.common import fold_traditional  # noqa: E402
from memory.text_normalize import detection_form, normalize_for_detection  # noqa: E402


def _forms(text: str) -> dict[str, str]:
    form = detection_form(s.hide_separators(text)).text
    folded = s.fold_obfuscations(s.fold_financial_numerals(s.fold_script_digits(form)))
    keyed = s.fold_digit_chars(folded)
    special = fold_traditional(normalize_for_detection(text))
    return {"text": text, "form": form, "folded": folded, "keyed": keyed, "special": special}


def _parts() -> dict[str, tuple[str, object]]:
    secret = s.looks_like_secret
    parts: dict[str, tuple[str, object]] = {
        "secret scan, whole (find_secrets)": ("text", s.find_secrets),
        "  forms: detection_form + folds": ("text", _forms),
        "  _prose_spans": ("folded", s._prose_spans),
        "  labelled_value_spans": ("keyed", lambda t: s.labelled_value_spans(t, secret)),
        "  access_verb_spans": ("keyed", s.access_verb_spans),
        "  access_form_spans": ("keyed", s.access_form_spans),
        "    of it security_answer_spans": ("keyed", security_answer_spans),
        "  described_secret_spans": ("keyed", s.described_secret_spans),
        "  used_secret_spans": ("keyed", lambda t: s.used_secret_spans(t, secret)),
        "  value_reading_spans": ("keyed", lambda t: s.value_reading_spans(t, secret)),
        "  unlabelled_value_spans": ("keyed", s.unlabelled_value_spans),
        "  plain_value_spans": ("keyed", lambda t: s.plain_value_spans(t, secret)),
        "  asked_value_spans": ("keyed", lambda t: s.asked_value_spans(t, secret)),
        "  given_value_spans": ("keyed", lambda t: s.given_value_spans(t, secret)),
        "    of it code_phrase_spans": ("keyed", lambda t: code_phrase_spans(t, secret)),
        "  _url_spans": ("form", s.url_spans),
        "  _format_spans": ("form", s.format_spans),
        "  keyed_format_spans": ("form", s.keyed_format_spans),
        "  _shape_spans": ("form", s._shape_spans),
        "  rot13_reading (the gate)": ("form", s.rot13_reading),
        "  rereading_spans (encoded, spelled)": (
            "form",
            lambda t: s.rereading_spans(t, s._reading_spans),
        ),
        "    of it spelled_runs": ("form", spelled_runs),
        "  nfkc_visible + recovery phrases": ("text", _recovery),
        "  detect-secrets (gate + plugins)": ("text", s.detect_secrets_finds),
        "sensitive data, whole": ("text", content_rules.find_sensitive_personal_data),
        "  phone filter": ("text", content_rules._may_hold_phone_number),
        "  special categories, whole": ("special", sc.find_special_categories),
    }
    for name, patterns in sc.CATEGORIES.items():
        parts[f"    list {name} ({len(patterns)} rules)"] = (
            "special",
            lambda t, p=patterns: search_any(p, t),
        )
    parts["    readings: care place, dropped subject, adjuncts"] = ("special", _readings)
    return parts


def _recovery(text: str) -> list:
    visible, _origin = s.nfkc_visible(text)
    return s.recovery_phrase_spans(visible) + s.bip39_spans(visible) + s.cjk_phrase_spans(visible)


def _readings(form: str) -> tuple:
    return (
        *sc.without_care_place(form),
        *sc.dropped_subject_clauses(form),
        *sc.dropped_subject_clauses_en(form),
        *sc.adjunct_readings(form),
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", nargs="?", default="bench", choices=["bench", "locomo"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--n", type=int, default=1200)
    parser.add_argument("--run", default="a3f09b12")
    args = parser.parse_args()
    texts = [
        f"{c.statement}\n{c.value if c.value is not None else ''}"
        for c in candidates(args.kind, args.n, args.run)
    ]
    inputs = [_forms(t) for t in texts]
    parts = _parts()
    for key, fn in parts.values():  # warm: compiled rules, plans, indexes
        for f in inputs[:50]:
            fn(f[key])  # type: ignore[operator]
    times: dict[str, list[float]] = {name: [] for name in parts}
    for _ in range(args.rounds):
        for name, (key, fn) in parts.items():
            started = time.thread_time()
            for f in inputs:
                fn(f[key])  # type: ignore[operator]
            times[name].append((time.thread_time() - started) / len(inputs) * 1e6)
    for name, v in times.items():
        v.sort()
        print(f"{name:52s} min {v[0]:8.1f}  median {v[len(v) // 2]:8.1f} µs a text")
    print(f"{args.kind}, {len(texts)} texts; load", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
