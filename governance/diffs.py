"""Line diffs between two texts for the review page (pure; difflib)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class SideBySideRow:
    tag: str  # equal | replace | delete | insert
    left_no: int | None
    left: str
    right_no: int | None
    right: str


def side_by_side(old: str, new: str) -> list[SideBySideRow]:
    a, b = old.splitlines(), new.splitlines()
    rows: list[SideBySideRow] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        left, right = a[i1:i2], b[j1:j2]
        for k in range(max(len(left), len(right))):
            rows.append(
                SideBySideRow(
                    tag=tag,
                    left_no=i1 + k + 1 if k < len(left) else None,
                    left=left[k] if k < len(left) else "",
                    right_no=j1 + k + 1 if k < len(right) else None,
                    right=right[k] if k < len(right) else "",
                )
            )
    return rows


@dataclass(frozen=True)
class UnifiedLine:
    kind: str  # header | hunk | add | remove | context
    text: str


def unified(old: str, new: str, *, old_label: str, new_label: str) -> list[UnifiedLine]:
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), fromfile=old_label, tofile=new_label, lineterm=""
    )
    out: list[UnifiedLine] = []
    for line in lines:
        if line.startswith(("---", "+++")):
            kind = "header"
        elif line.startswith("@@"):
            kind = "hunk"
        elif line.startswith("+"):
            kind = "add"
        elif line.startswith("-"):
            kind = "remove"
        else:
            kind = "context"
        out.append(UnifiedLine(kind, line))
    return out
