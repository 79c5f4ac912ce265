"""Benchmarks of the feed-forward chapter's helpers (``nlp_helpers.feedforward``).

Rows (see CONTRIBUTING.md, "Benchmarks"):

1. Hand-written backpropagation of the two-layer numpy network (``mlp.mlp_forward`` +
   ``mlp.mlp_backward``, batch 512, 300 inputs, 256 ReLU units, 10 classes, float64) vs torch
   autograd on ``nn.Sequential(Linear, ReLU, Linear)`` with the same weights. Target: gradients
   equal to relative 1e-9.
2. ``window_lm.WindowLM`` forward vs the same weights in ``nn.Sequential(Embedding, Flatten,
   Linear, Tanh, Linear)`` on 8,192 contexts. Target: logits equal to relative 1e-4 (float32).
3. The fixed-window neural LM (k = 3, d = 32, H = 64) trained for two passes over the book's
   Shakespeare training plays, vs the interpolated Kneser-Ney trigram (d = 0.9) on the same split
   and the same vocabulary (the 1,000 most frequent training words), test perplexity; three seeds.
   The chapter trains for a fifth of a pass. Target: after two passes the neural model alone and
   its mixture with Kneser-Ney both beat Kneser-Ney (measured: 42.2 ± 0.1 and 39.2 ± 0.1 vs 43.1).
4. The pooling classifier (random embeddings, mean pooling) vs scikit-learn's logistic regression
   on binary bag-of-words features, sentence polarity test accuracy, five seeds. Information.

Run: ``python -m benchmarks.bench_feedforward``.
"""

from __future__ import annotations

import math
import time

import numpy as np
import torch

from benchmarks.timing import best_of
from nlp_helpers.data.polarity import polarity_split
from nlp_helpers.data.splits import word_lm_split, word_vocabulary
from nlp_helpers.feedforward import mlp
from nlp_helpers.feedforward import pooling_classifier as pc
from nlp_helpers.feedforward import window_lm as wlm
from nlp_helpers.ngram.models import NGramLM


