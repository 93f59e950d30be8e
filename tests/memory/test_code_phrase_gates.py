"""The code-phrase reading's two exact gates (``FAST_DETECTION_TEXT``; off: the reference)
find the same codes: the phrase patterns need their head as a whole word, and the thing-is
reading needs a digit run that ``_PIECES`` or ``_DIGITS`` would find anywhere."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.detectors.code_phrases import code_phrase_spans
from memory.detectors.secrets import looks_like_secret

_PIECES = st.sampled_from(
    [
        "the", "my", "shed", "gate", "keypad", "code", "PIN", "combination", "combo", "access key",
        "for the attic", "is", "was", "'s", "becomes", "changes to", ":", "—", "opens with", "takes",
        "2-2-9-1", "4471", "308", "7731#", "1 9 8 4", "four four one nine", "2020", "flat", "room",
        "order", "tracking", "pinned", "keypads", "unlock", "you type", "on the panel", "to get in",
        "门禁改成", "保险柜密码", "锁", " ", ", ", ". ", "\n",
    ]
)  # fmt: skip
_TEXTS = st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=14).map(" ".join)
_PROBES = Path(__file__).resolve().parents[1] / "data"


def _both(settings, text: str) -> dict[bool, list]:
    found = {}
    for fast in (False, True):
        settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "FAST_DETECTION_TEXT": fast}
        found[fast] = code_phrase_spans(text, looks_like_secret)
    return found


@hsettings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=_TEXTS)
def test_the_gates_find_what_the_reference_finds(settings, text):
    found = _both(settings, text)
    assert found[True] == found[False], text


def test_the_gates_on_every_code_probe_row(settings):
    rows = [
        json.loads(line)
        for pattern in ("detector_probe15*codes*.jsonl", "detector_probe19_access_*.jsonl")
        for path in sorted(_PROBES.glob(pattern))
        for line in path.read_text("utf-8").splitlines()
        if line.strip()
    ]
    assert len(rows) > 100
    caught = 0
    for row in rows:
        found = _both(settings, row["text"])
        assert found[True] == found[False], row["text"]
        caught += bool(found[True])
    assert caught > 40  # the rows hold codes the reading finds: the comparison is not empty
