"""Tests of nlp_helpers.word2vec.sgns, word2vec_eval, word2vec_softmax and fasttext.

References: gensim (subsampling probabilities, noise distribution, evaluation
scores, nearest neighbours, analogies, fastText n-gram hashing and OOV vectors),
torch autograd and finite differences (SGNS gradients), plain Python loops
(training pairs) and the hand-worked example of the chapter, computed here from
the exponentials directly.
"""

from __future__ import annotations

import logging
import math

import numpy as np
import pandas as pd
import pytest
import torch

from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.seeds import seed as offset_seed
from nlp_helpers.seeds import torch_generator
from nlp_helpers.word2vec import evaluation as word2vec_eval
from nlp_helpers.word2vec import fasttext as ft
from nlp_helpers.word2vec.corpus import (
    build_vocab,
    cbow_examples,
    encode_corpus,
    keep_probabilities,
    noise_distribution,
    noise_table,
    skipgram_pairs,
)
from nlp_helpers.word2vec.evaluation import WordVectors, read_analogies, seed_study
from nlp_helpers.word2vec.sgns import (
    Word2Vec,
    sgns_gradients,
    sgns_loss,
    sgns_shared_gradients,
    sgns_shared_loss,
)
from nlp_helpers.word2vec.softmax import (
    SoftmaxWord2Vec,
    cbow_forward,
    context_windows,
    skipgram_forward,
    softmax,
    train_softmax_word2vec,
)

logging.getLogger("gensim").setLevel(logging.ERROR)

SMALL = [["a", "b", "c", "a", "a", "d"] * 50, ["b", "c", "e"] * 20]


def planted_corpus(
    n_sentences: int = 600, length: int = 12, seed: int = 0
) -> tuple[list[list[str]], list[str], list[str]]:
    """Two clusters of 10 words; every sentence uses words of one cluster only."""
    rng = seeded_rng(seed)
    left = [f"l{i}" for i in range(10)]
    right = [f"r{i}" for i in range(10)]
    sentences = [list(rng.choice(left if rng.random() < 0.5 else right, size=length)) for _ in range(n_sentences)]
    return sentences, left, right


# --------------------------------------------------------------------------- vocabulary and sampling
def test_build_vocab_counts_sorts_and_filters():
    vocab = build_vocab(SMALL, min_count=30)
    assert vocab.words == ("a", "b", "c", "d")  # e (20) dropped; b and c tie at 70, alphabetical
    assert vocab.counts.tolist() == [150, 70, 70, 50]
    assert vocab.index["d"] == 3 and "e" not in vocab


def test_keep_probabilities_match_gensim():
    from gensim.models import Word2Vec as GensimW2V

    model = GensimW2V(SMALL, min_count=1, sample=1e-2, vector_size=4, epochs=1, workers=1)
    vocab = build_vocab(SMALL, min_count=1)
    ours = keep_probabilities(vocab.counts, 1e-2)
    for w in vocab.words:
        theirs = model.wv.get_vecattr(w, "sample_int") / 2**32
        assert ours[vocab.index[w]] == pytest.approx(theirs, abs=1e-9)
    assert np.all(keep_probabilities(vocab.counts, 0.0) == 1.0)


def test_noise_distribution_matches_gensim_cum_table():
    from gensim.models import Word2Vec as GensimW2V

    model = GensimW2V(SMALL, min_count=1, vector_size=4, epochs=1, workers=1, negative=5)
    theirs = np.diff(np.r_[0, model.cum_table]) / model.cum_table[-1]
    vocab = build_vocab(SMALL, min_count=1)
    ours = noise_distribution(vocab.counts, 0.75)
    for i, w in enumerate(model.wv.index_to_key):
        assert ours[vocab.index[w]] == pytest.approx(theirs[i], abs=1e-8)
    # by hand: counts 150 and 20 -> weights 150^0.75 and 20^0.75
    two = noise_distribution(np.array([150, 20]))
    assert two[0] == pytest.approx(150**0.75 / (150**0.75 + 20**0.75))
    assert np.allclose(noise_distribution(np.array([5, 1, 9]), power=0.0), 1 / 3)


