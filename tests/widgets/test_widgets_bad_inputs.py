"""Bad and edge inputs of the widgets, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import pytest

from nlp_helpers.tokenization import bpe as BP  # noqa: E402
from nlp_helpers.widgets.assets import load_css, load_esm  # noqa: E402
from nlp_helpers.widgets.attention import AttentionExplorer, transform_weights  # noqa: E402
from nlp_helpers.widgets.bpe import BPEStepper  # noqa: E402
from nlp_helpers.widgets.optimiser_paths import OptimiserPaths, optimiser_path, quadratic_loss  # noqa: E402
from nlp_helpers.widgets.positional import PositionalEncodingExplorer  # noqa: E402
from nlp_helpers.widgets.sampling import NextTokenExplorer, SoftmaxTemperature, explorer_prompt  # noqa: E402
from nlp_helpers.widgets.tfidf_search import TfidfSearch, widget_tokens  # noqa: E402
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge

NAN, INF = math.nan, math.inf


@cache
def bpe() -> BP.BPE:
    return BP.BPE.train(["low lower lowest", "new newer newest"], 20)


def after(obj: Any, **traits: Any) -> Any:
    """Set widget traits from Python (bypassing the constructor's checks) and return the widget."""
    for name, value in traits.items():
        setattr(obj, name, value)
    return obj


def attention_widget(**kw: Any) -> AttentionExplorer:
    return AttentionExplorer(["a", "b", "c"], np.full((3, 3), 1 / 3), **kw)


def next_token_widget(**kw: Any) -> NextTokenExplorer:
    return NextTokenExplorer([explorer_prompt("p", ["x", "y", "z"], [2.0, 1.0, 0.0])], **kw)


BAD = [
    # --- widgets: the Python side rejects malformed data, also when traits are set after construction
    bad("widgets.load_esm-missing", lambda: load_esm("nope.js"), FileNotFoundError, "no widget module 'nope.js'"),
    bad("widgets.load_esm-not-js", lambda: load_esm("widgets.css"), FileNotFoundError, "no widget module"),
    bad(
        "widgets.attention.transform_weights-nan",
        lambda: transform_weights(np.array([[NAN, 1.0]])),
        ValueError,
        "weights must contain only finite",
    ),
    bad(
        "widgets.attention.transform_weights-inf",
        lambda: transform_weights(np.array([[INF, 1.0]])),
        ValueError,
        "weights must contain only finite",
    ),
    bad(
        "widgets.attention.transform_weights-negative",
        lambda: transform_weights(np.array([[-1.0, 2.0]])),
        ValueError,
        "weights must be >= 0",
    ),
    bad(
        "widgets.attention.transform_weights-temperature-negative",
        lambda: transform_weights(np.eye(2), temperature=-1),
        ValueError,
        "temperature must be > 0",
    ),
    bad(
        "widgets.attention.AttentionExplorer-title-int",
        lambda: attention_widget(title=3),
        TypeError,
        "title must be a str",
    ),
    bad(
        "widgets.attention.AttentionExplorer-scores-plus-inf",
        lambda: AttentionExplorer(["a", "b"], scores=np.array([[INF, 0], [0, 0]])),
        ValueError,
        r"scores must not contain NaN or \+inf",
    ),
    bad(
        "widgets.attention.AttentionExplorer-tokens-none",
        lambda: AttentionExplorer(None, np.eye(2)),
        TypeError,
        "tokens must be a list of strings",
    ),
    bad(
        "widgets.attention.AttentionExplorer-5d-two-sentences",
        lambda: AttentionExplorer(["a", "b"], np.full((1, 2, 1, 2, 2), 0.5)),
        ValueError,
        "one sentence",
    ),
    bad(
        "widgets.attention.AttentionExplorer-layer-set-later",
        lambda: after(attention_widget(), layer=5).matrix(),
        ValueError,
        "layer must be <= 0",
    ),
    bad(
        "widgets.attention.AttentionExplorer-head-set-later",
        lambda: after(attention_widget(), head=5).matrix(),
        ValueError,
        "head must be <= 0",
    ),
    bad(
        "widgets.attention.AttentionExplorer-temperature-set-later",
        lambda: after(attention_widget(), temperature=0.0).matrix(),
        ValueError,
        "temperature must be > 0",
    ),
    bad("widgets.bpe.BPEStepper-merges-none", lambda: BPEStepper("abc", None), TypeError, "merges must be a sequence"),
    bad(
        "widgets.bpe.BPEStepper-step-set-later",
        lambda: after(BPEStepper("aaab", [("a", "a")]), step=5).state(),
        ValueError,
        "step must be <= 1",
    ),
    bad(
        "widgets.bpe.BPEStepper-negative-step-set-later",
        lambda: after(BPEStepper("aaab", [("a", "a")]), step=-1).state(),
        ValueError,
        "step must be >= 0",
    ),
    bad(
        "widgets.bpe.BPEStepper.from_bpe-none",
        lambda: BPEStepper.from_bpe(None, "abc"),
        TypeError,
        "bpe must be a trained",
    ),
    bad(
        "widgets.positional.PositionalEncodingExplorer-base-nan",
        lambda: PositionalEncodingExplorer(base=NAN),
        ValueError,
        "base must be a finite",
    ),
    bad(
        "widgets.positional.PositionalEncodingExplorer-max_len-bool",
        lambda: PositionalEncodingExplorer(max_len=True),
        TypeError,
        "max_len must be an integer",
    ),
    bad(
        "widgets.positional.PositionalEncodingExplorer-odd-d_model-set-later",
        lambda: after(PositionalEncodingExplorer(10, 8), d_model=7).table(),
        ValueError,
        "d_model must be even",
    ),
    bad(
        "widgets.positional.PositionalEncodingExplorer-position-set-later",
        lambda: after(PositionalEncodingExplorer(10, 8), position=50).similarity(),
        ValueError,
        "position must be <= 9",
    ),
    bad(
        "widgets.optimiser_paths.optimiser_path-hessian-nan",
        lambda: optimiser_path([[NAN, 0.0], [0.0, 1.0]], (1.0, 1.0), "SGD", 0.1, 5),
        ValueError,
        "hessian must contain only finite",
    ),
    bad(
        "widgets.optimiser_paths.optimiser_path-optimiser-none",
        lambda: optimiser_path(np.eye(2), (1.0, 1.0), None, 0.1, 5),
        ValueError,
        "optimiser must be one of",
    ),
    bad(
        "widgets.optimiser_paths.optimiser_path-lr-inf",
        lambda: optimiser_path(np.eye(2), (1.0, 1.0), "Adam", INF, 5),
        ValueError,
        "lr must be a finite",
    ),
    bad(
        "widgets.optimiser_paths.quadratic_loss-theta-str",
        lambda: quadratic_loss(np.eye(2), "ab"),
        TypeError,
        "theta must be array-like",
    ),
    bad(
        "widgets.optimiser_paths.OptimiserPaths-surface-name-int",
        lambda: OptimiserPaths({3: np.eye(2)}),
        TypeError,
        r"surfaces \(a name\) must be a str",
    ),
    bad(
        "widgets.optimiser_paths.OptimiserPaths-surface-set-later",
        lambda: after(OptimiserPaths(), surface="nowhere").paths(),
        ValueError,
        "surface must be one of",
    ),
    bad(
        "widgets.optimiser_paths.OptimiserPaths-start-set-later",
        lambda: after(OptimiserPaths(), start=[0.0, 7.0]).hessian(),
        ValueError,
        "start must lie inside extent",
    ),
    bad("widgets.sampling.explorer_prompt-tokens-none", lambda: explorer_prompt("p", None, [1.0]), TypeError, "tokens"),
    bad(
        "widgets.sampling.explorer_prompt-logits-minus-inf",
        lambda: explorer_prompt("p", ["a", "b"], [1.0, -INF]),
        ValueError,
        "logits must contain only finite",
    ),
    bad("widgets.sampling.NextTokenExplorer-prompts-str", lambda: NextTokenExplorer("abc"), TypeError, "prompts"),
    bad(
        "widgets.sampling.NextTokenExplorer-tokens-str",
        lambda: NextTokenExplorer([{"prompt": "p", "tokens": "ab", "logits": [1.0, 2.0]}]),
        TypeError,
        "tokens",
    ),
    bad(
        "widgets.sampling.NextTokenExplorer-prompt-index-set-later",
        lambda: after(next_token_widget(), prompt_index=3).probabilities(),
        ValueError,
        "prompt_index must be <= 0",
    ),
    bad(
        "widgets.sampling.NextTokenExplorer-top_p-outside",
        lambda: next_token_widget().probabilities(top_p=1.5),
        ValueError,
        "top_p must be <= 1",
    ),
    bad(
        "widgets.sampling.NextTokenExplorer-temperature-negative-set-later",
        lambda: after(next_token_widget(), temperature=-1.0).summary(),
        ValueError,
        "temperature must be >= 0",
    ),
    bad(
        "widgets.sampling.NextTokenExplorer.from_model-top-0",
        lambda: NextTokenExplorer.from_model(None, None, ["a"], top=0),
        ValueError,
        "top must be >= 1",
    ),
    bad(
        "widgets.sampling.SoftmaxTemperature-labels-none",
        lambda: SoftmaxTemperature([1.0, 2.0], None),
        TypeError,
        "labels",
    ),
    bad(
        "widgets.sampling.SoftmaxTemperature-max-temperature-0",
        lambda: SoftmaxTemperature([1.0, 2.0], ["a", "b"], max_temperature=0),
        ValueError,
        "max_temperature",
    ),
    bad(
        "widgets.sampling.SoftmaxTemperature-temperature-set-later",
        lambda: after(SoftmaxTemperature([1.0, 2.0], ["a", "b"]), temperature=-1.0).probabilities(),
        ValueError,
        "temperature must be >= 0",
    ),
    bad(
        "widgets.tfidf_search.TfidfSearch-document-without-words",
        lambda: TfidfSearch(["!!!", "a b"], top_k=1),
        ValueError,
        r"documents\[0\] has no word",
    ),
    bad(
        "widgets.tfidf_search.TfidfSearch-examples-str",
        lambda: TfidfSearch(["a b", "c d"], top_k=1, examples="ab"),
        TypeError,
        "examples must be a list",
    ),
    bad(
        "widgets.tfidf_search.TfidfSearch-top_k-above-documents",
        lambda: TfidfSearch(["a b", "c d"]),
        ValueError,
        "top_k must be <= 2",
    ),
    bad(
        "widgets.tfidf_search.TfidfSearch.search-unknown-words",
        lambda: TfidfSearch(["a b", "c d"], top_k=1).search("zebra"),
        ValueError,
        "query 'zebra'",
    ),
    bad(
        "widgets.tfidf_search.TfidfSearch-top_k-set-later",
        lambda: after(TfidfSearch(["a b", "c d"], top_k=1), top_k=0).search("a"),
        ValueError,
        "top_k must be >= 1",
    ),
    bad("widgets.tfidf_search.widget_tokens-none", lambda: widget_tokens(None), TypeError, "text must be a str"),
]


EDGE = [
    # --- widgets: documented conventions
    edge(
        "widgets.attention.AttentionExplorer-fully-masked-scores",
        lambda: AttentionExplorer(["a", "b"], scores=np.array([[0.0, -INF], [-INF, -INF]])).matrix(),
        lambda w: np.array_equal(w, [[1.0, 0.0], [0.0, 0.0]]),
    ),
    edge(
        "widgets.attention.AttentionExplorer-text-is-kept-as-text",
        lambda: AttentionExplorer(["<img src=x onerror=alert(1)>", "b"], np.eye(2)).tokens,
        lambda t: t[0] == "<img src=x onerror=alert(1)>",
    ),
    edge(
        "widgets.sampling.NextTokenExplorer-temperature-0-is-greedy",
        lambda: next_token_widget(temperature=0.0).probabilities(),
        lambda p: np.array_equal(p, [1.0, 0.0, 0.0]),
    ),
    edge(
        "widgets.sampling.NextTokenExplorer-top_k-above-vocabulary",
        lambda: next_token_widget(top_k=50).top_k,
        lambda k: k == 3,
    ),
    edge(
        "widgets.sampling.SoftmaxTemperature-temperature-0",
        lambda: SoftmaxTemperature([1.0, 2.0], ["a", "b"], temperature=0.0).probabilities(),
        lambda p: np.array_equal(p, [0.0, 1.0]),
    ),
    edge(
        "widgets.bpe.BPEStepper-unicode-text",
        lambda: BPEStepper("日本 🙂", [("日", "本")]).state(1)["tokens"],
        lambda t: t == ["日本", " ", "🙂"],
    ),
    edge(
        "widgets.optimiser_paths.optimiser_path-start-at-the-minimum-stays",
        lambda: optimiser_path(np.eye(2), (0.0, 0.0), "Adam", 0.1, 5),
        lambda p: p.shape == (6, 2) and not p.any(),
    ),
    edge(
        "widgets.optimiser_paths.optimiser_path-diverging-path-stops-past-the-limit",
        lambda: optimiser_path(np.eye(2), (1.0, 1.0), "SGD", 3.0, 500),
        lambda p: len(p) < 501 and np.isfinite(p).all(),
    ),
    edge("widgets.load_css-follows-dark-mode", lambda: load_css(), lambda css: ".nlpw" in css and "dark" in css),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)
