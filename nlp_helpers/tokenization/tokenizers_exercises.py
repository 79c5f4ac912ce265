"""Checkers for the exercises of the production-tokenizers page (``book/tokenization/tokenizers.ipynb``).

``check_pretokenize_digits`` compares the student's pre-tokenizer with GPT-2's chunks
(:func:`nlp_helpers.tokenization.bpe.pretokenize`, itself tested against Hugging Face's ``ByteLevel``
pre-tokenizer) in which every number chunk is cut into groups of at most three digits from the left, the
convention of later GPT tokenizers (``\\p{N}{1,3}``). Its cases aim at the typical mistakes: groups counted
from the right, the leading space split off or lost, only ASCII digits treated as digits, letters cut too,
and chunks that no longer concatenate back to the text.
"""

from __future__ import annotations

from collections.abc import Callable

import regex

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.tokenization.bpe import pretokenize

__all__ = ["check_pretokenize_digits"]

_NUMBER = regex.compile(r" ?\p{N}+")


def _reference(text: str) -> list[str]:
    out = []
    for chunk in pretokenize(text):
        if _NUMBER.fullmatch(chunk):
            space, digits = (" ", chunk[1:]) if chunk.startswith(" ") else ("", chunk)
            groups = [digits[i : i + 3] for i in range(0, len(digits), 3)]
            out.extend([space + groups[0], *groups[1:]])
        else:
            out.append(chunk)
    return out


def _from_right(digits: str) -> list[str]:
    head = len(digits) % 3 or 3
    return [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]


def check_pretokenize_digits(pretokenize_digits: Callable) -> CheckResult:
    """``pretokenize_digits(text)``: GPT-2's chunks, numbers cut into groups of <= 3 digits from the left."""
    with Checker("Numbers in groups of three digits") as ex:
        text = "In 2024 it cost 12345.67 dollars"
        got = ex.call(pretokenize_digits, text)
        ex.expect(
            isinstance(got, list) and all(isinstance(c, str) for c in got),
            f"pretokenize_digits should return a list of str, got {type(got).__name__}: {got!r}.",
        )
        ex.expect(
            "".join(got) == text,
            f"pretokenize_digits({text!r}) gave {got!r}, which does not concatenate back to the text: every "
            "character, spaces included, must stay in exactly one chunk.",
        )
        ex.expect(
            got != [" 12", "345"] and " 12" not in got,
            f"pretokenize_digits({text!r}) gave {got!r}: you counted the groups from the right (as a thousands "
            "separator does). Count them from the left: the first group takes the first three digits.",
        )
        ex.expect(
            " " not in got,
            f"pretokenize_digits({text!r}) gave {got!r}: the space before a number is a chunk of its own. Keep "
            "it in front of the first group, as pretokenize keeps it in front of the whole number.",
        )
        ex.expect_equal(
            got,
            _reference(text),
            what=f"pretokenize_digits({text!r})",
            hint="Only the number chunks of pretokenize change: words stay whole, and so does every other chunk.",
        )
        for case in [" 1234567", "x1234y", "123", "1234"]:
            got = ex.call(pretokenize_digits, case)
            ex.expect(
                not (case.strip().isdigit() and got == _from_right(case) and got != _reference(case)),
                f"pretokenize_digits({case!r}) gave {got!r}: count the groups of three from the left.",
            )
            ex.expect_equal(
                got,
                _reference(case),
                what=f"pretokenize_digits({case!r})",
                hint="Cut each number chunk into groups of at most three digits, from the left; the space, if "
                "any, stays with the first group.",
            )
        got = ex.call(pretokenize_digits, "cost 1234 and supercalifragilistic")
        ex.expect(
            "supercalifragilistic" in [c.strip() for c in got],
            f"pretokenize_digits('cost 1234 and supercalifragilistic') gave {got!r}: only numbers are cut into "
            "groups; words stay whole chunks.",
        )
        arabic = "\u0661\u0662\u0663\u0664\u0665"  # the Arabic-Indic digits 1 2 3 4 5
        got = ex.call(pretokenize_digits, arabic)
        ex.expect_equal(
            got,
            _reference(arabic),
            what=f"pretokenize_digits({arabic!r}) (Arabic-Indic digits 12345)",
            hint="A number is what pretokenize's \\p{N} matches: digits of every script, not only 0-9. Test a "
            "chunk with the same class (the regex package), not with [0-9].",
        )
        ex.expect_equal(
            ex.call(pretokenize_digits, ""),
            [],
            what='pretokenize_digits("")',
            hint="The empty string has no chunks: return [].",
        )
    return ex.result
