"""The README's API examples run as written: every ``curl`` of its "The API" and "Recall"
blocks is read out of README.md (method, path, JSON body) and sent, in order, through the
real API with a key of the scopes `./dev run` prints — the subject token from the README's
own request, ``$ID`` and ``$NEW`` taken from the answers as its shell lines take them — and
each answer is what the README's comments say it is."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from memory.models import MemoryRecord, MemoryStatus
from tests.helpers.cast import ApiClient, agent_with_key

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parents[2] / "README.md"
CURL = re.compile(
    r"curl -s (?:-X (?P<method>[A-Z]+) )?\"\$\{H\[@\]\}\"(?: -X (?P<method2>[A-Z]+))? "
    r"\$BASE(?P<path>/\S+)(?: -d '(?P<body>[^']*)')?"
)
SUBJECT_TOKEN = re.compile(r"-X POST \S+/api/v1/subject-tokens .*?-d '(?P<body>[^']*)'", re.S)


def _section_block(title: str) -> str:
    """The first ```bash block under a README heading that starts with ``title``."""
    text = README.read_text(encoding="utf-8")
    section = text.split(f"\n{title}", 1)[1].split("\n## ", 1)[0]
    return section.split("```bash\n", 1)[1].split("\n```", 1)[0]


def _calls(block: str) -> list[dict]:
    calls = []
    for m in CURL.finditer(block):
        method = m["method"] or m["method2"] or ("POST" if m["body"] is not None else "GET")
        body = json.loads(m["body"]) if m["body"] is not None else None
        calls.append({"method": method, "path": m["path"], "body": body})
    return calls


def _documented_results(block: str) -> list[tuple[str, str]]:
    """(operation, reason_code) pairs of the README's "# → {"results": …}" comment."""
    comment = "\n".join(line for line in block.splitlines() if line.lstrip().startswith("#"))
    return re.findall(r'"operation": "(\w+)", "reason_code": "(\w+)"', comment)


def test_the_readme_api_examples_run_as_written(tenant, owner_subject):
    block = _section_block("### The API")
    calls = _calls(block)
    assert [c["path"].split("/")[3] for c in calls] == [
        "events",
        "candidates",
        "memories",
        "memories",
        "memories",
        "memories",
    ], "the README's API block changed shape; update this test with it"

    # The key ./dev run prints can issue subject tokens (admin) and write.
    cred = agent_with_key(tenant, "readme", ["read", "write", "admin"])
    token_body = json.loads(SUBJECT_TOKEN.search(block)["body"])
    token_body["external_id"] = owner_subject.external_id
    issued = ApiClient(cred.key).post_json("/api/v1/subject-tokens", token_body)
    assert issued.status_code in (200, 201), issued.content
    api = ApiClient(cred.key, issued.json()["token"])

    shell: dict[str, str] = {}
    answers = []
    for call in calls:
        path = (
            call["path"]
            .replace("$ID", shell.get("ID", "$ID"))
            .replace("$NEW", shell.get("NEW", "$NEW"))
        )
        assert "$" not in path, f"{call['path']}: a variable the README never set"
        if call["method"] == "POST":
            response = api.post_json(path, call["body"])
        elif call["method"] == "DELETE":
            response = api.delete_json(path, call["body"])
        else:
            response = api.get(path)
        assert 200 <= response.status_code < 300, (call, response.content)
        answer = response.json()
        answers.append(answer)
        if path.endswith("/candidates"):
            shell["ID"] = answer["results"][0]["record_id"]
        if path.endswith("/supersede"):
            shell["NEW"] = answer["record_id"]

    events, candidates, shown, superseded, retracted, _deleted = answers
    assert len(events["results"]) == 3
    documented = _documented_results(block)
    assert documented, "the README no longer says what the candidates get"
    assert [(r["operation"], r["reason_code"]) for r in candidates["results"]] == documented
    assert shown["id"] == shell["ID"]
    assert superseded["operation"] == "SUPERSEDE", superseded
    assert retracted["operation"] == "RETRACT", retracted
    # The DELETE removed the memory and all its versions: nothing of it is active.
    assert not MemoryRecord.objects.filter(
        subject=owner_subject, status=MemoryStatus.ACTIVE
    ).exists()
    assert api.get(f"/api/v1/memories/{shell['ID']}").status_code == 404


def test_the_readme_recall_example_answers(api):
    [call] = _calls(_section_block("### Recall"))
    assert call["path"] == "/api/v1/recall"
    response = api.post_json(call["path"], call["body"])
    assert response.status_code == 200, response.content
    assert {"items", "context_pack"} <= set(response.json())
