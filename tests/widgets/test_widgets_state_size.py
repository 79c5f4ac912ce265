"""The data each widget embeds in its page is small and rounded to what the widget displays.

The size counted is the JSON of the synced traits the page embeds for one view, without the
JavaScript and CSS (``_esm``, ``_css``), which are the same for every view of a widget. Budgets are
the measured size of the chapter's widget (in the comment) with a margin of about a quarter.
Rounding rules: TF-IDF weights to 6 decimals (scores shown to 3), Naive Bayes log-ratios to 3
decimals (shown to 3), sampling logits to 6 decimals (tested in test_widgets_sampling.py).
"""

from __future__ import annotations

import json

import pytest

from nlp_helpers.data.corpora import lee_background
from nlp_helpers.tokenization.bpe import BPE
from nlp_helpers.widgets.bpe import BPEStepper
from nlp_helpers.widgets.naive_bayes import NaiveBayesExplorer
from nlp_helpers.widgets.optimiser_paths import OptimiserPaths
from nlp_helpers.widgets.positional import PositionalEncodingExplorer
from nlp_helpers.widgets.tfidf_search import TfidfSearch
from nlp_helpers.widgets.viterbi import ViterbiTrellis
from tests.widgets.test_widgets_bpe import CHAPTER_MERGES, CHAPTER_TEXT
from tests.widgets.test_widgets_naive_bayes import SENTENCES, chapter_model
from tests.widgets.test_widgets_sampling import GOLDEN as SAMPLING_GOLDEN
from tests.widgets.test_widgets_tfidf_search import CONSTRUCT as TFIDF_CONSTRUCT


def data_state(widget) -> dict:
    return {k: v for k, v in widget.get_state().items() if k not in ("_esm", "_css")}


def decimals(x: float) -> int:
    s = repr(float(x))
    return 0 if "e" in s or s.endswith(".0") else len(s.split(".")[1])


def _viterbi():
    golden = json.loads((SAMPLING_GOLDEN.parent / "viterbi_widget.json").read_text(encoding="utf-8"))
    return ViterbiTrellis(**golden["construct"])


WIDGETS = {  # name: (the chapter's widget, budget in bytes); measured sizes in the comments
    # 14,582 bytes: the text's chunks and the 1,000 merges (strings only)
    "bpe": (lambda: BPEStepper.from_bpe(BPE.train(list(lee_background()), CHAPTER_MERGES), CHAPTER_TEXT), 18_000),
    # 96,563 bytes: 50 documents' TF-IDF weights (6 decimals), titles and snippets
    "tfidf_search": (lambda: TfidfSearch(**TFIDF_CONSTRUCT), 120_000),
    # 162,780 bytes (333,276 as a list of words and a list of ratios): 17,736 words grouped by ratio
    "naive_bayes": (lambda: NaiveBayesExplorer(chapter_model(), SENTENCES[0]), 200_000),
    # 1,064 bytes: three 2 x 2 surfaces, the start and the learning rates; the paths are computed in the page
    "optimiser_paths": (OptimiserPaths, 1_400),
    # 499 bytes: the encodings are computed in the page from a few settings
    "positional": (PositionalEncodingExplorer, 1_000),
    # 970 bytes: a 5-word sentence and 4 tags (kept at full precision: the trellis test compares to 1e-12)
    "viterbi": (_viterbi, 2_000),
}


@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_state_is_below_its_budget(name):
    make, budget = WIDGETS[name]
    size = len(json.dumps(data_state(make())))
    assert size < budget, f"{name}: {size:,} bytes of state, budget {budget:,}"


def test_tfidf_weights_carry_six_decimals():
    w = TfidfSearch(**TFIDF_CONSTRUCT)
    assert max(decimals(x) for row in w.doc_weights for x in row) <= 6
    assert max(decimals(x) for x in w.idf) <= 6


def test_naive_bayes_ratios_are_rounded_to_the_displayed_decimals_and_keep_the_displayed_values():
    model = chapter_model()
    w = NaiveBayesExplorer(model, SENTENCES[0])
    assert all(k.lstrip("-").isdigit() for k in w.ratio_groups)  # thousandths, as integers
    exact = dict(
        zip(
            sorted(model.vocabulary_, key=model.vocabulary_.get),
            model.feature_log_prob_[1] - model.feature_log_prob_[0],
        )
    )
    shown = dict(zip(w.words, w.ratios))
    assert set(shown) == set(exact) and len(w.words) == len(exact)
    for word, r in shown.items():  # the widget displays ratios with fmt(r, 3)
        e = float(exact[word])
        assert f"{r:.3f}" == f"{e:.3f}" or abs((e * 1000) % 1 - 0.5) < 1e-6, word
