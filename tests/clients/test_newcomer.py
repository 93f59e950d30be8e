"""A newcomer's path, end to end, with Engram up and with Engram down (a closed port):

1. install the client by its name — ``engramhq-client``, a wheel built from
   clients/python — into a fresh virtualenv (its dependencies come from the test
   environment's locked ones, so the test needs no network beyond the build);
2. run every Python example of clients/python/README.md as it is written;
3. run the LangGraph example graph for two users;
4. start the MCP server exactly as the README's MCP configuration says, and drive it with
   the ``mcp`` SDK's client.

The TypeScript side of the same path is tests/clients/test_typescript.py."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from accounts.services.credentials import api_key_issue
from core.actor import Actor
from memory.models import MemoryRecord, Subject
from tests.helpers.live_server import free_port, make_agent

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "clients" / "python" / "README.md"
EXAMPLE = ROOT / "clients" / "python" / "examples" / "langgraph_agent.py"


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A fresh virtualenv with the client installed by its distribution name."""
    work = tmp_path_factory.mktemp("newcomer")
    wheels = work / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(wheels),
            str(ROOT / "clients/python"),
        ],
        check=True,
        capture_output=True,
    )
    [wheel] = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as zf:
        metadata = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        assert "Name: engramhq-client\n" in zf.read(metadata).decode()
        assert any(n.startswith("engramhq_client/") for n in zf.namelist())
    env_dir = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(env_dir / "bin" / "python"),
            "install",
            "-q",
            "--no-deps",
            f"engramhq-client @ {wheel.as_uri()}",
        ],
        check=True,
        capture_output=True,
    )
    # Dependencies (httpx, langgraph, mcp) from the locked test environment, after the
    # venv's own site-packages (a path in a .pth file: its own .pth files, such as the
    # editable install of the client, are not run).
    site = next((env_dir / "lib").glob("python3*/site-packages"))
    (site / "deps-from-test-env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    located = subprocess.run(
        [
            str(env_dir / "bin" / "python"),
            "-c",
            "import engramhq_client; print(engramhq_client.__file__)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert located.startswith(str(env_dir)), located
    assert (env_dir / "bin" / "engramhq-mcp").exists()
    return env_dir


@pytest.fixture
def demo_key(live_engram) -> str:
    """A key like the one ./dev run prints: read, write and admin (issues subject tokens)."""
    agent = make_agent("newco").agent
    _, key = api_key_issue(
        actor=Actor.system(agent.tenant_id), agent=agent, scopes=["read", "write", "admin"]
    )
    return key


def python_examples() -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) >= 2
    return blocks


def run(venv: Path, home: Path, args: list[str], **env: str) -> str:
    home.mkdir(exist_ok=True)
    proc = subprocess.run(
        [str(venv / "bin" / "python"), *args],
        cwd=home,
        env={"PATH": os.environ["PATH"], "HOME": str(home), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.parametrize("up", [True, False], ids=["engram_up", "engram_down"])
def test_readme_examples_run_as_written(venv, live_engram, demo_key, tmp_path, up):
    url = live_engram.url if up else f"http://127.0.0.1:{free_port()}"
    home = tmp_path / "home"
    outputs = []
    for index, block in enumerate(python_examples()):
        script = tmp_path / f"example_{index}.py"
        script.write_text(block)
        outputs.append(run(venv, home, [str(script)], ENGRAM_URL=url, ENGRAM_API_KEY=demo_key))
    quick, store = outputs[0], outputs[1]
    if up:
        assert "ADD new_memory" in quick and "memory unavailable" not in quick
        assert "{'text': 'User prefers metric units', 'system': 'metric'}" in store
        assert "secret_detected" in store
    else:
        assert "QUEUED" in quick and "memory unavailable" in quick
        assert "degraded:" in store
    # "~" is the home folder: the outbox is there, not in a folder named "~".
    assert (home / ".engramhq" / "outbox.sqlite").exists()
    assert not (home / "~").exists()


def test_the_langgraph_example_serves_two_users_up_and_down(venv, live_engram, demo_key, tmp_path):
    home = tmp_path / "home"
    up = {"ENGRAM_URL": live_engram.url, "ENGRAM_API_KEY": demo_key}
    said = run(venv, home, [str(EXAMPLE), "judy", "remember: I prefer oolong tea"], **up)
    assert said.strip() == "I'll try to remember that."
    assert "oolong" in run(
        venv, home, [str(EXAMPLE), "judy", "which tea do I prefer? oolong"], **up
    )
    assert run(
        venv, home, [str(EXAMPLE), "ken", "which tea do I prefer? oolong"], **up
    ).strip() == ("I don't know yet.")
    assert MemoryRecord.objects.filter(subject=Subject.objects.get(external_id="judy")).count() == 1
    assert not MemoryRecord.objects.filter(subject__external_id="ken").exists()

    down = {**up, "ENGRAM_URL": f"http://127.0.0.1:{free_port()}"}
    assert run(
        venv, home, [str(EXAMPLE), "judy", "remember: I like green tea too"], **down
    ).strip() == (
        "I'll try to remember that."  # queued in the outbox
    )
    assert (
        run(venv, home, [str(EXAMPLE), "judy", "which tea?"], **down).strip() == "I don't know yet."
    )


def _readme_mcp_config(url: str, key: str, venv: Path, home: Path) -> StdioServerParameters:
    block = re.search(r"```json\n(\{\"mcpServers\".*?)```", README.read_text(), re.S)
    assert block, "the README's MCP configuration"
    server = json.loads(block.group(1))["mcpServers"]["engram"]
    env = {name: value.replace("egk_…", key) for name, value in server["env"].items()}
    env["ENGRAM_URL"] = url
    assert server["env"]["ENGRAM_OUTBOX"].startswith("~/")
    command = str(venv / "bin" / server["command"])  # as installed by the package
    return StdioServerParameters(
        command=command,
        args=[],
        env={**env, "HOME": str(home), "PATH": os.environ["PATH"]},
        cwd=str(home),
    )


@pytest.mark.parametrize("up", [True, False], ids=["engram_up", "engram_down"])
def test_mcp_as_the_readme_configures_it(venv, live_engram, demo_key, tmp_path, up):
    home = tmp_path / "home"
    home.mkdir()
    url = live_engram.url if up else f"http://127.0.0.1:{free_port()}"
    params = _readme_mcp_config(url, demo_key, venv, home)

    async def session() -> tuple[str, str]:
        async with Client(params, read_timeout_seconds=60) as mcp:
            said = await mcp.call_tool("remember", {"statement": "User prefers aisle seats"})
            found = await mcp.call_tool("recall", {"query": "aisle seats"})
            assert not said.is_error and not found.is_error
            return said.content[0].text, found.content[0].text

    said, found = asyncio.run(session())
    if up:
        assert said.startswith("Remembered") and "aisle seats" in found
    else:
        assert "queued" in said and found.startswith("Memory is unavailable right now")
        assert (home / ".engramhq" / "outbox.sqlite").exists()
    assert not (home / "~").exists()
