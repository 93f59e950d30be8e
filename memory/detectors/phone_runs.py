"""Where a phone number can be: runs of the characters a written phone number is made of.

``find_sensitive_personal_data`` runs phonenumbers' matcher twice (read as Chinese, then
internationally) on any text with at least as many decimal digits as the shortest valid
number (``content_rules._min_phone_digits``): "variant 12 of the checklist (3f09b)" pays
both, though no five of its digits stand together. libphonenumber's matcher (its
documented grammar, `PhoneNumberMatcher` in the Java and Python ports) finds a number only
in a stretch of text made of: decimal digits; an optional lead of plus signs and opening
brackets; between digit groups, at most a few characters of its punctuation (dashes,
spaces, dots, slashes, tildes, brackets, the letter x, and their full-width forms); and an
optional extension, a label ("ext", "extension", "extensión", "anexo", "int", "доб", "x",
"#", "~", ";ext=", full-width forms) with separators and digits after it. So a number the
matcher finds has its digits inside one maximal run of those characters.

``PHONE_CHARS`` is a conservative superset of them written here, no library internals
read: every decimal digit, every whitespace character, all ASCII punctuation and symbols,
the Unicode dashes, spaces, invisible joiners, brackets and tildes libphonenumber lists,
and the letters of its extension labels, compiled case-insensitively as its own pattern
is (so "EXT" and its Unicode case variants are in too). A superset only sends more text
to the matcher, never less. tests/memory/test_detector_plumbing.py checks it contains
every character phonenumbers' installed pattern can consume (read there, in the test
only), that every region's example numbers pass, and (Hypothesis) that no text the
filter turns away holds a number the matcher finds.

``phone_shaped_runs_hold`` answers whether any maximal run holds ``least`` decimal digits:
when none does, the matcher cannot find a number and is not run.
``ENGRAM_DETECTOR_PHONE_RUNS`` (default on) selects it; off, the digit count of the whole
text decides, as before.
"""

from __future__ import annotations

import re

_DIGIT = re.compile(r"\d")

# Each group below, one class item or character range per entry.
_PHONE_CLASS_ITEMS = (
    r"\d",  # any decimal digit (phonenumbers reads Unicode digits)
    r"\s",  # any whitespace: spaces, tabs, NBSP, ideographic space
    r"!-/:-@\[-`{-~",  # all ASCII punctuation and symbols: + ( ) [ ] - . / ~ # ; = : , …
    "\u00a0\u00ad",  # no-break space, soft hyphen
    "\u2010-\u2015\u2212",  # hyphens and dashes, minus sign
    "\u200b\u2060",  # zero-width space, word joiner
    "\u2053\u223c",  # swung dash, tilde operator
    "\u3000\u30fc",  # ideographic space, the katakana long vowel mark written as a dash
    "\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65",  # full-width punctuation
    "aeinostx",  # the extension labels' letters: ext, extension, anexo, int, x
    "\u00f3\u0301",  # extensión, written composed or with a combining acute
    "\uff45\uff49\uff4e\uff54\uff58",  # full-width ｅｉｎｔｘ
    "\u0431\u0434\u043e",  # доб
)
PHONE_CHARS = "".join(_PHONE_CLASS_ITEMS)
_RUNS = re.compile(f"[{PHONE_CHARS}]+", re.IGNORECASE | re.UNICODE)


def phone_shaped_runs_hold(text: str, least: int) -> bool:
    """Whether some maximal run of ``PHONE_CHARS`` holds at least ``least`` decimal digits."""
    for m in _RUNS.finditer(text):
        run = m.group()
        if len(run) >= least and len(_DIGIT.findall(run)) >= least:
            return True
    return False


# How a number is written where it is dialled. Read as Chinese, phonenumbers also accepts
# a national number without its trunk prefix ("2023118845" is Guangzhou's 020-23118845),
# which is how nobody writes a landline and how order, invoice and staff numbers look. A
# Chinese number is written with its trunk prefix 0 (020-…, 0755 …), as a mobile number
# (its national number starts with 1), or with the country code (+86, 0086, 86 …); read
# with no region a number has a plus sign already (``_no_plus_for_unknown_region``).
_PLUS = ("+", "\uff0b")
_NON_DIGIT = re.compile(r"\D")


def written_as_phone_number(raw: str, region: str | None) -> bool:
    """Whether a matched number ``raw`` is written as people write a phone number in ``region``."""
    if region != "CN" or any(plus in raw for plus in _PLUS):
        return True
    digits = _NON_DIGIT.sub("", raw)
    return digits.startswith(("0", "1", "86"))
