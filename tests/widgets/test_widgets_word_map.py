"""WordMap: its projection against scikit-learn's PCA, its JavaScript neighbours and analogies (under Node)
against the word2vec chapter's ``WordVectors``, the effect of rounding, and bad inputs.

References: ``sklearn.decomposition.PCA`` (the map, up to the sign of each axis, 1e-9 absolute) and
``nlp_helpers.word2vec.evaluation.WordVectors.most_similar`` / ``analogy`` on the unrounded vectors (the
same words in the same order; cosines within 1e-3, the effect of sending 4 decimals to the page).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.decomposition import PCA

from nlp_helpers.widgets.word_map import WordMap, project_2d
from nlp_helpers.word2vec.evaluation import WordVectors
from tests.widget_node import run_widget_js

WORDS = [f"w{i:02d}" for i in range(40)]


def vectors(seed: int = 0, d: int = 50) -> np.ndarray:
    """Four clusters of ten words, so neighbours have clear margins."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(4, d)) * 2
    return np.repeat(centres, 10, axis=0) + rng.normal(size=(40, d))


def state(w: WordMap) -> dict:
    return {
        k: getattr(w, k) for k in ("words", "unit", "coords", "group_names", "group_of", "word", "k", "mode", "analogy")
    }


def test_projection_equals_pca_up_to_sign():
    x = vectors()
    ours = project_2d(x)
    ref = PCA(n_components=2, svd_solver="full").fit_transform(x)
    for j in range(2):
        sign = np.sign(ours[:, j] @ ref[:, j])
        np.testing.assert_allclose(ours[:, j], sign * ref[:, j], atol=1e-9)


def test_projection_is_linear_so_the_parallelogram_on_the_map_is_the_real_one():
    x = vectors(1)
    p = project_2d(x)
    # P(b - a + c) is P(b) - P(a) + P(c) after centring: check through the fitted axes
    centred = x - x.mean(0)
    axes = np.linalg.lstsq(centred, p, rcond=None)[0]
    q = (x[3] - x[1] + x[7] - x.mean(0)) @ axes
    np.testing.assert_allclose(q, p[3] - p[1] + p[7], atol=1e-9)


def test_rounding_moves_cosines_by_less_than_a_thousandth():
    x = vectors(2)
    w = WordMap(WORDS, x)
    shipped = np.array(w.unit)
    unit = x / np.linalg.norm(x, axis=1, keepdims=True)
    cos_exact = unit @ unit.T
    n = np.linalg.norm(shipped, axis=1)
    cos_shipped = shipped @ shipped.T / np.outer(n, n)
    assert np.abs(cos_exact - cos_shipped).max() < 1e-3
    assert len(json.dumps(state(w))) < 30_000  # 40 words x 50 dimensions


def test_javascript_neighbours_equal_the_chapter_helper(tmp_path):
    x = vectors(3)
    wv = WordVectors(WORDS, x)
    w = WordMap(WORDS, x, groups={"first": WORDS[:10], "second": WORDS[10:20]}, word="w05", k=5)
    for word in ("w05", "w33"):
        out = run_widget_js(w._esm, state(w), [{"testid": "wm-word", "value": word}], tmp_path)
        ref = wv.most_similar(word, 5)
        node = out["wm-neighbours"]
        assert node["attrs"]["data-words"].split() == [r for r, _ in ref]
        assert f"Nearest to {word}" in json.dumps(out, ensure_ascii=False)
        assert out["__state"]["word"] == word


def test_javascript_analogy_and_baseline_equal_the_chapter_helper(tmp_path):
    x = vectors(4)
    wv = WordVectors(WORDS, x)
    w = WordMap(WORDS, x, analogy=("w01", "w12", "w25"), k=4)
    assert w.mode == "analogy"
    out = run_widget_js(w._esm, state(w), [{"testid": "wm-c", "value": "w31"}], tmp_path)
    assert out["wm-analogy"]["attrs"]["data-words"].split() == [r for r, _ in wv.analogy("w01", "w12", "w31", topn=4)]
    only_c = wv.nearest(wv.unit[wv.index["w31"]], 4, exclude={"w01", "w12", "w31"})
    assert out["wm-only-c"]["attrs"]["data-words"].split() == [r for r, _ in only_c]
    # the same word twice: no answer, a hint instead
    out = run_widget_js(w._esm, state(w), [{"testid": "wm-c", "value": "w12"}], tmp_path)
    assert out["wm-analogy"]["text"] == "Pick three different words."


