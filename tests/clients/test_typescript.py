"""The TypeScript client (clients/typescript), driven from here against a real running
Engram (``./dev test`` installs its npm dependencies with ``npm ci``):

- its copy of the OpenAPI schema is the server's, and the types generated from it with
  ``openapi-typescript``'s default options are the committed ones and compile, with the
  client, its tests and examples, under ``tsc --strict``;
- its tests (Node's test runner) pass against the live server, a closed port, and the
  server with its workers stopped (SIGSTOP);
- the README's quick start and the agent-loop example run with Engram up and down."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from memory.services.subject_tokens import subject_token_issue
from memory.services.subjects import subject_get_or_create
from tests.helpers.live_server import free_port, make_agent

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "clients" / "typescript"
BIN = TS / "node_modules" / ".bin"


def run(*args: str, env: dict[str, str] | None = None, timeout: int = 300) -> str:
    proc = subprocess.run(
        list(args),
        cwd=TS,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-6000:]
    return output


@pytest.fixture(scope="module")
def built() -> Path:
    if not (BIN / "tsc").exists() or shutil.which("node") is None:
        pytest.fail(
            "The TypeScript client's dependencies are not installed: run ./dev test (it runs "
            "npm ci in clients/typescript, installing Node.js first if needed)."
        )
    run(str(BIN / "tsc"), "-p", "tsconfig.json")  # strict: tsconfig.json says so
    return TS / "dist"


def test_the_schema_copy_is_the_servers(tmp_path):
    fresh = tmp_path / "openapi.json"
    call_command("spectacular", "--format", "openapi-json", "--file", str(fresh))
    committed = json.loads((TS / "openapi.json").read_text())
    assert json.loads(fresh.read_text()) == committed, (
        "clients/typescript/openapi.json is stale: regenerate it "
        "(manage.py spectacular --format openapi-json --file clients/typescript/openapi.json) "
        "and the types (cd clients/typescript && npm run generate)"
    )


def test_generated_types_are_current_and_compile_strict(built, tmp_path):
    config = json.loads((TS / "tsconfig.json").read_text())
    assert config["compilerOptions"]["strict"] is True
    generated = tmp_path / "schema.d.ts"
    # Default options: no flags.
    run(str(BIN / "openapi-typescript"), "openapi.json", "-o", str(generated))
    assert generated.read_text() == (TS / "src" / "schema.d.ts").read_text(), (
        "src/schema.d.ts is stale: cd clients/typescript && npm run generate"
    )
    # A request with only its required fields must compile: fields the server defaults
    # are optional in the generated types.
    probe = TS / "test" / "_probe_minimal_requests.ts"
    probe.write_text(
        'import type { components } from "../src/schema.js";\n'
        'type S = components["schemas"];\n'
        'export const candidate: S["CandidateInputRequest"] = { memory_type: "semantic", '
        'namespace: "a", statement: "s", assertion_kind: "user_explicit", confidence: 1, '
        'purpose: "p", consent_basis: "explicit_consent" };\n'
        'export const event: S["EventInputRequest"] = { client_event_id: "e", kind: "message", '
        'role: "user", content: "c" };\n'
        'export const recall: S["RecallInputRequest"] = { query: "q", purpose: "p" };\n'
        'export const token: S["SubjectTokenInputRequest"] = { external_id: "x" };\n'
    )
    try:
        run(str(BIN / "tsc"), "-p", "tsconfig.json", "--noEmit")
    finally:
        probe.unlink()


def _env(live_engram, keys, **extra: str) -> dict[str, str]:
    return {
        "ENGRAM_URL": live_engram.url,
        "ENGRAM_API_KEY": keys.write_key,
        "ENGRAM_ADMIN_API_KEY": keys.admin_key,
        "ENGRAM_READ_API_KEY": keys.read_key,
        "ENGRAM_DOWN_URL": f"http://127.0.0.1:{free_port()}",
        **extra,
    }


def test_typescript_client_against_engram_and_a_closed_port(built, live_engram, keys):
    output = run(
        "node",
        "--test",
        "--test-concurrency=1",
        "dist/test/live.test.js",
        "dist/test/down.test.js",
        env=_env(live_engram, keys),
    )
    assert "# fail 0" in output and "# pass" in output


def test_typescript_client_against_a_hung_engram(built, live_engram, keys):
    subject = subject_get_or_create(tenant_id=keys.tenant.id, kind="user", external_id="alice")
    token = subject_token_issue(
        tenant_id=keys.tenant.id, agent_id=keys.agent.id, subject_id=subject.id
    )
    env = _env(live_engram, keys, ENGRAM_SUBJECT_TOKEN=token)
    with live_engram.hung():
        output = run("node", "--test", "dist/test/hung.test.js", env=env)
    assert "# fail 0" in output


@pytest.mark.parametrize("example", ["quickstart", "agent_loop"])
def test_examples_run_with_engram_up_and_down(built, live_engram, keys, example):
    up = run("node", f"dist/examples/{example}.js", env=_env(live_engram, keys))
    down = run(
        "node",
        f"dist/examples/{example}.js",
        env=_env(live_engram, keys, ENGRAM_URL=f"http://127.0.0.1:{free_port()}"),
    )
    if example == "quickstart":
        assert "ADD new_memory" in up and "memory unavailable" not in up
        assert "QUEUED" in down and "memory unavailable: " in down
    else:
        assert "Remembered." in up and "From memory: User said: I prefer window seats" in up
        assert "queued" in down and "Memory is unavailable right now" in down


def test_a_second_agent_process_sees_the_first_ones_memory(built, live_engram):
    """Two agents of one tenant: the TypeScript one writes, the Python one reads."""
    from engramhq_client import EngramClient, Timeouts

    keys = make_agent("tsco")
    run("node", "dist/examples/agent_loop.js", env=_env(live_engram, keys, ENGRAM_USER="dora"))
    with EngramClient(
        live_engram.url,
        keys.write_key,
        admin_api_key=keys.admin_key,
        timeouts=Timeouts(recall=30, read=30, write=30),
    ) as client:
        statements = [r.statement for r in client.for_user("dora").iter_memories()]
    assert "User said: I prefer window seats on flights." in statements
