"""ViterbiTrellis: validation, its JavaScript recursion (under Node) against the package's Viterbi, and its
golden file.

The golden file ``tests/golden/viterbi_widget.json`` holds the tagging chapter's example (the maximum-
likelihood HMM of its four-sentence corpus, on "my saw saw a mouse") with the trellis and best path that
:func:`nlp_helpers.tagging.viterbi.viterbi_trellis` and :func:`~nlp_helpers.tagging.viterbi.viterbi`
compute, checked here against a brute-force search over all paths. The browser test moves the slider on
the built page and compares. Regenerate it with ``python -m tests.widgets.test_widgets_viterbi``.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from nlp_helpers.tagging.viterbi import viterbi, viterbi_trellis
from nlp_helpers.widgets.viterbi import ViterbiTrellis
from tests.widget_node import run_widget_js

HERE = Path(__file__).resolve().parents[1]  # tests/
GOLDEN = HERE / "golden" / "viterbi_widget.json"

# The tagging chapter's toy corpus and sentence (book/tagging/pos.ipynb checks that it shows the same).
TINY_CORPUS = [
    [("I", "PRON"), ("saw", "VERB"), ("a", "DET"), ("mouse", "NOUN")],
    [("Let", "VERB"), ("me", "PRON"), ("fetch", "VERB"), ("my", "PRON"), ("saw", "NOUN")],
    [("I", "PRON"), ("fetch", "VERB"), ("my", "PRON"), ("mouse", "NOUN")],
    [("a", "DET"), ("mouse", "NOUN"), ("saw", "VERB"), ("me", "PRON")],
]
SENTENCE = "my saw saw a mouse".split()


def chapter_model(words=SENTENCE):
    """Maximum-likelihood start, transition and emission log probabilities of the toy corpus."""
    start, trans, emit = Counter(), Counter(), Counter()
    for sent in TINY_CORPUS:
        tags = [t for _, t in sent]
        start[tags[0]] += 1
        trans.update(zip(tags[:-1], tags[1:]))
        emit.update((t, w) for w, t in sent)
    tags = sorted({t for s in TINY_CORPUS for _, t in s})
    count = Counter(t for s in TINY_CORPUS for _, t in s)
    out_of = Counter(t for s in TINY_CORPUS for _, t in s[:-1])
    with np.errstate(divide="ignore"):
        log_start = np.log([start[t] / len(TINY_CORPUS) for t in tags])
        log_trans = np.log([[trans[i, j] / out_of[i] for j in tags] for i in tags])
        log_em = np.log([[emit[t, w] / count[t] for t in tags] for w in words])
    return tags, log_start, log_trans, log_em


def golden_data() -> dict:
    tags, s0, tr, em = chapter_model()
    v, _ = viterbi_trellis(s0, tr, em)
    path, score = viterbi(s0, tr, em)
    widget = ViterbiTrellis(SENTENCE, tags, s0, tr, em)
    return {
        "about": (
            "The trellis ViterbiTrellis must show for the tagging chapter's example: log scores in data-log of "
            "data-testid=vt-cell-t-j (null = impossible), the best path in vt-path's data-path once the slider "
            "vt-step is at the last word. Regenerate: python -m tests.widgets.test_widgets_viterbi"
        ),
        "page": "book/tagging/pos.html",
        "construct": {
            "words": widget.words,
            "tags": widget.tags,
            "log_start": widget.log_start,
            "log_trans": widget.log_trans,
            "log_emissions": widget.log_emissions,
        },
        "trellis": np.where(np.isneginf(v), None, v).tolist(),
        "path": [tags[j] for j in path],
        "log_score": score,
    }


def test_ships_the_model_with_minus_infinity_as_null():
    tags, s0, tr, em = chapter_model()
    w = ViterbiTrellis(SENTENCE, tags, s0, tr, em)
    assert w.step == len(SENTENCE) and w.tags == tags
    assert w.log_emissions[0][tags.index("NOUN")] is None  # "my" is never a noun in the corpus
    assert np.isclose(w.log_trans[tags.index("PRON")][tags.index("VERB")], np.log(3 / 5))


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"words": []}, ValueError, "words"),
        ({"tags": ["A", "B"]}, ValueError, "log_start"),
        ({"log_trans": np.full((4, 4), np.nan)}, ValueError, "log_trans must hold log scores"),
        ({"log_emissions": np.zeros((2, 4))}, ValueError, "log_emissions"),
        ({"step": 0}, ValueError, "step"),
        ({"words": ["w"] * 13}, ValueError, "at most 12"),
    ],
)
def test_bad_input_names_the_argument(kwargs, error, match):
    tags, s0, tr, em = chapter_model()
    args = {"words": SENTENCE, "tags": tags, "log_start": s0, "log_trans": tr, "log_emissions": em} | kwargs
    step = args.pop("step", None)
    with pytest.raises(error, match=match):
        ViterbiTrellis(**args, step=step)


def test_golden_file_is_current_and_the_path_beats_every_other():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden == json.loads(json.dumps(golden_data())), "regenerate: python -m tests.widgets.test_widgets_viterbi"
    tags, s0, tr, em = chapter_model()
    K, T = len(tags), len(SENTENCE)

    def score(p):
        return s0[p[0]] + em[0, p[0]] + sum(tr[a, b] + em[t + 1, b] for t, (a, b) in enumerate(zip(p[:-1], p[1:])))

    best = max(itertools.product(range(K), repeat=T), key=score)
    assert [tags[j] for j in best] == golden["path"] == ["PRON", "NOUN", "VERB", "DET", "NOUN"]
    assert np.isclose(score(best), golden["log_score"])


def test_javascript_trellis_and_path_equal_the_package(tmp_path):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    w = ViterbiTrellis(**golden["construct"])
    state = {k: getattr(w, k) for k in ("words", "tags", "log_start", "log_trans", "log_emissions", "step")}
    T, K = len(w.words), len(w.tags)
    for step in (2, T):
        out = run_widget_js(w._esm, state, [{"testid": "vt-step", "value": str(step)}], tmp_path)
        for t in range(T):
            for j in range(K):
                shown = out[f"vt-cell-{t}-{j}"]["attrs"]["data-log"]
                want = golden["trellis"][t][j]
                if t >= step:
                    assert shown == ""
                elif want is None:
                    assert shown == "-Infinity"
                else:
                    assert float(shown) == pytest.approx(want, rel=1e-12)
        assert out["vt-path"]["attrs"]["data-path"] == (" ".join(golden["path"]) if step == T else "")
    assert "◀ best" in json.dumps(out["vt-candidates"], ensure_ascii=False)


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(golden_data(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")


def test_javascript_writes_log_zero_as_minus_infinity(tmp_path):
    # An impossible start, transition or emission (probability 0) has log score −∞, shown as the
    # attention widget shows it, never as JavaScript's "-Infinity".
    tags, s0, tr, em = chapter_model()
    w = ViterbiTrellis(SENTENCE, tags, s0, tr, em)
    state = {k: getattr(w, k) for k in ("words", "tags", "log_start", "log_trans", "log_emissions", "step")}
    noun = tags.index("NOUN")  # "my" is never a noun in the corpus: log b(my | NOUN) = −∞
    out = run_widget_js(w._esm, state, [{"testid": f"vt-cell-0-{noun}", "click": True}], tmp_path)
    text = out["vt-candidates"]["text"]
    assert "Infinity" not in out["vt-root"]["text"]
    assert "−∞" in text, text
