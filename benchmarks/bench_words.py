"""Benchmarks of the words chapter's helpers against reference implementations.

Rows (see CONTRIBUTING.md, "Benchmarks"):

1. ``edit_distance`` vs ``nltk.edit_distance`` on random string pairs. Target: identical distances.

Run: ``python -m benchmarks.bench_words``.
"""

from __future__ import annotations

import random

from benchmarks.timing import agreement, timed
from nlp_helpers.words.edit_distance import edit_distance


def bench_edit_distance_vs_nltk(n_pairs: int = 300) -> dict:
    from nltk import edit_distance as nltk_edit_distance

    rng = random.Random(0)
    pairs = [
        (
            "".join(rng.choice("acgt") for _ in range(rng.randint(0, 30))),
            "".join(rng.choice("acgt") for _ in range(rng.randint(0, 30))),
        )
        for _ in range(n_pairs)
    ]
    ours, t_ours = timed(lambda: [edit_distance(a, b, sub_cost=2).distance for a, b in pairs])
    ref, t_ref = timed(lambda: [nltk_edit_distance(a, b, substitution_cost=2) for a, b in pairs])
    agree = agreement(ours, ref)
    return {
        "helper": "nlp_helpers.words.edit_distance.edit_distance",
        "reference": "nltk.edit_distance",
        "agreement": agree,
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "identical distances",
        "met": agree == 1.0,
        "note": f"{n_pairs} random DNA-like pairs up to 30 symbols, substitution cost 2; "
        "ours also builds the table and the alignment",
    }


def run() -> list[dict]:
    return [bench_edit_distance_vs_nltk()]


if __name__ == "__main__":
    for row in run():
        print(
            f"{row['helper']} vs {row['reference']}: agreement {row['agreement']:.3f}, "
            f"ours {row['ours_s']:.3f}s, reference {row['reference_s']:.3f}s, target: {row['target']} -> "
            f"{'met' if row['met'] else 'NOT MET'} ({row['note']})"
        )
