"""Bad and edge inputs for the public API of every nlp_helpers module, table-driven.

Each row of ``BAD`` calls one public function or class with something wrong (an empty corpus, a
wrong type or shape, NaN/inf, an unknown token, temperature < 0, top_p outside (0, 1], k larger
than the vocabulary, n-gram order 0, zero counts, a lone surrogate, ...) and expects a
``TypeError``/``ValueError``/``KeyError`` whose message names the offending argument. Each row of
``EDGE`` is an edge input with a *documented* well-defined result (a fully masked attention row
gives zeros, temperature 0 is greedy, ``k >= V`` keeps everything, ...) and checks that result.
The rows complement the chapter tests (``tests/test_<module>.py``), which already cover the most
common mistakes of each module; many rows here are regressions for bugs this suite found (a silent
NaN, an ``IndexError`` from deep inside torch, a str silently iterated as characters).

The last tests are meta-tests: every public callable of every module must be named in some test
file, and every exercise checker must answer "wrong" (never crash) for an unusable answer.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pytest
import scipy.sparse as sp
import torch

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

import nlp_helpers  # noqa: E402
from nlp_helpers import _checks as C  # noqa: E402
from nlp_helpers import plotting as PL  # noqa: E402
from nlp_helpers.attention import positional as P  # noqa: E402
from nlp_helpers.attention import self_attention as A  # noqa: E402
from nlp_helpers.attention import toy_transformer as AT  # noqa: E402
from nlp_helpers.attention import transformer as TR  # noqa: E402
from nlp_helpers.attention import worked_example as AE  # noqa: E402
from nlp_helpers.bert import classifier as BC  # noqa: E402
from nlp_helpers.bert import minilm as BE  # noqa: E402
from nlp_helpers.bert import mlm as M  # noqa: E402
from nlp_helpers.bert import nsp as NS  # noqa: E402
from nlp_helpers.bert import topics as TO  # noqa: E402
from nlp_helpers.bert import wordpiece as WP  # noqa: E402
from nlp_helpers.data import corpora as D  # noqa: E402
from nlp_helpers.data import smollm2 as SM2  # noqa: E402
from nlp_helpers.data import splits as SP  # noqa: E402
from nlp_helpers.exercises.checker import STRICT_ENV, Checker, CheckResult  # noqa: E402
from nlp_helpers.ngram import counts as NC  # noqa: E402
from nlp_helpers.ngram import models as NG  # noqa: E402
from nlp_helpers.sampling import distributions as S  # noqa: E402
from nlp_helpers.sampling import generate as SG  # noqa: E402
from nlp_helpers.sampling import llm as L  # noqa: E402
from nlp_helpers.sampling import tinygpt as TG  # noqa: E402
from nlp_helpers.tfidf import bag_of_words as BW  # noqa: E402
from nlp_helpers.tfidf import cooccurrence as CO  # noqa: E402
from nlp_helpers.tfidf import similarity as SIM  # noqa: E402
from nlp_helpers.tfidf import weighting as WT  # noqa: E402
from nlp_helpers.tokenization import bpe as BP  # noqa: E402
from nlp_helpers.tokenization import edit_distance as ED  # noqa: E402
from nlp_helpers.tokenization import segmentation as SEG  # noqa: E402
from nlp_helpers.tokenization import words as TK  # noqa: E402
from nlp_helpers.widgets.assets import load_css, load_esm  # noqa: E402
from nlp_helpers.widgets.attention import AttentionExplorer, transform_weights  # noqa: E402
from nlp_helpers.widgets.bpe import BPEStepper  # noqa: E402
from nlp_helpers.widgets.positional import PositionalEncodingExplorer  # noqa: E402
from nlp_helpers.widgets.sampling import NextTokenExplorer, SoftmaxTemperature, explorer_prompt  # noqa: E402
from nlp_helpers.widgets.tfidf_search import TfidfSearch, widget_tokens  # noqa: E402
from nlp_helpers.word2vec import corpus as W2C  # noqa: E402
from nlp_helpers.word2vec import evaluation as WE  # noqa: E402
from nlp_helpers.word2vec import fasttext as FT  # noqa: E402
from nlp_helpers.word2vec import sgns as W2  # noqa: E402
from nlp_helpers.word2vec import softmax as WS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NAN, INF = math.nan, math.inf


# ------------------------------------------------------------------------------ small fitted objects
# Built on first use (never at collection time) and shared by the rows that need them.
@cache
def bpe() -> BP.BPE:
    return BP.BPE.train(["low lower lowest", "new newer newest"], 20)


SENTS = (("the", "cat", "sat"), ("the", "dog", "sat"), ("a", "cat", "ran"))


@cache
def lm(smoothing: str = "laplace", n: int = 2) -> NG.NGramLM:
    return NG.NGramLM(n, smoothing).fit([list(s) for s in SENTS])


@cache
def tfidf() -> WT.TfIdf:
    return WT.TfIdf().fit(["the cat sat", "the dog ran", "a bird sang"])


@cache
def word_vectors() -> WE.WordVectors:
    return WE.WordVectors(["a", "b", "c"], np.eye(3))


WP_VOCAB = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "un": 5, "##aff": 6, "##able": 7}


@cache
def gpt() -> TG.TinyGPT:
    torch.manual_seed(0)
    return TG.TinyGPT(TG.TinyGPTConfig(5, block_size=4, n_layers=1, n_heads=2, d_model=8))


@cache
def toy() -> AT.TinyTransformer:
    torch.manual_seed(0)
    return AT.TinyTransformer(9, d_model=8, n_heads=2, d_ff=8, max_len=6).eval()


@cache
def masked_lm() -> M.TinyMaskedLM:
    torch.manual_seed(0)
    return M.TinyMaskedLM(6, 4, d_model=8, n_heads=2, n_layers=1)


@cache
def enc_params() -> TR.EncoderLayerParams:
    eye = np.eye(4)
    return TR.EncoderLayerParams(TR.AttentionParams(eye, eye, eye, eye), eye, np.zeros(4))


@cache
def dec_params() -> TR.DecoderLayerParams:
    attn = enc_params().attn
    return TR.DecoderLayerParams(attn, attn, np.eye(4), np.zeros(4))


def padded_self_attention() -> tuple[np.ndarray, np.ndarray]:
    """Self-attention over 3 positions of which the last is padding, with padded query rows blanked (seed 001)."""
    m = A.padding_mask([2], 3)
    return A.multi_head_attention(np.ones((1, 3, 4)), *[np.eye(4)] * 4, 2, mask=m[:, :, None] & m[:, None, :])


@cache
def classifier() -> BC.SentenceClassifier:
    torch.manual_seed(0)
    return BC.SentenceClassifier(4, 2)


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def after(obj: Any, **traits: Any) -> Any:
    """Set widget traits from Python (bypassing the constructor's checks) and return the widget."""
    for name, value in traits.items():
        setattr(obj, name, value)
    return obj


def attention_widget(**kw: Any) -> AttentionExplorer:
    return AttentionExplorer(["a", "b", "c"], np.full((3, 3), 1 / 3), **kw)


def next_token_widget(**kw: Any) -> NextTokenExplorer:
    return NextTokenExplorer([explorer_prompt("p", ["x", "y", "z"], [2.0, 1.0, 0.0])], **kw)


# ------------------------------------------------------------------------------ the tables
@dataclass(frozen=True)
class Bad:
    call: Callable[[], Any]
    error: type[BaseException] | tuple[type[BaseException], ...]
    match: str


@dataclass(frozen=True)
class Edge:
    call: Callable[[], Any]
    check: Callable[[Any], bool]


def bad(case_id: str, call: Callable[[], Any], error: Any, match: str):
    return pytest.param(Bad(call, error, match), id=case_id)


def edge(case_id: str, call: Callable[[], Any], check: Callable[[Any], bool]):
    return pytest.param(Edge(call, check), id=case_id)


BAD = [
    # --- _checks: the shared checks name the argument themselves
    bad(
        "_checks.check_type-wrong-type",
        lambda: C.check_type("vocab", [1], dict),
        TypeError,
        "vocab must be dict, got list",
    ),
    bad(
        "_checks.check_type-bool-is-not-int", lambda: C.check_type("n", True, int), TypeError, "n must be int, got bool"
    ),
    bad("_checks.check_int-numpy-float", lambda: C.check_int("k", np.float64(2.0)), TypeError, "k must be an integer"),
    bad(
        "_checks.check_array-ragged", lambda: C.check_array("X", [[1.0], [1.0, 2.0]]), TypeError, "X must be array-like"
    ),
    # --- sampling: huge logits, temperatures, k and p (test_sampling covers the common cases)
    bad("sampling.entropy-strings", lambda: S.entropy(["a", "b"]), TypeError, "probs must be array-like"),
    bad("sampling.entropy-3d", lambda: S.entropy(np.full((1, 1, 2), 0.5)), ValueError, "probs must be"),
    bad("sampling.entropy-negative", lambda: S.entropy([1.5, -0.5]), ValueError, "probs must be non-negative"),
    bad("sampling.min_p_filter-nan", lambda: S.min_p_filter([1.0, 2.0], NAN), ValueError, "min_p must be a finite"),
    bad(
        "sampling.min_p_filter-logits-inf",
        lambda: S.min_p_filter([INF, 1.0], 0.1),
        ValueError,
        r"logits must not contain NaN or \+inf",
    ),
    bad("sampling.top_k_filter-k-float", lambda: S.top_k_filter([1.0, 2.0], 1.0), TypeError, "k must be an integer"),
    bad("sampling.top_p_filter-p-none", lambda: S.top_p_filter([1.0, 2.0], None), TypeError, "p must be a number"),
    bad("sampling.top_p_filter-p-above-1", lambda: S.top_p_filter([1.0, 2.0], 1.5), ValueError, "p must be <= 1"),
    bad(
        "sampling.apply_temperature-negative", lambda: S.apply_temperature([1.0, 2.0], -1.0), ValueError, "temperature"
    ),
    bad(
        "sampling.process_logits-temperature-0",
        lambda: S.process_logits([1.0, 2.0], 0.0),
        ValueError,
        "temperature must be > 0",
    ),
    bad(
        "sampling.process_logits-top_p-0",
        lambda: S.process_logits([1.0, 2.0], 1.0, top_p=0.0),
        ValueError,
        "top_p must be > 0",
    ),
    bad(
        "sampling.apply_repetition_penalty-float-ids",
        lambda: S.apply_repetition_penalty([1.0, 2.0], [0.5], 1.2),
        ValueError,
        "previous_ids",
    ),
    bad(
        "sampling.apply_repetition_penalty-zero",
        lambda: S.apply_repetition_penalty([1.0, 2.0], [0], 0.0),
        ValueError,
        "penalty must be > 0",
    ),
    bad("sampling.greedy-empty", lambda: S.greedy([]), ValueError, "logits must have shape"),
    bad("sampling.greedy-none", lambda: S.greedy(None), ValueError, "logits must have shape"),
    bad("sampling.sample-num_samples-bool", lambda: S.sample([0.0, 1.0], num_samples=True), TypeError, "num_samples"),
    bad("sampling.softmax-temperature-str", lambda: S.softmax([1.0], "1"), TypeError, "temperature must be a number"),
    # --- sampling_generate
    bad("sampling_generate.distinct_n-order-0", lambda: SG.distinct_n([[1, 2]], 0), ValueError, "n must be >= 1"),
    bad("sampling_generate.distinct_n-str", lambda: SG.distinct_n("abc", 1), TypeError, "sequences"),
    bad(
        "sampling_generate.repetition_rate-order-0",
        lambda: SG.repetition_rate([[1, 2]], 0),
        ValueError,
        "n must be >= 1",
    ),
    bad(
        "sampling_generate.repetition_rate-too-short", lambda: SG.repetition_rate([[1, 2]], 3), ValueError, "no 3-gram"
    ),
    bad(
        "sampling_generate.repetition_rate-empty",
        lambda: SG.repetition_rate([]),
        ValueError,
        "sequences must not be empty",
    ),
    bad(
        "sampling_generate.generate-negative-temperature",
        lambda: SG.generate(None, None, "hi", 3, temperature=-1),
        ValueError,
        "temperature",
    ),
    bad("sampling_generate.generate-top_p-0", lambda: SG.generate(None, None, "hi", 3, top_p=0.0), ValueError, "top_p"),
    bad(
        "sampling_generate.generate-unknown-strategy",
        lambda: SG.generate(None, None, "hi", 3, top_z=1),
        ValueError,
        "top_z",
    ),
    bad(
        "sampling_generate.generate_many-no-settings",
        lambda: SG.generate_many(None, None, "hi", [], 3),
        ValueError,
        "settings must not be empty",
    ),
    bad(
        "sampling_generate.generate_many-setting-not-dict",
        lambda: SG.generate_many(None, None, "hi", [0.7], 3),
        TypeError,
        "setting",
    ),
    bad(
        "sampling_generate.generate_many-zero-tokens",
        lambda: SG.generate_many(None, None, "hi", [{}], 0),
        ValueError,
        "max_new_tokens",
    ),
    bad(
        "sampling_generate.generate_many-empty-prompt",
        lambda: SG.generate_many(None, None, "", [{}], 2),
        ValueError,
        "prompt",
    ),
    bad(
        "sampling_generate.generate_many-bad-penalty",
        lambda: SG.generate_many(None, None, "hi", [{"repetition_penalty": 0}], 2),
        ValueError,
        "repetition_penalty",
    ),
    # --- attention
    bad(
        "attention.softmax-axis-out-of-range",
        lambda: A.softmax([[1.0, 2.0]], axis=5),
        (ValueError, IndexError),
        "axis 5",
    ),
    bad(
        "attention.scaled_dot_product_attention-d_k-0",
        lambda: A.scaled_dot_product_attention(np.zeros((2, 0)), np.zeros((2, 0)), np.zeros((2, 3))),
        ValueError,
        "d_k >= 1",
    ),
    bad(
        "attention.scaled_dot_product_attention-overflow",
        lambda: A.scaled_dot_product_attention(np.full((2, 3), 1e200), np.full((2, 3), 1e200), np.zeros((2, 3))),
        ValueError,
        "Q and K are too large",
    ),
    bad(
        "attention.scaled_dot_product_attention-bias-nan",
        lambda: A.scaled_dot_product_attention(
            np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3)), bias=np.full((2, 2), NAN)
        ),
        ValueError,
        "bias",
    ),
    bad(
        "attention.split_heads-zero-heads",
        lambda: A.split_heads(np.zeros((1, 2, 4)), 0),
        ValueError,
        "n_heads must be >= 1",
    ),
    bad("attention.split_heads-not-divisible", lambda: A.split_heads(np.zeros((1, 2, 4)), 3), ValueError, "n_heads=3"),
    bad("attention.split_heads-2d", lambda: A.split_heads(np.zeros((2, 4)), 2), ValueError, "X must have 3 dimensions"),
    bad("attention.merge_heads-3d", lambda: A.merge_heads(np.zeros((1, 2, 4))), ValueError, "X must have 4 dimensions"),
    bad(
        "attention.merge_heads-nan",
        lambda: A.merge_heads(np.full((1, 1, 1, 1), NAN)),
        ValueError,
        "X must contain only finite",
    ),
    bad("attention.padding_mask-str", lambda: A.padding_mask("ab", 2), TypeError, "lengths"),
    bad("attention.causal_mask-float", lambda: A.causal_mask(2.0), TypeError, "n must be an integer"),
    bad(
        "attention.multi_head_attention-memory-width",
        lambda: A.multi_head_attention(np.zeros((2, 4)), *[np.eye(4)] * 4, 2, memory=np.zeros((3, 5))),
        ValueError,
        "memory must have shape",
    ),
    # --- positional
    bad("positional.pe_frequencies-d_model-0", lambda: P.pe_frequencies(0), ValueError, "d_model must be >= 1"),
    bad("positional.pe_frequencies-base-inf", lambda: P.pe_frequencies(4, INF), ValueError, "base must be a finite"),
    bad("positional.positional_encoding-no-positions", lambda: P.positional_encoding(0, 4), ValueError, "n_positions"),
    bad("positional.offset_matrix-k-float", lambda: P.offset_matrix(1.5, 4), TypeError, "k must be an integer"),
    bad("positional.alibi_slopes-zero-heads", lambda: P.alibi_slopes(0), ValueError, "n_heads"),
    bad("positional.alibi_bias-nan-slope", lambda: P.alibi_bias(3, slopes=NAN), ValueError, "slopes"),
    bad(
        "positional.alibi_bias-2d-slopes",
        lambda: P.alibi_bias(3, slopes=np.ones((2, 2))),
        ValueError,
        "slopes must have 0 or 1",
    ),
    # --- transformer
    bad("transformer.layer_norm-scalar", lambda: TR.layer_norm(3.0), ValueError, "x must have at least 1 features"),
    bad(
        "transformer.layer_norm-eps-nan",
        lambda: TR.layer_norm(np.ones((2, 3)), eps=NAN),
        ValueError,
        "eps must be a finite",
    ),
    bad(
        "transformer.feed_forward-activation",
        lambda: TR.feed_forward(np.ones((2, 3)), np.ones((3, 4)), np.ones(4), activation="tanh"),
        ValueError,
        "activation",
    ),
    bad(
        "transformer.encoder_layer-params-dict",
        lambda: TR.encoder_layer(np.ones((2, 4)), {}, 2),
        TypeError,
        "params must be EncoderLayerParams",
    ),
    bad(
        "transformer.encoder_layer-zero-heads",
        lambda: TR.encoder_layer(np.ones((2, 4)), enc_params(), 0),
        ValueError,
        "n_heads must be >= 1",
    ),
    bad(
        "transformer.decoder_layer-params-encoder",
        lambda: TR.decoder_layer(np.ones((2, 4)), np.ones((2, 4)), enc_params(), 2),
        TypeError,
        "params must be DecoderLayerParams",
    ),
    bad(
        "transformer.encoder_params_from_torch-none",
        lambda: TR.encoder_params_from_torch(None),
        TypeError,
        "layer must be a torch.nn.TransformerEncoderLayer",
    ),
    bad(
        "transformer.decoder_params_from_torch-encoder-layer",
        lambda: TR.decoder_params_from_torch(torch.nn.TransformerEncoderLayer(4, 2)),
        TypeError,
        "TransformerDecoderLayer",
    ),
    bad(
        "transformer.torch_encoder_layer-zero-heads",
        lambda: TR.torch_encoder_layer(enc_params(), 0),
        ValueError,
        "n_heads must be >= 1",
    ),
    bad(
        "transformer.AttentionParams-wrong-width",
        lambda: TR.AttentionParams(np.eye(3), np.eye(3), np.eye(3), np.eye(3))(np.ones((2, 4)), 1),
        ValueError,
        "W_Q must have shape",
    ),
    # --- attention_example
    bad(
        "attention_example.printed_agreement-empty",
        lambda: AE.printed_agreement([], [], 2),
        ValueError,
        "must not be empty",
    ),
    bad(
        "attention_example.printed_agreement-nan", lambda: AE.printed_agreement([NAN], [1.0], 2), ValueError, "computed"
    ),
    bad(
        "attention_example.labelled-1d",
        lambda: AE.labelled(np.ones(2), ["a"], "d"),
        ValueError,
        "matrix must have 2 dimensions",
    ),
    bad(
        "attention_example.WorkedExample-unknown-table",
        lambda: AE.load_worked_example()["nope"],
        KeyError,
        "no table 'nope'",
    ),
    # --- attention_toy
    bad("attention_toy.ReversalTask-length-0", lambda: AT.ReversalTask(length=0), ValueError, "length must be >= 1"),
    bad("attention_toy.ReversalTask-no-symbols", lambda: AT.ReversalTask(symbols=""), ValueError, "symbols"),
    bad(
        "attention_toy.ReversalTask-repeated-symbols",
        lambda: AT.ReversalTask(symbols="aab"),
        ValueError,
        "symbols must not repeat",
    ),
    bad(
        "attention_toy.ReversalTask.decode-out-of-range",
        lambda: AT.ReversalTask().decode([99]),
        ValueError,
        "ids must lie in",
    ),
    bad(
        "attention_toy.ReversalTask.decode-negative",
        lambda: AT.ReversalTask().decode([-1]),
        ValueError,
        "ids must lie in",
    ),
    bad(
        "attention_toy.ReversalTask.batch-no-rng",
        lambda: AT.ReversalTask().batch(None, 2),
        TypeError,
        "rng must be Generator",
    ),
    bad(
        "attention_toy.TinyTransformer-heads",
        lambda: AT.TinyTransformer(5, d_model=6, n_heads=4),
        ValueError,
        "divisible by n_heads",
    ),
    bad("attention_toy.TinyTransformer-vocab-0", lambda: AT.TinyTransformer(0), ValueError, "vocab_size must be >= 1"),
    bad(
        "attention_toy.TinyTransformer-too-long",
        lambda: toy()(torch.zeros(1, 7, dtype=torch.long), torch.zeros(1, 2, dtype=torch.long)),
        ValueError,
        "max_len=6",
    ),
    bad(
        "attention_toy.greedy_decode-unknown-id",
        lambda: AT.greedy_decode(toy(), [99, 1]),
        ValueError,
        "src_ids must hold",
    ),
    bad(
        "attention_toy.greedy_decode-too-long",
        lambda: AT.greedy_decode(toy(), [1] * 7),
        ValueError,
        "src_ids must hold 1 to 6",
    ),
    bad("attention_toy.greedy_decode-empty", lambda: AT.greedy_decode(toy(), []), ValueError, "src_ids"),
    bad("attention_toy.numpy_forward-empty", lambda: AT.numpy_forward(toy(), [], [0]), ValueError, "src_ids"),
    bad(
        "attention_toy.logit_lens-no-states",
        lambda: AT.logit_lens([], np.eye(3)),
        ValueError,
        "states must not be empty",
    ),
    bad(
        "attention_toy.train_reversal-negative-lr",
        lambda: AT.train_reversal(steps=1, lr=-1.0, progress=False),
        ValueError,
        "lr must be > 0",
    ),
    bad(
        "attention_toy.train_reversal-task-str",
        lambda: AT.train_reversal("abc", steps=1, progress=False),
        TypeError,
        "task must be ReversalTask",
    ),
    # --- bpe
    bad("bpe.pretokenize-bytes", lambda: BP.pretokenize(b"abc"), TypeError, "text must be a str"),
    bad("bpe.byte_token-256", lambda: BP.byte_token(256), ValueError, "byte must be <= 255"),
    bad("bpe.byte_token-negative", lambda: BP.byte_token(-1), ValueError, "byte must be >= 0"),
    bad("bpe.merge_pair-none", lambda: BP.merge_pair(None, ("a", "b"), "ab"), TypeError, "symbols must be a sequence"),
    bad("bpe.merge_pair-pair-str", lambda: BP.merge_pair(["a", "b"], "a", "ab"), ValueError, "pair must be a"),
    bad("bpe.apply_merges-none", lambda: BP.apply_merges("ab", None), TypeError, "merges must be a sequence"),
    bad("bpe.apply_merges-empty-part", lambda: BP.apply_merges("ab", [("a", "")]), ValueError, r"merges\[0\]"),
    bad("bpe.BPE-merges-none", lambda: BP.BPE(None), TypeError, "merges must be a sequence"),
    bad("bpe.BPE.encode-lone-surrogate", lambda: bpe().encode("a\ud800b"), ValueError, "text contains '\\\\ud800'"),
    bad("bpe.BPE.decode-none", lambda: bpe().decode(None), TypeError, "tokens must be a list"),
    bad("bpe.BPE.decode_ids-none", lambda: bpe().decode_ids(None), TypeError, "ids must be a sequence"),
    bad("bpe.BPE.decode_ids-negative", lambda: bpe().decode_ids([-1]), ValueError, r"ids\[0\] = -1"),
    bad("bpe.BPE.train-bytes", lambda: BP.BPE.train(b"abc", 2), TypeError, "corpus"),
    bad("bpe.train_merges_naive-zero-count", lambda: BP.train_merges_naive({"ab": 0}, 2), ValueError, "word_counts"),
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
    # --- tokenization
    bad("tokenization.word_spans-none", lambda: TK.word_spans(None), TypeError, "text must be a str"),
    bad("tokenization.is_punctuation-int", lambda: TK.is_punctuation(3), TypeError, "token must be a str"),
    bad(
        "tokenization.vocabulary_growth-str",
        lambda: TK.vocabulary_growth("abc"),
        TypeError,
        "tokens must be a sequence",
    ),
    bad(
        "tokenization.vocabulary_growth-empty", lambda: TK.vocabulary_growth([]), ValueError, "tokens must not be empty"
    ),
    bad(
        "tokenization.merged_forms-normalizer-returns-none",
        lambda: TK.merged_forms(["a"], lambda t: None),
        TypeError,
        "normalizer must return a list",
    ),
    bad("tokenization.stem-str", lambda: TK.stem("running"), TypeError, "tokens must be a list of str"),
    bad("tokenization.lemmatize-ints", lambda: TK.lemmatize([1]), TypeError, "tokens must contain only str"),
    bad("tokenization.heaps_law_fit-str", lambda: TK.heaps_law_fit("abc" * 100), TypeError, "tokens"),
    # --- edit_distance and segmentation
    bad(
        "edit_distance.edit_distance-inf-cost",
        lambda: ED.edit_distance("a", "b", del_cost=INF),
        ValueError,
        "del_cost must be a finite",
    ),
    bad(
        "edit_distance.edit_distance-set",
        lambda: ED.edit_distance({"a"}, "a"),
        TypeError,
        "source must be a str or a list",
    ),
    bad(
        "edit_distance.edit_distance-unhashable",
        lambda: ED.edit_distance(["a"], [["b"]]),
        TypeError,
        r"target\[0\] must be hashable",
    ),
    bad(
        "segmentation.token_spans-empty-token",
        lambda: SEG.token_spans(["a", ""]),
        ValueError,
        r"tokens\[1\] is an empty token",
    ),
    bad("segmentation.token_spans-str", lambda: SEG.token_spans("abc"), TypeError, "tokens must be a list"),
    bad(
        "segmentation.max_match-vocabulary-str",
        lambda: SEG.max_match("abc", "abc"),
        TypeError,
        "vocabulary must be a collection",
    ),
    bad(
        "segmentation.segmentation_scores-different-text",
        lambda: SEG.segmentation_scores(["ab"], ["a", "c"]),
        ValueError,
        "predicted and gold",
    ),
    bad(
        "segmentation.dictionary_words-unknown",
        lambda: SEG.dictionary_words("klingon"),
        ValueError,
        "which must be one of",
    ),
    bad(
        "segmentation.jieba_tokenizer-unknown",
        lambda: SEG.jieba_tokenizer("klingon"),
        ValueError,
        "which must be one of",
    ),
    # --- n-gram models (test_ngram covers the constructors and corpora)
    bad("ngram_counts.NGramCounts-order-0", lambda: NC.NGramCounts(0), ValueError, "n must be >= 1"),
    bad("ngram.StupidBackoff-order-0", lambda: NG.StupidBackoff(0), ValueError, "n must be >= 1"),
    bad("ngram.NGramLM.with_params-order-0", lambda: lm().with_params(n=0), ValueError, "n must be >= 1"),
    bad("ngram.NGramLM.n_distinct-order-0", lambda: lm().n_distinct(0), ValueError, "order must be >= 1"),
    bad("ngram.NGramLM.ngram_table-order-above-n", lambda: lm().ngram_table(3), ValueError, "order must be <= 2"),
    bad("ngram.NGramLM.generate-order-0", lambda: lm().generate(3, order=0), ValueError, "order must be >= 1"),
    bad(
        "ngram.NGramLM.generate-context-str",
        lambda: lm().generate(3, context="the cat"),
        TypeError,
        "context must be a sequence of tokens",
    ),
    bad("ngram.NGramLM.prob-context-none", lambda: lm().prob("cat", None), TypeError, "context must be a sequence"),
    bad(
        "ngram.NGramLM.ngram_count-str",
        lambda: lm().ngram_count("the"),
        TypeError,
        "ngram must be a sequence of tokens",
    ),
    bad(
        "ngram.NGramLM.continuation_count-list",
        lambda: lm().continuation_count(["cat"]),
        TypeError,
        "word must be a str",
    ),
    bad(
        "ngram.NGramLM.fit_lambdas-tol-nan",
        lambda: lm("interpolated").fit_lambdas([["the", "cat"]], tol=NAN),
        ValueError,
        "tol must be a finite",
    ),
    bad(
        "ngram.StupidBackoff.score-int",
        lambda: NG.StupidBackoff(2).fit([list(s) for s in SENTS]).score(1),
        TypeError,
        "word must be a str",
    ),
    bad(
        "ngram.NGramLM.perplexity-sentence-str",
        lambda: lm().perplexity(["the cat"]),
        TypeError,
        r"sentences\[0\] is a str",
    ),
    # --- tfidf
    bad(
        "tfidf.tokenize_corpus-tokenizer-returns-none",
        lambda: BW.tokenize_corpus(["a"], tokenizer=lambda s: None),
        TypeError,
        "the tokenizer must return a list",
    ),
    bad(
        "tfidf.tokenize_corpus-empty-document",
        lambda: BW.tokenize_corpus(["a b", "..."]),
        ValueError,
        r"docs\[1\] has no tokens",
    ),
    bad(
        "tfidf.build_vocabulary-strings",
        lambda: BW.build_vocabulary(["the cat", "a dog"]),
        TypeError,
        r"token_lists\[0\] must be a list of tokens",
    ),
    bad("tfidf.bag_of_words-vocab_size-1", lambda: BW.bag_of_words(["a b"], 1), ValueError, "vocab_size must be >= 2"),
    bad(
        "tfidf.term_frequency-negative",
        lambda: WT.term_frequency(sp.csr_array(np.array([[-1.0, 2.0]])), tf="sublinear"),
        ValueError,
        "counts must contain finite, non-negative",
    ),
    bad(
        "tfidf.term_frequency-nan",
        lambda: WT.term_frequency(np.array([[NAN, 2.0]])),
        ValueError,
        "counts must contain finite",
    ),
    bad(
        "tfidf.term_frequency-1d",
        lambda: WT.term_frequency(np.array([1.0, 2.0])),
        ValueError,
        "counts must have 2 dimensions",
    ),
    bad("tfidf.term_frequency-str", lambda: WT.term_frequency("abc"), TypeError, "counts must be array-like"),
    bad(
        "tfidf.term_frequency-lengths-nan",
        lambda: WT.term_frequency(np.array([[1.0, 2.0]]), [NAN], tf="relative"),
        ValueError,
        "lengths must contain only finite",
    ),
    bad(
        "tfidf.inverse_document_frequency-nan",
        lambda: WT.inverse_document_frequency([NAN, 1], 2),
        ValueError,
        "document_frequency must contain only finite",
    ),
    bad(
        "tfidf.inverse_document_frequency-2d",
        lambda: WT.inverse_document_frequency([[1, 1]], 2, "smooth"),
        ValueError,
        "document_frequency must have 1 dimensions",
    ),
    bad(
        "tfidf.inverse_document_frequency-zero-df",
        lambda: WT.inverse_document_frequency([0, 1], 2, "ln"),
        ValueError,
        "df = 0",
    ),
    bad("tfidf.term_document_matrix-empty", lambda: WT.term_document_matrix([]), ValueError, "docs must not be empty"),
    bad(
        "tfidf.cooccurrence_matrix-no-words", lambda: CO.cooccurrence_matrix([[]]), ValueError, "tokens contain no term"
    ),
    bad(
        "tfidf.cooccurrence_matrix-min_count-too-high",
        lambda: CO.cooccurrence_matrix(["a", "b"], min_count=5),
        ValueError,
        "min_count=5",
    ),
    bad(
        "tfidf.most_similar-unknown-word",
        lambda: CO.most_similar("zebra", np.eye(3), ["a", "b", "c"]),
        ValueError,
        "word 'zebra' is not in the vocabulary",
    ),
    bad(
        "tfidf.TfIdf.search-top_k-above-documents",
        lambda: tfidf().search("cat", top_k=4),
        ValueError,
        "top_k must be <= 3",
    ),
    bad(
        "tfidf.TfIdf.search-unknown-words",
        lambda: tfidf().search("zebra", top_k=1),
        ValueError,
        "query 'zebra' has no term",
    ),
    bad(
        "tfidf.lee_tfidf_correlation-bad-setting",
        lambda: WT.lee_tfidf_correlation(["a"], norm="l3"),
        ValueError,
        "norm must be one of",
    ),
    bad(
        "tfidf.lee_tfidf_correlation-empty-background",
        lambda: WT.lee_tfidf_correlation([]),
        ValueError,
        "docs must not be empty",
    ),
    # --- topics
    bad(
        "topics.class_term_counts-str-class",
        lambda: TO.class_term_counts(["a b", "c"]),
        TypeError,
        r"docs_by_class\[0\]",
    ),
    bad(
        "topics.class_term_counts-empty",
        lambda: TO.class_term_counts([]),
        ValueError,
        "docs_by_class must not be empty",
    ),
    bad(
        "topics.c_tf_idf_from_counts-nan",
        lambda: TO.c_tf_idf_from_counts([[NAN, 1.0]]),
        ValueError,
        "counts must contain only finite",
    ),
    bad(
        "topics.top_terms-k-above-vocabulary",
        lambda: TO.top_terms(np.ones((2, 3)), ["a", "b", "c"], 4),
        ValueError,
        "k must be <= 3",
    ),
    bad(
        "topics.cluster_documents-more-clusters-than-documents",
        lambda: TO.cluster_documents(np.ones((3, 4)), 4),
        ValueError,
        "n_clusters must be <= 3",
    ),
    # --- word2vec
    bad(
        "word2vec.Vocabulary-negative-count",
        lambda: W2C.Vocabulary(["a"], [-1]),
        ValueError,
        "counts must be non-negative",
    ),
    bad(
        "word2vec.Vocabulary-duplicate-words",
        lambda: W2C.Vocabulary(["a", "a"], [1, 1]),
        ValueError,
        "words must not contain duplicates",
    ),
    bad(
        "word2vec.build_vocab-sentence-str",
        lambda: W2C.build_vocab(["the cat"]),
        TypeError,
        r"sentences\[0\] must be a list of tokens",
    ),
    bad("word2vec.build_vocab-min_count-0", lambda: W2C.build_vocab([["a"]], 0), ValueError, "min_count must be >= 1"),
    bad(
        "word2vec.keep_probabilities-all-zero",
        lambda: W2C.keep_probabilities([0, 0]),
        ValueError,
        "counts must be a non-empty 1-D array",
    ),
    bad(
        "word2vec.keep_probabilities-negative",
        lambda: W2C.keep_probabilities([-1, 5]),
        ValueError,
        "non-negative word counts",
    ),
    bad(
        "word2vec.keep_probabilities-nan",
        lambda: W2C.keep_probabilities([NAN, 1]),
        ValueError,
        "counts must contain only finite",
    ),
    bad(
        "word2vec.noise_distribution-inf",
        lambda: W2C.noise_distribution([INF, 1]),
        ValueError,
        "counts must contain only finite",
    ),
    bad(
        "word2vec.noise_distribution-zero-count", lambda: W2C.noise_distribution([0, 1]), ValueError, "positive counts"
    ),
    bad("word2vec.noise_table-size-0", lambda: W2C.noise_table([1, 2], size=0), ValueError, "size must be >= 1"),
    bad(
        "word2vec.encode_corpus-empty",
        lambda: W2C.encode_corpus([], W2C.Vocabulary(["a"], [1])),
        ValueError,
        "sentences must not be empty",
    ),
    bad(
        "word2vec.encode_corpus-vocab-dict",
        lambda: W2C.encode_corpus([["a"]], {"a": 0}),
        TypeError,
        "vocab must be Vocabulary",
    ),
    bad(
        "word2vec.encode_corpus-sentence-str",
        lambda: W2C.encode_corpus(["ab"], W2C.Vocabulary(["a"], [1])),
        TypeError,
        r"sentences\[0\]",
    ),
    bad(
        "word2vec.skipgram_pairs-length-mismatch",
        lambda: W2C.skipgram_pairs(np.array([0, 1, 2]), np.array([0, 0]), 2, rng()),
        ValueError,
        "ids and sent_ids must have the same length",
    ),
    bad(
        "word2vec.skipgram_pairs-no-rng",
        lambda: W2C.skipgram_pairs(np.array([0, 1]), np.array([0, 0]), 2, None),
        TypeError,
        "rng must be Generator",
    ),
    bad(
        "word2vec.cbow_examples-2d-ids",
        lambda: W2C.cbow_examples(np.zeros((2, 2), int), np.zeros(2, int), 2, rng()),
        ValueError,
        "ids must have 1 dimensions",
    ),
    bad(
        "word2vec.sgns_loss-numpy",
        lambda: W2.sgns_loss(np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 1, 3))),
        TypeError,
        "v must be Tensor",
    ),
    bad(
        "word2vec.sgns_gradients-mask-shape",
        lambda: W2.sgns_gradients(
            torch.zeros(2, 3), torch.zeros(2, 3), torch.zeros(2, 1, 3), neg_mask=torch.zeros(3, 3)
        ),
        ValueError,
        "neg_mask must have shape",
    ),
    bad(
        "word2vec.sgns_shared_loss-empty-noise",
        lambda: W2.sgns_shared_loss(torch.zeros(2, 3), torch.zeros(2, 3), torch.zeros(0, 3), 5),
        ValueError,
        "u_noise must have shape",
    ),
    bad(
        "word2vec.sgns_shared_loss-k-0",
        lambda: W2.sgns_shared_loss(torch.zeros(2, 3), torch.zeros(2, 3), torch.zeros(4, 3), 0),
        ValueError,
        "k must be >= 1",
    ),
    bad(
        "word2vec.sgns_shared_gradients-mask-shape",
        lambda: W2.sgns_shared_gradients(torch.zeros(2, 3), torch.zeros(2, 3), torch.zeros(4, 3), 5, torch.zeros(2, 3)),
        ValueError,
        "noise_mask must have shape",
    ),
    bad(
        "word2vec.Word2Vec.fit-no-context-pairs",
        lambda: W2.Word2Vec(min_count=1, epochs=1, dim=4).fit([["a"], ["b"]], progress=False),
        ValueError,
        "no \\(word, context\\) pair",
    ),
    # --- word2vec_eval
    bad(
        "word2vec_eval.WordVectors-nan",
        lambda: WE.WordVectors(["a"], [[NAN]]),
        ValueError,
        "vectors must contain only finite",
    ),
    bad(
        "word2vec_eval.WordVectors.vector-unknown",
        lambda: word_vectors().vector("zebra"),
        KeyError,
        "word 'zebra' is not in the vocabulary",
    ),
    bad(
        "word2vec_eval.WordVectors.analogy-unknown",
        lambda: word_vectors().analogy("a", "b", "zebra"),
        KeyError,
        "c 'zebra'",
    ),
    bad(
        "word2vec_eval.WordVectors.nearest-k-0",
        lambda: word_vectors().nearest([1, 0, 0], 0),
        ValueError,
        "topn must be >= 1",
    ),
    bad(
        "word2vec_eval.WordVectors.evaluate_similarity-constant-scores",
        lambda: word_vectors().evaluate_similarity([("a", "b", 1.0), ("a", "c", 1.0), ("b", "c", 1.0)]),
        ValueError,
        "correlation needs varying values",
    ),
    bad(
        "word2vec_eval.WordVectors.evaluate_similarity-nan-score",
        lambda: word_vectors().evaluate_similarity([("a", "b", NAN), ("a", "c", 1.0), ("b", "c", 2.0)]),
        ValueError,
        "pairs score must contain only finite",
    ),
    bad(
        "word2vec_eval.WordVectors.evaluate_similarity-pairs-of-two",
        lambda: word_vectors().evaluate_similarity([("a", "b")]),
        ValueError,
        "pairs must be \\(word1, word2, score\\)",
    ),
    bad(
        "word2vec_eval.read_analogies-missing",
        lambda: WE.read_analogies("/nonexistent/questions.txt"),
        FileNotFoundError,
        "not a file of analogy questions",
    ),
    # --- word2vec_softmax
    bad("word2vec_softmax.one_hot-float-ids", lambda: WS.one_hot([1.5], 3), TypeError, "ids must be integer word ids"),
    bad("word2vec_softmax.softmax-empty", lambda: WS.softmax([]), ValueError, "scores must have at least one entry"),
    bad(
        "word2vec_softmax.softmax-minus-inf",
        lambda: WS.softmax([1.0, -INF]),
        ValueError,
        "scores must contain only finite",
    ),
    bad(
        "word2vec_softmax.context_windows-negative-id",
        lambda: WS.context_windows([-3, 1], 1),
        ValueError,
        "ids must be non-negative",
    ),
    bad(
        "word2vec_softmax.context_windows-2d",
        lambda: WS.context_windows([[1, 2]], 1),
        ValueError,
        "ids must have 1 dimensions",
    ),
    bad(
        "word2vec_softmax.cbow_forward-bad-id",
        lambda: WS.cbow_forward([5], np.eye(3), np.eye(3)),
        ValueError,
        "ids must lie in",
    ),
    bad(
        "word2vec_softmax.skipgram_forward-bad-id",
        lambda: WS.skipgram_forward(-1, np.eye(3), np.eye(3)),
        ValueError,
        "centre_id must be >= 0",
    ),
    bad(
        "word2vec_softmax.SoftmaxWord2Vec-float-input",
        lambda: WS.SoftmaxWord2Vec(3, 2)(torch.zeros(2, 2)),
        TypeError,
        "given must hold integer word ids",
    ),
    bad(
        "word2vec_softmax.train_softmax_word2vec-negative-id",
        lambda: WS.train_softmax_word2vec([[0, -5, 1]], 3, epochs=1, progress=False),
        ValueError,
        r"sentences\[0\] must hold word ids",
    ),
    bad(
        "word2vec_softmax.train_softmax_word2vec-id-above-vocab",
        lambda: WS.train_softmax_word2vec([[0, 7]], 3, epochs=1, progress=False),
        ValueError,
        r"sentences\[0\]",
    ),
    bad(
        "word2vec_softmax.train_softmax_word2vec-single-words",
        lambda: WS.train_softmax_word2vec([[0], [1]], 3, cbow=False, epochs=1, progress=False),
        ValueError,
        "no training example",
    ),
    bad(
        "word2vec_softmax.train_softmax_word2vec-single-words-cbow",
        lambda: WS.train_softmax_word2vec([[0], []], 3, epochs=1, progress=False),
        ValueError,
        "no training example",
    ),
    # --- fasttext
    bad(
        "fasttext.subword_vector-no-ngrams",
        lambda: FT.subword_vector("a", np.ones((10, 3)), minn=5, maxn=6),
        ValueError,
        "word 'a' has no character n-grams",
    ),
    bad(
        "fasttext.subword_vector-empty-table",
        lambda: FT.subword_vector("abc", np.ones((0, 3))),
        ValueError,
        "buckets must be >= 1",
    ),
    bad("fasttext.ngram_buckets-empty-word", lambda: FT.ngram_buckets(""), ValueError, "word must be a non-empty"),
    bad("fasttext.fnv1a_32-str", lambda: FT.fnv1a_32("abc"), TypeError, "data must be bytes"),
    # --- tinygpt
    bad(
        "tinygpt.CharTokenizer.decode-negative",
        lambda: TG.CharTokenizer(list("abc")).decode([-1]),
        ValueError,
        r"ids must be in \[0, 3\)",
    ),
    bad(
        "tinygpt.CharTokenizer.decode-float",
        lambda: TG.CharTokenizer(list("abc")).decode([1.7]),
        TypeError,
        "ids must be integer token ids",
    ),
    bad(
        "tinygpt.CharTokenizer.decode-str",
        lambda: TG.CharTokenizer(list("abc")).decode("01"),
        TypeError,
        "ids must be a sequence of int",
    ),
    bad(
        "tinygpt.CharTokenizer.encode-unknown-character",
        lambda: TG.CharTokenizer(list("abc")).encode("abz"),
        ValueError,
        "outside the tokenizer's alphabet",
    ),
    bad(
        "tinygpt.CharTokenizer.encode-lone-surrogate",
        lambda: TG.CharTokenizer(list("abc")).encode("a\ud800"),
        ValueError,
        "text contains",
    ),
    bad(
        "tinygpt.TinyGPT-float-ids",
        lambda: gpt()(torch.zeros(1, 2)),
        TypeError,
        "ids must be a torch tensor of integer token ids",
    ),
    bad(
        "tinygpt.TinyGPT-unknown-id",
        lambda: gpt()(torch.tensor([[7, 0]])),
        ValueError,
        r"ids must be token ids in \[0, 5\)",
    ),
    bad(
        "tinygpt.TinyGPT-targets-shape",
        lambda: gpt()(torch.zeros(1, 2, dtype=torch.long), torch.zeros(1, 3, dtype=torch.long)),
        ValueError,
        "targets must have the shape of ids",
    ),
    bad(
        "tinygpt.TinyGPT-targets-unknown-id",
        lambda: gpt()(torch.zeros(1, 2, dtype=torch.long), torch.tensor([[9, 0]])),
        ValueError,
        "targets must be token ids",
    ),
    bad("tinygpt.CausalSelfAttention-heads", lambda: TG.CausalSelfAttention(8, 3), ValueError, "divisible by n_heads"),
    bad(
        "tinygpt.CausalSelfAttention-2d-input",
        lambda: TG.CausalSelfAttention(8, 2)(torch.zeros(2, 8)),
        ValueError,
        "x must have shape",
    ),
    bad("tinygpt.Block-heads", lambda: TG.Block(8, 3), ValueError, "divisible by n_heads"),
    bad(
        "tinygpt.estimate_loss-no-batches",
        lambda: TG.estimate_loss(gpt(), torch.arange(20) % 5, 2, 0),
        ValueError,
        "n_batches must be >= 1",
    ),
    bad(
        "tinygpt.train-model-none",
        lambda: TG.train(None, torch.arange(20) % 5, torch.arange(20) % 5, 1, progress=False),
        TypeError,
        "model must be TinyGPT",
    ),
    bad(
        "tinygpt.get_batch-numpy",
        lambda: TG.get_batch(np.arange(10), 2, 2),
        TypeError,
        "data must be a 1-D torch tensor",
    ),
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
    # --- bert_classifier
    bad(
        "bert_classifier.SentenceClassifier-numpy",
        lambda: classifier()(np.zeros((2, 3, 4)), np.ones((2, 3))),
        TypeError,
        "hidden must be Tensor",
    ),
    bad(
        "bert_classifier.SentenceClassifier-width",
        lambda: classifier()(torch.zeros(2, 3, 5), torch.ones(2, 3)),
        ValueError,
        "hidden must have d_model = 4",
    ),
    bad(
        "bert_classifier.train_classifier-no-sentences",
        lambda: BC.train_classifier(
            classifier(), torch.zeros(0, 3, 4), torch.zeros(0, 3), np.array([], int), progress=False
        ),
        ValueError,
        "labels must not be empty",
    ),
    bad(
        "bert_classifier.train_classifier-float-labels",
        lambda: BC.train_classifier(
            classifier(), torch.zeros(2, 3, 4), torch.ones(2, 3), np.array([0.5, 1.2]), progress=False
        ),
        TypeError,
        "labels must be integer class indices",
    ),
    bad(
        "bert_classifier.predict-mask-shape",
        lambda: BC.predict(classifier(), torch.zeros(2, 3, 4), torch.ones(2, 4)),
        ValueError,
        "attention_mask",
    ),
    bad(
        "bert_classifier.run_bert_layer-none",
        lambda: BC.run_bert_layer(None, torch.zeros(1, 2, 4), torch.ones(1, 2)),
        TypeError,
        "layer must be Module",
    ),
    bad(
        "bert_classifier.encoder_features-empty", lambda: BC.encoder_features([]), ValueError, "texts must not be empty"
    ),
    # --- llm (the argument checks run before the model is touched)
    bad(
        "llm.next_token_logits-empty-prompt",
        lambda: L.next_token_logits(None, None, ""),
        ValueError,
        "prompt must be a non-empty",
    ),
    bad("llm.top_next_tokens-k-0", lambda: L.top_next_tokens(None, None, "hi", 0), ValueError, "k must be >= 1"),
    bad("llm.logit_lens-k-0", lambda: L.logit_lens(None, None, "hi", k=0), ValueError, "k must be >= 1"),
    bad(
        "llm.sequence_log_probs-empty-text",
        lambda: L.sequence_log_probs(None, None, ""),
        ValueError,
        "text must be a non-empty",
    ),
    # --- data
    bad("data.gensim_data_path-none", lambda: D.gensim_data_path(None), TypeError, "filename must be a non-empty str"),
    bad("data.shakespeare_text-int", lambda: D.shakespeare_text(3), TypeError, "plays must be a play name"),
    bad("data.splits.shakespeare_sentences-int", lambda: SP.shakespeare_sentences(3), TypeError, "works must be"),
    bad("data.splits.char_lm_split-int", lambda: SP.char_lm_split(plays=3), TypeError, "plays must be"),
    bad("data.splits.word_lm_works-negative-seed", lambda: SP.word_lm_works(-1), ValueError, "seed must be >= 0"),
    bad(
        "data.splits.word_vocabulary-strings",
        lambda: SP.word_vocabulary(["the cat", "a dog"], 1),
        TypeError,
        r"sentences\[0\] must be a list of tokens",
    ),
    bad("data.splits.normalise_text-none", lambda: SP.normalise_text(None), TypeError, "text must be a str"),
    # --- plotting
    bad("plotting.heatmap-1d", lambda: PL.heatmap(np.ones(3)), ValueError, "matrix must have 2 dimensions"),
    bad(
        "plotting.heatmap-row-labels", lambda: PL.heatmap(np.ones((2, 2)), ["a"]), ValueError, "row_labels has 1 labels"
    ),
    bad(
        "plotting.heatmap-col-labels",
        lambda: PL.heatmap(np.ones((2, 2)), None, ["a", "b", "c"]),
        ValueError,
        "col_labels has 3 labels",
    ),
    bad("plotting.heatmap-strings", lambda: PL.heatmap([["a"]]), TypeError, "matrix must be array-like"),
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


