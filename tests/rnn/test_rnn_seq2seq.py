"""Encoder-decoder: the reversal task, batching, dot-product attention vs PyTorch, training to a stated accuracy."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from nlp_helpers.rnn.seq2seq import (
    BOS,
    EOS,
    PAD,
    Seq2Seq,
    dot_attention,
    error_cascade,
    evaluate,
    make_batch,
    reversal_task,
    train_seq2seq,
)
from nlp_helpers.seeds import manual_seed


def test_reversal_task():
    pairs = reversal_task(200, 2, 6, n_symbols=4, seed=3)
    assert len(pairs) == 200
    for src, tgt in pairs:
        assert tgt == src[::-1] and 2 <= len(src) <= 6 and all(3 <= s < 7 for s in src)
    assert {len(s) for s, _ in pairs} == {2, 3, 4, 5, 6}
    assert reversal_task(5, 3, 3, seed=1) == reversal_task(5, 3, 3, seed=1)
    with pytest.raises(ValueError, match="max_len must be >= 5"):
        reversal_task(5, 5, 4)


def test_make_batch_teacher_forcing_layout():
    b = make_batch([([3, 4, 5], [5, 4, 3]), ([6], [6])])
    assert b["src"].tolist() == [[3, 4, 5], [6, PAD, PAD]]
    assert b["src_len"].tolist() == [3, 1]
    assert b["tgt_in"].tolist() == [[BOS, 5, 4, 3], [BOS, 6, PAD, PAD]]  # the true previous tokens
    assert b["tgt_out"].tolist() == [[5, 4, 3, EOS], [6, EOS, PAD, PAD]]  # what to predict
    with pytest.raises(ValueError, match=r"pairs\[1\] has an empty source"):
        make_batch([([3], [3]), ([], [4])])
    with pytest.raises(ValueError, match="special id"):
        make_batch([([1, 3], [3, 1])])
    with pytest.raises(ValueError, match="pairs must not be empty"):
        make_batch([])


def test_dot_attention_equals_torch_scaled_dot_product_attention_with_scale_1():
    manual_seed(0)
    q, k, lengths = torch.randn(3, 4, 6), torch.randn(3, 5, 6), torch.tensor([5, 2, 3])
    ctx, w = dot_attention(q, k, lengths)
    mask = torch.arange(5)[None, None, :] < lengths[:, None, None]
    want = F.scaled_dot_product_attention(q, k, k, attn_mask=mask, scale=1.0)
    torch.testing.assert_close(ctx, want, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(w.sum(-1), torch.ones(3, 4))
    assert w[1, :, 2:].abs().max() == 0 and w[2, :, 3:].abs().max() == 0
    # by hand: one query, two keys
    ctx1, w1 = dot_attention(torch.tensor([[[1.0, 0.0]]]), torch.tensor([[[2.0, 0.0], [0.0, 1.0]]]), torch.tensor([2]))
    p = torch.softmax(torch.tensor([2.0, 0.0]), 0)
    torch.testing.assert_close(w1[0, 0], p)
    torch.testing.assert_close(ctx1[0, 0], torch.tensor([2 * p[0], p[1]]))
    with pytest.raises(ValueError, match="must share B and H"):
        dot_attention(torch.randn(2, 3, 4), torch.randn(2, 3, 5), torch.tensor([3, 3]))
    with pytest.raises(ValueError, match=r"lengths must hold 2 lengths in \[1, 3\]"):
        dot_attention(torch.randn(2, 3, 4), torch.randn(2, 3, 4), torch.tensor([0, 3]))


def test_encoder_ignores_padding():
    manual_seed(0)
    model = Seq2Seq(8, 4, 6, attention=True)
    alone = make_batch([([3, 4, 5], [5, 4, 3])])
    padded = make_batch([([3, 4, 5], [5, 4, 3]), ([3, 4, 5, 6, 7, 3], [3, 7, 6, 5, 4, 3])])
    with torch.no_grad():
        a, wa = model(alone["src"], alone["src_len"], alone["tgt_in"])
        b, wb = model(padded["src"], padded["src_len"], padded["tgt_in"])
    torch.testing.assert_close(a[0], b[0, :4], rtol=1e-5, atol=1e-6)
    assert wb[0, :, 3:].abs().max() == 0


def test_greedy_decoding_first_step_equals_teacher_forcing():
    """Both start from <s> and the context vector, so their first predictions agree."""
    manual_seed(1)
    pairs = reversal_task(20, 3, 6, seed=0)
    b = make_batch(pairs)
    for attention in (False, True):
        model = Seq2Seq(13, 8, 12, attention=attention)
        with torch.no_grad():
            logits, _ = model(b["src"], b["src_len"], b["tgt_in"])
        preds, weights = model.greedy_decode(b["src"], b["src_len"], 4)
        assert preds.shape == (20, 4)
        assert torch.equal(preds[:, 0], logits[:, 0].argmax(-1))
        assert (weights is None) != attention


@pytest.mark.trains
@pytest.mark.slow
def test_attention_model_learns_reversal_within_seconds():
    """Stated accuracy: >= 70 % of length-3..8 sequences reversed exactly after 300 steps.

    Measured over seed offsets 0-9 (native kernels), 0-4 (``ATEN_CPU_CAPABILITY=default``) and
    0-2 (``avx2``): 0.78-0.93, so the margin is set below the worst run, not at a typical one.
    About 2 CPU-seconds on one core; the time is measured in benchmarks/bench_rnn.py, not asserted here."""
    manual_seed(0)
    train, test = reversal_task(3000, 3, 8, seed=0), reversal_task(300, 3, 8, seed=1)
    model = Seq2Seq(13, 32, 48, attention=True)
    history = train_seq2seq(model, train, steps=300, batch_size=64, lr=1e-2, seed=0, progress=False)
    result = evaluate(model, test)
    assert history.loss.iloc[-10:].mean() < history.loss.iloc[:10].mean() / 5
    assert result.exact.mean() >= 0.7, result.exact.mean()  # measured 0.78-0.93
    cascade = error_cascade(model, test)
    assert 0 <= cascade["token_error_forced"] <= cascade["token_error_free"] + 0.02


def test_evaluate_and_cascade_on_a_perfect_and_a_useless_model():
    pairs = reversal_task(30, 2, 5, seed=0)
    manual_seed(0)
    useless = Seq2Seq(13, 4, 4)
    with torch.no_grad():
        for p in useless.parameters():
            p.zero_()
        useless.output.bias[EOS] = 1.0  # always predicts </s>
    r = evaluate(useless, pairs)
    lengths = torch.tensor([len(t) for _, t in pairs], dtype=torch.float64)
    torch.testing.assert_close(
        torch.tensor(r.token_acc.to_numpy(), dtype=torch.float64), 1 / (lengths + 1)
    )  # only </s> right
    assert not r.exact.any()
    c = error_cascade(useless, pairs)
    assert c["p_error_after_correct"] == 1.0  # the first target symbol is always missed
    assert c["token_error_free"] == pytest.approx(c["token_error_forced"])


def test_bad_input():
    model = Seq2Seq(13, 4, 4)
    with pytest.raises(ValueError, match=r"src is empty \(S = 0\)"):
        model.encode(torch.zeros(2, 0, dtype=torch.long), torch.tensor([1, 1]))
    with pytest.raises(ValueError, match=r"src must contain ids in \[0, 12\]"):
        model.encode(torch.tensor([[3, 40]]), torch.tensor([2]))
    with pytest.raises(ValueError, match=r"src_len must hold 1 lengths in \[1, 2\]"):
        model.encode(torch.tensor([[3, 4]]), torch.tensor([3]))
    with pytest.raises(ValueError, match="tgt_in must be"):
        model(torch.tensor([[3, 4]]), torch.tensor([2]), torch.zeros(2, 3, dtype=torch.long))
    with pytest.raises(ValueError, match="vocab_size must be >= 4"):
        Seq2Seq(3)
    with pytest.raises(ValueError, match="max_len must be >= 1"):
        model.greedy_decode(torch.tensor([[3, 4]]), torch.tensor([2]), 0)


def test_source_reversal_study_is_complete_and_its_scores_are_consistent(monkeypatch, tmp_path):
    from nlp_helpers.rnn import seq2seq

    study = seq2seq.source_reversal_study()
    assert set(study.setting) == {"source reversed", "source in order"}
    counts = study.groupby("setting").seed.nunique()
    assert (counts >= 5).all() and counts.nunique() == 1  # the same seeds for both settings
    scores = study.drop(columns=["setting", "seed"])
    assert ((scores >= 0) & (scores <= 1)).all().all()
    # exact outputs are rarer than right tokens, and rarer for longer sources
    assert (study["exact 3–5"] >= study["exact 11–12"]).all()
    monkeypatch.setattr(seq2seq, "STUDY_FILE", tmp_path / "missing.json")
    with pytest.raises(FileNotFoundError, match="benchmarks.seed_study_rnn"):
        seq2seq.source_reversal_study()