def test_noise_table_has_exact_size_and_proportions():
    counts = np.array([150, 70, 70, 50, 20])
    table = noise_table(counts, size=10_007)
    assert len(table) == 10_007
    p = noise_distribution(counts)
    assert np.all(np.abs(np.bincount(table, minlength=5) - p * 10_007) < 1.0)


def test_sampling_helpers_reject_bad_input():
    with pytest.raises(ValueError, match="counts"):
        noise_distribution(np.array([3, 0, 2]))
    with pytest.raises(ValueError, match="sample"):
        keep_probabilities(np.array([3, 2]), sample=-0.1)
    with pytest.raises(ValueError, match="size"):
        noise_table(np.array([3, 2]), size=0)


# --------------------------------------------------------------------------- training examples
def _naive_pairs(ids, sent_ids, window, b):
    """One pair at a time, as word2vec.c's loop does."""
    pairs = []
    for i in range(len(ids)):
        for j in range(max(0, i - b[i]), min(len(ids), i + b[i] + 1)):
            if j != i and sent_ids[j] == sent_ids[i]:
                pairs.append((ids[i], ids[j]))
    return sorted(pairs)


@pytest.mark.parametrize("window", [1, 2, 5])
def test_skipgram_pairs_equal_a_plain_loop(window):
    rng = seeded_rng(1)
    ids = rng.integers(0, 50, size=300)
    sent_ids = np.sort(rng.integers(0, 8, size=300))
    centres, contexts = skipgram_pairs(ids, sent_ids, window, seeded_rng(7))
    b = seeded_rng(7).integers(1, window + 1, size=len(ids))  # the same window draws
    assert sorted(zip(centres.tolist(), contexts.tolist())) == _naive_pairs(ids.tolist(), sent_ids.tolist(), window, b)


def test_skipgram_pairs_window_one_by_hand():
    ids, sents = np.array([10, 11, 12, 13]), np.array([0, 0, 0, 1])
    c, o = skipgram_pairs(ids, sents, 1, seeded_rng(0))
    assert sorted(zip(c.tolist(), o.tolist())) == [(10, 11), (11, 10), (11, 12), (12, 11)]  # 13 is alone


def test_cbow_examples_group_the_same_pairs():
    rng = seeded_rng(2)
    ids = rng.integers(0, 30, size=200)
    sent_ids = np.sort(rng.integers(0, 5, size=200))
    ctx, centres = cbow_examples(ids, sent_ids, 3, seeded_rng(3))
    b = seeded_rng(3).integers(1, 4, size=len(ids))
    want = _naive_pairs(ids.tolist(), sent_ids.tolist(), 3, b)
    got = sorted((int(c), int(x)) for c, row in zip(centres, ctx) for x in row if x >= 0)
    assert got == want
    assert ctx.shape[1] == 6 and np.all((ctx >= 0).any(axis=1))


def test_encode_corpus_drops_unknown_words():
    vocab = build_vocab(SMALL, min_count=30)
    ids, sents = encode_corpus([["a", "zzz", "d"], ["e", "b"]], vocab)
    assert ids.tolist() == [0, 3, 1] and sents.tolist() == [0, 0, 1]


# --------------------------------------------------------------------------- loss and gradients
def _random_sgns(B=4, k=3, d=5, seed=0):
    g = torch_generator(seed)
    return (
        torch.randn(B, d, generator=g, dtype=torch.float64),
        torch.randn(B, d, generator=g, dtype=torch.float64),
        torch.randn(B, k, d, generator=g, dtype=torch.float64),
    )


def test_sgns_loss_matches_the_formula():
    v, u, n = _random_sgns(B=1, k=2)
    sig = lambda x: 1 / (1 + math.exp(-x))  # noqa: E731
    want = -math.log(sig(float(u[0] @ v[0]))) - sum(math.log(sig(-float(n[0, i] @ v[0]))) for i in range(2))
    assert float(sgns_loss(v, u, n)[0]) == pytest.approx(want, rel=1e-12)


