"""``TfidfSearch``: type a query, see its TF-IDF-weighted terms and the ranked documents.

Python fits a :class:`nlp_helpers.tfidf.weighting.TfIdf` (raw TF, smooth IDF, L2 norm: scikit-learn's
``TfidfVectorizer`` defaults) on a small collection (by default the 50 Lee documents)
and ships the vocabulary, the IDF of every term and each document's sparse vector.
``tfidf_search.js`` tokenizes the query, weights it and ranks the documents by cosine
itself, so the widget works on the static page with no kernel.

Tokenization, on both sides, is deliberately simple so that JavaScript and Python agree
exactly: the text is lower-cased and the tokens are the matches of :data:`TOKEN_PATTERN`
(runs of ASCII letters and digits; "Covid-19" gives "covid" and "19", "don't" gives
"don" and "t"). It is *not* the chapter's ``word_tokenize``; it is the widget's.

``tests/golden/tfidf_widget.json`` holds the top-3 documents and scores Python computes
for one query; the browser test types the query and compares.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import anywidget
import numpy as np
import pandas as pd
import traitlets

from nlp_helpers._checks import check_int, check_nonempty, check_text
from nlp_helpers.tfidf.weighting import TfIdf
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["TfidfSearch", "TOKEN_PATTERN", "widget_tokens"]

# The widget's tokenizer: the same regular expression runs in JavaScript (flag "g").
TOKEN_PATTERN = "[a-z0-9]+"
_TOKEN_RE = re.compile(TOKEN_PATTERN)
MAX_DOCUMENTS = 500  # the vectors travel inside the page; keep it small
DIGITS = 6  # weights are rounded to 6 decimals in the page (scores agree to ~1e-6)


def widget_tokens(text: str) -> list[str]:
    """The widget's tokens of ``text``: lower-case, then every run of ``[a-z0-9]``."""
    return _TOKEN_RE.findall(check_text("text", text).lower())


class TfidfSearch(anywidget.AnyWidget):
    """A search box over a small document collection, ranked by TF-IDF cosine in the browser.

    Parameters
    ----------
    documents:
        The texts to search (default: the 50 Lee documents); at most 500.
    titles:
        A short label per document (default: "Doc i: first words…").
    query:
        The initial query.
    top_k:
        How many documents the ranking lists (1..20, at most the number of documents).
    examples:
        Queries offered in a drop-down menu.
    """

    _esm = load_esm("tfidf_search.js")
    _css = load_css()

    token_pattern = traitlets.Unicode(TOKEN_PATTERN).tag(sync=True)
    vocabulary = traitlets.List(traitlets.Unicode()).tag(sync=True)
    idf = traitlets.List(traitlets.Float()).tag(sync=True)
    doc_terms = traitlets.List(traitlets.List(traitlets.Int())).tag(sync=True)
    doc_weights = traitlets.List(traitlets.List(traitlets.Float())).tag(sync=True)
    titles = traitlets.List(traitlets.Unicode()).tag(sync=True)
    snippets = traitlets.List(traitlets.Unicode()).tag(sync=True)
    examples = traitlets.List(traitlets.Unicode()).tag(sync=True)
    query = traitlets.Unicode("").tag(sync=True)
    top_k = traitlets.Int(3).tag(sync=True)

    def __init__(
        self,
        documents: Sequence[str] | None = None,
        *,
        titles: Sequence[str] | None = None,
        query: str = "",
        top_k: int = 3,
        examples: Sequence[str] = (),
    ) -> None:
        if documents is None:
            from nlp_helpers.data.corpora import lee_documents

            documents = lee_documents()
        docs = [check_text(f"documents[{i}]", d) for i, d in enumerate(check_nonempty("documents", documents))]
        for i, d in enumerate(docs):
            if not widget_tokens(d):
                raise ValueError(f"documents[{i}] has no word ([a-z0-9] run) to index: {d[:40]!r}")
        if len(docs) > MAX_DOCUMENTS:
            raise ValueError(
                f"documents has {len(docs)} texts; the widget ships them in the page, so at most {MAX_DOCUMENTS}"
            )
        if titles is None:
            titles = [f"Doc {i + 1}: {' '.join(d.split()[:8])}…" for i, d in enumerate(docs)]
        titles = [check_text(f"titles[{i}]", t) for i, t in enumerate(titles)]
        if len(titles) != len(docs):
            raise ValueError(f"titles has {len(titles)} entries but there are {len(docs)} documents")
        top_k = check_int("top_k", top_k, minimum=1, maximum=min(20, len(docs)))
        if isinstance(examples, str):
            raise TypeError("examples must be a list of queries, not a single str")
        examples = [check_text(f"examples[{i}]", e, allow_empty=False) for i, e in enumerate(examples)]
        self._model = TfIdf(tokenizer=widget_tokens, lowercase=False)  # widget_tokens lower-cases already
        vectors = self._model.fit_transform(docs)
        terms = [vectors.indices[vectors.indptr[i] : vectors.indptr[i + 1]].tolist() for i in range(len(docs))]
        weights = [
            np.round(vectors.data[vectors.indptr[i] : vectors.indptr[i + 1]], DIGITS).tolist() for i in range(len(docs))
        ]
        super().__init__(
            vocabulary=list(self._model.vocabulary_),
            idf=np.round(self._model.idf_, DIGITS).tolist(),
            doc_terms=terms,
            doc_weights=weights,
            titles=titles,
            snippets=[d[:240] + ("…" if len(d) > 240 else "") for d in docs],
            examples=examples,
            query=check_text("query", query),
            top_k=top_k,
        )

    @property
    def model(self) -> TfIdf:
        """The fitted :class:`~nlp_helpers.tfidf.weighting.TfIdf` behind the widget."""
        return self._model

    def search(self, query: str | None = None) -> pd.DataFrame:
        """What the widget lists for ``query`` (default: its current query): ``document, title, score``."""
        query = self.query if query is None else query
        ranking = self._model.search(query, top_k=self.top_k)
        ranking.insert(1, "title", [self.titles[i] for i in ranking["document"]])
        return ranking
