"""Settings of the detectors' exact gates (issue 39): cheap tests that are necessary
conditions of a rule, run before it, so text that cannot match skips it. Each has the
plain rule as its reference and a test that both give the same findings
(tests/memory/test_detector_gates.py). Merged into ``ENGRAM_WRITE_BATCH``
(config/settings/write_batch.py), where ``memory.detectors.switches`` reads them. Kept
apart from base.py (which imports it); base.py has already loaded ``.env`` into the
environment."""

from __future__ import annotations

import environ

env = environ.Env()

DETECTOR_GATES = {
    # The question-and-answer reading (memory/detectors/asked_values.py) runs its question
    # pattern only on text where the pattern's own end matches: a credential or network
    # word, at most 30 characters of the question, then its question mark. Off: on any
    # text with a question mark (the reference).
    "QUESTION_TAIL_GATE": env.bool("ENGRAM_DETECTOR_QUESTION_TAIL_GATE", default=True),
    # The secret scan walks the credential words' matches (memory/detectors/secrets.py,
    # ``_CUE``) only in text holding one literal of each clause the pattern requires
    # (memory/detectors/prefilter.py, ``may_match``, with the literal prefilter's one pass
    # on). Off: on every text (the reference).
    "CUE_LITERAL_GATE": env.bool("ENGRAM_DETECTOR_CUE_LITERAL_GATE", default=True),
    # The phone-number matcher's second reading, with no region, only on text holding a
    # plus sign, without which phonenumbers parses no number read so
    # (memory/content_rules.py, ``_no_plus_for_unknown_region``). Off: on every text that
    # passes the digit filter (the reference).
    "PHONE_PLUS_GATE": env.bool("ENGRAM_DETECTOR_PHONE_PLUS_GATE", default=True),
    # The one-pass literal prefilter searches a pattern its pieces let through only when
    # the text lowercased holds a whole literal of each clause the pattern requires
    # (memory/detectors/prefilter_whole.py; ``may_match`` too). Off: on the pieces alone
    # (the reference).
    "WHOLE_LITERAL_GATE": env.bool("ENGRAM_DETECTOR_WHOLE_LITERAL_GATE", default=True),
    # A top-level alternation the prefilter lets through is searched by its live branches
    # only, each branch's own required literals asked of the text lowercased; skipped when
    # none is live (memory/detectors/prefilter_branches.py; plain patterns and the
    # sentence-by-sentence rules, whose match is read only as yes or no). Off: the whole
    # pattern (the reference).
    "BRANCH_GATE": env.bool("ENGRAM_DETECTOR_BRANCH_GATE", default=True),
    # The special categories' sentence-by-sentence rules (``life_frames._Stated``, about
    # four searched a text) share the text's stated sentences, split and tested for
    # supposition once a text (``life_frames.StatedText``). Off: each rule splits and
    # tests the text itself (the reference).
    "STATED_ONCE": env.bool("ENGRAM_DETECTOR_STATED_ONCE", default=True),
    # The English past readings of the time reader (memory/temporal/en.py, ``_en_past``,
    # fifteen patterns tried in turn) run only on text where one of them can match by its
    # required literals (``prefilter_any.may_any_match``). Off: each is tried (the reference).
    "TIME_PAST_GATE": env.bool("ENGRAM_DETECTOR_TIME_PAST_GATE", default=True),
    # ``fold_traditional`` (memory/temporal/common.py, about ten texts a candidate) returns
    # a text holding none of the characters it folds as it is, found by one character
    # class, without translating it. Off: every text translated (the reference).
    "FOLD_GATE": env.bool("ENGRAM_DETECTOR_FOLD_GATE", default=True),
    # The secret scan's readings ask a pattern wrapped by ``literal_gated`` only in text
    # holding a literal of each clause the pattern requires, the patterns a text may match
    # computed once a text (memory/detectors/literal_gated.py, with the literal prefilter's
    # one pass on). Off: every call goes to the pattern (the reference).
    "READING_LITERAL_GATE": env.bool("ENGRAM_DETECTOR_READING_LITERAL_GATE", default=True),
    # The recovery-phrase readings walk a text word by word only where twelve words of
    # their shape stand in a row (memory/detectors/formats.py, ``recovery_phrase_spans``;
    # memory/detectors/labelled.py, ``bip39_spans``). Off: on every text (the reference).
    "WORD_RUN_GATE": env.bool("ENGRAM_DETECTOR_WORD_RUN_GATE", default=True),
    # In ASCII text, a rule list's alternations are searched without the branches that
    # require a character no ASCII character matches (the secret scan's foreign credential
    # words: Greek and Cyrillic ones left the prefilter no clause), so the prefilter can
    # skip the rest (memory/detectors/prefilter_ascii.py). Off: the list as written (the
    # reference).
    "ASCII_BRANCH_GATE": env.bool("ENGRAM_DETECTOR_ASCII_BRANCH_GATE", default=True),
    # A code tied to what it opens (memory/detectors/used_secrets.py, ``_TIED``) is
    # searched only in text holding its value's shape, two digits at most eleven
    # characters of digits, spaces and hyphens apart, which every match holds. Off: the
    # pattern alone (the reference).
    "TIED_DIGIT_GATE": env.bool("ENGRAM_DETECTOR_TIED_DIGIT_GATE", default=True),
    # ``nfkc_visible`` (memory/detectors/formats.py) returns non-ASCII text as it is when
    # it is already in NFKC and holds no format control and no Greek or Cyrillic letter,
    # found by one quick check and a look at each distinct character, instead of
    # normalising it character by character. Off: character by character (the reference).
    "NFKC_STABLE_GATE": env.bool("ENGRAM_DETECTOR_NFKC_STABLE_GATE", default=True),
}
