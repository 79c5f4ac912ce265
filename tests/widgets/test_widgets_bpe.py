"""BPEStepper: validation, the data it ships, its JavaScript replay (under Node) and its golden file.

The golden file ``tests/golden/bpe_widget.json`` holds, for the widget of the tokenization
chapter (BPE trained on the Lee news corpus, the seed's sentence), the tokens the widget must
show at a few slider positions. It is checked here against an independent computation, Hugging
Face ``tokenizers``' BPE model loaded with the same first k merges; the browser test moves the
slider on the built page and compares. Regenerate it with ``python tests/test_widgets_bpe.py``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from tokenizers import Tokenizer, models

from nlp_helpers.data.corpora import lee_background
from nlp_helpers.tokenization.bpe import BPE, pretokenize
from nlp_helpers.widgets.assets import load_esm
from nlp_helpers.widgets.bpe import BPEStepper

HERE = Path(__file__).resolve().parents[1]  # tests/
GOLDEN = HERE / "golden" / "bpe_widget.json"

# The chapter's widget: keep in sync with book/tokenization/bpe.ipynb (its hidden cell compares too).
CHAPTER_TEXT = "Some restaurants offer breakfasts as early as 6:00 am to provide for prayers."
CHAPTER_MERGES = 1000
GOLDEN_STEPS = (0, 50, 1000)


@pytest.fixture(scope="module")
def chapter_bpe() -> BPE:
    return BPE.train(list(lee_background()), CHAPTER_MERGES)


def golden_data(bpe: BPE) -> dict:
    widget = BPEStepper.from_bpe(bpe, CHAPTER_TEXT)
    cases = []
    for step in GOLDEN_STEPS:
        state = widget.state(step)
        cases.append(
            {"name": f"after {step} merges", "controls": [{"testid": "bpe-step", "value": str(step)}], **state}
        )
    return {
        "about": (
            "Tokens BPEStepper must show (chip textContent in data-testid=bpe-tokens, in order; count in "
            "bpe-count's data-count; merge in bpe-merge's data-left/data-right) after setting the slider "
            "bpe-step. Merges: BPE.train(lee_background(), 1000). Regenerate: python -m tests.widgets.test_widgets_bpe"
        ),
        "page": "book/tokenization/bpe.html",
        "construct": {"text": CHAPTER_TEXT, "num_merges": CHAPTER_MERGES, "step": 0},
        "merges": [list(m) for m in bpe.merges],
        "cases": cases,
    }


def _hf_tokens(text: str, merges: list[tuple[str, str]]) -> list[str]:
    """Segmentation by Hugging Face's BPE model with these merges (each chunk encoded on its own)."""
    vocab: dict[str, int] = {}
    for ch in sorted(set(text) | {c for m in merges for part in m for c in part}):
        vocab.setdefault(ch, len(vocab))
    for a, b in merges:
        vocab.setdefault(a + b, len(vocab))
    tok = Tokenizer(models.BPE(vocab=vocab, merges=list(merges)))
    return [t for enc in tok.encode_batch(pretokenize(text)) for t in enc.tokens]


# --------------------------------------------------------------------------- Python side
def test_ships_chunks_and_merges(chapter_bpe):
    w = BPEStepper.from_bpe(chapter_bpe, CHAPTER_TEXT, num_merges=10, step=3)
    assert "".join(w.chunks) == CHAPTER_TEXT == w.text
    assert w.merges == [list(m) for m in chapter_bpe.merges[:10]]
    assert w.step == 3


def test_state_matches_huggingface_bpe_at_every_tenth_step(chapter_bpe):
    w = BPEStepper.from_bpe(chapter_bpe, CHAPTER_TEXT)
    for step in range(0, CHAPTER_MERGES + 1, 10):
        assert w.state(step)["tokens"] == _hf_tokens(CHAPTER_TEXT, chapter_bpe.merges[:step])


def test_state_reports_the_merge_and_how_often_it_fires():
    w = BPEStepper("the cat the hat", [("t", "h"), ("th", "e"), ("x", "y")])
    assert w.state(0) == {
        "step": 0,
        "tokens": list("the cat the hat"),
        "token_count": 15,
        "merge": None,
        "merge_count": 0,
    }
    s1 = w.state(1)
    assert s1["merge"] == ["t", "h"] and s1["merge_count"] == 2 and s1["token_count"] == 13
    assert w.state(2)["tokens"] == ["the", " ", "c", "a", "t", " ", "the", " ", "h", "a", "t"]
    assert w.state(3)["merge_count"] == 0  # ("x", "y") does not occur


def test_final_step_equals_bpe_encode(chapter_bpe):
    assert set(CHAPTER_TEXT) <= set(chapter_bpe.alphabet)  # no byte fallback in this sentence
    w = BPEStepper.from_bpe(chapter_bpe, CHAPTER_TEXT)
    assert w.state(CHAPTER_MERGES)["tokens"] == chapter_bpe.encode(CHAPTER_TEXT)


