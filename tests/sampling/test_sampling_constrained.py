"""Constrained decoding: the automaton's token mask against Python's ``re`` (a hand-written regular expression
of the pattern's prefixes), and every decoded output matching the pattern on many seeds."""

from __future__ import annotations

import re

import numpy as np
import pytest

from nlp_helpers.sampling.constrained import CharDFA, allowed_tokens, constrained_decode

D = "0123456789"
DATE = [D, D, D, D, "-", "01", D, "-", "0123", D]
DATE_RE = re.compile(r"\d{4}-[01]\d-[0-3]\d")
# every prefix of a date, written by hand as a regular expression
PREFIX_RE = re.compile(r"\d{0,4}|\d{4}-[01]?|\d{4}-[01]\d(-[0-3]?)?|\d{4}-[01]\d-[0-3]\d")
VOCAB = [*D, "-", "--", "12", "2024", "2024-", "-0", "-1", "-4", "19", "07", "a", " ", "1 ", "x9", "31", "99", "", "0-"]


def test_mask_matches_python_re():
    dfa = CharDFA.from_char_classes(DATE)
    g = np.random.default_rng(0)
    for _ in range(200):
        # a random valid prefix: read random allowed characters
        n = int(g.integers(0, 10))
        prefix = "".join(g.choice(list(DATE[i])) for i in range(n))
        state = dfa.walk(0, prefix)
        want = [t != "" and PREFIX_RE.fullmatch(prefix + t) is not None for t in VOCAB]
        assert allowed_tokens(dfa, state, VOCAB).tolist() == want


def test_walk_and_matches_hand_worked():
    dfa = CharDFA.from_char_classes(DATE)
    assert dfa.matches("1969-07-20")
    assert not dfa.matches("1969-7-20")
    assert not dfa.matches("1969-07-2")
    assert dfa.walk(0, "19a") is None
    assert dfa.is_final(dfa.walk(0, "2024-12-31"))


@pytest.mark.trains
@pytest.mark.parametrize("temperature", [0.0, 1.0, 3.0])
def test_every_output_matches_the_pattern(temperature):
    dfa = CharDFA.from_char_classes(DATE)
    table = np.random.default_rng(3).normal(scale=3.0, size=(11, len(VOCAB)))

    def logits_fn(ids):  # a random "model": next-token logits depend on the last token and the length
        return table[(ids[-1] + len(ids)) % len(table)]

    for seed in range(40):
        out = constrained_decode(logits_fn, [0], dfa, VOCAB, 20, temperature=temperature, seed=seed)
        assert DATE_RE.fullmatch("".join(VOCAB[i] for i in out))


def test_bad_inputs():
    dfa = CharDFA.from_char_classes(DATE)
    with pytest.raises(ValueError, match="classes"):
        CharDFA.from_char_classes([])
    with pytest.raises(ValueError, match="classes"):
        CharDFA.from_char_classes("abc")
    with pytest.raises(TypeError, match="dfa"):
        allowed_tokens("x", 0, VOCAB)
    with pytest.raises(ValueError, match="state"):
        allowed_tokens(dfa, 99, VOCAB)
    with pytest.raises(TypeError, match="token_strings"):
        allowed_tokens(dfa, 0, [1, 2])
    with pytest.raises(ValueError, match="temperature"):
        constrained_decode(lambda ids: np.zeros(len(VOCAB)), [0], dfa, VOCAB, 5, temperature=-1.0)
    with pytest.raises(ValueError, match="input_ids"):
        constrained_decode(lambda ids: np.zeros(len(VOCAB)), [], dfa, VOCAB, 5)
    with pytest.raises(TypeError, match="logits_fn"):
        constrained_decode(None, [0], dfa, VOCAB, 5)
    with pytest.raises(ValueError, match="no token"):
        constrained_decode(lambda ids: np.zeros(2), [0], dfa, ["a", "b"], 5)
