"""Constrained decoding: a finite automaton over characters masks the vocabulary at every step.

A pattern such as a date ``YYYY-MM-DD`` is a deterministic finite automaton (DFA)
over characters. Before each step we ask, for every token of the vocabulary, whether
the automaton can read the token's characters from its current state without dying;
tokens that cannot are masked to ``-inf``. Whatever the model then picks, the text
stays a prefix of a string the pattern accepts, and decoding stops when the
automaton reaches an accepting state it cannot leave. This is the idea of Outlines
(Willard and Louf, 2023) and XGrammar (Dong et al., 2024), who precompute the masks
for regular expressions and context-free grammars; here the mask is recomputed
per step (fine for a 49k vocabulary and short outputs).

* :class:`CharDFA` with :meth:`CharDFA.from_char_classes` (a fixed-length pattern,
  one set of allowed characters per position) and :meth:`CharDFA.walk`;
* :func:`allowed_tokens` (the mask for one state) and :func:`constrained_decode`
  (the loop, greedy or sampled, on any ``ids -> logits`` callable).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from nlp_helpers._checks import check_float, check_int
from nlp_helpers.sampling.distributions import sample

__all__ = ["CharDFA", "allowed_tokens", "constrained_decode"]


@dataclass
class CharDFA:
    """A DFA over characters: ``transitions[state][char] -> state``, start state 0, a set of accepting states."""

    transitions: list[dict[str, int]]
    accepting: set[int] = field(default_factory=set)

    @classmethod
    def from_char_classes(cls, classes: Sequence[str]) -> CharDFA:
        """The automaton of strings whose i-th character is in ``classes[i]`` (e.g. a date ``YYYY-MM-DD``)."""
        if isinstance(classes, str) or not classes or any(not isinstance(c, str) or not c for c in classes):
            raise ValueError(
                "classes must be a non-empty sequence of non-empty strings (allowed characters per position)"
            )
        transitions = [{ch: i + 1 for ch in chars} for i, chars in enumerate(classes)] + [{}]
        return cls(transitions, {len(classes)})

    def walk(self, state: int, text: str) -> int | None:
        """State after reading ``text`` from ``state``; ``None`` if the automaton dies on the way."""
        for ch in text:
            state = self.transitions[state].get(ch)
            if state is None:
                return None
        return state

    def is_final(self, state: int) -> bool:
        """Accepting with no way to continue: decoding must stop here."""
        return state in self.accepting and not self.transitions[state]

    def matches(self, text: str) -> bool:
        """True if the whole of ``text`` is accepted."""
        end = self.walk(0, text)
        return end is not None and end in self.accepting


def allowed_tokens(dfa: CharDFA, state: int, token_strings: Sequence[str]) -> np.ndarray:
    """Boolean mask (V,): token ``i`` is allowed if its (non-empty) text can be read from ``state``."""
    if not isinstance(dfa, CharDFA):
        raise TypeError(f"dfa must be a CharDFA, got {type(dfa).__name__}")
    state = check_int("state", state, minimum=0, maximum=len(dfa.transitions) - 1)
    if isinstance(token_strings, str) or not all(isinstance(t, str) for t in token_strings):
        raise TypeError("token_strings must be a sequence of str (the text of every token id)")
    return _allowed(dfa, state, token_strings)


def _allowed(dfa: CharDFA, state: int, token_strings: Iterable[str]) -> np.ndarray:
    first = dfa.transitions[state]  # a token whose first character cannot be read is out: skip the walk
    return np.array([bool(t) and t[0] in first and dfa.walk(state, t) is not None for t in token_strings])


def constrained_decode(
    logits_fn: Callable[[Sequence[int]], Any],
    input_ids: Sequence[int],
    dfa: CharDFA,
    token_strings: Sequence[str],
    max_new_tokens: int = 32,
    temperature: float = 0.0,
    seed: int = 0,
) -> list[int]:
    """Decode with every step masked by ``dfa``; returns the new token ids (prompt excluded).

    ``logits_fn``: ids ``(T,)`` -> logits of the next token ``(V,)`` (or ``(T, V)``: the last row is used).
    ``temperature`` 0 is greedy; otherwise tokens are sampled with ``seed`` (through :mod:`nlp_helpers.seeds`).
    Stops when the automaton reaches a final state, or after ``max_new_tokens``.
    """
    if not callable(logits_fn):
        raise TypeError(f"logits_fn must be a callable ids -> logits, got {type(logits_fn).__name__}")
    if not isinstance(dfa, CharDFA):
        raise TypeError(f"dfa must be a CharDFA, got {type(dfa).__name__}")
    ids = [int(i) for i in input_ids]
    if not ids:
        raise ValueError("input_ids must hold at least one token id")
    n = check_int("max_new_tokens", max_new_tokens, minimum=1)
    t = check_float("temperature", temperature, minimum=0.0)
    seed = check_int("seed", seed)
    return _decode(logits_fn, ids, dfa, list(token_strings), n, t, seed)


def _decode(logits_fn, ids, dfa, strings, n, t, seed) -> list[int]:
    from nlp_helpers.seeds import rng

    g, state, out = rng(seed), 0, []
    for _ in range(n):
        logits = np.asarray(logits_fn(ids + out), dtype=np.float64)
        logits = logits[-1] if logits.ndim == 2 else logits
        mask = _allowed(dfa, state, strings)
        if not mask.any():
            raise ValueError(f"no token of the vocabulary can continue the pattern from state {state}")
        masked = np.where(mask, logits, -np.inf)
        tok = int(masked.argmax()) if t == 0 else int(sample(masked, temperature=t, generator=g))
        out.append(tok)
        state = dfa.walk(state, strings[tok])
        if dfa.is_final(state):
            break
    return out