def _once(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def bench_backprop() -> dict:
    gen = np.random.default_rng(0)
    params = mlp.init_mlp(300, 256, 10, init="he", seed=0)
    X, y = gen.normal(size=(512, 300)), gen.integers(0, 10, 512)

    def ours():
        probs, cache = mlp.mlp_forward(params, X, "relu")
        return mlp.mlp_backward(params, cache, probs, y)

    net = torch.nn.Sequential(torch.nn.Linear(300, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10)).double()
    with torch.no_grad():
        for layer, (w, b) in zip((net[0], net[2]), (("W", "b"), ("U", "c"))):
            layer.weight.copy_(torch.from_numpy(params[w]))
            layer.bias.copy_(torch.from_numpy(params[b]))
    Xt, yt = torch.from_numpy(X), torch.from_numpy(y)

    def theirs():
        net.zero_grad()
        torch.nn.functional.cross_entropy(net(Xt), yt).backward()
        return {"W": net[0].weight.grad, "b": net[0].bias.grad, "U": net[2].weight.grad, "c": net[2].bias.grad}

    g_ours, t_ours = best_of(ours, 5)
    g_ref, t_ref = best_of(theirs, 5)
    rel = max(float(np.abs(g_ours[k] - g_ref[k].numpy()).max() / np.abs(g_ref[k].numpy()).max()) for k in g_ours)
    return {
        "helper": "feedforward.mlp forward + hand backward (B=512, 300-256-10, float64)",
        "reference": "torch autograd, nn.Sequential(Linear, ReLU, Linear)",
        "agreement": f"max rel. diff {rel:.1e}",
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "gradients equal to rel. 1e-9",
        "met": rel < 1e-9,
        "note": "numpy matmuls vs torch's; the hand backward is the same computation",
    }


def bench_window_forward() -> dict:
    lm = wlm.WindowLM(1003, k=3, dim=32, hidden=64, seed=0)
    ref = torch.nn.Sequential(
        torch.nn.Embedding(1003, 32),
        torch.nn.Flatten(),
        torch.nn.Linear(96, 64),
        torch.nn.Tanh(),
        torch.nn.Linear(64, 1003),
    )
    ref.load_state_dict(
        {
            "0.weight": lm.embed.weight,
            "2.weight": lm.hid.weight,
            "2.bias": lm.hid.bias,
            "4.weight": lm.out.weight,
            "4.bias": lm.out.bias,
        }
    )
    ctx = torch.randint(1003, (8192, 3), generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        ours, t_ours = best_of(lambda: lm(ctx), 5)
        theirs, t_ref = best_of(lambda: ref(ctx), 5)
    rel = float((ours - theirs).abs().max() / theirs.abs().max())
    return {
        "helper": "feedforward.window_lm.WindowLM forward (8,192 contexts, V=1,003)",
        "reference": "nn.Sequential(Embedding, Flatten, Linear, Tanh, Linear), same weights",
        "agreement": f"max rel. diff {rel:.1e}",
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "logits equal to rel. 1e-4 (float32)",
        "met": rel < 1e-4,
        "note": "input checks cost little",
    }


def bench_window_lm_vs_kneser_ney(epochs: int = 2, seeds: int = 3) -> dict:
    split = word_lm_split()
    words = word_vocabulary(split["train"])[:1000]
    kn, t_kn = _once(lambda: NGramLM(3, "kneser_ney", discount=0.9).fit(split["train"], vocabulary=words))
    vocab = wlm.lm_vocabulary(words)
    ex = {p: wlm.window_examples(split[p], vocab, k=3) for p in ("train", "valid", "test")}
    kn_logp = {p: kn.token_logprobs(split[p]) * math.log(2) for p in ("valid", "test")}
    steps = epochs * math.ceil(len(ex["train"][1]) / 512)
    pp = lambda logp: math.exp(-float(np.mean(logp)))
    lams = np.linspace(0.05, 0.95, 19)
    nn_test, mix_test, t_nn = [], [], 0.0
    for s in range(seeds):
        lm = wlm.WindowLM(len(vocab), k=3, dim=32, hidden=64, seed=s)
        _, t = _once(
            lambda lm=lm, s=s: wlm.train_window_lm(
                lm, *ex["train"], steps=steps, batch_size=512, lr=2e-2, seed=s, progress=False
            )
        )
        t_nn += t / seeds
        logp = {p: wlm.token_logprobs(lm, *ex[p]) for p in ("valid", "test")}

        def mix(p, lam, logp=logp):
            return np.log(lam * np.exp(logp[p]) + (1 - lam) * np.exp(kn_logp[p]))

        best = min(lams, key=lambda lam: pp(mix("valid", lam)))
        nn_test.append(pp(logp["test"]))
        mix_test.append(pp(mix("test", best)))
    kn_pp = pp(kn_logp["test"])
    return {
        "helper": f"feedforward.window_lm.WindowLM, {epochs} passes (batch 512, Adam 2e-2), {seeds} seeds",
        "reference": "nlp_helpers.ngram.models.NGramLM(3, 'kneser_ney', discount=0.9), same split and vocabulary",
        "agreement": f"test perplexity: neural {np.mean(nn_test):.1f} ± {np.std(nn_test, ddof=1):.1f}, "
        f"Kneser-Ney {kn_pp:.1f}, mixture {np.mean(mix_test):.1f} ± {np.std(mix_test, ddof=1):.1f}",
        "ours_s": t_nn,
        "reference_s": t_kn,
        "target": "neural alone and the mixture below Kneser-Ney",
        "met": max(nn_test) < kn_pp and max(mix_test) < kn_pp,
        "note": "1,000-word vocabulary + </s>, <UNK> (the n-gram chapter's small model); times are per fit",
    }


def bench_pooling_vs_logreg(seeds: int = 5) -> dict:
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression

    parts = polarity_split()
    tokens = {k: [t.split() for t in v.text] for k, v in parts.items()}
    vocab = [pc.PAD, pc.UNK] + word_vocabulary(tokens["train"], min_count=2)
    data = {k: (pc.encode_texts(tokens[k], vocab), torch.tensor(parts[k].label.to_numpy())) for k in parts}
    accs, t_ours = [], 0.0
    for s in range(seeds):
        model = pc.PoolingClassifier(len(vocab), dim=50, hidden=32, seed=s)
        _, t = _once(
            lambda model=model, s=s: pc.train_classifier(
                model, data["train"], data["dev"], epochs=3, lr=2e-2, batch_size=512, seed=s
            )
        )
        t_ours += t / seeds
        accs.append(pc.accuracy(model, data["test"]))
    vec = CountVectorizer(tokenizer=str.split, token_pattern=None, lowercase=False, binary=True, min_df=2)
    Xtr, Xte = vec.fit_transform(parts["train"].text), vec.transform(parts["test"].text)
    clf, t_ref = _once(lambda: LogisticRegression(C=1.0, max_iter=2000).fit(Xtr, parts["train"].label))
    ref_acc = float((clf.predict(Xte) == parts["test"].label).mean())
    return {
        "helper": "feedforward.pooling_classifier (mean pooling, random init, 3 epochs), 5 seeds",
        "reference": "sklearn LogisticRegression on binary bag of words (min_df=2)",
        "agreement": f"test accuracy {np.mean(accs):.3f} ± {np.std(accs, ddof=1):.3f} vs {ref_acc:.3f}",
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "information",
        "met": True,
        "note": "averaging embeddings loses word identity; a linear model on counts keeps it",
    }


def run() -> list[dict]:
    return [bench_backprop(), bench_window_forward(), bench_pooling_vs_logreg(), bench_window_lm_vs_kneser_ney()]


if __name__ == "__main__":
    for row in run():
        print(row)
