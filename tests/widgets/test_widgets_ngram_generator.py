"""NGramGenerator: its shipped probabilities equal the model's, its samples are the model's samples,
validation, the JavaScript under Node, and the golden file of the browser test.

The golden file ``tests/golden/ngram_generator_widget.json`` holds what the widget of the n-gram chapter
(the chapter's MLE model of the Shakespeare training split, seeds 0-2 at ``NLP_SEED_OFFSET=0``) must
show at a few (order, sample, step) positions, computed here from ``NGramLM.distribution`` directly.
Regenerate it with ``python -m tests.widgets.test_widgets_ngram_generator``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from nlp_helpers.data.splits import word_lm_split
from nlp_helpers.ngram.models import NGramLM
from nlp_helpers.widgets.ngram_generator import NGramGenerator
from tests.widget_node import run_widget_js

HERE = Path(__file__).resolve().parents[1]  # tests/
GOLDEN = HERE / "golden" / "ngram_generator_widget.json"
SAM = [s.split() for s in ["I am Sam", "Sam I am", "I do not like green eggs and ham"]]
CASES = [(1, 0, 0), (2, 0, 1), (3, 1, 2), (4, 2, 1)]  # (order, sample, step)


@pytest.fixture(scope="module")
def chapter_lm() -> NGramLM:
    return NGramLM(5, "mle").fit(word_lm_split()["train"])


def _expected(lm, order, ctx, top=8):
    """The top candidates after ctx, straight from the model's distribution (ties broken by vocabulary order)."""
    p = lm.distribution(ctx)
    p = p / p.sum()
    best = sorted(range(len(p)), key=lambda i: (-p[i], i))[:top]
    return [lm.vocab[i] for i in best], [float(p[i]) for i in best]


def golden_data(lm) -> dict:
    w = NGramGenerator(lm)
    cases = []
    for order, sample, step in CASES:
        st = w.paths[str(order)][sample][step]
        words, probs = _expected(lm, order, st["c"])
        cases.append(
            {
                "controls": [
                    {"testid": "ng-order", "value": str(order)},
                    {"testid": "ng-seed", "value": str(sample)},
                    {"testid": "ng-step", "value": str(step)},
                ],
                "context": st["c"],
                "words": words + [st["w"][st["s"]]] * (st["s"] >= len(words)),
                "probs": [round(p, 3) for p in probs],
                "drawn": st["w"][st["s"]],
            }
        )
    return {
        "about": (
            "What NGramGenerator shows on the n-gram chapter's page: after setting the controls, the bars "
            "ng-bar-i carry data-word/data-p (top 8 by the model's distribution, 3 decimals), ng-pick the "
            "drawn word. Regenerate: python -m tests.widgets.test_widgets_ngram_generator"
        ),
        "page": "book/ngram/counting.html",
        "tolerance": 5e-4,
        "cases": cases,
    }


def test_probabilities_and_samples_are_the_models():
    lm = NGramLM(3, "kneser_ney").fit(SAM)
    w = NGramGenerator(lm, orders=(1, 2, 3), n_sentences=3, max_words=6, top=4, seed=5)
    assert w.orders == [1, 2, 3] and w.seeds == [5, 6, 7] and w.order == 3
    for order in (1, 2, 3):
        for i, seed in enumerate(w.seeds):
            path = w.paths[str(order)][i]
            drawn = [st["w"][st["s"]] for st in path]
            words = lm.generate(6, seed=seed, order=order)
            assert drawn == words + (["</s>"] if len(words) < 6 else [])  # the chapter sampler's words
            history = ["<s>"] * (order - 1)
            for st, word in zip(path, drawn):
                ctx = history[len(history) - order + 1 :] if order > 1 else []
                assert st["c"] == ctx
                want = dict(zip(lm.vocab, lm.distribution(ctx)))
                np.testing.assert_allclose(st["p"], [want[x] for x in st["w"]], atol=5e-4)  # rounded to 3 decimals
                assert st["p"][:4] == sorted(st["p"][:4], reverse=True)
                assert st["p"][0] == pytest.approx(max(want.values()), abs=5e-4)
                history.append(word)


