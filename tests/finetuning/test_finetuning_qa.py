"""Extractive QA (nlp_helpers.finetuning.qa, nlp_helpers.finetuning.qa_data).

References: a brute-force double loop over all spans (the definition of best_span), on random logits,
and a hand-worked example where the best start and the best end taken separately form no valid span;
SQuAD EM/F1 on hand-worked cases with the official v1.1 script's normalisation; encode_qa against the
model run on each pair alone (rtol 1e-4) and the tokenizer's own char_to_token / sequence_ids.
"""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.finetuning.qa import answer_tokens, best_span, encode_qa
from nlp_helpers.finetuning.qa_data import QUESTION_TYPES, exact_match, normalize_answer, templated_questions, token_f1


def brute_force(s, e, max_len, ok):
    best, arg = -np.inf, None
    for i in range(len(s)):
        for j in range(i, min(len(s), i + max_len)):
            if ok[i] and ok[j] and s[i] + e[j] > best:
                best, arg = s[i] + e[j], (i, j)
    return arg


def test_hand_worked_end_before_start():
    # argmax(start) = 3 and argmax(end) = 0 would be a backwards span; the best valid one is (3, 3).
    assert best_span(np.array([0.0, 0.0, 0.0, 9.0]), np.array([9.0, 0.0, 1.0, 0.5])) == (3, 3)
    # [CLS] at 0 is not allowed: the answer must come from positions 1..4.
    allowed = np.array([False, True, True, True, True])
    start, end = np.array([5.0, 0.0, 3.0, 1.0, 0.0]), np.array([5.0, 0.0, 0.5, 2.0, 9.0])
    assert best_span(start, end, 5, allowed) == (2, 4)
    assert best_span(start, end, 2, allowed) == (3, 4)


@pytest.mark.parametrize("seed", range(20))
def test_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    T = int(rng.integers(1, 25))
    s, e = rng.normal(size=T), rng.normal(size=T)
    ok = rng.random(T) < 0.7
    ok[rng.integers(T)] = True
    max_len = int(rng.integers(1, 8))
    assert best_span(s, e, max_len, ok) == brute_force(s, e, max_len, ok)


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="end_logits"):
        best_span(np.zeros(3), np.zeros(4))
    with pytest.raises((TypeError, ValueError), match="start_logits"):
        best_span(np.zeros((2, 2)), np.zeros(4))
    with pytest.raises(ValueError, match="max_len"):
        best_span(np.zeros(3), np.zeros(3), 0)
    with pytest.raises(ValueError, match="allowed"):
        best_span(np.zeros(3), np.zeros(3), 2, np.array([1, 0, 1]))
    with pytest.raises(ValueError, match="allowed"):
        best_span(np.zeros(3), np.zeros(3), 2, np.zeros(3, bool))
    with pytest.raises(ValueError, match="start_logits"):
        best_span(np.array([np.nan, 0.0]), np.zeros(2))


# --------------------------------------------------------------------------- SQuAD metrics
# Hand-worked with the official SQuAD v1.1 script's rules: lower-case, drop punctuation, drop the
# articles a/an/the, collapse whitespace; F1 over the multiset of remaining tokens.
@pytest.mark.parametrize(
    "prediction, truth, em, f1",
    [
        ("The Eiffel Tower!", "eiffel tower", 1.0, 1.0),  # article, case and punctuation go
        ("Williams", "Mr Williams", 0.0, 2 / 3),  # P = 1/1, R = 1/2
        ("an apple a day", "apple day", 1.0, 1.0),
        ("the the the", "a", 1.0, 1.0),  # both normalise to nothing: equal
        ("New York City", "York", 0.0, 0.5),  # P = 1/3, R = 1 -> 2 * (1/3) / (4/3)
        ("1,000 supporters", "1000", 0.0, 2 / 3),  # "1,000" -> "1000": P = 1/2, R = 1
        ("cat cat dog", "cat dog dog", 0.0, 2 / 3),  # common = min counts = 1 + 1 = 2 of 3
        ("", "Seles", 0.0, 0.0),
        ("Seles", "", 0.0, 0.0),
    ],
)
def test_squad_metrics_hand_worked(prediction, truth, em, f1):
    assert exact_match(prediction, truth) == em
    assert token_f1(prediction, truth) == pytest.approx(f1, rel=1e-12)


def test_normalize_answer_hand_worked():
    assert normalize_answer("  The  U.S.-led   coalition, an  ally ") == "usled coalition ally"
    assert normalize_answer("A theory") == "theory"  # "the" inside a word stays


def test_squad_metrics_bad_inputs():
    for fn, arg in [(exact_match, "prediction"), (token_f1, "prediction")]:
        with pytest.raises(TypeError, match=arg):
            fn(None, "x")
    with pytest.raises(TypeError, match="truth"):
        token_f1("x", 3)
    with pytest.raises(TypeError, match="text"):
        normalize_answer(1.5)


