"""Catalogue of the decoding page's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``frequency_presence_np``: count * frequency penalty (every occurrence) + presence penalty once per
  distinct token; nothing changes without previous tokens; logits unchanged.
* ``min_p_mask_np``: p >= min_p * max(p) (scaled by the top probability, and >= not >).
* ``speculative``: the target's greedy tokens; one target call per round; a bonus token when every draft
  is accepted; prompt + max_new_tokens ids returned.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from nlp_helpers.sampling.decoding_exercises import check_frequency_presence, check_min_p_mask, check_speculative_greedy
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.sampling.test_decoding_exercises import _freq, _freq_once, _no_bonus, _plain_greedy, _spec


def freq_counter(logits, previous_ids, frequency_penalty, presence_penalty):
    out = np.array(logits, dtype=float)
    for token, count in Counter(previous_ids).items():
        out[token] -= count * frequency_penalty + presence_penalty
    return out


def freq_presence_per_occurrence(logits, previous_ids, frequency_penalty, presence_penalty):
    out = np.array(logits, dtype=float)
    for token in previous_ids:
        out[token] -= frequency_penalty + presence_penalty
    return out


def freq_in_place(logits, previous_ids, frequency_penalty, presence_penalty):
    for token, count in Counter(previous_ids).items():
        logits[token] -= count * frequency_penalty + presence_penalty
    return logits


def min_p_numpy(probs, min_p):
    return np.asarray(probs) >= min_p * np.max(probs)


def min_p_loop(probs, min_p):
    top = max(probs)
    return np.array([p >= min_p * top for p in probs])


def min_p_unscaled(probs, min_p):
    return np.asarray(probs) >= min_p


def min_p_strict(probs, min_p):
    return np.asarray(probs) > min_p * np.max(probs)


def spec_rounds(target, draft, input_ids, num_draft, max_new_tokens):
    ids, goal = list(input_ids), len(input_ids) + max_new_tokens
    while len(ids) < goal:
        guess = list(ids)
        for _ in range(min(num_draft, goal - len(ids))):
            guess.append(int(np.argmax(draft(guess)[-1])))
        best = np.argmax(target(guess), axis=-1)  # best[t] predicts position t + 1
        for pos in range(len(ids), len(guess)):
            if guess[pos] != best[pos - 1]:
                break
            ids.append(guess[pos])
        else:
            ids.append(int(best[len(guess) - 1]))  # every draft accepted: the bonus token
            continue
        ids.append(int(best[len(ids) - 1]))
    return ids[:goal]


def spec_drops_prompt(target, draft, input_ids, num_draft, max_new_tokens):
    return _spec(target, draft, input_ids, num_draft, max_new_tokens)[len(input_ids) :]


CATALOGUE = {
    check_frequency_presence: Catalogue(
        correct=[_freq, freq_counter],
        wrong=[
            Wrong(_freq_once, "three times"),
            Wrong(freq_presence_per_occurrence, "once per distinct token"),
            Wrong(freq_in_place, ("modified its input", "`logits`")),
        ],
    ),
    check_min_p_mask: Catalogue(
        correct=[min_p_numpy, min_p_loop],
        wrong=[Wrong(min_p_unscaled, "max(p)"), Wrong(min_p_strict, ">= rather than >")],
    ),
    check_speculative_greedy: Catalogue(
        correct=[_spec, spec_rounds],
        wrong=[
            Wrong(_plain_greedy, "ONE target call"),
            Wrong(_no_bonus, "bonus"),
            Wrong(spec_drops_prompt, "prompt"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
