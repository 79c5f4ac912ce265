"""Every exercise checker of the book, run with the answers that break naive checkers.

The checkers are discovered (every ``check_*`` of ``nlp_helpers/<chapter>/exercises.py`` and
``*_exercises.py``), and so are the worked solutions they check (the notebooks' ``## Exercises`` sections):
a chapter's new checker is covered here as soon as it is merged, with no registration. Each checker must give
a verdict, never a traceback or a hang, for an answer that

* returns None (a forgotten ``return``): "wrong", and the message says so;
* never returns: "wrong" within the time limit, naming the call it was stuck in;
* raises: "wrong", reporting the exception;
* is interrupted (Ctrl-C / the kernel's stop button): a verdict ("not yet");
* is the worked solution but changes its arguments in place: "wrong", and the message says so;
* is the worked solution: "correct", within ``MAX_CALLS`` calls.
"""

from __future__ import annotations

import time

import pytest

from nlp_helpers.exercises.checker import MAX_CALLS, TIME_SCALE_ENV
from tests.exercise_helpers import Counting, Mutating, never_returns, raises, returns_none
from tests.exercises.discovery import all_checkers, solutions

CHECKERS = all_checkers()
KEYS = sorted(CHECKERS)
# A by-hand exercise is answered with a value (numbers worked out on paper, written into the notebook), not a
# function: the tests about calling a function do not apply to it, the tests of VALUE_KEYS below do.
FUNCTION_KEYS = [k for k in KEYS if callable(solutions().get(k))]
VALUE_KEYS = [k for k in KEYS if k in solutions() and not callable(solutions()[k])]
TIME_SCALE = 0.02  # every time limit x 0.02 here: 5 s -> 0.1 s


def test_discovery_sees_every_chapter_and_a_solution_for_every_checker() -> None:
    chapters = {k.split(".")[0] for k in KEYS}
    assert {
        "words",
        "tokenization",
        "ngram",
        "classification",
        "tfidf",
        "rnn",
        "tagging",
        "attention",
        "llm",
        "sampling",
        "llm_training",
    } <= chapters
    assert "sampling.decoding_exercises.check_contrastive_search" in CHECKERS
    assert "llm_training.training_exercises.check_dpo_train" in CHECKERS
    assert "llm_training.evaluation_exercises.check_bradley_terry_mm" in CHECKERS
    missing = sorted(set(KEYS) - set(solutions()))
    assert not missing, f"checkers never called on a worked solution in a notebook's ## Exercises: {missing}"


@pytest.mark.parametrize("key", FUNCTION_KEYS)
def test_an_answer_that_returns_none_is_told_so(key) -> None:
    result = CHECKERS[key](returns_none)
    assert result.status == "wrong", result
    assert "returned None" in result.message and "return" in result.message, result.message


@pytest.mark.parametrize("key", FUNCTION_KEYS)
def test_an_answer_that_never_returns_gets_a_verdict_within_the_time_limit(key, monkeypatch) -> None:
    monkeypatch.setenv(TIME_SCALE_ENV, str(TIME_SCALE))
    start = time.process_time()
    result = CHECKERS[key](never_returns)
    used = time.process_time() - start  # CPU time: the limits measure the answer, not the machine's load
    assert result.status == "wrong", result
    assert "did not return within" in result.message and "never_returns(" in result.message, result.message
    assert used < 10, f"the verdict took {used:.1f} s of CPU time"


@pytest.mark.parametrize("key", FUNCTION_KEYS)
def test_an_answer_that_raises_is_reported_not_reraised(key) -> None:
    result = CHECKERS[key](raises)
    assert result.status == "wrong", result
    assert "StudentBug" in result.message and "out of range" in result.message, result.message


@pytest.mark.parametrize("key", FUNCTION_KEYS)
def test_an_interrupted_check_ends_with_a_verdict(key) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    result = CHECKERS[key](interrupted)
    assert result.status == "not yet" and "interrupted" in result.message, result


@pytest.mark.parametrize("key", FUNCTION_KEYS)
def test_the_worked_solution_passes_within_the_call_cap(key) -> None:
    answer = Counting(solutions()[key])
    result = CHECKERS[key](answer)
    assert result.status == "correct", result
    assert 1 <= answer.calls <= MAX_CALLS


# Checkers whose calls pass the student's function no mutable data at all (strings, numbers, or objects the
# answer is meant to use, such as a model): there is nothing an answer could change in place.
NOTHING_TO_CHANGE = {
    "classification.exercises.check_f_beta",
    "words.exercises.check_find_prices",
    "words.exercises.check_osa_distance",
    "tokenization.tokenizers_exercises.check_pretokenize_digits",  # a string in: nothing mutable
    "tagging.exercises.check_word_shape",
    "rnn.exercises.check_rnn_params",  # a cell name and two integers: nothing mutable
    "sampling.exercises.check_sampling_by_hand",  # no argument: the probabilities are worked by hand
    "tfidf.by_hand_exercises.check_weights_by_hand",  # weights_d2() takes no argument: worked by hand
    "tfidf.by_hand_exercises.check_retrieval_by_hand",  # by_hand_retrieval() takes no argument: worked by hand
    "tfidf.by_hand_exercises.check_ppmi_by_hand",  # by_hand_ppmi() takes no argument: worked by hand
    "attention.positions_exercises.check_shift_matrix",  # two ints in, nothing mutable
    "attention.self_attention_exercises.check_previous_token_head",  # two ints in, nothing mutable
    "finetuning.classification_exercises.check_warmup_cosine",  # three ints in, nothing mutable
    "feedforward.exercises.check_backprop_by_hand",  # no argument: the gradients are worked by hand
    "feedforward.lm_exercises.check_perplexity_by_hand",  # no argument: the perplexity is worked by hand
    "feedforward.classifier_exercises.check_pooling_by_hand",  # no argument: the pooled values are worked by hand
    "feedforward.lm_exercises.check_tied_window_lm",  # a model built from three integers: nothing mutable
    "sampling.decoding_exercises.check_best_draft_length",  # three numbers in, nothing mutable
    "bert.exercises.check_mlm_by_hand",  # mlm_by_hand() takes no argument: the numbers are worked by hand
    "llm.gpt_exercises.check_gpt_parameters",  # gpt_parameters() takes no argument: the count is worked by hand
    "word2vec.extensions_exercises.check_char_ngrams",  # a word and two integers: nothing mutable
}


@pytest.mark.parametrize("key", FUNCTION_KEYS)
def test_an_answer_that_changes_its_input_is_told_so(key) -> None:
    answer = Mutating(solutions()[key])
    result = CHECKERS[key](answer)
    if key in NOTHING_TO_CHANGE:
        assert answer.changed == 0 and result.status == "correct", result
        return
    assert answer.changed >= 1, f"{key} never passed the answer mutable data: add it to NOTHING_TO_CHANGE"
    assert result.status == "wrong", result
    assert "modified its input" in result.message, result.message


@pytest.mark.parametrize("key", VALUE_KEYS)
def test_a_by_hand_answer_is_checked_as_a_value(key) -> None:
    assert CHECKERS[key](solutions()[key]).status == "correct"
    for wrong in (None, returns_none, "an answer"):
        result = CHECKERS[key](wrong)
        assert result.status != "correct", (wrong, result)
        assert result.message.strip(), result