def test_the_drawn_word_is_shown_even_outside_the_top():
    lm = NGramLM(2, "laplace").fit(SAM)  # flat: the drawn word is often not the most probable
    w = NGramGenerator(lm, orders=(2,), n_sentences=8, max_words=8, top=1)
    steps = [st for p in w.paths["2"] for st in p]
    assert all(st["s"] in (0, 1) and len(st["w"]) == 1 + st["s"] for st in steps)
    assert any(st["s"] == 1 for st in steps)


@pytest.fixture(scope="module")
def chapter_widget(chapter_lm) -> NGramGenerator:
    return NGramGenerator(chapter_lm)


def test_state_is_small(chapter_widget):
    assert len(json.dumps(chapter_widget.paths)) < 150_000
    # the tables for "New sentence": measured 88,428 bytes (1,401 contexts, 439 words)
    assert len(json.dumps([chapter_widget.vocab, chapter_widget.tables])) < 110_000


def _state(w: NGramGenerator) -> dict:
    keys = ("orders", "seeds", "paths", "vocab", "tables", "max_words", "top", "order", "sample", "step")
    return {k: getattr(w, k) for k in keys}


def test_tables_hold_the_models_likeliest_continuations_and_are_closed():
    lm = NGramLM(3, "kneser_ney").fit(SAM)
    w = NGramGenerator(lm, orders=(1, 2, 3), top=3, contexts=50)
    for order in (1, 2, 3):
        table = w.tables[str(order)]
        start = " ".join(["0"] * (order - 1))
        assert start in table and w.vocab[0] == "<s>"
        for key, (ids, probs) in table.items():
            ctx = [w.vocab[int(i)] for i in key.split()]
            p = lm.distribution(ctx) / lm.distribution(ctx).sum()
            want = dict(zip(lm.vocab, p))
            np.testing.assert_allclose(probs, [want[w.vocab[i]] for i in ids], atol=5e-5)  # 4 decimals
            assert probs == sorted(probs, reverse=True) and len(ids) <= (300 if order == 1 else 3)
            assert probs[0] == pytest.approx(p.max(), abs=5e-5)
            for i in ids:  # every continuation ends the sentence or leads to a context in the table
                nxt = [*key.split(), str(i)][1:]
                assert order == 1 or w.vocab[i] == "</s>" or " ".join(nxt) in table


def _valid(lm, order: int, sentence: list[str]) -> bool:
    """Every word of ``sentence`` has nonzero probability after its context under ``lm`` at ``order``."""
    history = ["<s>"] * (order - 1)
    for word in sentence:
        ctx = history[len(history) - order + 1 :] if order > 1 else []
        if lm.distribution(ctx)[lm.vocab.index(word)] <= 0:
            return False
        history.append(word)
    return True


@pytest.mark.parametrize("order", [2, 4])
def test_new_sentence_draws_new_valid_sentences_in_the_page(chapter_lm, chapter_widget, order, tmp_path):
    state = _state(chapter_widget) | {"order": order}
    first = run_widget_js(chapter_widget._esm, state, [], tmp_path)["ng-sentence"]["attrs"]["data-sentence"]
    stored = [st["w"][st["s"]] for st in chapter_widget.paths[str(order)][0]]
    assert first.split() == stored  # the page opens on the sentence its text talks about (seed 0)
    sentences = []
    for presses in range(1, 11):
        out = run_widget_js(chapter_widget._esm, state, [{"testid": "ng-new", "click": True}] * presses, tmp_path)
        assert out["__state"]["sample"] == len(chapter_widget.seeds) and out["__state"]["step"] == 0
        sentences.append(out["ng-sentence"]["attrs"]["data-sentence"])
    assert len(set(sentences)) >= 5, sentences
    for sentence in sentences:
        words = sentence.split()
        assert 1 <= len(words) <= chapter_widget.max_words and "<s>" not in words
        assert _valid(chapter_lm, order, words), sentence
        assert "</s>" not in words[:-1]


