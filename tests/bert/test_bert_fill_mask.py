"""The masked-LM head on the frozen MiniLM encoder (nlp_helpers.bert.fill_mask).

References: ``transformers.BertForMaskedLM``'s own prediction head (``cls.predictions``) with the
same weights (relative 1e-4); the training run is small (60 sentences) and checks only what any
seed must give: a falling loss, a cache that round-trips exactly, probabilities in order.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.bert import fill_mask
from nlp_helpers.bert.minilm import load_minilm

transformers = pytest.importorskip("transformers")


def test_head_equals_transformers_bert_for_masked_lm():
    config = transformers.BertConfig(
        vocab_size=50, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32
    )
    reference = transformers.BertForMaskedLM(config).eval()
    torch.manual_seed(0)
    E = torch.randn(50, 16)
    head = fill_mask.MaskedLMHead(E)
    with torch.no_grad():
        head.bias.normal_()
        reference.bert.embeddings.word_embeddings.weight.copy_(E)  # tied decoder
        t = reference.cls.predictions.transform
        t.dense.weight.copy_(head.dense.weight)
        t.dense.bias.copy_(head.dense.bias)
        t.LayerNorm.weight.copy_(torch.rand(16) + 0.5)
        t.LayerNorm.bias.copy_(torch.randn(16))
        head.norm.weight.copy_(t.LayerNorm.weight)
        head.norm.bias.copy_(t.LayerNorm.bias)
        reference.cls.predictions.bias.copy_(head.bias)
        hidden = torch.randn(3, 7, 16)
        torch.testing.assert_close(head(hidden), reference.cls(hidden), rtol=1e-4, atol=1e-5)


@pytest.mark.slow
@pytest.mark.trains
def test_small_training_run_round_trips_through_the_cache(tmp_path):
    sentences = fill_mask.wikipedia_sentences("train")
    test = fill_mask.wikipedia_sentences("test")
    assert len(sentences) > 10_000 and len(test) > 500 and not set(sentences) & set(test)
    features, labels = fill_mask.masked_features(sentences[:80], seed=1)
    assert features.shape == (len(labels), 384) and labels.min() >= 999  # ordinary WordPieces only
    head, losses = fill_mask.train_head(features, labels, epochs=6, batch_size=64, progress=False)
    assert np.mean(losses[-3:]) < losses[0]
    folder = fill_mask.prepare(tmp_path / "cache", n_sentences=60)
    loaded, counts, info = fill_mask.load_head(folder)
    assert counts.shape == (30522,) and counts.sum() > 1_000_000 and info["n_sentences"] == 60
    fills = fill_mask.top_fills("The capital of France is [MASK] and [MASK] is big.", loaded, k=4)
    assert len(fills) == 2 and all(len(f) == 4 for f in fills)
    probs = [p for _, p in fills[0]]
    assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1 + 1e-6
    again, _, _ = fill_mask.load_head(folder)  # the cache is complete: loaded, not retrained
    x = torch.randn(2, 384)
    torch.testing.assert_close(again(x), loaded(x))


def test_bad_inputs_name_the_argument(tmp_path):
    _, model = load_minilm()
    head = fill_mask.MaskedLMHead(model.embeddings.word_embeddings.weight)
    with pytest.raises(ValueError, match="text"):
        fill_mask.top_fills("no blank here", head)
    with pytest.raises(ValueError, match="k"):
        fill_mask.top_fills("a [MASK]", head, k=0)
    with pytest.raises(TypeError, match="head"):
        fill_mask.top_fills("a [MASK]", "head")
    with pytest.raises(ValueError, match="word_embeddings"):
        fill_mask.MaskedLMHead(torch.zeros(3))
    with pytest.raises(ValueError, match="hidden"):
        head(torch.zeros(2, 5))
    with pytest.raises(ValueError, match="split"):
        fill_mask.wikipedia_sentences("valid")
    with pytest.raises(ValueError, match="labels"):
        fill_mask.train_head(np.zeros((4, 384)), np.zeros(3, dtype=int))
    with pytest.raises((TypeError, ValueError), match="texts"):
        fill_mask.masked_features([])
    with pytest.raises(ValueError, match="n_sentences"):
        fill_mask.prepare(tmp_path, n_sentences=0)
    (tmp_path / "bad").mkdir()
    torch.save({"nonsense": torch.zeros(1)}, tmp_path / "bad" / "head.pt")
    np.save(tmp_path / "bad" / "unigram_counts.npy", np.zeros(3))
    (tmp_path / "bad" / "head.json").write_text("{}")
    with pytest.raises(ValueError, match="MLM head"):
        fill_mask.load_head(tmp_path / "bad")
