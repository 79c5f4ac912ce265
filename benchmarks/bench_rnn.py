"""Recurrent helpers against PyTorch, and the chapter's models trained longer than the notebook can.

Rows:

* ``rnn.LSTMCell``/``GRUCell``/``RNNCell`` unrolled by ``run_cell`` vs the PyTorch cell in the same
  Python loop and vs the fused ``nn.LSTM``/``GRU``/``RNN``: agreement in float64 and time.
* BPTT gradients through our LSTM vs autograd through ``nn.LSTM`` (all weights, input, state).
* ``rnn_gradients.clip_grad_norm`` vs ``torch.nn.utils.clip_grad_norm_``.
* ``charlm.CharLM`` trained longer (256 units, 2,000 steps of 32 x 64 characters) vs the
  Kneser-Ney 7-gram of ``nlp_helpers.ngram.models``, both on the whole ``char_lm_split()["train"]``
  (the notebook uses its first quarter) and scored on the same validation characters. In the
  notebook (128 units, 200 steps) the n-gram wins; the target is that the longer-trained LSTM
  wins. On a laptop CPU it does not yet (see the row's numbers): LSTMs overtake n-gram models
  only with more capacity and hours of training.
* ``seq2seq.Seq2Seq`` with attention vs without, the notebook's reversal task and budget
  (times: training only).

Set ``BENCH_RNN_QUICK=1`` for a fast smoke run (tiny LM training; the LM target is then not
expected to be met). Run: ``python -m benchmarks.bench_rnn``.
"""

from __future__ import annotations

import os
import time

import numpy as np
import torch
from torch import nn

from benchmarks.timing import best_of
from nlp_helpers.data.splits import char_lm_split, char_vocabulary
from nlp_helpers.ngram.models import NGramLM
from nlp_helpers.rnn.cells import StackedRNN, load_from_torch, run_cell
from nlp_helpers.rnn.charlm import CharLM, char_logprobs, encode, train_lm
from nlp_helpers.rnn.gradients import clip_grad_norm
from nlp_helpers.rnn.seq2seq import Seq2Seq, evaluate, reversal_task, train_seq2seq

AGREE = 1e-10
QUICK = os.environ.get("BENCH_RNN_QUICK") == "1"


def _best(fn, repeat: int = 3) -> float:
    return best_of(fn, repeat)[1]


def _cells() -> list[dict]:
    rows = []
    torch.manual_seed(0)
    B, T, d_in, H = 32, 100, 64, 128
    x = torch.randn(B, T, d_in, dtype=torch.float64)
    for name, cell_cls, layer_cls in [
        ("LSTMCell", nn.LSTMCell, nn.LSTM),
        ("GRUCell", nn.GRUCell, nn.GRU),
        ("RNNCell", nn.RNNCell, nn.RNN),
    ]:
        ref = cell_cls(d_in, H).double()
        ours = load_from_torch(ref)
        fused = layer_cls(d_in, H, batch_first=True).double()
        with torch.no_grad():
            fused.weight_ih_l0.copy_(ref.weight_ih)
            fused.weight_hh_l0.copy_(ref.weight_hh)
            fused.bias_ih_l0.copy_(ref.bias_ih)
            fused.bias_hh_l0.copy_(ref.bias_hh)

        def torch_loop():
            state = None
            outs = []
            for t in range(T):
                state = ref(x[:, t], state)
                outs.append(state[0] if isinstance(state, tuple) else state)
            return torch.stack(outs, 1)

        with torch.no_grad():
            got, _ = run_cell(ours, x)
            want = torch_loop()
            want_fused, _ = fused(x)
            t_ours = _best(lambda: run_cell(ours, x))
            t_ref = _best(torch_loop)
            t_fused = _best(lambda: fused(x))
        diff = max((got - want).abs().max().item(), (got - want_fused).abs().max().item())
        rows.append(
            {
                "helper": f"rnn.{name} + run_cell",
                "reference": f"torch.nn.{name} in the same loop",
                "agreement": f"max |diff| {diff:.1e} (also vs fused nn.{layer_cls.__name__})",
                "ours_s": t_ours,
                "reference_s": t_ref,
                "target": f"|diff| <= {AGREE:g}, time <= 3x the torch loop",
                "met": diff <= AGREE and t_ours <= 3 * t_ref,
                "note": f"B={B}, T={T}, d_in={d_in}, H={H}, float64, forward only; fused nn.{layer_cls.__name__}: "
                f"{t_fused * 1e3:.1f} ms",
            }
        )
    return rows


def _bptt() -> dict:
    torch.manual_seed(1)
    ref = nn.LSTM(16, 32, num_layers=2, bidirectional=True, batch_first=True).double()
    ours = StackedRNN.from_torch(ref)
    x = torch.randn(8, 40, 16, dtype=torch.float64)
    probe = torch.randn(8, 40, 64, dtype=torch.float64)

    def grads(model):
        xi = x.clone().requires_grad_()
        model.zero_grad()
        out, _ = model(xi)
        (out * probe).sum().backward()
        return xi.grad

    start = time.perf_counter()
    g_ours = grads(ours)
    t_ours = time.perf_counter() - start
    start = time.perf_counter()
    g_ref = grads(ref)
    t_ref = time.perf_counter() - start
    diff = (g_ours - g_ref).abs().max().item()
    H = 32
    for layer in range(2):
        for d, suffix in enumerate(["", "_reverse"]):
            cell = ours.cells[layer * 2 + d]
            w_ih = getattr(ref, f"weight_ih_l{layer}{suffix}").grad
            for k, gate in enumerate(cell.gates):
                diff = max(diff, (cell.W[gate].grad - w_ih[k * H : (k + 1) * H]).abs().max().item())
    return {
        "helper": "rnn.StackedRNN (BPTT through run_cell)",
        "reference": "autograd through torch.nn.LSTM",
        "agreement": f"max |diff| {diff:.1e} (input and W gradients)",
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": f"|diff| <= {AGREE:g}",
        "met": diff <= AGREE,
        "note": "2 layers, bidirectional, B=8, T=40, H=32, float64, forward + backward",
    }