def test_sgns_gradients_match_autograd():
    v, u, n = (t.requires_grad_() for t in _random_sgns())
    sgns_loss(v, u, n).sum().backward()
    g_v, g_u, g_n, loss = sgns_gradients(v.detach(), u.detach(), n.detach())
    assert torch.allclose(g_v, v.grad, atol=1e-12)
    assert torch.allclose(g_u, u.grad, atol=1e-12)
    assert torch.allclose(g_n, n.grad, atol=1e-12)
    assert torch.allclose(loss, sgns_loss(v, u, n).detach())


def test_sgns_gradients_match_finite_differences():
    v, u, n = _random_sgns(B=1, k=2, d=3, seed=3)
    g_v, g_u, g_n, _ = sgns_gradients(v, u, n)
    eps = 1e-6
    for tensor, grad in [(v, g_v), (u, g_u), (n, g_n)]:
        flat, gflat = tensor.view(-1), grad.reshape(-1)
        for i in range(flat.numel()):
            old = float(flat[i])
            flat[i] = old + eps
            up = float(sgns_loss(v, u, n).sum())
            flat[i] = old - eps
            down = float(sgns_loss(v, u, n).sum())
            flat[i] = old
            assert (up - down) / (2 * eps) == pytest.approx(float(gflat[i]), abs=1e-7)


def test_sgns_mask_drops_the_masked_negative():
    v, u, n = _random_sgns(B=2, k=3)
    mask = torch.tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]], dtype=torch.float64)
    g_v, _, g_n, loss = sgns_gradients(v, u, n, mask)
    keep = [0, 2]
    g_v0, _, g_n0, loss0 = sgns_gradients(v[:1], u[:1], n[:1, keep])
    assert torch.allclose(g_v[0], g_v0[0]) and torch.allclose(loss[0], loss0[0])
    assert torch.all(g_n[0, 1] == 0) and torch.allclose(g_n[0, keep], g_n0[0])


def test_shared_noise_gradients_match_autograd_and_per_pair_case():
    g = torch_generator(5)
    v, u = torch.randn(6, 4, generator=g, dtype=torch.float64), torch.randn(6, 4, generator=g, dtype=torch.float64)
    noise = torch.randn(8, 4, generator=g, dtype=torch.float64)
    leaves = [t.clone().requires_grad_() for t in (v, u, noise)]
    sgns_shared_loss(*leaves, k=5).sum().backward()
    g_v, g_u, g_n, loss = sgns_shared_gradients(v, u, noise, 5)
    for got, leaf in zip((g_v, g_u, g_n), leaves):
        assert torch.allclose(got, leaf.grad, atol=1e-12)
    assert torch.allclose(loss, sgns_shared_loss(v, u, noise, 5))
    # one pair whose pool is exactly its k negatives: the shared form is plain SGNS
    one = sgns_shared_gradients(v[:1], u[:1], noise[:3], 3)
    plain = sgns_gradients(v[:1], u[:1], noise[:3].unsqueeze(0))
    assert torch.allclose(one[0], plain[0]) and torch.allclose(one[2], plain[2][0]) and torch.allclose(one[3], plain[3])


def test_sgns_shape_errors_name_the_argument():
    v, u, n = _random_sgns()
    with pytest.raises(ValueError, match="u_neg"):
        sgns_loss(v, u, n[:, :, :2])
    with pytest.raises(ValueError, match="u_pos"):
        sgns_gradients(v, u[:2], n)
    with pytest.raises(ValueError, match="u_noise"):
        sgns_shared_gradients(v, u, n[0, :, :2], 5)


