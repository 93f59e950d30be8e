"""engramhq-mcp driven end to end by the official mcp client over stdio (the server is a
subprocess, as an assistant would start it) against a real running Engram, including an
outage while the session is open. Credentials and the subject come from the server's
environment; no tool takes them as arguments."""

from __future__ import annotations

import asyncio
import json
import os
import sys

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from accounts.models import Role
from core.actor import Actor
from core.tenancy import tenant_context
from governance.models import ChangeRequest
from governance.services.procedures import procedure_document_create
from memory.models import MemoryRecord
from tests.helpers.cast import person
from tests.helpers.live_server import AgentKeys, EngramServer

pytestmark = pytest.mark.django_db(transaction=True)


def server_params(live_engram: EngramServer, keys: AgentKeys, outbox: str) -> StdioServerParameters:
    env = {
        "PATH": os.environ.get("PATH", ""),
        # A checkout's client ahead of the installed one, when the run puts it there.
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        "ENGRAM_URL": live_engram.url,
        "ENGRAM_API_KEY": keys.write_key,
        "ENGRAM_ADMIN_API_KEY": keys.admin_key,
        "ENGRAM_SUBJECT": "alice",
        "ENGRAM_OUTBOX": outbox,
        # The circuit half-opens at once, so the test needs no wall-clock wait.
        "ENGRAM_BREAKER_RESET_SECONDS": "0",
    }
    return StdioServerParameters(
        command=sys.executable, args=["-m", "engramhq_client.mcp_server"], env=env
    )


def status_of(record_id: str) -> str:
    """Read from a worker thread (the ORM is sync-only), closing its connection after."""
    from django.db import connection

    try:
        return MemoryRecord.objects.get(pk=record_id).status
    finally:
        connection.close()


def text(result) -> str:
    assert not result.is_error, result
    return "\n".join(c.text for c in result.content)


def test_mcp_session_over_stdio(live_engram, keys, tmp_path):
    admin_user, _ = person(keys.tenant, "ada", Role.ADMIN)
    with tenant_context(keys.tenant.id):
        procedure_document_create(
            actor=Actor.user(admin_user.pk, keys.tenant.id),
            user=admin_user,
            slug="refunds",
            title="Refund handling",
            kind="runbook",
            namespace="support-agent/refunds",
        )
    params = server_params(live_engram, keys, str(tmp_path / "outbox.sqlite"))

    async def session() -> dict[str, str]:
        seen: dict[str, str] = {}
        async with Client(params, read_timeout_seconds=60) as mcp:
            tools = {t.name: t for t in (await mcp.list_tools()).tools}
            assert set(tools) == {
                "remember",
                "recall",
                "report_use",
                "forget",
                "list_memories",
                "propose_procedure_change",
                # Working memory (engramhq_client/mcp_working.py).
                "working_put",
                "working_get",
                "working_delete",
                "working_list",
                "close_thread",
            }
            for tool in tools.values():
                names = set(tool.input_schema.get("properties", {}))
                assert not names & {"api_key", "token", "subject", "tenant", "user_id"}

            said = text(
                await mcp.call_tool(
                    "remember", {"statement": "User prefers window seats on flights"}
                )
            )
            assert said.startswith("Remembered (memory ")
            seen["record_id"] = said.split("(memory ")[1].split(")")[0]
            secret = text(
                await mcp.call_tool("remember", {"statement": "my password is hunter2-Secret!"})
            )
            assert secret.startswith("Not remembered") and "secret_detected" in secret

            pack = text(await mcp.call_tool("recall", {"query": "window seats flights"}))
            assert "window seats" in pack
            used = text(
                await mcp.call_tool("report_use", {"answer": "You prefer window seats on flights."})
            )
            assert used.startswith("Reported 1 of "), used
            again = text(await mcp.call_tool("report_use", {"answer": "window seats"}))
            assert again == "Nothing recalled to report on."
            listing = text(await mcp.call_tool("list_memories", {}))
            assert seen["record_id"] in listing and "hunter2" not in listing
            resource = await mcp.read_resource("engram://memories")
            rows = json.loads(resource.contents[0].text)
            assert [r["id"] for r in rows] == [seen["record_id"]]

            proposal = text(
                await mcp.call_tool(
                    "propose_procedure_change",
                    {"procedure": "refunds", "proposed_text": "1. Check.", "base_version": 0},
                )
            )
            assert "waiting for a reviewer" in proposal
            seen["proposal"] = proposal

            candidates = text(await mcp.call_tool("forget", {"description": "window seats"}))
            assert seen["record_id"] in candidates and "Nothing was deleted" in candidates
            seen["after_describe"] = await asyncio.to_thread(status_of, seen["record_id"])

            gone = text(await mcp.call_tool("forget", {"record_ids": [seen["record_id"]]}))
            assert "Forgotten" in gone

            # Outage mid-session: recall degrades, remember is queued, nothing fails.
            live_engram.stop()
            down = text(await mcp.call_tool("recall", {"query": "seats"}))
            assert down.startswith("Memory is unavailable right now")
            queued = text(await mcp.call_tool("remember", {"statement": "User likes aisle seats"}))
            assert "queued" in queued
            live_engram.start()
            await mcp.call_tool("recall", {"query": "aisle seats"})  # sends the outbox
            after = text(await mcp.call_tool("list_memories", {}))
            assert "User likes aisle seats" in after
        return seen

    seen = asyncio.run(session())
    assert seen["after_describe"] == "active"  # describing deleted nothing
    assert MemoryRecord.objects.get(pk=seen["record_id"]).status == "deleted"
    assert MemoryRecord.objects.filter(statement="User likes aisle seats").count() == 1
    with tenant_context(keys.tenant.id):
        assert ChangeRequest.objects.get().status == "open"  # proposed, never approved


