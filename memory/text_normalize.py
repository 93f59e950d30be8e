"""The one text form every content detector reads: obfuscation undone, positions kept.

Attackers hide words from detectors with look-alike letters (Cyrillic "раssword"),
invisible characters (zero-width joiners, bidi overrides), full-width Latin ("ｉｇｎｏｒｅ"),
and letters spaced apart ("忽 略 之 前", "i g n o r e"). ``detection_form`` undoes all of
these, character by character, and keeps for every output character the index of the input
character it came from, so a detector that finds a secret in the normalised text can redact
exactly that span of the original.

Steps, in order, per character:
1. drop format controls (Unicode category Cf: zero-width space/joiners, bidi embeddings and
   overrides, soft hyphen, word joiner, BOM, tag characters) and variation selectors;
2. NFKC (full-width and compatibility forms become plain letters and digits);
3. the Unicode TR39 confusables skeleton for letters outside ASCII and CJK, from the
   confusables table shipped in the ``confusable-homoglyphs`` package: a Cyrillic "а" or a
   Greek "ο" becomes the ASCII letter it imitates. ASCII is never remapped ("l" stays "l");
   typographic quotes become ASCII quotes ("I’m" reads as "I'm").
Unicode tag characters (U+E0020–E007E) are not dropped but read as the ASCII they encode:
they carry text no person sees ("ASCII smuggling"), which is exactly what a detector must read.
Then whitespace between two CJK characters is removed (Chinese is written without spaces;
spacing it out is an evasion), runs of three or more single Latin letters separated by
single spaces are joined ("i g n o r e" -> "ignore"), and runs of three or more single
letters or CJK characters separated by one repeated symbol are joined too ("p-i-n",
"I👉g👉n👉o👉r👉e", "🤖请🤖把🤖用🤖户"): a word is never written one letter per symbol.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources

from core.process_state import memoized
from memory.detectors.switches import detection_switch


@dataclass(frozen=True)
class DetectionText:
    """Normalised text plus, for each of its characters, the index in the original."""

    text: str
    origin: tuple[int, ...]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that produced ``text[start:end]``."""
        if start >= end:
            at = (
                self.origin[start]
                if start < len(self.origin)
                else (self.origin[-1] + 1 if self.origin else 0)
            )
            return at, at
        return self.origin[start], self.origin[end - 1] + 1


def _is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0xF900 <= cp <= 0xFAFF
        or 0x3000 <= cp <= 0x303F  # CJK punctuation
        or 0xFF01 <= cp <= 0xFF60  # full-width forms (before NFKC)
    )


@memoized("memory.text_normalize._skeleton_table", maxsize=1)
def _skeleton_table() -> dict[str, str]:
    """Non-ASCII letter -> the ASCII letter or digit it is confusable with (TR39 data)."""
    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    table: dict[str, str] = {}
    for char, homoglyphs in json.loads(raw).items():
        if len(char) != 1 or char.isascii() or _is_cjk(char):
            continue
        for glyph in homoglyphs:
            target = glyph.get("c", "")
            # Greek tau and Cyrillic te look like a small-capital T, which reads as "t".
            small_capital = re.fullmatch(
                r"LATIN LETTER SMALL CAPITAL ([A-Z])",
                unicodedata.name(target, "") if len(target) == 1 else "",
            )
            if small_capital:
                target = small_capital.group(1).lower()
            if len(target) == 1 and target.isascii() and target.isalnum():
                table[char] = target
                break
    return table


def _dropped(ch: str) -> bool:
    cp = ord(ch)
    return unicodedata.category(ch) == "Cf" or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


# Typographic quotes read as ASCII quotes, so "I’m" and "I'm" are one pattern.
_PUNCT_FOLD = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
}

_SPACED_CJK = re.compile(r"(?<=[\u3400-\u9fff])[ \t\u3000]+(?=[\u3400-\u9fff])")
_SPACED_LATIN = re.compile(r"(?<![A-Za-z])(?:[A-Za-z] ){2,}[A-Za-z](?![A-Za-z])")
# One letter (or CJK character) per separator, the same separator each time: the separator
# is a symbol or one of a few joining punctuation marks, never a space, comma or 、 (a list
# "A、B、C" keeps its marks). The first group is the separator; every copy of it is removed.
_SEP = r"[^\w\s,，、。;；:：!?！？()\[\]{}<>\"'“”‘’]"
_SEPARATED = re.compile(
    r"(?<![\w])(?=(?:[A-Za-z\u3400-\u9fff]))"
    r"[A-Za-z\u3400-\u9fff](?P<sep>" + _SEP + r")(?:[A-Za-z\u3400-\u9fff](?P=sep)){1,}"
    r"[A-Za-z\u3400-\u9fff](?![A-Za-z\u3400-\u9fff])"
)


def _tag_char(ch: str) -> str | None:
    """The ASCII character a Unicode tag character encodes (None for anything else)."""
    cp = ord(ch)
    return chr(cp - 0xE0000) if 0xE0020 <= cp <= 0xE007E else None