# --------------------------------------------------------------------------- the model
@pytest.mark.trains
@pytest.mark.parametrize("sg", [True, False])
def test_planted_clusters_are_recovered(sg):
    sentences, left, right = planted_corpus()
    model = Word2Vec(sg=sg, dim=16, window=3, min_count=1, epochs=5, negative=5, subsample=0, seed=0).fit(
        sentences, progress=False
    )
    same = 0
    for w in left + right:
        cluster = left if w in left else right
        same += sum(n in cluster for n, _ in model.most_similar(w, topn=5))
    # NLP_SEED_OFFSET 0-9 x kernels native/default: same-cluster share 1.00, within - across 0.90-0.94
    assert same / (20 * 5) >= 0.95
    within = np.mean([model.similarity(a, b) for a in left for b in left if a != b])
    across = np.mean([model.similarity(a, b) for a in left for b in right])
    assert within > across + 0.3


@pytest.mark.trains
def test_training_is_deterministic_with_a_seed():
    sentences, _, _ = planted_corpus(200)
    kw = dict(dim=8, window=2, min_count=1, epochs=2)
    a = Word2Vec(seed=3, **kw).fit(sentences, progress=False)
    b = Word2Vec(seed=3, **kw).fit(sentences, progress=False)
    c = Word2Vec(seed=4, **kw).fit(sentences, progress=False)
    assert np.array_equal(a.vectors, b.vectors) and a.loss_history == b.loss_history
    assert not np.allclose(a.vectors, c.vectors)


@pytest.mark.trains
def test_loss_decreases_during_training():
    sentences, _, _ = planted_corpus(400)
    model = Word2Vec(dim=16, window=3, min_count=1, epochs=3, subsample=0, batch_size=64).fit(sentences, progress=False)
    assert len(model.loss_history) > 20
    # offsets 0-9 x kernels native/default: final / initial mean loss 0.50-0.52
    assert np.mean(model.loss_history[-10:]) < 0.8 * np.mean(model.loss_history[:3])


def test_bad_input_gives_clear_errors():
    with pytest.raises(ValueError, match="window"):
        Word2Vec(window=0)
    with pytest.raises(ValueError, match="dim"):
        Word2Vec(dim=0)
    with pytest.raises(ValueError, match="sg"):
        Word2Vec(sg="skipgram")
    with pytest.raises(ValueError, match="sentences must not be empty"):
        Word2Vec().fit([])
    with pytest.raises(ValueError, match="all sentences are empty"):
        Word2Vec().fit([[], []])
    with pytest.raises(TypeError, match=r"sentences\[0\]"):
        Word2Vec().fit(["a whole string"])
    with pytest.raises(ValueError, match="min_count=5"):
        Word2Vec(min_count=5).fit([["rare", "words"]])
    with pytest.raises(ValueError, match="fit"):
        Word2Vec().vector("a")
    sentences, _, _ = planted_corpus(50)
    model = Word2Vec(dim=4, min_count=1, epochs=1).fit(sentences, progress=False)
    with pytest.raises(KeyError, match="'zebra'"):
        model.vector("zebra")
    with pytest.raises(KeyError, match="'zebra'"):
        model.most_similar("zebra")
    with pytest.raises(KeyError, match="c 'zebra'"):
        model.analogy("l1", "l2", "zebra")
    with pytest.raises(TypeError, match="word"):
        model.vector(3)


# --------------------------------------------------------------------------- evaluation vs gensim
@pytest.fixture(scope="module")
def gensim_model():
    from gensim.models import Word2Vec as GensimW2V

    from nlp_helpers.data.corpora import wikipedia_tokens

    sentences = [list(s[:20000]) for s in wikipedia_tokens()[:60]]
    return GensimW2V(sentences, vector_size=32, window=5, min_count=5, epochs=2, workers=1, seed=offset_seed(0))


@pytest.mark.slow
def test_similarity_evaluation_matches_gensim(gensim_model):
    from nlp_helpers.data.corpora import gensim_data_path, simlex999, wordsim353

    ours = WordVectors.from_gensim(gensim_model.wv)
    for frame, name in [(wordsim353(), "wordsim353.tsv"), (simlex999(), "simlex999.txt")]:
        pearson, spearman, oov = gensim_model.wv.evaluate_word_pairs(str(gensim_data_path(name)))
        got = ours.evaluate_similarity(frame)
        assert got["spearman"] == pytest.approx(spearman.statistic, abs=1e-5)
        assert got["pearson"] == pytest.approx(pearson.statistic, abs=1e-5)
        assert 100 * got["oov_rate"] == pytest.approx(oov, abs=1e-9)