def test_the_mode_switch_shows_the_other_controls(tmp_path):
    w = WordMap(WORDS, vectors(5))
    out = run_widget_js(w._esm, state(w), [{"testid": "wm-mode", "value": "analogy"}], tmp_path)
    assert out["__state"]["mode"] == "analogy" and "wm-analogy" in out and "wm-neighbours" not in out


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"words": WORDS[:2], "vectors": vectors()[:2]}, "3 to 200 distinct"),
        ({"words": ["a", "a", "b"], "vectors": vectors()[:3]}, "distinct"),
        ({"vectors": vectors()[:, :1]}, "at least 2 columns"),
        ({"vectors": np.zeros((40, 5))}, "all-zero row"),
        ({"vectors": vectors()[:30]}, "vectors must have shape"),
        ({"word": "nope"}, "word must be one of the words"),
        ({"k": 0}, "k"),
        ({"analogy": ("w01", "w01", "w02")}, "analogy must be three distinct"),
        ({"groups": {"g": ["zzz"]}}, "groups"),
    ],
)
def test_bad_input_names_the_argument(kwargs, match):
    args = {"words": WORDS, "vectors": vectors()} | kwargs
    with pytest.raises((ValueError, TypeError), match=match):
        WordMap(**args)


def test_project_2d_rejects_a_single_row():
    with pytest.raises(ValueError, match="vectors must have at least 2 rows"):
        project_2d(np.ones((1, 3)))


def test_default_k_fits_a_small_map():
    assert WordMap(WORDS[:4], vectors()[:4]).k == 3 and WordMap(WORDS, vectors()).k == 5


def _boxes(out: dict) -> dict[str, list[float]]:
    """The label boxes [x0, y0, x1, y1] the widget placed, by word (from the text elements' data-box)."""
    labels = [v["attrs"] for k, v in out.items() if k.startswith("wm-label-")]
    return {a["data-word"]: [float(v) for v in a["data-box"].split()] for a in labels}


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_query_and_its_neighbours_are_labelled_and_no_labels_collide(tmp_path):
    w = WordMap(WORDS, vectors(6), word="w03", k=5)
    wv = WordVectors(WORDS, vectors(6))
    for word in ("w03", "w27"):
        out = run_widget_js(w._esm, state(w), [{"testid": "wm-word", "value": word}], tmp_path)
        boxes = _boxes(out)
        near = [r for r, _ in wv.most_similar(word, 5)]
        assert {word, *near} <= set(boxes), f"unlabelled: { ({word, *near} - set(boxes)) }"
        assert set(out["wm-labels"]["attrs"]["data-words"].split()) == set(boxes)
        placed = list(boxes.values())
        for i, a in enumerate(placed):
            assert 0 <= a[0] and a[2] <= 560 and 0 <= a[1] and a[3] <= 380, a
            assert not any(_overlap(a, b) for b in placed[i + 1 :])
        # the clusters are tight: some words had no free place and were skipped rather than overlapped
        assert len(boxes) < len(WORDS)


def test_analogy_labels_its_three_words_and_the_answer(tmp_path):
    x = vectors(4)
    w = WordMap(WORDS, x, analogy=("w01", "w12", "w25"), k=4)
    out = run_widget_js(w._esm, state(w), [], tmp_path)
    best = WordVectors(WORDS, x).analogy("w01", "w12", "w25", topn=1)[0][0]
    assert {"w01", "w12", "w25", best} <= set(_boxes(out))


def test_the_dots_are_reachable_and_operable_by_keyboard(tmp_path):
    x = vectors(7)
    w = WordMap(WORDS, x, word="w05")
    out = run_widget_js(w._esm, state(w), [], tmp_path)
    dots = {k: v for k, v in out.items() if k.startswith("wm-dot-")}
    assert len(dots) == len(WORDS)
    # one tab stop, on the selected word; every dot a named button
    assert [d["attrs"]["data-word"] for d in dots.values() if d["attrs"]["tabindex"] == "0"] == ["w05"]
    assert all(
        d["attrs"]["role"] == "button" and d["attrs"]["aria-label"].startswith(d["attrs"]["data-word"])
        for d in dots.values()
    )
    # arrow keys walk the dots left to right across the map; Enter selects the focused word
    order = np.argsort(np.array(w.coords)[:, 0], kind="stable")
    here = list(order).index(5)
    right = WORDS[order[(here + 1) % len(WORDS)]]
    out = run_widget_js(w._esm, state(w), [{"testid": "wm-dot-5", "key": "ArrowRight"}], tmp_path)
    assert [
        d["attrs"]["data-word"] for k, d in out.items() if k.startswith("wm-dot-") and d["attrs"]["tabindex"] == "0"
    ] == [right]
    assert out["__state"]["word"] == "w05"  # moving focus does not select
    j = WORDS.index(right)
    out = run_widget_js(
        w._esm,
        state(w),
        [{"testid": "wm-dot-5", "key": "ArrowRight"}, {"testid": f"wm-dot-{j}", "key": "Enter"}],
        tmp_path,
    )
    assert out["__state"]["word"] == right and out["wm-word"]["value"] == right
    assert out["wm-neighbours"]["attrs"]["data-words"].split() == [
        r for r, _ in WordVectors(WORDS, x).most_similar(right, 5)
    ]
