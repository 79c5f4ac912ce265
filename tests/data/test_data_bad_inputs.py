"""Bad and edge inputs of the data loaders and splits, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from nlp_helpers.data import corpora as D  # noqa: E402
from nlp_helpers.data import smollm2 as SM2  # noqa: E402
from nlp_helpers.data import splits as SP  # noqa: E402
from tests.bad_inputs import Bad, bad, run_bad

NAN, INF = math.nan, math.inf
ROOT = Path(__file__).resolve().parents[2]


BAD = [
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
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


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
