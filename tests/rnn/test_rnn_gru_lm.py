"""CharGRULM: CharLM with nn.GRU layers, checked against embedding -> torch.nn.GRU -> tied scores by hand."""

from __future__ import annotations

import pytest
import torch

from nlp_helpers.rnn import gru_lm
from nlp_helpers.rnn.charlm import char_logprobs, train_lm
from nlp_helpers.rnn.gru_lm import CharGRULM, gru_lstm_study


def test_gru_lm_equals_embedding_gru_and_tied_output():
    torch.manual_seed(0)
    model = CharGRULM(7, embedding_dim=5, hidden_size=5)
    ids = torch.randint(0, 7, (2, 4))
    with torch.no_grad():
        h, _ = model.layers[0](model.embedding(ids))
        want = h @ model.embedding.weight.T + model.output_bias
        got, state = model(ids)
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)
    assert isinstance(model.layers[0], torch.nn.GRU) and state[0].shape == (1, 2, 5)
    # three gate blocks where an LSTM has four
    assert model.layers[0].weight_hh_l0.shape == (3 * 5, 5)


def test_gru_lm_trains_and_scores_with_the_lstm_helpers():
    torch.manual_seed(0)
    model = CharGRULM(5, embedding_dim=4, hidden_size=4)
    ids = torch.arange(200) % 5  # a periodic text is easy to predict
    history = train_lm(model, ids, steps=30, batch_size=8, seq_len=10, lr=3e-2, progress=False)
    assert history.train_loss.iloc[-5:].mean() < history.train_loss.iloc[:5].mean()
    logp = char_logprobs(model, ids[:50])
    assert logp.shape == (49,) and (logp <= 0).all()


def test_gru_lm_checks_its_arguments():
    with pytest.raises(ValueError, match="embedding_dim == hidden_size"):
        CharGRULM(5, embedding_dim=4, hidden_size=6)


def test_missing_study_file_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(gru_lm, "GRU_STUDY_FILE", tmp_path / "missing.json")
    with pytest.raises(FileNotFoundError, match="seed_study_rnn_gru"):
        gru_lstm_study()


def test_gru_lstm_study_is_complete_and_compares_like_with_like():
    study = gru_lstm_study()
    assert {"model", "seed", "parameters", "valid_bits_per_char", "valid_perplexity", "cpu_seconds"} <= set(study)
    counts = study.groupby("model").seed.nunique()
    assert set(counts.index) == {"LSTM, 128 units", "GRU, 128 units", "GRU, 147 units"}
    assert (counts >= 5).all() and counts.nunique() == 1  # the same seeds for every model
    params = study.groupby("model").parameters.first()
    # the 147-unit GRU matches the LSTM's parameter count to within 0.1 %
    assert abs(params["GRU, 147 units"] / params["LSTM, 128 units"] - 1) < 1e-3
    assert params["GRU, 128 units"] < 0.8 * params["LSTM, 128 units"]
    # perplexity and bits per character are the same number in two units
    torch.testing.assert_close(
        torch.tensor(study.valid_perplexity.to_numpy()),
        torch.tensor(2.0 ** study.valid_bits_per_char.to_numpy()),
        rtol=1e-9,
        atol=0,
        check_dtype=False,
    )
    assert study.valid_bits_per_char.between(1.0, 6.4).all()  # below log2(84): better than uniform
