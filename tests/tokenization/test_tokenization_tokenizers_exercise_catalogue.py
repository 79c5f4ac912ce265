"""Catalogue of the production-tokenizers page's exercise: requirements, correct answers in two styles
(accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``pretokenize_digits(text)``: a list of str that concatenates back to ``text``; pretokenize's chunks, with
  every number chunk (`` ?\\p{N}+``) cut into groups of at most three digits counted from the left; the
  leading space stays with the first group; words are not cut; digits of every script count; ``""`` gives
  ``[]``.
"""

from __future__ import annotations

import regex

from nlp_helpers.tokenization.bpe import pretokenize
from nlp_helpers.tokenization.tokenizers_exercises import check_pretokenize_digits
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def digits_by_slicing(text):
    out = []
    for chunk in pretokenize(text):
        if regex.fullmatch(r" ?\p{N}+", chunk):
            start = 1 if chunk[0] == " " else 0
            groups = [chunk[i : i + 3] for i in range(start, len(chunk), 3)]
            out += [chunk[:start] + groups[0], *groups[1:]]
        else:
            out.append(chunk)
    return out


def digits_by_pattern(text):  # one pattern: the number alternative of GPT-2's becomes ' ?\p{N}{1,3}' + '\p{N}{1,3}'
    pattern = regex.compile(
        r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+|(?<!\p{N}) ?\p{N}{1,3}|(?<=\p{N})\p{N}{1,3}| ?[^\s\p{L}\p{N}]+"
        r"|\s+(?!\S)|\s+"
    )
    return pattern.findall(text)


def from_the_right(text):
    out = []
    for chunk in pretokenize(text):
        if regex.fullmatch(r" ?\p{N}+", chunk):
            space, digits = (" ", chunk[1:]) if chunk[0] == " " else ("", chunk)
            head = len(digits) % 3 or 3
            groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
            out += [space + groups[0], *groups[1:]]
        else:
            out.append(chunk)
    return out


def space_apart(text):
    out = []
    for chunk in digits_by_slicing(text):
        if chunk.startswith(" ") and chunk[1:].isdigit():
            out += [" ", chunk[1:]]
        else:
            out.append(chunk)
    return out


def ascii_only(text):
    out = []
    for chunk in pretokenize(text):
        if regex.fullmatch(r" ?[0-9]+", chunk):
            out += digits_by_slicing(chunk)
        else:
            out.append(chunk)
    return out


def cuts_words_too(text):
    out = []
    for chunk in pretokenize(text):
        start = 1 if chunk[0] == " " and len(chunk) > 1 else 0
        groups = [chunk[i : i + 3] for i in range(start, len(chunk), 3)]
        out += [chunk[:start] + groups[0], *groups[1:]]
    return out


def loses_the_space(text):
    return [c.strip() if regex.fullmatch(r" ?\p{N}+", c) else c for c in digits_by_slicing(text)]


def empty_gives_empty_chunk(text):  # requirement: "" gives []
    return digits_by_slicing(text) or [""]


def tuple_result(text):
    return tuple(digits_by_slicing(text))


CATALOGUE = {
    check_pretokenize_digits: Catalogue(
        correct=[digits_by_slicing, digits_by_pattern],
        wrong=[
            Wrong(from_the_right, "from the right"),
            Wrong(space_apart, "chunk of its own"),
            Wrong(ascii_only, "every script"),
            Wrong(cuts_words_too, "words stay whole"),
            Wrong(loses_the_space, "concatenate back"),
            Wrong(tuple_result, "list of str"),
            Wrong(empty_gives_empty_chunk, "empty string"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)


def test_the_worked_example():
    assert digits_by_slicing(" 1234567") == [" 123", "456", "7"]
    assert digits_by_slicing("12345.67") == ["123", "45", ".", "67"]