def _remove(
    chars: list[str], origin: list[int], pattern: re.Pattern[str], keep_letters: bool
) -> tuple[list[str], list[int]]:
    text = "".join(chars)
    drop: set[int] = set()
    for m in pattern.finditer(text):
        if keep_letters:
            drop.update(i for i in range(m.start(), m.end()) if text[i] == " ")
        else:
            drop.update(range(m.start(), m.end()))
    if not drop:
        return chars, origin
    kept = [i for i in range(len(chars)) if i not in drop]
    return [chars[i] for i in kept], [origin[i] for i in kept]


@memoized("memory.text_normalize.detection_form", maxsize=512)
def detection_form(text: str) -> DetectionText:
    """``text`` with obfuscation undone (see the module docstring); cached per text, since
    the write policy runs several detectors over the same candidate. The same result by
    ``_detection_form_fast`` (``ENGRAM_FAST_DETECTION_TEXT``, default on) or by the
    reference, ``detection_form_reference``."""
    if detection_switch("FAST_DETECTION_TEXT"):
        return _detection_form_fast(text)
    return detection_form_reference(text)


def _detection_form_fast(text: str) -> DetectionText:
    """``detection_form_reference(text)``, with every ASCII character passed through at
    once. Exact, not a heuristic: no ASCII character is a format control (category Cf), a
    variation selector or a tag character, NFKC and the confusables table are applied only
    outside ASCII, and the CJK spacing rule needs a CJK character on both sides. So the
    reference keeps every ASCII character as it is, at its own index, and ASCII text
    takes its first branch (which it reaches only when also printable: a candidate's
    ``statement + "\n" + value`` never is, and paid the per-character loop)."""
    if text.isascii():
        chars, origin = _remove(list(text), list(range(len(text))), _SPACED_LATIN, True)
        chars, origin = _remove_separators(chars, origin)
        return DetectionText("".join(chars), tuple(origin))
    table = _skeleton_table()
    chars = []
    origin = []
    for index, ch in enumerate(text):
        if ch.isascii():
            chars.append(ch)
            origin.append(index)
            continue
        tagged = _tag_char(ch)
        if tagged is not None:
            chars.append(tagged)
            origin.append(index)
            continue
        if _dropped(ch):
            continue
        for out in unicodedata.normalize("NFKC", ch):
            if not out.isascii():
                out = _PUNCT_FOLD.get(out) or table.get(out, out)
            chars.append(out)
            origin.append(index)
    chars, origin = _remove(chars, origin, _SPACED_CJK, keep_letters=False)
    chars, origin = _remove(chars, origin, _SPACED_LATIN, keep_letters=True)
    chars, origin = _remove_separators(chars, origin)
    return DetectionText("".join(chars), tuple(origin))


def detection_form_reference(text: str) -> DetectionText:
    """The reference of ``detection_form`` (uncached), character by character."""
    if text.isascii() and text.isprintable():
        # Fast path (most text): nothing to drop or map, only spaced-out letters to join.
        chars, origin = _remove(list(text), list(range(len(text))), _SPACED_LATIN, True)
        chars, origin = _remove_separators(chars, origin)
        return DetectionText("".join(chars), tuple(origin))
    table = _skeleton_table()
    chars = []
    origin = []
    for index, ch in enumerate(text):
        tagged = _tag_char(ch)
        if tagged is not None:
            chars.append(tagged)
            origin.append(index)
            continue
        if _dropped(ch):
            continue
        normal = unicodedata.normalize("NFKC", ch) if not ch.isascii() else ch
        for out in normal:
            if not out.isascii():
                out = _PUNCT_FOLD.get(out) or table.get(out, out)
            chars.append(out)
            origin.append(index)
    chars, origin = _remove(chars, origin, _SPACED_CJK, keep_letters=False)
    chars, origin = _remove(chars, origin, _SPACED_LATIN, keep_letters=True)
    chars, origin = _remove_separators(chars, origin)
    return DetectionText("".join(chars), tuple(origin))


def _remove_separators(chars: list[str], origin: list[int]) -> tuple[list[str], list[int]]:
    """Drop the repeated separator of a letter-per-separator run (``_SEPARATED``)."""
    text = "".join(chars)
    drop: set[int] = set()
    for m in _SEPARATED.finditer(text):
        sep = m.group("sep")
        drop.update(i for i in range(m.start(), m.end()) if text[i] == sep)
    if not drop:
        return chars, origin
    kept = [i for i in range(len(chars)) if i not in drop]
    return [chars[i] for i in kept], [origin[i] for i in kept]


def normalize_for_detection(text: str) -> str:
    """Just the normalised text (see ``detection_form``)."""
    return detection_form(text).text


def has_mixed_script_word(text: str) -> bool:
    """True when one word mixes ASCII letters with look-alike letters of another script
    ("pаypal" with a Cyrillic а): a homograph, never an innocent spelling."""
    table = _skeleton_table()
    for word in re.findall(r"[^\W\d_]{2,}", text):
        has_ascii = any(c.isascii() for c in word)
        if has_ascii and any(c in table for c in word):
            return True
    return False
