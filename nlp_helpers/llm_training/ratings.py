"""Ranking systems from pairwise comparisons: Elo ratings and the Bradley–Terry model.

Open-ended answers have no single right answer, so chatbot leaderboards such as Chatbot Arena
(Chiang et al., 2024) ask people (or a judge model, Zheng et al., 2023) which of two answers is better
and turn many such *battles* into one score per system.

* :func:`elo_ratings`: the online Elo update, battle by battle in the given order:
  expected score E_a = 1 / (1 + 10^((R_b - R_a) / scale)), then R_a += K (S_a - E_a), R_b -= K (S_a - E_a).
  The result depends on the order of the battles and on K.
* :func:`win_matrix`: the battles counted into a matrix ``wins[i, j]`` = how often i beat j.
* :func:`bradley_terry`: the maximum-likelihood fit of P(i beats j) = p_i / (p_i + p_j)
  (Bradley and Terry, 1952), by the minorise–maximise iteration of Hunter (2004); it uses only the
  counts, so the order of the battles does not matter. Returned on the Elo scale (400 log10 units).

Ties count as half a win for each side. Left out: confidence intervals (the Arena bootstraps the battles)
and the Arena's style and length controls.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nlp_helpers._checks import check_array, check_float, check_int, check_nonempty, check_text

__all__ = ["bradley_terry", "elo_ratings", "win_matrix"]


def _check_battles(battles: Sequence[tuple[str, str, float]]) -> list[tuple[str, str, float]]:
    checked = []
    for i, battle in enumerate(check_nonempty("battles", battles)):
        if not isinstance(battle, (tuple, list)) or len(battle) != 3:
            raise TypeError(f"battles[{i}] must be a (system_a, system_b, score_a) triple, got {battle!r}")
        a = check_text(f"battles[{i}][0]", battle[0], allow_empty=False)
        b = check_text(f"battles[{i}][1]", battle[1], allow_empty=False)
        if a == b:
            raise ValueError(f"battles[{i}] pits {a!r} against itself")
        score = check_float(f"battles[{i}][2]", battle[2], minimum=0.0, maximum=1.0)
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"battles[{i}][2] must be 1 (a wins), 0 (b wins) or 0.5 (a tie), got {score}")
        checked.append((a, b, score))
    return checked


def _systems(battles: list[tuple[str, str, float]]) -> list[str]:
    return sorted({name for a, b, _ in battles for name in (a, b)})


def elo_ratings(
    battles: Sequence[tuple[str, str, float]], k: float = 32.0, initial: float = 1000.0, scale: float = 400.0
) -> dict[str, float]:
    """Online Elo ratings after playing ``battles`` in order: ``{system: rating}``.

    Each battle is ``(system_a, system_b, score_a)`` with ``score_a`` 1 if a won, 0 if b won, 0.5 for a
    tie. Every system starts at ``initial``; ``k`` > 0 is the step size; ``scale`` > 0 sets how many
    rating points make odds of 10 to 1. The ratings always sum to ``initial`` times the number of systems.
    """
    battles = _check_battles(battles)
    k = check_float("k", k, minimum=0.0, min_inclusive=False)
    initial = check_float("initial", initial)
    scale = check_float("scale", scale, minimum=0.0, min_inclusive=False)
    return _elo(battles, k, initial, scale)


def _elo(battles: list[tuple[str, str, float]], k: float, initial: float, scale: float) -> dict[str, float]:
    ratings = dict.fromkeys(_systems(battles), initial)
    for a, b, score in battles:
        expected = 1.0 / (1.0 + 10.0 ** ((ratings[b] - ratings[a]) / scale))
        ratings[a] += k * (score - expected)
        ratings[b] -= k * (score - expected)
    return ratings


def win_matrix(battles: Sequence[tuple[str, str, float]]) -> tuple[list[str], np.ndarray]:
    """Count the battles: ``(systems, wins)`` with ``systems`` sorted and ``wins[i, j]`` the number of
    times ``systems[i]`` beat ``systems[j]`` (a tie adds 0.5 to both cells). Shape ``(S, S)``."""
    battles = _check_battles(battles)
    names = _systems(battles)
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    for a, b, score in battles:
        wins[index[a], index[b]] += score
        wins[index[b], index[a]] += 1.0 - score
    return names, wins


def bradley_terry(
    wins: np.ndarray, iterations: int = 1000, tol: float = 1e-10, scale: float = 400.0, anchor: float = 1000.0
) -> np.ndarray:
    """Fit the Bradley–Terry model to a win matrix; return each system's rating on the Elo scale.

    ``wins`` is an ``(S, S)`` array of non-negative counts (``wins[i, j]``: i beat j; diagonal 0). The
    model says P(i beats j) = p_i / (p_i + p_j); the maximum-likelihood strengths solve, for every i,
    W_i = sum_j n_ij p_i / (p_i + p_j) (W_i: i's wins, n_ij: games between i and j), and the MM update
    p_i <- W_i / sum_j n_ij / (p_i + p_j) climbs to them. The strengths are defined up to a common
    factor: ratings are ``anchor + scale * log10(p_i)`` with the mean of log10(p) fixed at 0, so a
    difference of ``scale`` means odds of 10 to 1. The fit exists only if every system has won and lost
    at least once against the others in a connected way; a system with no win raises ``ValueError``.
    """
    wins = check_array("wins", wins, ndim=2)
    if wins.shape[0] != wins.shape[1] or wins.shape[0] < 2:
        raise ValueError(f"wins must be a square matrix of at least 2 systems, got shape {wins.shape}")
    if (wins < 0).any() or np.diag(wins).any():
        raise ValueError("wins must hold non-negative counts with a zero diagonal")
    won, lost = wins.sum(axis=1), wins.sum(axis=0)
    if (won == 0).any() or (lost == 0).any():
        raise ValueError(
            "wins: every system must have won and lost at least once, or its maximum-likelihood strength is 0 or ∞"
        )
    iterations = check_int("iterations", iterations, minimum=1)
    tol = check_float("tol", tol, minimum=0.0)
    scale = check_float("scale", scale, minimum=0.0, min_inclusive=False)
    anchor = check_float("anchor", anchor)
    log_p = _bt_mm(wins, iterations, tol)
    return anchor + scale * (log_p - log_p.mean()) / np.log(10)


def _bt_mm(wins: np.ndarray, iterations: int, tol: float) -> np.ndarray:
    games = wins + wins.T  # n_ij
    won = wins.sum(axis=1)
    p = np.ones(len(wins))
    for _ in range(iterations):
        new = won / (games / (p[:, None] + p[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())  # fix the free common factor
        done = np.max(np.abs(np.log(new) - np.log(p))) < tol
        p = new
        if done:
            break
    return np.log(p)
