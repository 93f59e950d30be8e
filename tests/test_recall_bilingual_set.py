"""The bilingual recall set (tests/data/recall_bilingual) is well formed: every gold
evidence turn exists, sessions carry a time ``locomo.py`` reads, both languages are there."""

import json
import re
from datetime import datetime
from pathlib import Path

FOLDER = Path(__file__).parent / "data" / "recall_bilingual"


def _conversations():
    return {p.stem: json.loads(p.read_text()) for p in sorted(FOLDER.glob("*.json"))}


def test_evidence_turns_exist_and_sessions_have_times():
    convs = _conversations()
    assert len(convs) >= 4
    for conv in convs.values():
        ids, n = set(), 1
        while f"session_{n}" in conv:
            datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
            ids |= {t["dia_id"] for t in conv[f"session_{n}"]}
            assert {t["speaker"] for t in conv[f"session_{n}"]} == {
                conv["speaker_a"],
                conv["speaker_b"],
            }
            n += 1
        assert n > 3
        for qa in conv["qa"]:
            assert qa["evidence"] and set(qa["evidence"]) <= ids, qa["question"]
            assert qa["category"] in (1, 2, 3, 4)


def test_both_languages_and_every_question_kind():
    convs = _conversations()
    han = [c for c in convs.values() if re.search(r"[\u4e00-\u9fff]", c["qa"][0]["question"])]
    assert 0 < len(han) < len(convs)
    kinds = {qa["category"] for c in convs.values() for qa in c["qa"]}
    assert kinds >= {1, 2, 4}