@pytest.mark.slow
def test_analogy_evaluation_matches_gensim(gensim_model):
    from nlp_helpers.data.corpora import analogy_questions_path

    ours = WordVectors.from_gensim(gensim_model.wv).evaluate_analogies(analogy_questions_path())
    score, sections = gensim_model.wv.evaluate_word_analogies(str(analogy_questions_path()))
    total = sections[-1]
    assert ours["correct"] == len(total["correct"])
    assert ours["covered"] == len(total["correct"]) + len(total["incorrect"])
    assert ours["accuracy"] == pytest.approx(score)
    assert ours["total"] == 19544


@pytest.mark.slow
def test_neighbours_and_analogy_match_gensim(gensim_model):
    ours = WordVectors.from_gensim(gensim_model.wv)
    for word in ["king", "city", "war"]:
        got = dict(ours.most_similar(word, topn=10))
        want = gensim_model.wv.most_similar(word, topn=10)
        assert np.allclose(sorted(got.values()), sorted(s for _, s in want), atol=1e-5)
        # the same words, except that float32 rounding may swap near-ties at the cut-off
        common = [(w, s) for w, s in want if w in got]
        assert len(common) >= 8 and all(abs(got[w] - s) < 1e-5 for w, s in common)
    got = ours.analogy("man", "king", "woman", topn=3)
    want = gensim_model.wv.most_similar(positive=["king", "woman"], negative=["man"], topn=3)
    assert [w for w, _ in got] == [w for w, _ in want]


def test_wordvectors_by_hand():
    wv = WordVectors(["a", "b", "c", "d"], [[1, 0], [0, 1], [1, 1], [-1, 0]])
    assert wv.similarity("a", "c") == pytest.approx(1 / math.sqrt(2))
    assert [w for w, _ in wv.most_similar("a", topn=3)] == ["c", "b", "d"]
    # b - a + c = (0, 2): nearest excluding a, b, c is d (cosine 0)
    assert wv.analogy("a", "b", "c")[0][0] == "d"
    pairs = [("a", "c", 8.0), ("a", "b", 5.0), ("a", "d", 1.0), ("a", "zzz", 3.0)]
    res = wv.evaluate_similarity(pairs)
    assert res["spearman"] == pytest.approx(1.0) and res["pairs_used"] == 3 and res["oov_rate"] == 0.25
    with pytest.raises(ValueError, match="rows"):
        WordVectors(["a"], [[1, 0], [0, 1]])
    with pytest.raises(KeyError, match="exclude word 'zzz'"):
        wv.nearest([1.0, 0.0], exclude=["zzz"])
    with pytest.raises(ValueError, match="query"):
        wv.nearest([1.0, 0.0, 2.0])
    with pytest.raises(ValueError, match="pairs"):
        wv.evaluate_similarity(pd.DataFrame({"word1": ["a"], "word2": ["b"]}))


