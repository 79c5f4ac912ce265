"""NaiveBayesExplorer: validation, its log-odds against the model's own posterior, the JavaScript (under Node)
against Python, and its golden file.

The golden file ``tests/golden/naive_bayes_widget.json`` holds, for the text classification chapter's
multinomial naive Bayes (trained on the training split of the sentence polarity data), the log-odds the
model itself gives (``predict_log_proba``) for a few sentences; the widget ships ratios rounded to 3
decimals, so it must agree to 0.01. The browser test types the sentences on the built page.
Regenerate it with ``python -m tests.widgets.test_widgets_naive_bayes``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from nlp_helpers.classification.naive_bayes import NaiveBayes
from nlp_helpers.data.polarity import polarity_split
from nlp_helpers.widgets.naive_bayes import NaiveBayesExplorer, widget_tokens
from tests.widget_node import run_widget_js

HERE = Path(__file__).resolve().parents[1]  # tests/
GOLDEN = HERE / "golden" / "naive_bayes_widget.json"
SENTENCES = [
    "a gorgeous , witty , seductive movie .",
    "the plot is dull and the acting is worse .",
    "Not bad at all -- I'd see it again!",
    "zzzqx blorp",  # no known word: the prior alone decides
]
TOLERANCE = 0.01


@lru_cache(maxsize=1)
def chapter_model() -> NaiveBayes:
    train = polarity_split()["train"]
    return NaiveBayes().fit([t.split() for t in train["text"]], list(train["label"]))


def golden_data() -> dict:
    model = chapter_model()
    cases = []
    for s in SENTENCES:
        lp = model.predict_log_proba([widget_tokens(s)])[0]
        cases.append({"text": s, "log_odds": float(lp[1] - lp[0])})
    return {
        "about": (
            "Log-odds of class 1 (positive) that NaiveBayesExplorer must show in data-testid=nb-logodds "
            "(attribute data-value) after typing `text` into nb-text, within `tolerance`; computed with the "
            "chapter's NaiveBayes().predict_log_proba. Regenerate: python -m tests.widgets.test_widgets_naive_bayes"
        ),
        "page": "book/classification/naive_bayes.html",
        "tolerance": TOLERANCE,
        "cases": cases,
    }


def test_widget_log_odds_equal_the_models_posterior():
    model = chapter_model()
    w = NaiveBayesExplorer(model, SENTENCES[0], class_names=["negative", "positive"])
    for s in SENTENCES:
        lp = model.predict_log_proba([widget_tokens(s)])[0]
        assert w.log_odds(s) == pytest.approx(lp[1] - lp[0], abs=TOLERANCE)
    assert w.log_odds("zzzqx") == pytest.approx(model.class_log_prior_[1] - model.class_log_prior_[0], abs=1e-6)
    assert widget_tokens("Not bad -- I'd see it!") == ["not", "bad", "-", "-", "i'd", "see", "it", "!"]


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        (("model", "x"), {}, TypeError, "model must be"),
        ((NaiveBayes(), "x"), {}, ValueError, "model must be fitted"),
        ((None, "x" * 501), {}, ValueError, "at most 500"),
        ((None, "x"), {"class_names": ["a"]}, ValueError, "class_names must name the two classes"),
    ],
)
def test_bad_input_names_the_argument(args, kwargs, error, match):
    model = args[0] if args[0] is not None else chapter_model()
    with pytest.raises(error, match=match):
        NaiveBayesExplorer(model, args[1], **kwargs)


def test_a_three_class_model_is_refused():
    m = NaiveBayes().fit([["a"], ["b"], ["c"]], [0, 1, 2])
    with pytest.raises(ValueError, match="exactly two classes"):
        NaiveBayesExplorer(m, "a")


def test_golden_file_is_current():
    assert json.loads(GOLDEN.read_text(encoding="utf-8")) == json.loads(json.dumps(golden_data()))


def test_javascript_shows_the_same_log_odds_as_python(tmp_path):
    w = NaiveBayesExplorer(chapter_model(), SENTENCES[0])
    state = {k: getattr(w, k) for k in ("ratio_groups", "prior_log_odds", "class_names", "pattern", "text")}
    for s in SENTENCES:
        out = run_widget_js(w._esm, state, [{"testid": "nb-text", "value": s}], tmp_path)
        assert float(out["nb-logodds"]["attrs"]["data-value"]) == pytest.approx(w.log_odds(s), abs=1e-9)
    assert np.isfinite(float(out["nb-logodds"]["attrs"]["data-value"]))


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(golden_data(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")


@pytest.mark.parametrize("text", ["", "   ", "zzqx blorf"])
def test_javascript_gives_no_verdict_without_a_known_word(tmp_path, text):
    # An empty sentence (or one of unseen words) used to be called "positive" by the prior alone.
    w = NaiveBayesExplorer(chapter_model(), SENTENCES[0])
    state = {k: getattr(w, k) for k in ("ratio_groups", "prior_log_odds", "class_names", "pattern", "text")}
    out = run_widget_js(w._esm, state, [{"testid": "nb-text", "value": text}], tmp_path)
    shown = out["nb-logodds"]["text"]
    assert "the model says" not in shown and "nothing to weigh" in shown
    assert float(out["nb-logodds"]["attrs"]["data-value"]) == pytest.approx(w.prior_log_odds)