def test_bad_input(chapter_bpe):
    with pytest.raises(ValueError, match="text"):
        BPEStepper("", [("a", "b")])
    with pytest.raises(TypeError, match="text"):
        BPEStepper(None, [("a", "b")])
    with pytest.raises(ValueError, match="2000 characters"):
        BPEStepper("a" * 2001, [])
    with pytest.raises(ValueError, match=r"merges\[1\]"):
        BPEStepper("abc", [("a", "b"), ("xyz", "c")])
    with pytest.raises(ValueError, match=r"merges\[0\]"):
        BPEStepper("abc", [("a",)])
    with pytest.raises(ValueError, match="step"):
        BPEStepper("abc", [("a", "b")], step=2)
    with pytest.raises(TypeError, match="bpe"):
        BPEStepper.from_bpe({"merges": []}, "abc")
    with pytest.raises(ValueError, match="num_merges"):
        BPEStepper.from_bpe(chapter_bpe, "abc", num_merges=CHAPTER_MERGES + 1)
    with pytest.raises(ValueError, match="step"):
        BPEStepper("abc", [("a", "b")]).state(5)


def test_javascript_inserts_text_only_as_text():
    js = (HERE.parent / "nlp_helpers" / "widgets" / "bpe.js").read_text(encoding="utf-8")
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js
    for testid in ("bpe-root", "bpe-step", "bpe-tokens", "bpe-merge", "bpe-count"):
        assert f'"{testid}"' in js


# --------------------------------------------------------------------------- JavaScript (Node)
def test_js_replay_equals_python_state(tmp_path, chapter_bpe):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    text = CHAPTER_TEXT + " Unicode: 談到貿易戰 café 🙂👍🏽 tabs\tand  spaces."
    merges = chapter_bpe.merges[:300] + [("貿", "易"), ("貿易", "戰"), ("🙂", "👍")]
    w = BPEStepper(text, merges)
    (tmp_path / "w.mjs").write_text(load_esm("bpe.js"), encoding="utf-8")
    (tmp_path / "in.json").write_text(json.dumps({"chunks": w.chunks, "merges": w.merges}), encoding="utf-8")
    script = (
        "import { readFileSync } from 'node:fs';\n"
        f"const mod = await import({json.dumps((tmp_path / 'w.mjs').as_uri())});\n"
        f"const d = JSON.parse(readFileSync({json.dumps(str(tmp_path / 'in.json'))}, 'utf-8'));\n"
        "const r = mod.replay(d.chunks, d.merges);\n"
        "console.log(JSON.stringify({tokens: r.states.map((s) => s.flat()), fired: r.fired}));\n"
    )
    (tmp_path / "run.mjs").write_text(script, encoding="utf-8")
    out = subprocess.run([node, str(tmp_path / "run.mjs")], capture_output=True, text=True, timeout=60, check=True)
    js = json.loads(out.stdout)
    for step in range(len(merges) + 1):
        state = w.state(step)
        assert js["tokens"][step] == state["tokens"], step
        assert js["fired"][step] == state["merge_count"], step


def test_js_outlines_the_tokens_the_current_merge_made_and_has_a_legend(tmp_path):
    from tests.widget_node import run_widget_js

    w = BPEStepper("low lower lowest slow", [("l", "o"), ("lo", "w"), ("e", "r"), ("x", "y")])
    state = {"chunks": w.chunks, "merges": w.merges, "step": 1, "text": w.text}
    # the tiny Node DOM has no removeAttribute; add it for this module only
    esm = "Node.prototype.removeAttribute = function (k) { delete this.attributes[k]; };\n" + load_esm("bpe.js")
    for step, want in [(1, 4), (2, 4), (3, 1), (4, 0)]:  # "lo" x4, "low" x4, "er" x1, "xy" never
        out = run_widget_js(esm, state, [{"testid": "bpe-step", "value": str(step)}], tmp_path)
        assert out["bpe-merge"]["attrs"]["data-highlighted"] == str(want), step
        assert want == w.state(step)["tokens"].count("".join(w.merges[step - 1]))  # hand count = Python's state
    assert "Outlined" in out["bpe-legend"]["text"]


# --------------------------------------------------------------------------- golden file
def test_golden_file_is_current_and_independently_correct(chapter_bpe):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden == json.loads(json.dumps(golden_data(chapter_bpe))), "regenerate: python tests/test_widgets_bpe.py"
    merges = [tuple(m) for m in golden["merges"]]
    assert [c["step"] for c in golden["cases"]] == list(GOLDEN_STEPS)
    for case in golden["cases"]:
        k = case["step"]
        assert case["tokens"] == _hf_tokens(golden["construct"]["text"], merges[:k])
        assert case["token_count"] == len(case["tokens"])
        assert "".join(case["tokens"]) == golden["construct"]["text"]
        assert case["merge"] == (list(merges[k - 1]) if k else None)
    assert golden["cases"][0]["token_count"] > golden["cases"][1]["token_count"] > golden["cases"][2]["token_count"]


if __name__ == "__main__":
    data = golden_data(BPE.train(list(lee_background()), CHAPTER_MERGES))
    text = json.dumps(data, ensure_ascii=False, indent=1)
    text = re.sub(
        r'\[\n\s+("(?:[^"\\]|\\.)*"),\n\s+("(?:[^"\\]|\\.)*")\n\s+\]', r"[\1, \2]", text
    )  # one merge per line
    GOLDEN.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
