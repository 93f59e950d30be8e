"""The named-time recall set (tests/data/recall_time) is well formed: every gold evidence
turn exists and is the turn written for it, sessions carry a time ``locomo.py`` reads,
both languages are there, and the JSON is what ``generate.py`` writes."""

import importlib.util
import json
import re
from datetime import datetime
from pathlib import Path

FOLDER = Path(__file__).parent / "data" / "recall_time"


def _conversations():
    return {p.stem: json.loads(p.read_text()) for p in sorted(FOLDER.glob("*.json"))}


def test_evidence_turns_exist_and_sessions_have_times():
    convs = _conversations()
    assert len(convs) == 2
    for conv in convs.values():
        turns, n = {}, 1
        while f"session_{n}" in conv:
            datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
            turns |= {t["dia_id"]: t for t in conv[f"session_{n}"]}
            assert {t["speaker"] for t in conv[f"session_{n}"]} == {
                conv["speaker_a"],
                conv["speaker_b"],
            }
            n += 1
        assert n == 19
        for qa in conv["qa"]:
            assert qa["evidence"] and set(qa["evidence"]) <= set(turns), qa["question"]
            assert qa["category"] in (2, 4)


def test_both_languages_and_the_json_is_the_generators():
    convs = _conversations()
    han = [c for c in convs.values() if re.search(r"[\u4e00-\u9fff]", c["qa"][0]["question"])]
    assert len(han) == 1
    spec = importlib.util.spec_from_file_location("gen", FOLDER / "generate.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    built = gen.build("Ines", "Marek", gen.EN_DATES, gen.EN_KEY, gen.EN_QA, False, 3501)
    assert built == convs["en_ines_marek"]