def _clipping() -> dict:
    torch.manual_seed(2)
    shapes = [(512, 128), (512, 512), (512,), (84, 128)]
    ours = [nn.Parameter(torch.zeros(s)) for s in shapes]
    theirs = [nn.Parameter(torch.zeros(s)) for s in shapes]
    grads = [torch.randn(s) for s in shapes]

    def reset(params):
        for p, g in zip(params, grads):
            p.grad = g.clone()

    reset(ours)
    reset(theirs)
    n_ours = clip_grad_norm(ours, 1.0)
    n_ref = torch.nn.utils.clip_grad_norm_(theirs, 1.0).item()
    rel_norm = abs(n_ours - n_ref) / n_ref  # float32 sums in a different order: compare relatively
    diff = max((a.grad - b.grad).abs().max().item() for a, b in zip(ours, theirs))
    t_ours = _best(lambda: (reset(ours), clip_grad_norm(ours, 1.0)))
    t_ref = _best(lambda: (reset(theirs), torch.nn.utils.clip_grad_norm_(theirs, 1.0)))
    return {
        "helper": "rnn_gradients.clip_grad_norm",
        "reference": "torch.nn.utils.clip_grad_norm_",
        "agreement": f"norm: rel. diff {rel_norm:.1e}; clipped gradients: max |diff| {diff:.1e}",
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "rel. diff of the norm <= 1e-5, |diff| <= 1e-6, time <= 3x torch",
        "met": rel_norm <= 1e-5 and diff <= 1e-6 and t_ours <= 3 * t_ref,
        "note": "4 float32 tensors, ~350k numbers, max_norm 1 (torch adds 1e-6 to the norm)",
    }


def _language_model() -> dict:
    split = char_lm_split()
    vocab = char_vocabulary(split["train"])
    train_text = split["train"]
    valid_text = split["valid"]
    start = time.perf_counter()
    ngram = NGramLM(7, "kneser_ney").fit([list(train_text)], vocabulary=vocab)
    bits = ngram.token_logprobs([list(valid_text)])[1:-1]
    t_ngram = time.perf_counter() - start
    ppl_ngram = 2.0 ** -bits.mean()
    steps, hidden = (100, 64) if QUICK else (2000, 256)
    torch.manual_seed(0)
    lm = CharLM(len(vocab), hidden, hidden)
    start = time.perf_counter()
    train_lm(lm, encode(train_text, vocab), steps=steps, batch_size=32, seq_len=64, lr=5e-3, seed=0, progress=False)
    logp = char_logprobs(lm, encode(valid_text, vocab))
    t_lm = time.perf_counter() - start
    ppl_lm = float(np.exp(-logp.mean()))
    return {
        "helper": f"charlm.CharLM ({hidden} units, {steps} steps)",
        "reference": "ngram.NGramLM(7, 'kneser_ney')",
        "agreement": f"validation perplexity {ppl_lm:.3f} vs {ppl_ngram:.3f}",
        "ours_s": t_lm,
        "reference_s": t_ngram,
        "target": "LSTM perplexity < 7-gram perplexity",
        "met": bool(ppl_lm < ppl_ngram),
        "note": f"same {len(train_text):,} training and {len(valid_text) - 1:,} scored validation characters "
        f"(char_lm_split); times include training/fitting and scoring",
    }


def _seq2seq() -> dict:
    train, test = reversal_task(5000, 3, 12, seed=0), reversal_task(1000, 3, 12, seed=1)
    long = [p for p in test if len(p[0]) >= 11]
    results, times = {}, {}
    for attention in (True, False):
        torch.manual_seed(0)
        model = Seq2Seq(13, 32, 48, attention=attention)
        start = time.perf_counter()
        train_seq2seq(model, train, steps=300, batch_size=64, lr=1e-2, seed=0, progress=False)
        times[attention] = time.perf_counter() - start
        results[attention] = (evaluate(model, test).exact.mean(), evaluate(model, long).exact.mean())
    gain = results[True][1] - results[False][1]
    return {
        "helper": "seq2seq.Seq2Seq(attention=True)",
        "reference": "seq2seq.Seq2Seq(attention=False)",
        "agreement": f"exact match all {results[True][0]:.3f} vs {results[False][0]:.3f}; "
        f"length 11-12: {results[True][1]:.3f} vs {results[False][1]:.3f}",
        "ours_s": times[True],
        "reference_s": times[False],
        "target": "attention gains >= 0.25 on length 11-12 (as the notebook asserts)",
        "met": bool(gain >= 0.25),
        "note": "reversal of 3-12 digits, GRU 48 units, 300 Adam steps of 64 pairs",
    }


def run() -> list[dict]:
    return [*_cells(), _bptt(), _clipping(), _seq2seq(), _language_model()]


if __name__ == "__main__":
    for row in run():
        print(row)
