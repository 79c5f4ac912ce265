"""``NaiveBayesExplorer``: type a sentence and see each word push a naive Bayes classifier's decision.

For a two-class model the decision is the sign of the log-odds

    log P(c1 | d) / P(c0 | d) = log P(c1) / P(c0) + sum over the words w of d of log P(w | c1) / P(w | c0),

so every word contributes its own log-likelihood ratio, independently of the others (the "naive"
assumption made visible). Python ships the prior log-odds and each vocabulary word's ratio (rounded to
3 decimals); ``naive_bayes.js`` tokenizes what the reader types exactly as :func:`widget_tokens` does,
colours each word by its ratio, ignores words the model never saw (as the model does) and adds up the
log-odds, so it works on the static page with no kernel (``data-testid="nb-logodds"``, attribute
``data-value``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_text, check_type
from nlp_helpers.classification.naive_bayes import NaiveBayes
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["NaiveBayesExplorer", "widget_tokens"]

# Lower-cased words (with inner apostrophes and hyphens, as in the polarity data) and punctuation marks.
TOKEN_PATTERN = r"[a-z0-9]+(?:['\u2019-][a-z0-9]+)*|[^\sa-z0-9]"
_CSS = """
.nlpw-nb input[type=text] { width: min(36rem, 100%); font: inherit; padding: 0.2rem 0.4rem; }
.nlpw-nb .nlpw-token.unknown { border-style: dashed; opacity: 0.6; }
.nlpw-nb .nlpw-nb-tokens { line-height: 2; margin: 0.4rem 0; }
"""
MAX_TEXT = 500


def widget_tokens(text: str) -> list[str]:
    """The tokens the widget's JavaScript makes of ``text``: lower-cased words and punctuation marks."""
    return re.findall(TOKEN_PATTERN, check_text("text", text).lower())


class NaiveBayesExplorer(anywidget.AnyWidget):
    """A text box whose words are coloured by how much each pushes a two-class naive Bayes decision.

    Parameters
    ----------
    model:
        A fitted :class:`~nlp_helpers.classification.naive_bayes.NaiveBayes` with exactly two classes.
    text:
        The initial sentence (at most 500 characters).
    class_names:
        How to call the two classes, in the model's class order (default: the classes themselves).
    """

    _esm = load_esm("naive_bayes.js")
    _css = load_css() + _CSS

    # The page gets each log-ratio once, in thousandths (what it displays: 3 decimals), with the words
    # that share it joined by spaces: {"-693": "word word ...", ...}. A vocabulary of 17,736 words has
    # only ~500 distinct rounded ratios, so this is half the size of a list of words and a list of
    # ratios. Words containing whitespace are left out: the token pattern can never produce them.
    ratio_groups = traitlets.Dict().tag(sync=True)
    prior_log_odds = traitlets.Float(0.0).tag(sync=True)
    class_names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    pattern = traitlets.Unicode(TOKEN_PATTERN).tag(sync=True)
    text = traitlets.Unicode("").tag(sync=True)

    def __init__(self, model: NaiveBayes, text: str, *, class_names: Sequence[str] | None = None) -> None:
        check_type("model", model, NaiveBayes)
        if not hasattr(model, "feature_log_prob_"):
            raise ValueError("model must be fitted: call model.fit(docs, labels) first")
        classes = [str(c) for c in model.classes_]
        if len(classes) != 2:
            raise ValueError(f"model must have exactly two classes for the widget, got {len(classes)}")
        names = (
            classes if class_names is None else [check_text(f"class_names[{i}]", c) for i, c in enumerate(class_names)]
        )
        if len(names) != 2:
            raise ValueError(f"class_names must name the two classes, got {len(names)} names")
        text = check_text("text", text)
        if len(text) > MAX_TEXT:
            raise ValueError(f"text must be at most {MAX_TEXT} characters, got {len(text)}")
        words = sorted(model.vocabulary_, key=model.vocabulary_.get)
        ratio = model.feature_log_prob_[1] - model.feature_log_prob_[0]
        prior = float(model.class_log_prior_[1] - model.class_log_prior_[0])
        groups: dict[str, list[str]] = {}
        for word, milli in zip(words, np.round(ratio * 1000).astype(np.int64).tolist()):
            if not any(c.isspace() for c in word):
                groups.setdefault(str(milli), []).append(word)
        super().__init__(
            ratio_groups={k: " ".join(ws) for k, ws in groups.items()},
            prior_log_odds=round(prior, 6),
            class_names=names,
            text=text,
        )

    @property
    def words(self) -> list[str]:
        """The vocabulary words the page knows, grouped by ratio."""
        return [w for ws in self.ratio_groups.values() for w in ws.split(" ")]

    @property
    def ratios(self) -> list[float]:
        """Each word's log-likelihood ratio as the page has it (3 decimals), in the order of :attr:`words`."""
        return [int(k) / 1000 for k, ws in self.ratio_groups.items() for _ in ws.split(" ")]

    def log_odds(self, text: str | None = None) -> float:
        """The log-odds of the second class the widget shows for ``text`` (default: its current text)."""
        index = {w: i for i, w in enumerate(self.words)}
        tokens = widget_tokens(self.text if text is None else text)
        return self.prior_log_odds + sum(self.ratios[index[t]] for t in tokens if t in index)