# --------------------------------------------------------------------------- templated questions
def test_templated_questions_hand_worked():
    sentences = [
        "Mr Downer said 40 soldiers and 12 civilians were hurt in 1999.",
        "He said it was over.",  # a pronoun is not a speaker
        "The September 11 attacks changed everything.",  # a date, not a count
        "Police found 3 boats and 5 boats.",  # 'boats' after two numbers: ambiguous, no question
    ]
    got = [(e["kind"], e["question"], e["answer"], e["sentence"]) for e in templated_questions(sentences)]
    assert got == [
        ("who", "Who said this?", "Mr Downer", 0),
        ("how many", "How many soldiers?", "40", 0),
        ("how many", "How many civilians?", "12", 0),
        ("when", "In which year?", "1999", 0),
    ]
    for e in templated_questions(sentences):
        assert e["context"][e["answer_start"] : e["answer_start"] + len(e["answer"])] == e["answer"]


def test_templated_questions_on_the_lee_corpus():
    import re

    from nlp_helpers.data.corpora import lee_background

    sentences = [s for doc in lee_background() for s in re.split(r"(?<=[.!?])\s+", doc) if s]
    examples = templated_questions(sentences)
    assert {e["kind"] for e in examples} == set(QUESTION_TYPES)
    assert len(examples) > 400
    for e in examples:  # every answer is a verbatim span of its context
        assert e["context"] == sentences[e["sentence"]]
        assert e["context"][e["answer_start"] :].startswith(e["answer"])


def test_templated_questions_bad_inputs():
    with pytest.raises(ValueError, match="sentences"):
        templated_questions([])
    with pytest.raises(TypeError, match=r"sentences\[1\]"):
        templated_questions(["ok", 3])


# --------------------------------------------------------------------------- encoding and targets
def test_answer_tokens_hand_worked():
    # "[CLS] who ? [SEP] mr kemp said [SEP]": the context "Mr Kemp said" has offsets in its own text.
    offsets = np.array([[0, 0], [0, 3], [3, 4], [0, 0], [0, 2], [3, 7], [8, 12], [0, 0]])
    ctx = np.array([False, False, False, False, True, True, True, False])
    assert answer_tokens(offsets, ctx, 0, 7) == (4, 5)  # "Mr Kemp"
    assert answer_tokens(offsets, ctx, 4, 6) == (5, 5)  # part of a token maps to that token
    with pytest.raises(ValueError, match="no context token"):
        answer_tokens(offsets, ctx, 20, 22)
    with pytest.raises(ValueError, match="char_end"):
        answer_tokens(offsets, ctx, 3, 3)
    with pytest.raises(ValueError, match="context_mask"):
        answer_tokens(offsets, ctx[:-1], 0, 2)
    with pytest.raises(ValueError, match="offsets"):
        answer_tokens(offsets[:, :1], ctx, 0, 2)


def test_encode_qa_matches_the_model_and_the_tokenizer():
    import torch

    from nlp_helpers.bert.minilm import load_minilm

    tokenizer, model = load_minilm()
    questions = ["Who said this?", "How many boats?", "In which year did the war end?"]
    contexts = ["Mr Kemp said it was over.", "Police found 3 boats near the harbour on Sunday.", "In 1945."]
    qa = encode_qa(questions, contexts, max_length=32, batch_size=2)
    for k, (q, c) in enumerate(zip(questions, contexts)):
        enc = tokenizer(q, c, return_tensors="pt")
        n = enc["input_ids"].shape[1]
        assert qa["input_ids"][k, :n].tolist() == enc["input_ids"][0].tolist()
        with torch.no_grad():  # reference: the model on this pair alone, no padding
            ref = model(**enc).last_hidden_state[0]
        torch.testing.assert_close(qa["hidden"][k, :n], ref, rtol=1e-4, atol=1e-4)
        assert (qa["hidden"][k, n:] == 0).all()
        # the context tokens are those the tokenizer puts in sequence 1, without the final [SEP]
        want = [i for i in range(n - 1) if enc.sequence_ids(0)[i] == 1]
        assert torch.nonzero(qa["context_mask"][k]).flatten().tolist() == want
        a = c.index("1945") if "1945" in c else c.index("3 ") if "3 " in c else c.index("Kemp")
        i, _ = answer_tokens(qa["offsets"][k].numpy(), qa["context_mask"][k].numpy(), a, a + 1)
        assert i == enc.char_to_token(0, a, sequence_index=1)


def test_encode_qa_bad_inputs():
    with pytest.raises(ValueError, match="questions"):
        encode_qa([], ["x"])
    with pytest.raises(ValueError, match="contexts"):
        encode_qa(["a", "b"], ["x"])
    with pytest.raises(ValueError, match="max_length"):
        encode_qa(["a"], ["x"], max_length=2)
