"""TfidfSearch: validation, its JavaScript (under Node) and its golden file.

``tests/golden/tfidf_widget.json`` holds the top-3 Lee documents and cosine scores for one
query, computed here with scikit-learn's ``TfidfVectorizer`` (token_pattern = the widget's
regex, lower-casing on: the same settings as the widget) independently of our TfIdf and of
the JavaScript. The browser test types the query into ``tfidf-query`` and compares the
``data-document`` / ``data-score`` attributes of ``tfidf-result-<rank>``.
Regenerate with ``python tests/test_widgets_tfidf_search.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from nlp_helpers.data.corpora import lee_documents
from nlp_helpers.widgets.tfidf_search import TOKEN_PATTERN, TfidfSearch, widget_tokens
from tests.widget_node import NODE_DOM, node_binary, run_widget_js  # noqa: F401

HERE = Path(__file__).resolve().parents[1]  # tests/
GOLDEN = HERE / "golden" / "tfidf_widget.json"

QUERY = "asylum seekers Tampa"
CONSTRUCT = {"query": "", "top_k": 3}


def sklearn_ranking(query: str, k: int) -> tuple[list[int], list[float]]:
    ref = TfidfVectorizer(token_pattern=TOKEN_PATTERN)  # lowercase=True, raw TF, smooth IDF, L2: the widget's settings
    x = ref.fit_transform(lee_documents())
    scores = (x @ ref.transform([query]).T).toarray().ravel()
    order = [int(i) for i in np.argsort(-scores, kind="stable")[:k] if scores[i] > 0]
    return order, [float(scores[i]) for i in order]


def golden_data() -> dict:
    docs, scores = sklearn_ranking(QUERY, 3)
    return {
        "about": "TfidfSearch(**construct) on the 50 Lee documents (nlp_helpers.data.corpora.lee_documents). After typing `query` "
        "into tfidf-query, the list tfidf-results shows tfidf-result-<rank> with data-document = 0-based index "
        "into lee_documents and data-score = cosine, within `tolerance` (the page carries weights rounded to "
        "6 decimals). Computed with scikit-learn's TfidfVectorizer(token_pattern). "
        "Regenerate: python -m tests.widgets.test_widgets_tfidf_search",
        "page": "book/tfidf/retrieval.html",
        "construct": CONSTRUCT,
        "token_pattern": TOKEN_PATTERN,
        "query": QUERY,
        "controls": [{"testid": "tfidf-query", "value": QUERY}],
        "tolerance": 1e-4,
        "results": [{"rank": r, "document": d, "score": round(s, 10)} for r, (d, s) in enumerate(zip(docs, scores))],
    }


# ---- Python side ------------------------------------------------------------------------------


def test_widget_ranks_like_sklearn():
    w = TfidfSearch(query=QUERY, top_k=3)
    got = w.search()
    docs, scores = sklearn_ranking(QUERY, 3)
    assert got["document"].tolist() == docs
    np.testing.assert_allclose(got["score"], scores, atol=1e-12)
    assert got["title"][0].startswith(f"Doc {docs[0] + 1}:")
    assert len(w.vocabulary) == len(w.idf) and len(w.doc_terms) == len(w.doc_weights) == 50


def test_shipped_vectors_are_the_sklearn_vectors_rounded():
    w = TfidfSearch()
    ref = TfidfVectorizer(token_pattern=TOKEN_PATTERN)
    x = ref.fit_transform(lee_documents()).toarray()
    assert w.vocabulary == list(ref.get_feature_names_out())
    np.testing.assert_allclose(w.idf, ref.idf_, atol=5e-7)
    shipped = np.zeros_like(x)
    for i, (terms, weights) in enumerate(zip(w.doc_terms, w.doc_weights)):
        shipped[i, terms] = weights
    np.testing.assert_allclose(shipped, x, atol=5e-7)


def test_widget_tokens_are_the_documented_regex():
    assert widget_tokens("Covid-19 hit U.S. towns, didn't it?") == [
        "covid",
        "19",
        "hit",
        "u",
        "s",
        "towns",
        "didn",
        "t",
        "it",
    ]
    assert TfidfVectorizer(token_pattern=TOKEN_PATTERN).build_analyzer()("Covid-19 hit U.S.") == widget_tokens(
        "Covid-19 hit U.S."
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"documents": []}, ValueError, "documents must not be empty"),
        ({"documents": ["a b", 3]}, TypeError, r"documents\[1\]"),
        ({"documents": ["word"] * 501}, ValueError, "at most 500"),
        ({"documents": ["a b", "c d"], "titles": ["only one"]}, ValueError, "titles has 1"),
        ({"top_k": 0}, ValueError, "top_k must be >= 1"),
        ({"top_k": 21}, ValueError, "top_k must be <= 20"),
        ({"query": None}, TypeError, "query must be a str"),
        ({"examples": [""]}, ValueError, r"examples\[0\]"),
    ],
)
def test_bad_settings_get_a_clear_error(kwargs, error, match):
    with pytest.raises(error, match=match):
        TfidfSearch(**kwargs)


def test_the_module_has_the_test_ids_and_inserts_text_only():
    esm = TfidfSearch()._esm
    for testid in ("tfidf-root", "tfidf-query", "tfidf-results", "tfidf-result-", "tfidf-terms", "tfidf-status"):
        assert testid in esm
    assert 'class: "nlpw nlpw-tfidf"' in esm
    own = (Path(__file__).parents[2] / "nlp_helpers" / "widgets" / "tfidf_search.js").read_text(encoding="utf-8")
    assert "innerHTML" not in own and "insertAdjacentHTML" not in own and "outerHTML" not in own


# ---- JavaScript under Node --------------------------------------------------------------------


def _run_js(widget, actions, tmp_path):
    state = widget.get_state()
    state = {k: v for k, v in state.items() if not k.startswith("_") and k not in ("layout", "comm")}
    return run_widget_js(widget._esm, state, actions, tmp_path)


def test_js_ranks_the_golden_documents_after_typing_the_query(tmp_path):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    out = _run_js(TfidfSearch(**golden["construct"]), golden["controls"], tmp_path)
    for r in golden["results"]:
        item = out[f"tfidf-result-{r['rank']}"]
        assert int(item["attrs"]["data-document"]) == r["document"]
        assert float(item["attrs"]["data-score"]) == pytest.approx(r["score"], abs=golden["tolerance"])
    assert f"tfidf-result-{len(golden['results'])}" not in out
    assert out["__state"]["query"] == golden["query"]
    assert "tfidf-term-tampa" in out


def test_js_splits_each_cosine_into_the_query_terms_shares_as_sklearn(tmp_path):
    ref = TfidfVectorizer(token_pattern=TOKEN_PATTERN)
    x = ref.fit_transform(lee_documents()).toarray()
    q = ref.transform([QUERY]).toarray().ravel()
    out = _run_js(TfidfSearch(query="", top_k=3), [{"testid": "tfidf-query", "value": QUERY}], tmp_path)
    vocab = ref.vocabulary_
    for r in range(3):
        doc = int(out[f"tfidf-result-{r}"]["attrs"]["data-document"])
        parts = dict(p.split(":") for p in out[f"tfidf-contrib-{r}"]["attrs"]["data-values"].split(";"))
        want = {t: q[vocab[t]] * x[doc, vocab[t]] for t in widget_tokens(QUERY) if q[vocab[t]] * x[doc, vocab[t]] > 0}
        assert set(parts) == set(want)
        for t, v in want.items():
            assert float(parts[t]) == pytest.approx(v, abs=1e-5)  # the page's weights have 6 decimals
        assert sum(map(float, parts.values())) == pytest.approx(
            float(out[f"tfidf-result-{r}"]["attrs"]["data-score"]), abs=1e-12
        )


def test_js_reports_a_query_with_no_known_word_and_shows_markup_as_text(tmp_path):
    out = _run_js(TfidfSearch(), [{"testid": "tfidf-query", "value": "<blink>zzzz</blink>"}], tmp_path)
    assert not any(k.startswith("tfidf-result-") for k in out)
    status = out["tfidf-status"]["text"]
    assert "None of the query's words is in the vocabulary" in status
    assert "blink, zzzz" in status  # the unknown words are listed, as text
    assert out["tfidf-query"]["value"] == "<blink>zzzz</blink>"


def test_js_example_menu_sets_the_query(tmp_path):
    w = TfidfSearch(examples=[QUERY, "floods in Germany"])
    out = _run_js(w, [{"testid": "tfidf-examples", "value": "floods in Germany"}], tmp_path)
    want = w.search("floods in Germany")
    got = [int(out[f"tfidf-result-{r}"]["attrs"]["data-document"]) for r in range(len(want))]
    assert got == want["document"].tolist()
    assert out["tfidf-query"]["value"] == "floods in Germany"


# ---- the golden file --------------------------------------------------------------------------


def test_golden_file_is_current():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    fresh = golden_data()
    assert {k: v for k, v in golden.items() if k != "results"} == {k: v for k, v in fresh.items() if k != "results"}
    assert [r["document"] for r in golden["results"]] == [r["document"] for r in fresh["results"]]
    np.testing.assert_allclose(
        [r["score"] for r in golden["results"]], [r["score"] for r in fresh["results"]], atol=1e-9
    )
    assert len(golden["results"]) == 3


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(golden_data(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)
