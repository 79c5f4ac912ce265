"""Checkers for the exercises of the page "Parts of speech and hidden Markov models" (``book/tagging/pos.ipynb``).

* :func:`check_beam_decode`: beam search over tag sequences, between the greedy decoder (beam 1) and an exact
  search (a beam as wide as the number of paths), compared with a reference written here and with
  :func:`nlp_helpers.tagging.viterbi.viterbi`.

The checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.tagging.viterbi import viterbi

__all__ = ["check_beam_decode"]


def _beam(log_start, log_trans, log_em, beam: int, emit_before_prune: bool = True):
    """Reference beam search: keep the ``beam`` best partial paths (ties: the earlier candidate)."""
    T, K = log_em.shape
    paths = [((int(j),), float(log_start[j] + log_em[0, j])) for j in range(K)]
    paths = sorted(paths, key=lambda p: -p[1])[:beam]
    for t in range(1, T):
        cands = []
        for path, score in paths:
            for j in range(K):
                step = log_trans[path[-1], j] + (log_em[t, j] if emit_before_prune else 0.0)
                cands.append((path + (j,), score + float(step)))
        paths = sorted(cands, key=lambda p: -p[1])[:beam]
        if not emit_before_prune:
            paths = [(p, s + float(log_em[t, p[-1]])) for p, s in paths]
    best = max(paths, key=lambda p: p[1])
    return list(best[0]), best[1]


def _problems():
    rng = np.random.default_rng(23)
    out = []
    for T, K in [(4, 3), (5, 4), (6, 3), (3, 5), (1, 4)]:
        log_start = np.log(rng.dirichlet(np.ones(K)))
        log_trans = np.log(rng.dirichlet(np.ones(K) * 0.5, size=K))
        log_em = np.log(rng.uniform(0.05, 1.0, size=(T, K)))
        out.append((log_start, log_trans, log_em))
    return out


def check_beam_decode(beam_decode: Callable) -> CheckResult:
    """``beam_decode(log_start, log_trans, log_emissions, beam)`` -> ``(best_path, best_log_score)``."""
    with Checker("Beam search between greedy and Viterbi") as ex:
        pending = ""
        for log_start, log_trans, log_em in _problems():
            T, K = log_em.shape
            for beam in (1, 2, K, K**T):
                what = f"beam_decode(... T={T}, K={K} ..., beam={beam})"
                got = ex.call(beam_decode, log_start, log_trans, log_em, beam)
                ex.expect(
                    isinstance(got, tuple) and len(got) == 2,
                    f"{what} should return a tuple (path, log_score), got {type(got).__name__}.",
                )
                path, score = got
                ex.expect(
                    isinstance(path, list) and all(isinstance(k, (int, np.integer)) for k in path),
                    f"{what} should return the path as a list of ints (tag indices), got {type(path).__name__}.",
                )
                path = [int(k) for k in path]
                want_path, want_score = _beam(log_start, log_trans, log_em, beam)
                if path != want_path:
                    is_viterbi = path == viterbi(log_start, log_trans, log_em)[0] and beam < K**T
                    is_pruned = path == _beam(log_start, log_trans, log_em, beam, emit_before_prune=False)[0]
                    if is_viterbi and is_pruned:  # both mistakes give this path: a later case tells them apart
                        pending = pending or f"{what} should return the path {want_path}, got {path}."
                        continue
                    if is_pruned:
                        ex.fail(
                            f"{what}: you pruned the candidates before adding the emission score of the new word; "
                            "rank each extended path by its full score, emission included."
                        )
                    if is_viterbi:
                        ex.fail(
                            f"{what} returned Viterbi's path, which this beam should miss. Keep the `beam` best "
                            "partial paths overall, whatever tag they end in, not the best path into every tag."
                        )
                    ex.fail(
                        f"{what} should return the path {want_path}, got {path}. Extend every kept path by every "
                        "tag, score it (transition plus emission), keep the `beam` best, and at the end return "
                        "the best path in the beam."
                    )
                ex.expect_close(
                    score,
                    want_score,
                    what=f"the log score of {what}",
                    hint="Return the sum of the log start, transition and emission scores along the path.",
                )
        if pending:
            ex.fail(f"{pending} Keep the `beam` best extended paths, each ranked by its full score.")
        K = 3  # every path scores the same: only the tie rule decides
        log_start, log_trans, log_em = np.full(K, np.log(1 / K)), np.full((K, K), np.log(1 / K)), np.full((3, K), -1.0)
        for beam in (1, 2, 4):
            what = f"beam_decode(...) with every path scoring the same (T=3, K={K}, beam={beam})"
            path, _ = ex.call(beam_decode, log_start, log_trans, log_em, beam)
            want_path, _ = _beam(log_start, log_trans, log_em, beam)
            ex.expect(
                [int(k) for k in path] == want_path,
                f"{what} returned the path {[int(k) for k in path]}. On a tie, keep the candidate generated first "
                "(kept paths in order of score, tags in increasing order), and at the end the first best path: "
                "sort by the score alone (a stable sort), not by (score, path).",
            )
        log_start, log_trans, log_em = _problems()[0]
        ex.expect_raises(
            ValueError,
            beam_decode,
            log_start,
            log_trans,
            log_em,
            0,
            what="beam_decode(..., beam=0)",
            hint="A beam must keep at least one path: check the argument.",
        )
    return ex.result