def test_read_analogies_and_errors(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text(": capitals\nAthens Greece Paris France\n: plural\ncat cats dog dogs\n", encoding="utf-8")
    frame = read_analogies(path)
    assert frame.section.tolist() == ["capitals", "plural"] and frame.d.tolist() == ["France", "dogs"]
    wv = WordVectors(["athens", "greece", "paris", "france"], np.eye(4))
    res = wv.evaluate_analogies(path)
    assert res["covered"] == 1 and res["total"] == 2 and res["oov_rate"] == 0.5
    bad = tmp_path / "bad.txt"
    bad.write_text(": s\nonly three words\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        read_analogies(bad)
    with pytest.raises(FileNotFoundError, match="path"):
        read_analogies(tmp_path / "missing.txt")


def test_only_c_baseline_is_the_nearest_neighbour_of_c(tmp_path):
    # Hand-made: c's nearest neighbour (excluding a, b, c) is "near_c", while b - a + c points at "d".
    words = ["a", "b", "c", "d", "near_c"]
    vectors = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 1, 1], [0.1, -0.2, 1]]
    wv = WordVectors(words, vectors)
    path = tmp_path / "q.txt"
    path.write_text(": s\na b c d\na b c near_c\n", encoding="utf-8")
    assert (
        wv.analogy("a", "b", "c")[0][0] == "d" and wv.nearest(wv.unit[2], 1, exclude={"a", "b", "c"})[0][0] == "near_c"
    )
    assert wv.evaluate_analogies(path)["correct"] == 1
    only_c = wv.evaluate_analogies(path, method="only_c")
    assert only_c["correct"] == 1 and only_c["sections"].accuracy.tolist() == [0.5]
    with pytest.raises(ValueError, match="method"):
        wv.evaluate_analogies(path, method="3cosmul")


@pytest.mark.slow
def test_only_c_baseline_matches_a_loop_over_questions(gensim_model):
    from nlp_helpers.data.corpora import analogy_questions_path

    ours = WordVectors.from_gensim(gensim_model.wv)
    res = ours.evaluate_analogies(analogy_questions_path(), method="only_c")
    questions = read_analogies(analogy_questions_path())
    hits = covered = 0
    for q in questions[["a", "b", "c", "d"]].itertuples(index=False):
        q = [w.lower() for w in q]
        if all(w in ours for w in q):
            covered += 1
            hits += ours.nearest(ours.unit[ours.index[q[2]]], 1, exclude=set(q[:3]))[0][0] == q[3]
    assert res["covered"] == covered and res["correct"] == hits


def test_seed_study_file_covers_every_model_with_at_least_five_seeds(monkeypatch, tmp_path):
    study = seed_study()
    assert list(study.columns) == ["model", "seed", "wordsim353", "simlex999", "analogy", "analogy_only_c"]
    seeds_per_model = study.groupby("model")["seed"].nunique()
    for model in ["our skip-gram (PyTorch)", "gensim skip-gram", "our CBOW (PyTorch)", "gensim CBOW"]:
        assert seeds_per_model[model] >= 5, model
    counts = study[study.model.str.startswith("PPMI")]
    assert len(counts) == 2 and counts.seed.isna().all()
    scores = study[["wordsim353", "simlex999"]].to_numpy()
    assert np.all(np.abs(scores) <= 1) and not np.isnan(scores).any()
    monkeypatch.setattr(word2vec_eval, "SEED_STUDY_FILE", tmp_path / "missing.csv")
    with pytest.raises(FileNotFoundError, match="seed_study_word2vec"):
        seed_study()


# --------------------------------------------------------------------------- full softmax and the worked example
W1 = np.array([[2, 0, 1], [0, 0, 2], [1, 2, 0], [0, 2, 2], [2, 1, 0]], dtype=float)  # the, cat, sat, on, mat
W2 = np.array([[0, 1, 1, 1, 0], [1, 1, 0, 0, 1], [0, -1, 0, -1, -1]], dtype=float)


def test_cbow_worked_example_by_hand():
    out = cbow_forward([0, 2], W1, W2)  # "the ___ sat"
    assert out["hidden"].tolist() == [3, 2, 1]
    assert out["scores"].tolist() == [2, 4, 3, 2, 1]
    z = 2 * math.e**2 + math.e**4 + math.e**3 + math.e
    assert out["probs"][1] == pytest.approx(math.e**4 / z)
    assert out["probs"].argmax() == 1  # "cat"


def test_skipgram_worked_example_by_hand():
    out = skipgram_forward(1, W1, W2)  # "cat" predicts its neighbours
    assert out["hidden"].tolist() == W1[1].tolist()
    assert out["scores"].tolist() == [0, -2, 0, -2, -2]
    assert out["probs"][0] == pytest.approx(1 / (2 + 3 * math.exp(-2)))


