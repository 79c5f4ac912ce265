"""Bad and edge inputs of the BERT chapter's helpers, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
import torch

from nlp_helpers.bert import minilm as BE  # noqa: E402
from nlp_helpers.bert import mlm as M  # noqa: E402
from nlp_helpers.bert import nsp as NS  # noqa: E402
from nlp_helpers.bert import wordpiece as WP  # noqa: E402
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge

NAN, INF = math.nan, math.inf


WP_VOCAB = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "un": 5, "##aff": 6, "##able": 7}


@cache
def masked_lm() -> M.TinyMaskedLM:
    torch.manual_seed(0)
    return M.TinyMaskedLM(6, 4, d_model=8, n_heads=2, n_layers=1)


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


BAD = [
    # --- wordpiece
    bad("wordpiece.load_vocab-none", lambda: WP.load_vocab(None), TypeError, "path must be str or Path"),
    bad("wordpiece.clean_text-none", lambda: WP.clean_text(None), TypeError, "text must be a str"),
    bad("wordpiece.space_cjk-int", lambda: WP.space_cjk(5), TypeError, "text must be a str"),
    bad("wordpiece.strip_accents-bytes", lambda: WP.strip_accents(b"caf\xc3\xa9"), TypeError, "text must be a str"),
    bad("wordpiece.split_punctuation-none", lambda: WP.split_punctuation(None), TypeError, "word must be a str"),
    bad(
        "wordpiece.basic_tokenize-special-int",
        lambda: WP.basic_tokenize("a", special_tokens=[1]),
        TypeError,
        "special_tokens item",
    ),
    bad(
        "wordpiece.wordpiece_tokenize-specials-none",
        lambda: WP.wordpiece_tokenize("a", WP_VOCAB, special_tokens=None),
        TypeError,
        "special_tokens must be a list",
    ),
    bad(
        "wordpiece.wordpiece_tokenize-specials-str",
        lambda: WP.wordpiece_tokenize("a", WP_VOCAB, special_tokens="[UNK]"),
        TypeError,
        "special_tokens",
    ),
    bad("wordpiece.encode-vocab-none", lambda: WP.encode("a", None), TypeError, "vocab must be Mapping"),
    bad("wordpiece.encode-pair-int", lambda: WP.encode("a", WP_VOCAB, 5), TypeError, "text_pair must be a str"),
    bad("wordpiece.pad_batch-str", lambda: WP.pad_batch("abc"), TypeError, "encodings"),
    # --- mlm
    bad(
        "mlm.select_positions-specials-str",
        lambda: M.select_positions([1, 2], "a", rng()),
        TypeError,
        "special_ids must be a list",
    ),
    bad(
        "mlm.select_positions-specials-none", lambda: M.select_positions([1, 2], None, rng()), TypeError, "special_ids"
    ),
    bad("mlm.select_positions-empty", lambda: M.select_positions([], [0], rng()), (TypeError, ValueError), "ids"),
    bad(
        "mlm.masked_lm_loss-label-above-vocab",
        lambda: M.masked_lm_loss(torch.zeros(1, 2, 5), torch.tensor([[7, -100]])),
        ValueError,
        r"labels must be token ids in \[0, 5\)",
    ),
    bad(
        "mlm.masked_lm_loss-negative-label",
        lambda: M.masked_lm_loss(torch.zeros(1, 2, 5), torch.tensor([[-3, -100]])),
        ValueError,
        "labels must be token ids",
    ),
    bad(
        "mlm.masked_lm_loss-float-labels",
        lambda: M.masked_lm_loss(torch.zeros(1, 2, 5), torch.tensor([[1.0, -100.0]])),
        TypeError,
        "labels must hold integer",
    ),
    bad(
        "mlm.masked_lm_loss-numpy",
        lambda: M.masked_lm_loss(np.zeros((1, 2, 5)), np.array([[1, -100]])),
        TypeError,
        "logits must be Tensor",
    ),
    bad(
        "mlm.TinyMaskedLM-unknown-id",
        lambda: masked_lm()(torch.tensor([[9, 1]])),
        ValueError,
        r"ids must be token ids in \[0, 6\)",
    ),
    bad("mlm.TinyMaskedLM-float-ids", lambda: masked_lm()(torch.zeros(1, 2)), TypeError, "ids must hold integer"),
    bad(
        "mlm.train_masked_lm-p-0",
        lambda: M.train_masked_lm(
            masked_lm(), np.ones((2, 3), int), mask_id=5, special_ids=[0], steps=1, p=0.0, progress=False
        ),
        ValueError,
        "p must be > 0",
    ),
    bad(
        "mlm.evaluate_masked_lm-shape",
        lambda: M.evaluate_masked_lm(masked_lm(), np.array([[1, 2]]), np.array([[-100]])),
        ValueError,
        "labels must have the shape of inputs",
    ),
    bad(
        "mlm.unigram_baseline-negative-train-id",
        lambda: M.unigram_baseline([-1, 2], [1], 5),
        ValueError,
        "train_ids must lie in",
    ),
    bad(
        "mlm.unigram_baseline-train-id-above-vocab",
        lambda: M.unigram_baseline([9, 2], [1], 5),
        ValueError,
        "train_ids must lie in",
    ),
    bad(
        "mlm.unigram_baseline-label-above-vocab",
        lambda: M.unigram_baseline([1, 2], [9], 5),
        ValueError,
        "labels must be token ids",
    ),
    bad(
        "mlm.unigram_baseline-negative-label",
        lambda: M.unigram_baseline([1, 2], [-5], 5),
        ValueError,
        "labels must be token ids",
    ),
    # --- nsp
    bad(
        "nsp.nsp_pairs-one-document",
        lambda: NS.nsp_pairs([["a", "b"]], rng()),
        ValueError,
        "at least 2 non-empty documents",
    ),
    bad(
        "nsp.nsp_pairs-no-rng",
        lambda: NS.nsp_pairs([["a", "b"], ["c"]], None),
        TypeError,
        "rng must be a numpy Generator",
    ),
    # --- bert (numpy side; nothing here loads the model)
    bad(
        "bert.semantic_search-zero-query",
        lambda: BE.semantic_search(np.zeros(3), np.eye(3)),
        ValueError,
        "query_embeddings has an all-zero row",
    ),
    bad(
        "bert.semantic_search-zero-document",
        lambda: BE.semantic_search(np.ones(3), np.array([[1.0, 0, 0], [0, 0, 0]]), k=1),
        ValueError,
        "doc_embeddings has an all-zero row",
    ),
    bad(
        "bert.semantic_search-dimensions",
        lambda: BE.semantic_search(np.ones(2), np.eye(3)),
        ValueError,
        "query_embeddings have 2 dimensions",
    ),
    bad(
        "bert.semantic_search-k-above-documents",
        lambda: BE.semantic_search(np.ones(3), np.eye(3), 4),
        ValueError,
        "k must be <= 3",
    ),
    bad(
        "bert.token_states-layer-out-of-range",
        lambda: BE.token_states(["a"], layer=9),
        ValueError,
        "layer must be <= 6",
    ),
    bad("bert.batch_attention-empty", lambda: BE.batch_attention([]), ValueError, "texts must not be empty"),
    bad("bert.batch_attention-str", lambda: BE.batch_attention("a text"), TypeError, "texts must be a sequence"),
    bad(
        "bert.encode_batch-pair-count", lambda: BE.encode_batch(["a"], ["b", "c"]), ValueError, "text_pairs has 2 texts"
    ),
    bad(
        "bert.anisotropy-rng-int", lambda: BE.anisotropy(np.ones((3, 3)), 0), TypeError, "rng must be a numpy Generator"
    ),
]


EDGE = [
    edge(
        "wordpiece.wordpiece_tokenize-unknown-word",
        lambda: WP.wordpiece_tokenize("unaffable zebra", WP_VOCAB),
        lambda t: t == ["un", "##aff", "##able", "[UNK]"],
    ),
    edge(
        "wordpiece.basic_tokenize-rtl-and-emoji",
        lambda: WP.basic_tokenize("שלום 🙂!", lowercase=False),
        lambda t: t == ["שלום", "🙂", "!"],
    ),
    edge("wordpiece.space_cjk", lambda: WP.space_cjk("ab中文"), lambda t: t == "ab 中  文 "),
    edge("wordpiece.strip_accents-combining", lambda: WP.strip_accents("e\u0301a\u0308"), lambda t: t == "ea"),
    edge("wordpiece.clean_text-controls", lambda: WP.clean_text("a\x00b\u200bc\td"), lambda t: t == "abc d"),
    edge("bert.anisotropy-huge-vectors", lambda: BE.anisotropy(np.full((3, 3), 1e200), rng(), 10), lambda v: v == 1.0),
    edge(
        "bert.mean_pool-ignores-padding",
        lambda: BE.mean_pool(np.array([[[1.0], [3.0], [100.0]]]), np.array([[1, 1, 0]])),
        lambda m: m.tolist() == [[2.0]],
    ),
    edge(
        "bert.standardize-constant-column",
        lambda: BE.standardize(np.array([[1.0, 2.0], [1.0, 4.0]])),
        lambda z: np.array_equal(z[:, 0], [0.0, 0.0]),
    ),
    edge(
        "mlm.TinyMaskedLM-all-padding-row",
        lambda: masked_lm()(torch.tensor([[0, 0, 0], [1, 2, 0]])),
        lambda y: torch.isfinite(y).all(),
    ),
    edge(
        "mlm.masked_lm_loss-ignores-minus-100",
        lambda: M.masked_lm_loss(torch.zeros(1, 2, 4), torch.tensor([[1, -100]])),
        lambda loss: float(loss) == pytest.approx(math.log(4)),
    ),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)