def _is_zero(x: Any) -> bool:
    return bool(np.all(np.asarray(x) == 0))


EDGE = [
    # --- sampling: huge logits, temperature 0, k >= V (documented in the module docstring)
    edge(
        "sampling.filtered_probs-huge-logits",
        lambda: S.filtered_probs([1.7e308, 0.0], 0.5),
        lambda p: np.array_equal(p, [1.0, 0.0]),
    ),
    edge(
        "sampling.filtered_probs-huge-negative-logit",
        lambda: S.filtered_probs([-1.5e308], 0.5),
        lambda p: np.array_equal(p, [1.0]),
    ),
    edge(
        "sampling.softmax-plus-minus-1e30",
        lambda: S.softmax([1e30, -1e30, 0.0]),
        lambda p: np.array_equal(p, [1.0, 0.0, 0.0]),
    ),
    edge(
        "sampling.sample-huge-logits-is-a-valid-id",
        lambda: S.sample([1.7e308, 0.0], 0.5, generator=0),
        lambda t: t == 0,
    ),
    edge(
        "sampling.apply_temperature-overflow-is-shifted",
        lambda: S.apply_temperature([1.7e308, 0.0], 0.5),
        lambda x: x[0] == 0 and x[1] == -INF,
    ),
    edge(
        "sampling.softmax-temperature-0-ties-share",
        lambda: S.softmax([1.0, 3.0, 3.0], 0.0),
        lambda p: np.array_equal(p, [0.0, 0.5, 0.5]),
    ),
    edge(
        "sampling.top_k_filter-k-above-vocabulary",
        lambda: S.top_k_filter([1.0, 2.0], 10),
        lambda x: np.array_equal(x, [1.0, 2.0]),
    ),
    edge("sampling.min_p_filter-0-keeps-all", lambda: S.min_p_filter([1.0, -5.0], 0.0), lambda x: np.isfinite(x).all()),
    edge("sampling.greedy-ties-lowest-id", lambda: S.greedy([[0.0, 2.0, 2.0]]), lambda i: list(i) == [1]),
    edge(
        "sampling.apply_repetition_penalty-no-history",
        lambda: S.apply_repetition_penalty([1.0, -1.0], [], 2.0),
        lambda x: np.array_equal(x, [1.0, -1.0]),
    ),
    edge(
        "sampling_generate.distinct_n-short-sequences-ignored",
        lambda: SG.distinct_n([[1], [1, 2]], 2),
        lambda v: v == 1.0,
    ),
    edge(
        "sampling_generate.Generation-mean_log_prob",
        lambda: SG.Generation("p", {}, np.zeros((1, 2), int), np.log([[0.5, 0.25]])).mean_log_prob,
        lambda v: v == pytest.approx(np.log(0.5 * 0.25) / 2),
    ),
    # --- attention: fully masked rows and empty axes give zeros, never NaN
    edge("attention.softmax-empty-axis", lambda: A.softmax(np.zeros((2, 0))), lambda w: w.shape == (2, 0)),
    edge("attention.softmax-all-minus-inf", lambda: A.softmax([[-INF, -INF]]), _is_zero),
    edge(
        "attention.scaled_dot_product_attention-no-keys",
        lambda: A.scaled_dot_product_attention(np.ones((2, 3)), np.zeros((0, 3)), np.zeros((0, 4))),
        lambda r: r[0].shape == (2, 4) and _is_zero(r[0]) and r[1].shape == (2, 0),
    ),
    edge(
        "attention.multi_head_attention-padded-query-rows",
        lambda: padded_self_attention(),
        lambda r: _is_zero(r[0][0, 2]) and _is_zero(r[1][0, :, 2]) and np.allclose(r[1][0, :, :2].sum(-1), 1),
    ),
    edge(
        "attention.split_heads-merge_heads-round-trip",
        lambda: A.merge_heads(A.split_heads(np.arange(24.0).reshape(1, 3, 8), 4)),
        lambda x: np.array_equal(x, np.arange(24.0).reshape(1, 3, 8)),
    ),
    edge(
        "transformer.encoder_layer-fully-masked",
        lambda: TR.encoder_layer(
            np.random.default_rng(0).normal(size=(2, 4)), enc_params(), 2, mask=np.zeros((2, 2), bool)
        )[0],
        lambda y: np.isfinite(y).all(),
    ),
    edge(
        "transformer.layer_norm-huge-values",
        lambda: TR.layer_norm(np.array([[1e300, -1e300, 0.0]])),
        lambda y: np.allclose(y, [[np.sqrt(1.5), -np.sqrt(1.5), 0.0]]),
    ),
    edge(
        "transformer.DecoderLayerParams-runs",
        lambda: TR.decoder_layer(np.eye(2, 4), np.eye(3, 4), dec_params(), 2)[2],
        lambda w: w.shape == (2, 2, 3) and np.allclose(w.sum(-1), 1),
    ),
    # --- tokenizers: unknown characters, Unicode, empty text
    edge(
        "bpe.BPE.encode-unknown-characters-fall-back-to-bytes",
        lambda: bpe().encode("日"),
        lambda t: t == ["<0xE6>", "<0x97>", "<0xA5>"],
    ),
    edge("bpe.BPE.encode-empty", lambda: bpe().encode(""), lambda t: t == []),
    edge("bpe.merge_pair-str-symbols", lambda: BP.merge_pair("abab", ("a", "b"), "ab"), lambda t: t == ["ab", "ab"]),
    edge("bpe.train_merges_naive-empty", lambda: BP.train_merges_naive({}, 5), lambda m: m == []),
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
    edge(
        "tokenization.word_tokenize-unicode",
        lambda: TK.word_tokenize("Café 中文 🙂!"),
        lambda t: t == ["Café", "中文", "🙂", "!"],
    ),
    edge("tokenization.word_spans-empty", lambda: TK.word_spans(""), lambda s: s == []),
    edge(
        "tokenization.heaps_law_fit-constant-vocabulary",
        lambda: TK.heaps_law_fit(["a", "b"] * 300),
        lambda f: isinstance(f, TK.HeapsFit) and f.b == pytest.approx(0, abs=1e-12) and f.r2 == 1.0,
    ),
    edge("segmentation.max_match-empty-vocabulary", lambda: SEG.max_match("中文", set()), lambda t: t == ["中", "文"]),
    edge(
        "segmentation.SegmentationScores-no-match",
        lambda: SEG.segmentation_scores(["ab"], ["a", "b"]),
        lambda r: isinstance(r, SEG.SegmentationScores) and r.f1 == 0.0,
    ),
    edge(
        "edit_distance.edit_distance-both-empty",
        lambda: ED.edit_distance("", ""),
        lambda r: isinstance(r, ED.EditDistance) and r.distance == 0 and r.alignment == (),
    ),
    edge(
        "edit_distance.AlignmentStep-insert-has-gap",
        lambda: ED.edit_distance("", "a").alignment[0],
        lambda s: s == ED.AlignmentStep("insert", None, "a", 1),
    ),
    edge("tinygpt.CharTokenizer.decode-empty", lambda: TG.CharTokenizer(list("ab")).decode([]), lambda t: t == ""),
    # --- n-grams: unknown words, empty sentences, zero counts
    edge(
        "ngram.NGramLM.prob-unknown-word-is-unk",
        lambda: lm().prob("zebra", ["the"]),
        lambda p: p == lm().prob("<UNK>", ["the"]) > 0,
    ),
    edge(
        "ngram.NGramLM.perplexity-empty-sentence",
        lambda: lm().perplexity([[]]),
        lambda pp: pp >= 1 and math.isfinite(pp),
    ),
    edge(
        "ngram.NGramLM.perplexity-mle-unseen-is-inf",
        lambda: lm("mle").perplexity([["cat", "the"]]),
        lambda pp: pp == INF,
    ),
    edge("ngram.NGramLM.distribution-mle-unseen-context", lambda: lm("mle").distribution(["zebra"]), _is_zero),
    edge("ngram_counts.NGramCounts.ngram_count-unseen", lambda: lm().ngram_count(["cat", "the"]), lambda c: c == 0),
    # --- vectors and counts
    edge(
        "tfidf.cosine_similarity-huge",
        lambda: SIM.cosine_similarity([1e200, 1e200], [1e200, 0.0]),
        lambda c: c == pytest.approx(np.sqrt(0.5)),
    ),
    edge(
        "tfidf.cosine_similarity-tiny",
        lambda: SIM.cosine_similarity([1e-200, 1e-200], [1e-200, 0.0]),
        lambda c: c == pytest.approx(np.sqrt(0.5)),
    ),
    edge(
        "tfidf.pmi-huge-counts",
        lambda: CO.pmi(np.array([[1e308, 1e308], [1e308, 1.0]])),
        lambda x: np.isfinite(x).all() and np.allclose(x, CO.pmi(np.array([[1.0, 1.0], [1.0, 1e-308]]))),
    ),
    edge(
        "tfidf.truncated_svd-sparse-zeros",
        lambda: CO.truncated_svd(sp.csr_array(np.zeros((5, 5))), 2),
        lambda x: x.shape == (5, 2) and _is_zero(x),
    ),
    edge(
        "tfidf.term_frequency-stored-zero",
        lambda: WT.term_frequency(sp.csr_array(([0.0, 2.0], [0, 1], [0, 2]), shape=(1, 2)), tf="sublinear"),
        lambda x: np.allclose(x.toarray(), [[0.0, 1 + np.log(2)]]),
    ),
    edge(
        "tfidf.inverse_document_frequency-smooth-zero-df",
        lambda: WT.inverse_document_frequency([0, 2], 2, "smooth"),
        lambda x: np.allclose(x, [np.log(3) + 1, 1.0]),
    ),
    edge(
        "tfidf.TfIdf.transform-unknown-words-give-zero-vector",
        lambda: tfidf().transform(["zebra okapi"]),
        lambda x: x.nnz == 0,
    ),
    edge(
        "tfidf.bag_of_words-unknown-to-unk",
        lambda: BW.bag_of_words(["a a b c"], 2),
        lambda df: list(df.columns) == ["a", "<unk>"] and df.values.tolist() == [[2, 2]],
    ),
    edge(
        "tfidf.term_document_matrix-shape", lambda: WT.term_document_matrix(["a b", "b"]), lambda df: df.shape == (2, 2)
    ),
    edge(
        "topics.c_tf_idf_from_counts-huge",
        lambda: TO.c_tf_idf_from_counts([[1e308, 1e308], [1e308, 1.0]]),
        lambda x: np.isfinite(x).all(),
    ),
    edge(
        "word2vec.keep_probabilities-zero-count",
        lambda: W2C.keep_probabilities([0, 10]),
        lambda p: p[0] == 1.0 and 0 < p[1] <= 1,
    ),
    edge(
        "word2vec.noise_distribution-huge-power",
        lambda: W2C.noise_distribution([1e6, 1.0], 1000),
        lambda p: np.array_equal(p, [1.0, 0.0]),
    ),
    edge(
        "word2vec.skipgram_pairs-empty",
        lambda: W2C.skipgram_pairs(np.array([], int), np.array([], int), 2, rng()),
        lambda r: r[0].size == 0 and r[1].size == 0,
    ),
    edge(
        "word2vec_eval.WordVectors.nearest-topn-above-vocabulary",
        lambda: word_vectors().nearest([1.0, 0, 0], 10),
        lambda r: len(r) == 3 and r[0] == ("a", 1.0),
    ),
    edge(
        "word2vec_eval.WordVectors.similarity-zero-vector",
        lambda: WE.WordVectors(["a", "b"], [[0.0], [1.0]]).similarity("a", "b"),
        lambda s: s == 0.0,
    ),
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
        "bert_classifier.SentenceClassifier-all-padding",
        lambda: classifier()(torch.ones(1, 3, 4), torch.zeros(1, 3)),
        lambda y: torch.isfinite(y).all(),
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
    edge("widgets.load_css-follows-dark-mode", lambda: load_css(), lambda css: ".nlpw" in css and "dark" in css),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    with pytest.raises(case.error, match=case.match):
        case.call()
    plt.close("all")


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    result = case.call()
    assert case.check(result), f"unexpected result: {result!r}"


# ------------------------------------------------------------------------------ no-argument loaders, CLI, plotting
def test_data_loaders_return_cached_immutable_corpora() -> None:
    """The loaders take no argument, so there is no bad input; they must be cached and read-only."""
    for loader in (D.lee_background, D.lee_documents, D.shakespeare_plays, D.wikipedia_articles):
        first = loader()
        assert isinstance(first, tuple) and first and loader() is first
    title, text = D.wikipedia_articles()[0]
    assert isinstance(title, str) and len(text) > 500 and not text.lstrip().lower().startswith("#redirect")
    assert D.lee_similarities() is D.lee_similarities()
    assert len(D.pang_lee_polarity()) == 200 and list(D.wordsim353().columns) == list(D.simlex999().columns)
    assert D.analogy_questions_path().is_file()
    assert "wikipedia_tokens" in D.__all__ and len(D.wikipedia_tokens()) == len(D.wikipedia_articles())


def test_segmentation_dictionaries_are_cached_word_sets() -> None:
    words = SEG.dictionary_words("traditional")
    assert isinstance(words, frozenset) and "貿易" in words and SEG.dictionary_words("traditional") is words


@pytest.mark.skipif(
    not SM2.is_prepared(), reason="SmolLM2 is not converted yet (python -m nlp_helpers.data.smollm2 prepare)"
)
def test_llm_prepare_and_main_do_nothing_when_the_cache_is_complete(capsys) -> None:
    assert SM2.prepare_smollm2(verbose=True) == SM2.cache_dir()
    assert "already converted" in capsys.readouterr().out
    assert SM2.main(["prepare"]) == 0
    with pytest.raises(SystemExit):
        SM2.main(["convert-everything"])  # argparse rejects an unknown command (exit status 2)
    assert not SM2.is_prepared(ROOT / "no-such-folder")


def test_heatmap_draws_nan_and_inf_cells_as_text_and_use_book_style_sets_the_palette() -> None:
    PL.use_book_style()
    assert plt.rcParams["image.cmap"] == PL.SEQUENTIAL
    assert [c["color"] for c in plt.rcParams["axes.prop_cycle"]][:3] == PL.PALETTE[:3]
    ax = PL.heatmap(np.array([[NAN, 1.0], [INF, 0.0]]), ["r1", "r2"], ["c1", "c2"], title="t", diverging=True)
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["nan", "1.00", "inf", "0.00"] and ax.get_title() == "t"
    ax = PL.heatmap(np.full((2, 2), NAN))  # nothing finite: still draws, with default limits
    assert [t.get_text() for t in ax.texts] == ["nan"] * 4
    plt.close("all")


# ------------------------------------------------------------------------------ exercise checkers
def _checkers() -> list[tuple[str, Callable]]:
    """Every chapter's checkers: ``nlp_helpers.exercises.checker.<chapter>`` and ``nlp_helpers.<chapter>.exercises``."""
    out = []
    for info in pkgutil.walk_packages(nlp_helpers.__path__, "nlp_helpers."):
        parts = info.name.split(".")
        if not (parts[1:2] == ["exercises"] and len(parts) == 3 or parts[-1] == "exercises" and len(parts) == 3):
            continue
        mod = importlib.import_module(info.name)
        name = parts[2] if parts[1] == "exercises" else parts[1]
        out += [
            (f"{name}.{n}", f)
            for n, f in vars(mod).items()
            if n.startswith("check_") and inspect.isfunction(f) and f.__module__ == mod.__name__
        ]
    assert {"rnn", "classification", "tagging", "feedforward"} <= {n.split(".")[0] for n, _ in out}
    return out


UNUSABLE_ANSWERS = {
    "not-a-function": 42,
    "returns-None": lambda *a, **k: None,
    "returns-nan": lambda *a, **k: NAN,
    "returns-nan-matrix": lambda *a, **k: np.full((3, 3), NAN),
    "returns-str": lambda *a, **k: "x",
    "returns-empty-list": lambda *a, **k: [],
}


@pytest.mark.parametrize("answer", list(UNUSABLE_ANSWERS.values()), ids=list(UNUSABLE_ANSWERS))
@pytest.mark.parametrize("checker", [f for _, f in _checkers()], ids=[n for n, _ in _checkers()])
def test_every_checker_answers_wrong_for_an_unusable_answer_and_never_crashes(checker, answer, monkeypatch) -> None:
    monkeypatch.delenv(STRICT_ENV, raising=False)
    result = checker(answer)
    assert isinstance(result, CheckResult)
    assert result.status == "wrong" and not result and "❌" in str(result)


def test_checker_turns_an_unusable_return_value_into_feedback_but_still_fails_in_strict_mode(monkeypatch) -> None:
    def check(fn):
        with Checker("Sum a list") as ex:
            total = sum(ex.call(fn, [1, 2]))  # the checker iterates what the student returned
            ex.expect_close(total, 3, what="sum")
        return ex.result

    monkeypatch.delenv(STRICT_ENV, raising=False)
    res = check(lambda xs: None)
    assert res.status == "wrong" and "TypeError" in res.message and "return" in res.message
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="could not use what your function returned"):
        check(lambda xs: None)
    with pytest.raises(ZeroDivisionError):  # a bug in the checker before any answer is still raised
        with Checker("broken"):
            1 / 0  # noqa: B018


