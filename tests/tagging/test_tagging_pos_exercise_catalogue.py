"""Catalogue of the exercises of ``book/tagging/pos.ipynb`` added with its pos_exercises module.

* ``beam_decode(log_start, log_trans, log_emissions, beam)``: the ``beam`` best partial paths overall (not the
  best path into every tag, which is Viterbi); candidates ranked with the new word's emission included; the best
  path of the final beam as ints and its log score; beam 1 is greedy; ValueError for beam < 1; on a tie the
  candidate generated first (kept paths in order of score, tags in increasing order).
"""

from __future__ import annotations

import heapq

import numpy as np

from nlp_helpers.tagging.pos_exercises import check_beam_decode
from nlp_helpers.tagging.viterbi import viterbi
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def beam_sorted(log_start, log_trans, log_emissions, beam):
    if beam < 1:
        raise ValueError("beam must be at least 1")
    T, K = log_emissions.shape
    paths = sorted((([j], log_start[j] + log_emissions[0, j]) for j in range(K)), key=lambda p: -p[1])[:beam]
    for t in range(1, T):
        ext = [(p + [j], s + log_trans[p[-1], j] + log_emissions[t, j]) for p, s in paths for j in range(K)]
        paths = sorted(ext, key=lambda p: -p[1])[:beam]
    return [int(j) for j in paths[0][0]], float(paths[0][1])


def beam_heap(log_start, log_trans, log_emissions, beam):
    if beam < 1:
        raise ValueError("beam must be at least 1")
    T, K = log_emissions.shape
    paths = [(float(log_start[j] + log_emissions[0, j]), (j,)) for j in range(K)]
    paths = heapq.nlargest(beam, paths, key=lambda p: p[0])
    for t in range(1, T):
        ext = [(s + float(log_trans[p[-1], j] + log_emissions[t, j]), p + (j,)) for s, p in paths for j in range(K)]
        paths = heapq.nlargest(beam, ext, key=lambda p: p[0])
    score, path = max(paths, key=lambda p: p[0])
    return list(path), score


def beam_is_viterbi(log_start, log_trans, log_emissions, beam):
    if beam < 1:
        raise ValueError("beam must be at least 1")
    return viterbi(log_start, log_trans, log_emissions)


def beam_prunes_before_emission(log_start, log_trans, log_emissions, beam):
    if beam < 1:
        raise ValueError("beam must be at least 1")
    T, K = log_emissions.shape
    paths = sorted((([j], log_start[j] + log_emissions[0, j]) for j in range(K)), key=lambda p: -p[1])[:beam]
    for t in range(1, T):
        ext = [(p + [j], s + log_trans[p[-1], j]) for p, s in paths for j in range(K)]
        paths = [(p, s + log_emissions[t, p[-1]]) for p, s in sorted(ext, key=lambda p: -p[1])[:beam]]
    best = max(paths, key=lambda p: p[1])
    return [int(j) for j in best[0]], float(best[1])


def beam_no_check(log_start, log_trans, log_emissions, beam):
    return beam_sorted(log_start, log_trans, log_emissions, max(beam, 1))


def beam_probabilities(log_start, log_trans, log_emissions, beam):
    path, score = beam_sorted(log_start, log_trans, log_emissions, beam)
    return path, float(np.exp(score))


def beam_ties_by_path(log_start, log_trans, log_emissions, beam):  # sorts (score, path): ties go to the larger path
    if beam < 1:
        raise ValueError("beam must be at least 1")
    T, K = log_emissions.shape
    paths = sorted(((float(log_start[j] + log_emissions[0, j]), (j,)) for j in range(K)), reverse=True)[:beam]
    for t in range(1, T):
        ext = [(s + float(log_trans[p[-1], j] + log_emissions[t, j]), p + (j,)) for s, p in paths for j in range(K)]
        paths = sorted(ext, reverse=True)[:beam]
    score, path = paths[0]
    return list(path), score


def beam_tuple_path(log_start, log_trans, log_emissions, beam):  # "a list of T ints"
    path, score = beam_sorted(log_start, log_trans, log_emissions, beam)
    return tuple(path), score


CATALOGUE = {
    check_beam_decode: Catalogue(
        correct=[beam_sorted, beam_heap],
        wrong=[
            Wrong(beam_is_viterbi, "not the best path into every tag"),
            Wrong(beam_prunes_before_emission, "before adding the emission"),
            Wrong(beam_no_check, "at least one path"),
            Wrong(beam_probabilities, "log score"),
            Wrong(beam_ties_by_path, ("On a tie", "generated first")),
            Wrong(beam_tuple_path, ("list of ints", "tuple")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