def test_tool_errors_carry_the_api_error_never_a_traceback(live_engram, keys, tmp_path):
    stderr = tmp_path / "stderr.log"
    params = server_params(live_engram, keys, str(tmp_path / "outbox.sqlite"))
    # The server's stderr into a file, to show no traceback reaches it.
    params = StdioServerParameters(
        command="sh",
        args=["-c", f'exec "{sys.executable}" -m engramhq_client.mcp_server 2>>"{stderr}"'],
        env=params.env,
    )

    def error(result) -> dict:
        assert result.is_error, result
        message = "\n".join(c.text for c in result.content)
        return json.loads(message[message.index("{") :])

    async def session() -> None:
        async with Client(params, read_timeout_seconds=60) as mcp:
            bad_id = error(await mcp.call_tool("forget", {"record_ids": ["not-a-uuid"]}))
            assert bad_id["code"] == "invalid_input" and "record_id" in bad_id["fields"]
            blank = error(await mcp.call_tool("recall", {"query": ""}))
            assert blank["code"] == "invalid_input" and "query" in blank["fields"]
            assert blank["message"]
            odd = error(await mcp.call_tool("remember", {"statement": "x", "namespace": "a b"}))
            assert odd["code"] == "invalid_input" and "namespace" in odd["fields"]
            # A policy decision is an answer, not an error.
            said = await mcp.call_tool("remember", {"statement": "my password is hunter2-Secret!"})
            assert not said.is_error

    asyncio.run(session())
    log = stderr.read_text()
    assert "Traceback" not in log


def test_the_outbox_is_on_by_default_in_the_home_folder(tmp_path, monkeypatch):
    from engramhq_client.mcp_server import Settings, build_server

    for name in list(os.environ):
        if name.startswith("ENGRAM_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ENGRAM_API_KEY", "egk_x_y")
    monkeypatch.setenv("ENGRAM_SUBJECT", "alice")
    settings = Settings.load()
    assert settings.outbox == "~/.engramhq/outbox.sqlite"
    build_server(settings)
    assert (tmp_path / ".engramhq" / "outbox.sqlite").exists()
    assert not (tmp_path / "~").exists()  # "~" is the home folder, not a folder named ~
    monkeypatch.setenv("ENGRAM_OUTBOX", "off")
    assert Settings.load().outbox is None


def test_missing_credentials_stop_the_server_with_a_message(tmp_path):
    import subprocess

    env = {"PATH": os.environ.get("PATH", ""), "ENGRAM_SUBJECT": "alice"}
    run = subprocess.run(
        [sys.executable, "-m", "engramhq_client.mcp_server"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0 and "ENGRAM_API_KEY" in run.stderr


def test_config_file(tmp_path, monkeypatch):
    from engramhq_client.mcp_server import Settings

    for name in list(os.environ):
        if name.startswith("ENGRAM_"):
            monkeypatch.delenv(name)
    config = tmp_path / "engram.toml"
    config.write_text('url = "http://127.0.0.1:9"\napi_key = "egk_x"\nsubject = "alice"\n')
    settings = Settings.load(str(config))
    assert (settings.url, settings.api_key, settings.subject) == (
        "http://127.0.0.1:9",
        "egk_x",
        "alice",
    )
    monkeypatch.setenv("ENGRAM_SUBJECT", "bob")  # the environment wins
    assert Settings.load(str(config)).subject == "bob"


def test_mcp_over_streamable_http(live_engram, keys, tmp_path):
    """The same server over streamable HTTP (loopback), driven by the mcp client."""
    import subprocess
    import time

    import httpx

    from tests.helpers.live_server import free_port

    port = free_port()
    params = server_params(live_engram, keys, str(tmp_path / "outbox.sqlite"))
    log = (tmp_path / "mcp-http.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "engramhq_client.mcp_server",
            "--transport",
            "streamable-http",
            "--port",
            str(port),
        ],
        env=params.env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert proc.poll() is None, (tmp_path / "mcp-http.log").read_text()
            try:
                httpx.get(f"http://127.0.0.1:{port}/mcp", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)

        async def session() -> str:
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as mcp:
                said = text(await mcp.call_tool("remember", {"statement": "User likes rooibos"}))
                assert said.startswith("Remembered")
                return text(await mcp.call_tool("list_memories", {}))

        assert "User likes rooibos" in asyncio.run(session())
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        log.close()