# ------------------------------------------------------------------------------ every public helper is tested
SKIPPED_MODULES = {
    # Still being written by the RNN chapter's engineer (their tests are tests/test_rnn*.py).
    "nlp_helpers.rnn.cells",
    "nlp_helpers.rnn.classify",
    "nlp_helpers.rnn.gradients",
    "nlp_helpers.rnn.charlm",
    "nlp_helpers.rnn.seq2seq",
    "nlp_helpers.rnn.exercises",
    # Build tooling (the notebook cleaner), tested by tests/test_notebooks.py, not part of the helper API.
    "nlp_helpers.notebooks",
}


def public_callables() -> dict[str, list[str]]:
    """``{module: [names]}`` of the functions and classes each nlp_helpers module defines and does not hide with ``_``."""
    found: dict[str, list[str]] = {}
    for info in pkgutil.walk_packages(nlp_helpers.__path__, "nlp_helpers."):
        if info.name in SKIPPED_MODULES:
            continue
        module = importlib.import_module(info.name)
        names = [
            name
            for name, obj in vars(module).items()
            if not name.startswith("_")
            and callable(obj)
            and not inspect.ismodule(obj)
            and getattr(obj, "__module__", None) == module.__name__
        ]
        if names:
            found[info.name] = names
    return found


def test_the_public_api_is_discovered() -> None:
    """Guard the discovery itself: it must see every kind of public callable, and no private or foreign one."""
    api = public_callables()
    assert "bpe" in {m.rsplit(".", 1)[-1] for m in api} and "BPE" in api["nlp_helpers.tokenization.bpe"]
    assert "wikipedia_articles" in api["nlp_helpers.data.corpora"]  # an lru_cache-wrapped loader
    assert "check_softmax_with_temperature" in api["nlp_helpers.sampling.exercises"]
    assert "AttentionExplorer" in api["nlp_helpers.widgets.attention"]
    assert "_check_logits" not in api["nlp_helpers.sampling.distributions"]  # private
    assert "check_float" not in api["nlp_helpers.sampling.distributions"]  # imported from _checks, defined elsewhere
    assert not SKIPPED_MODULES & set(api)


def test_every_public_helper_is_named_in_some_test_file() -> None:
    """A new public function or class without any test fails CI; the message lists what is missing."""
    corpus = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))
    missing = [
        f"{module}.{name}"
        for module, names in public_callables().items()
        for name in names
        if not re.search(rf"\b{re.escape(name)}\b", corpus)
    ]
    assert not missing, (
        "public helpers that no file under tests/ mentions (add a test, or prefix the name "
        "with _ if it is not meant to be public):\n  " + "\n  ".join(missing)
    )