def test_softmax_module_equals_the_numpy_steps_and_torch_softmax():
    model = SoftmaxWord2Vec(5, 3, cbow=True)
    with torch.no_grad():
        model.W1.copy_(torch.tensor(W1))
        model.W2.copy_(torch.tensor(W2))
    logits = model(torch.tensor([[0, 2, -1]]))
    assert np.allclose(logits.detach().numpy()[0], cbow_forward([0, 2], W1, W2)["scores"])
    assert np.allclose(torch.softmax(logits, -1).detach().numpy()[0], softmax(logits.detach().numpy()[0]))
    model.cbow = False
    assert np.allclose(model(torch.tensor([1])).detach().numpy()[0], skipgram_forward(1, W1, W2)["scores"])


@pytest.mark.trains
def test_softmax_training_learns_the_planted_clusters():
    sentences, left, right = planted_corpus(100, seed=1)
    words = left + right
    ids = [[words.index(w) for w in s] for s in sentences]
    for cbow in (True, False):
        model, history = train_softmax_word2vec(
            ids, len(words), dim=8, epochs=4, cbow=cbow, batch_size=128, progress=False
        )
        # offsets 0-9 x kernels native/default: loss drop 0.28-0.41 (CBOW), 0.15-0.22 (skip-gram);
        # within - across 1.06-1.36 (CBOW), 1.44-1.63 (skip-gram)
        assert history[-1] < history[0]
        emb = model.W1.detach().numpy()
        wv = WordVectors(words, emb)
        within = np.mean([wv.similarity(a, b) for a in left for b in left if a != b])
        across = np.mean([wv.similarity(a, b) for a in left for b in right])
        assert within > across + 0.2


def test_softmax_helpers_reject_bad_input():
    with pytest.raises(ValueError, match="W2"):
        cbow_forward([0], W1, W2.T)
    with pytest.raises(ValueError, match="ids"):
        cbow_forward([7], W1, W2)
    with pytest.raises(ValueError, match="centre_id"):
        skipgram_forward(5, W1, W2)
    with pytest.raises(ValueError, match="context_ids"):
        cbow_forward([], W1, W2)
    with pytest.raises(ValueError, match="window"):
        context_windows([1, 2], 0)
    with pytest.raises(TypeError, match="given"):
        SoftmaxWord2Vec(5, 3)(torch.tensor([[0.5]]))


# --------------------------------------------------------------------------- fastText subwords
def test_char_ngrams_match_the_seed_and_gensim():
    from gensim.models.fasttext import compute_ngrams

    assert ft.char_ngrams("where", 3, 3) == ["<wh", "whe", "her", "ere", "re>"]  # the lecture notes' example
    for word in ["where", "naïve", "日本語", "a"]:
        assert sorted(ft.char_ngrams(word, 3, 6)) == sorted(compute_ngrams(word, 3, 6))


def test_hashing_matches_gensim():
    from gensim.models.fasttext import ft_hash_bytes, ft_ngram_hashes

    for data in [b"<wh", "naïve".encode(), "日本".encode(), b""]:
        assert ft.fnv1a_32(data) == ft_hash_bytes(data)
    for word in ["running", "naïve", "Zürich"]:
        assert sorted(ft.ngram_buckets(word, 3, 6, 2_000_000)) == sorted(ft_ngram_hashes(word, 3, 6, 2_000_000))
    with pytest.raises(TypeError, match="bytes"):
        ft.fnv1a_32("text")
    with pytest.raises(ValueError, match="word"):
        ft.char_ngrams("")


def test_unseen_word_vector_matches_gensim_fasttext():
    from gensim.models import FastText

    model = FastText(
        SMALL + [["running", "runner", "runs"] * 10],
        vector_size=8,
        min_count=1,
        epochs=1,
        bucket=5000,
        workers=1,
        seed=offset_seed(0),
    )
    assert "runners" not in model.wv.key_to_index
    got = ft.subword_vector("runners", model.wv.vectors_ngrams, model.wv.min_n, model.wv.max_n)
    assert np.allclose(got, model.wv["runners"], atol=1e-6)
