"""The shared machinery: argument checks, exercise checkers, offline data loaders."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nlp_helpers import _checks as C
from nlp_helpers.data import corpora as data
from nlp_helpers.exercises.checker import STRICT_ENV, Checker


class TestChecks:
    def test_int_bounds_and_types(self):
        assert C.check_int("n", 3, minimum=1) == 3
        assert C.check_int("n", np.int64(2)) == 2
        with pytest.raises(ValueError, match=r"n must be >= 1, got 0"):
            C.check_int("n", 0, minimum=1)
        with pytest.raises(TypeError, match="n must be an integer"):
            C.check_int("n", 2.5)
        with pytest.raises(TypeError, match="n must be an integer"):
            C.check_int("n", True)

    def test_float_rejects_nan_inf_and_open_bounds(self):
        with pytest.raises(ValueError, match="top_p must be a finite number"):
            C.check_float("top_p", math.nan)
        with pytest.raises(ValueError, match=r"top_p must be > 0"):
            C.check_float("top_p", 0.0, minimum=0.0, min_inclusive=False)
        assert C.check_float("top_p", 1.0, minimum=0.0, maximum=1.0, min_inclusive=False) == 1.0

    def test_choice_text_nonempty(self):
        with pytest.raises(ValueError, match=r"norm must be one of \['l2', None\], got 'l3'"):
            C.check_choice("norm", "l3", ["l2", None])
        with pytest.raises(TypeError, match="text must be a str"):
            C.check_text("text", b"bytes")
        with pytest.raises(ValueError, match="corpus must not be empty"):
            C.check_nonempty("corpus", [])
        with pytest.raises(TypeError, match="corpus must be a sequence"):
            C.check_nonempty("corpus", "a string")
        assert C.check_nonempty("corpus", (x for x in "ab")) == ["a", "b"]

    def test_array_shape_and_finite(self):
        with pytest.raises(ValueError, match=r"Q must have shape \(any, 4\), got \(3, 5\)"):
            C.check_array("Q", np.zeros((3, 5)), shape=(None, 4))
        with pytest.raises(ValueError, match="X must have 2 dimensions"):
            C.check_array("X", np.zeros(3), ndim=2)
        with pytest.raises(ValueError, match="logits must contain only finite"):
            C.check_array("logits", [1.0, np.nan])
        with pytest.raises(TypeError, match="X must be array-like"):
            C.check_array("X", [["a", "b"]])


def _square(x):
    return x * x


class TestExerciseChecker:
    @staticmethod
    def check_square(fn):
        with Checker("Square a number") as ex:
            ex.expect_close(ex.call(fn, 3), 9, what="square(3)", hint="Multiply x by itself.")
            ex.expect_close(ex.call(fn, -2), 4, what="square(-2)")
        return ex.result

    def test_correct(self):
        res = self.check_square(_square)
        assert res.passed and res.status == "correct" and "✅" in str(res)

    def test_not_yet_for_stub(self, monkeypatch):
        monkeypatch.delenv(STRICT_ENV, raising=False)

        def stub(x):
            raise NotImplementedError

        res = self.check_square(stub)
        assert res.status == "not yet" and not res.passed

    def test_wrong_answer_gets_value_and_hint(self, monkeypatch):
        monkeypatch.delenv(STRICT_ENV, raising=False)
        res = self.check_square(lambda x: 2 * x)
        assert res.status == "wrong"
        assert "square(3) should be 9, got 6" in res.message and "Multiply" in res.message

    def test_student_exception_is_reported_not_raised(self, monkeypatch):
        monkeypatch.delenv(STRICT_ENV, raising=False)
        res = self.check_square(lambda x: x / 0)
        assert res.status == "wrong" and "ZeroDivisionError" in res.message

    def test_strict_mode_raises(self, monkeypatch):
        monkeypatch.setenv(STRICT_ENV, "1")
        with pytest.raises(AssertionError, match="Square a number"):
            self.check_square(lambda x: x)
        assert self.check_square(_square).passed

    def test_expect_raises(self, monkeypatch):
        monkeypatch.delenv(STRICT_ENV, raising=False)
        with Checker("raises") as ex:
            ex.expect_raises(ValueError, lambda: None, what="f()", hint="Check the input.")
        assert ex.result.status == "wrong" and "returned normally" in ex.result.message


class TestData:
    def test_lee_similarities_are_a_symmetric_judgement_matrix(self):
        sims = data.lee_similarities()
        assert sims.shape == (50, 50) == (len(data.lee_documents()), len(data.lee_documents()))
        np.testing.assert_array_equal(sims, sims.T)
        np.testing.assert_array_equal(np.diag(sims), np.ones(50))
        assert 0 <= sims.min() and sims.max() <= 1

    def test_word_pair_benchmarks(self):
        ws, sl = data.wordsim353(), data.simlex999()
        assert len(ws) == 353 and len(sl) == 999
        assert list(ws.columns) == ["word1", "word2", "score"]
        assert ws.score.between(0, 10).all() and sl.score.between(0, 10).all()
        assert data.analogy_questions_path().read_text().startswith(": capital-common-countries")

    def test_polarity_is_balanced(self):
        df = data.pang_lee_polarity()
        assert df.label.value_counts().to_dict() == {"neg": 100, "pos": 100}

    def test_shakespeare(self):
        plays = data.shakespeare_plays()
        assert "hamlet" in plays and len(plays) >= 30
        assert "To be, or not to be" in data.shakespeare_text("hamlet")
        with pytest.raises(ValueError, match="unknown play"):
            data.shakespeare_text("hamlett")

    def test_wikipedia_dump_size(self):
        tokens = data.wikipedia_tokens()
        assert 100 <= len(tokens) <= 110
        assert 400_000 < sum(map(len, tokens)) < 500_000

    def test_missing_file_is_a_clear_error(self):
        with pytest.raises(FileNotFoundError, match="gensim does not ship 'nope.txt'"):
            data.gensim_data_path("nope.txt")