def test_a_new_sentence_shows_its_steps_like_a_stored_one(chapter_lm, chapter_widget, tmp_path):
    actions = [
        {"testid": "ng-order", "value": "3"},
        {"testid": "ng-new", "click": True},
        {"testid": "ng-step", "value": "1"},
    ]
    out = run_widget_js(chapter_widget._esm, _state(chapter_widget), actions, tmp_path)
    words = out["ng-sentence"]["attrs"]["data-sentence"].split()
    assert out["ng-pick"]["attrs"]["data-word"] == words[1]
    p = chapter_lm.distribution(["<s>", words[0]])
    p = dict(zip(chapter_lm.vocab, p / p.sum()))
    bars = [out[f"ng-bar-{i}"]["attrs"] for i in range(8) if f"ng-bar-{i}" in out]
    assert [float(b["data-p"]) for b in bars] == pytest.approx([p[b["data-word"]] for b in bars], abs=5e-5)
    assert out["ng-seed"]["value"] == str(len(chapter_widget.seeds))


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"lm": "not a model"}, TypeError, "lm"),
        ({"lm": NGramLM(2)}, ValueError, "lm must be a fitted"),
        ({"orders": []}, ValueError, "orders"),
        ({"orders": "12"}, ValueError, "orders"),
        ({"orders": (1, 5)}, ValueError, "orders"),  # at most 4
        ({"n_sentences": 0}, ValueError, "n_sentences"),
        ({"max_words": 31}, ValueError, "max_words"),
        ({"top": 0}, ValueError, "top"),
        ({"seed": -1}, ValueError, "seed"),
        ({"contexts": 0}, ValueError, "contexts"),
    ],
)
def test_bad_input_names_the_argument(kwargs, error, match):
    args = {"lm": NGramLM(4).fit(SAM)} | kwargs
    lm = args.pop("lm")
    with pytest.raises(error, match=match):
        NGramGenerator(lm, **args)


@pytest.mark.skipif(os.environ.get("NLP_SEED_OFFSET", "0") != "0", reason="the golden file is for offset 0")
def test_golden_file_is_current(chapter_lm):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden == json.loads(json.dumps(golden_data(chapter_lm))), (
        "regenerate: python -m tests.widgets.test_widgets_ngram_generator"
    )


def test_javascript_shows_the_shipped_paths(tmp_path):
    lm = NGramLM(3, "kneser_ney").fit(SAM)
    w = NGramGenerator(lm, orders=(1, 2, 3), n_sentences=2, max_words=5, top=3)
    state = _state(w)
    for order, sample, step in [(1, 0, 0), (2, 1, 1), (3, 0, 2)]:
        actions = [
            {"testid": "ng-order", "value": str(order)},
            {"testid": "ng-seed", "value": str(sample)},
            {"testid": "ng-step", "value": str(step)},
        ]
        out = run_widget_js(w._esm, state | {"order": 3, "sample": 0, "step": 0}, actions, tmp_path)
        st = w.paths[str(order)][sample][step]
        bars = [out[f"ng-bar-{i}"]["attrs"] for i in range(len(st["w"]))]
        assert [b["data-word"] for b in bars] == st["w"]
        assert [float(b["data-p"]) for b in bars] == st["p"]
        assert f"ng-bar-{len(st['w'])}" not in out
        assert out["ng-pick"]["attrs"]["data-word"] == st["w"][st["s"]]
        before = [
            p[step - 1 - i]["w"][p[step - 1 - i]["s"]] for p in [w.paths[str(order)][sample]] for i in range(step)
        ]
        assert out["ng-sentence"]["text"].split()[:step] == before[::-1]
        assert " ".join(st["c"]) in out["ng-context"]["text"] or order == 1
        assert out["__state"]["step"] == step and out["__state"]["order"] == order


if __name__ == "__main__":
    GOLDEN.write_text(
        json.dumps(golden_data(NGramLM(5, "mle").fit(word_lm_split()["train"])), indent=1) + "\n", encoding="utf-8"
    )
    print(f"wrote {GOLDEN}")
