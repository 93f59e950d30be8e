"""Which CPU instructions beyond x86-64-v3 a shared library or program uses, per function.

The former embedded bundle (docs/database.md) shipped a ``vector.so`` compiled for its
build host: AVX-512 in ``cosine_distance`` and friends, unconditionally, so every vector
operation killed the backend with SIGILL on CPUs without AVX-512 (most AMD servers before
Zen 4, Intel client CPUs since Alder Lake). This module finds that class of build mistake in any binary.

It reads ``objdump -d`` with raw bytes and flags, per function:
- any EVEX-encoded instruction (AVX-512 and AVX10: in 64-bit mode a ``0x62`` opcode byte
  after the legacy prefixes is always EVEX, because BOUND does not exist there);
- AVX-512 mask-register instructions (``kmovw``, ``kandw``…), which are VEX-encoded but
  name ``%k0``-``%k7``;
- AMX tile registers (``%tmm``) and APX's REX2 prefix (``0xd5``).

Functions that use them only after a run-time CPU check are allowed by exact name
(:data:`DISPATCHED`), so a new one fails until someone has read it.

Run it by hand: ``python -m tests.portability.isa FILE...`` prints offending functions and
exits 1 if there are any outside the allowed list.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

# Functions that contain AVX-512 but are only reached through a function pointer chosen
# after a CPUID/XGETBV check (read in their sources: pgvector src/bitutils.c; PostgreSQL
# src/port/pg_crc32c_avx512.c and pg_popcount_avx512.c with their *_choose functions).
DISPATCHED: dict[str, frozenset[str]] = {
    "vector.so": frozenset(
        {"BitHammingDistanceAvx512Popcount", "BitJaccardDistanceAvx512Popcount"}
    ),
    "postgres": frozenset(
        {"pg_comp_crc32c_avx512", "pg_popcount_avx512", "pg_popcount_masked_avx512"}
    ),
}

LEGACY_PREFIXES = {0x26, 0x2E, 0x36, 0x3E, 0x64, 0x65, 0x67, 0xF0}
_FUNCTION = re.compile(r"^[0-9a-f]+ <(?P<name>[^>]+)>:$")
_MASK_OR_TILE_REGISTER = re.compile(r"%(?:k[0-7]|tmm[0-7])\b")
_INSTRUCTION = re.compile(r"^\s*[0-9a-f]+:\t(?P<bytes>(?:[0-9a-f]{2} )+)\s*\t?(?P<asm>.*)$")


class ObjdumpMissing(RuntimeError):
    pass


def objdump() -> str:
    path = shutil.which("objdump")
    if path is None:
        raise ObjdumpMissing(
            "the instruction-set guard needs objdump: install binutils "
            "('apt-get install -y binutils'; ./dev test does this when run as root)"
        )
    return path


def beyond_v3(instruction_bytes: list[int], asm: str) -> bool:
    """Does one decoded instruction need more than x86-64-v3?"""
    i = 0
    while i < len(instruction_bytes) and instruction_bytes[i] in LEGACY_PREFIXES:
        i += 1
    if i < len(instruction_bytes) and instruction_bytes[i] in (0x62, 0xD5):
        return True
    return _MASK_OR_TILE_REGISTER.search(asm) is not None


def scan(path: Path) -> Counter[str]:
    """Count, per function, the instructions beyond x86-64-v3 in ``path``."""
    out = subprocess.run(
        [objdump(), "-d", "--wide", str(path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found: Counter[str] = Counter()
    function = "?"
    for line in out.splitlines():
        if m := _FUNCTION.match(line):
            function = m["name"].split("@")[0]
            continue
        m = _INSTRUCTION.match(line)
        if m is None or not m["asm"]:
            continue  # continuation lines of long instructions carry no mnemonic
        raw = [int(b, 16) for b in m["bytes"].split()]
        if beyond_v3(raw, m["asm"]):
            found[function] += 1
    return found


def violations(path: Path) -> Counter[str]:
    """Functions in ``path`` that use instructions beyond x86-64-v3 and are not dispatched."""
    allowed = DISPATCHED.get(path.name, frozenset())
    return Counter({fn: n for fn, n in scan(path).items() if fn not in allowed})


def main(argv: list[str]) -> int:
    bad = 0
    for name in argv:
        path = Path(name)
        found = scan(path)
        allowed = DISPATCHED.get(path.name, frozenset())
        print(f"{path}:")
        if not found:
            print("  nothing beyond x86-64-v3")
        for fn, n in sorted(found.items()):
            verdict = "dispatched at run time (allowed)" if fn in allowed else "NOT ALLOWED"
            bad += fn not in allowed
            print(f"  {fn}: {n} instructions beyond x86-64-v3 — {verdict}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
