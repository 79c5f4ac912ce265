"""Catalogue of the exercise of ``book/llm/gpt.ipynb``: requirements, correct answers in several styles
(accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``gpt_parameters()``: one number, the exact parameter count of the page's GPT with V = 65, block_size = 16,
  3 blocks, 4 heads, d_model = 32, output tied (not untied; with the position embeddings, the biases, both
  vectors of every layer norm and the final one, an MLP of width 4 d_model, one Q/K/V layer for all heads,
  W_O, every block, the embedding tables).
* ``smoothed_ce(logits, targets, eps)``: one number, the mean over positions; eps spread over all V classes;
  targets of -100 left out of the sum and the count; stable for logits ~1e3; inputs unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.llm.gpt import TinyGPT, TinyGPTConfig
from nlp_helpers.llm.gpt_exercises import COUNT_SETTINGS, check_gpt_parameters, check_label_smoothing, gpt_count
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ---------------------------------------------------------------- counting the parameters by hand
def count_layer_by_layer():
    V, T, L, d = 65, 16, 3, 32
    block = 2 * (2 * d) + (d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d)
    return V * d + T * d + L * block + 2 * d


def count_closed_form():  # 12 d^2 + 13 d per block, as a float
    d = 32.0
    return 65 * d + 16 * d + 3 * (12 * d**2 + 13 * d) + 2 * d


def count_numpy():
    shapes = [(65, 32), (16, 32)] + 3 * [(32,), (32,), (32, 96), (96,), (32, 32), (32,), (32,), (32,)]
    shapes += 3 * [(32, 128), (128,), (128, 32), (32,)] + [(32,), (32,)]
    return np.int64(sum(int(np.prod(s)) for s in shapes))


def _slip(**kwargs):
    def answer():
        return gpt_count(**COUNT_SETTINGS, **kwargs)

    return answer


def count_untied():
    return _slip(tied=False)()


def count_no_positions():
    return _slip(positions=False)()


def count_matrices_only():
    return _slip(biases=False, norm_vectors=0)()


def count_no_biases():
    return _slip(biases=False)()


def count_no_layer_norms():
    return _slip(norm_vectors=0)()


def count_norm_scale_only():
    return _slip(norm_vectors=1)()


def count_no_final_norm():
    return _slip(final_norm=False)()


def count_one_norm_per_block():
    return _slip(norms_per_block=1)()


def count_narrow_mlp():
    return _slip(mlp_width=1)()


def count_per_head():
    return _slip(full_heads=True)()


def count_no_w_o():
    return _slip(with_w_o=False)()


def count_one_block():
    return _slip(blocks=1)()


def count_blocks_only():
    return _slip(embeddings=False, final_norm=False)()


def count_no_tables():
    return _slip(embeddings=False)()


def count_off_by_a_bit():
    return count_layer_by_layer() + 100


def count_fraction():
    return count_layer_by_layer() + 0.75


def count_as_text():
    return f"{count_layer_by_layer():,}"


def count_as_list():
    return [count_layer_by_layer()]


def count_true():
    return True


def test_the_slips_count_what_tinygpt_counts_when_nothing_slips() -> None:
    """The checker's formula against the model itself, on the exercise's settings and on others."""
    for settings in [COUNT_SETTINGS, {"vocab_size": 84, "block_size": 64, "n_layers": 2, "n_heads": 4, "d_model": 64}]:
        assert gpt_count(**settings) == TinyGPT(TinyGPTConfig(**settings)).num_parameters()
    untied = TinyGPT(TinyGPTConfig(**COUNT_SETTINGS))
    untied.lm_head.weight = torch.nn.Parameter(untied.tok_emb.weight.detach().clone())
    assert gpt_count(**COUNT_SETTINGS, tied=False) == untied.num_parameters()
    slips = [count_untied, count_no_positions, count_matrices_only, count_no_biases, count_no_layer_norms]
    slips += [count_norm_scale_only, count_no_final_norm, count_one_norm_per_block, count_narrow_mlp]
    slips += [count_per_head, count_no_w_o, count_one_block, count_blocks_only, count_no_tables]
    values = [s() for s in slips]
    assert len(set(values)) == len(values) and count_layer_by_layer() not in values  # each names one mistake
    with pytest.raises(ValueError, match="divisible"):
        gpt_count(65, 16, 3, 5, 32)
    with pytest.raises(ValueError, match="vocab_size"):
        gpt_count(0, 16, 3, 4, 32)


# ---------------------------------------------------------------- label smoothing
def _log_softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def ls_vectorised(logits, targets, eps):
    keep = targets != -100
    logp = _log_softmax(np.asarray(logits, dtype=float)[keep])
    nll = -logp[np.arange(len(logp)), targets[keep]]
    return float(np.mean((1 - eps) * nll - eps * logp.mean(axis=1)))


def ls_per_position(logits, targets, eps):  # "return one float": the kept positions' losses, not their mean
    keep = targets != -100
    logp = _log_softmax(np.asarray(logits, dtype=float)[keep])
    nll = -logp[np.arange(len(logp)), targets[keep]]
    return (1 - eps) * nll - eps * logp.mean(axis=1)


def ls_target_matrix(logits, targets, eps):
    total, count = 0.0, 0
    V = logits.shape[1]
    for row, t in zip(logits, targets):
        if t == -100:
            continue
        q = np.full(V, eps / V)
        q[t] += 1 - eps
        m = row.max()
        logp = row - m - np.log(np.sum(np.exp(row - m)))
        total += -(q * logp).sum()
        count += 1
    return total / count


def ls_sum(logits, targets, eps):
    return ls_vectorised(logits, targets, eps) * np.sum(targets != -100)


def ls_other_classes(logits, targets, eps):
    keep = targets != -100
    logp = _log_softmax(logits[keep])
    n, V = logp.shape
    q = np.full((n, V), eps / (V - 1))
    q[np.arange(n), targets[keep]] = 1 - eps
    return float(np.mean(-(q * logp).sum(1)))


def ls_no_uniform(logits, targets, eps):
    keep = targets != -100
    logp = _log_softmax(logits[keep])
    return float(np.mean((1 - eps) * -logp[np.arange(len(logp)), targets[keep]]))


def ls_no_ignore(logits, targets, eps):
    logp = _log_softmax(logits)
    nll = -logp[np.arange(len(logp)), targets]
    return float(np.mean((1 - eps) * nll - eps * logp.mean(axis=1)))


def ls_divides_by_all(logits, targets, eps):
    keep = targets != -100
    return ls_vectorised(logits, targets, eps) * keep.sum() / len(targets)


def ls_unstable(logits, targets, eps):
    keep = targets != -100
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        p = np.exp(logits[keep])
        logp = np.log(p / p.sum(axis=1, keepdims=True))
    nll = -logp[np.arange(len(logp)), targets[keep]]
    return float(np.mean((1 - eps) * nll - eps * logp.mean(axis=1)))


def ls_in_place(logits, targets, eps):
    logits -= logits.max(axis=1, keepdims=True)
    return ls_vectorised(logits, targets, eps)


CATALOGUE = {
    check_gpt_parameters: Catalogue(
        correct=[count_layer_by_layer, count_closed_form, count_numpy],
        wrong=[
            Wrong(count_untied, ("tied", "count once")),
            Wrong(count_no_positions, "position embeddings"),
            Wrong(count_matrices_only, ("weight matrices only", "biases", "scale")),
            Wrong(count_no_biases, "biases"),
            Wrong(count_no_layer_norms, "layer norms"),
            Wrong(count_norm_scale_only, ("scale and a shift",)),
            Wrong(count_no_final_norm, "final layer norm"),
            Wrong(count_one_norm_per_block, "two layer norms"),
            Wrong(count_narrow_mlp, "4 d_model"),
            Wrong(count_per_head, "number of heads"),
            Wrong(count_no_w_o, "W_O"),
            Wrong(count_one_block, "n_layers"),
            Wrong(count_blocks_only, "blocks only"),
            Wrong(count_no_tables, "embedding tables"),
            Wrong(count_off_by_a_bit, "layer by layer"),
            Wrong(count_fraction, "layer by layer"),
            Wrong(count_as_text, "one number"),
            Wrong(count_as_list, "one number"),
            Wrong(count_true, "one number"),
        ],
    ),
    check_label_smoothing: Catalogue(
        correct=[ls_vectorised, ls_target_matrix],
        wrong=[
            Wrong(ls_sum, "mean"),
            Wrong(ls_per_position, ("one number", "mean loss")),
            Wrong(ls_other_classes, "all V classes"),
            Wrong(ls_no_uniform, "uniform part"),
            Wrong(ls_no_ignore, "-100"),
            Wrong(ls_divides_by_all, "divided by all N"),
            Wrong(ls_unstable, ("around 1000", "overflows")),
            Wrong(ls_in_place, ("modified its input", "`logits`")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
