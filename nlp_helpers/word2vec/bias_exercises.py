"""Checkers for the exercises of ``book/word2vec/bias.ipynb``: removing a direction from word vectors
(the "neutralise" step of Bolukbasi et al., 2016) and their gender direction as a principal component.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_neutralise", "check_pca_direction"]


def _neutralise_reference(vectors: np.ndarray, direction: np.ndarray) -> np.ndarray:
    g = direction / np.linalg.norm(direction)
    rest = vectors - np.outer(vectors @ g, g)
    return rest / np.linalg.norm(rest, axis=1, keepdims=True)


def check_neutralise(neutralise: Callable) -> CheckResult:
    """``neutralise(vectors, direction)`` -> the rows without their component along ``direction``, unit length."""
    rng = seeded_rng(3)
    vectors = rng.normal(size=(6, 5))
    direction = 3.0 * rng.normal(size=5)  # deliberately not of length 1
    with Checker("Neutralise a direction") as ex:
        got = ex.call(neutralise, vectors, direction)
        got = np.asarray(got, dtype=float)
        ex.expect(got.shape == vectors.shape, f"neutralise(vectors, direction) should return a {vectors.shape} array.")
        g = direction / np.linalg.norm(direction)
        along = np.abs(got @ g).max()
        if along > 1e-8:
            unnormalised = vectors - np.outer(vectors @ direction, direction)
            unnormalised /= np.linalg.norm(unnormalised, axis=1, keepdims=True)
            if np.allclose(got, unnormalised):
                ex.fail(
                    "neutralise(vectors, direction): the direction you were given does not have length 1; scale "
                    "it to length 1 before projecting on it."
                )
            ex.fail(
                "neutralise(vectors, direction): the rows you return still have a component along the direction: "
                "subtract each row's projection on the (unit-length) direction."
            )
        norms = np.linalg.norm(got, axis=1)
        ex.expect(
            np.allclose(norms, 1),
            "neutralise(vectors, direction): after removing the component, scale every row back to length 1.",
        )
        ex.expect(
            np.allclose(got, _neutralise_reference(vectors, direction)),
            "neutralise(vectors, direction): each row must keep its own direction within the plane orthogonal to "
            "the gender direction; remove only the component along it.",
        )
        ex.expect_raises(
            ValueError,
            neutralise,
            vectors,
            np.zeros(5),
            what="neutralise(vectors, np.zeros(5))",
            hint="A direction of length 0 cannot be scaled to length 1: raise ValueError.",
        )
        along_g = np.vstack([vectors[:2], 2 * direction])
        ex.expect_raises(
            ValueError,
            neutralise,
            along_g,
            direction,
            what="neutralise with a row that lies along the direction",
            hint="Such a row becomes the zero vector, which has no unit-length version: raise ValueError.",
        )
    return ex.result


# ------------------------------------------------------------------------------------- a PCA direction
def _pca_reference(A: np.ndarray, B: np.ndarray, *, centre: bool = True) -> np.ndarray:
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    if centre:
        mid = (A + B) / 2
        rows = np.vstack([A - mid, B - mid])
    else:
        rows = np.vstack([A, B])
    g = np.linalg.svd(rows, full_matrices=False)[2][0]
    return g if ((A - B) @ g).mean() > 0 else -g


def _pca_case(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors of word pairs whose differences do not all point one way (mean and PC1 differ)."""
    rng = seeded_rng(seed)
    n, d = 7, 6
    shared = rng.normal(size=d) * 2  # what every word has in common, so that not centring shows
    axis = np.eye(d)[0]
    A = shared + rng.normal(size=(n, d)) * 0.6 + axis * rng.uniform(0.2, 1.5, size=(n, 1))
    B = shared + rng.normal(size=(n, d)) * 0.6 - axis * rng.uniform(0.2, 1.5, size=(n, 1))
    unit = lambda m: m / np.linalg.norm(m, axis=1, keepdims=True)  # noqa: E731
    return unit(A), unit(B)


def check_pca_direction(pca_direction: Callable) -> CheckResult:
    """``pca_direction(A, B)`` -> the first principal component of the pairs' centred vectors, pointing to A."""
    with Checker("A gender direction by PCA") as ex:
        for seed in (0, 1):
            A, B = _pca_case(seed)
            got = np.asarray(ex.call(pca_direction, A, B), dtype=float)
            ex.expect(
                got.shape == (A.shape[1],), f"pca_direction(A, B) should return a 1-D array of length {A.shape[1]}."
            )
            want = _pca_reference(A, B)
            if np.allclose(got, want, atol=1e-8):
                continue
            mean = (A - B).mean(axis=0)
            checks = [
                (
                    mean / np.linalg.norm(mean),
                    "you returned the normalised mean of the differences a - b (the page's "
                    "direction); the exercise asks for the first principal component of the centred pair vectors",
                ),
                (
                    -want,
                    "the direction points to the B side: flip its sign so that the a - b differences have a "
                    "positive mean projection on it",
                ),
                (
                    _pca_reference(A, B, centre=False),
                    "centre each pair on its own midpoint (a - m, b - m with "
                    "m = (a + b) / 2) before the decomposition; otherwise the first component is what all the words "
                    "share",
                ),
            ]
            for wrong, hint in checks:
                if np.allclose(got, wrong, atol=1e-8):
                    ex.fail(f"pca_direction(A, B): {hint}.")
            ex.expect(
                np.isclose(np.linalg.norm(got), 1),
                "pca_direction(A, B) should have length 1 (a principal component is a unit vector).",
            )
            ex.fail(
                "pca_direction(A, B) is not the first principal component: stack the 2n centred vectors as rows and "
                "take the direction of largest variance (the first right singular vector)."
            )
        A, B = _pca_case(0)
        ex.expect_raises(
            ValueError,
            pca_direction,
            A,
            B[:-1],
            what="pca_direction(A, B) with one row fewer in B",
            hint="Every word in A needs its partner in B: raise ValueError when the shapes differ.",
        )
    return ex.result
