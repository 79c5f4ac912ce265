"""Sampling widgets: validation, the data they ship, their JavaScript (under Node) and the golden file.

The golden file ``tests/golden/sampling_widget.json`` holds, for the first prompt of the
chapter's NextTokenExplorer, SmolLM2's top-50 next-token logits and the probabilities
the widget must show (cells ``sampling-prob-<i>``) after moving the sliders, computed
with ``transformers``' logits warpers (independently of ``nlp_helpers.sampling.distributions``).
Regenerate it with ``python tests/test_widgets_sampling.py``; the lead's browser test
moves the sliders on the built page and compares the cells with it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from transformers.generation import LogitsProcessorList, TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper

from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.widgets.sampling import NextTokenExplorer, SoftmaxTemperature, explorer_prompt
from tests.widget_node import NODE_DOM, node_binary, run_widget_js  # noqa: F401

HERE = Path(__file__).resolve().parents[1]  # tests/
GOLDEN = HERE / "golden" / "sampling_widget.json"
GOLDEN_PROMPT = "The capital of France is"  # the first prompt of the chapter's explorer
GOLDEN_CASES = [
    {"name": "T 1.3, top-k 10, top-p 0.85", "temperature": 1.3, "top_k": 10, "top_p": 0.85},
    {"name": "T 1.5, no top-k, no top-p", "temperature": 1.5, "top_k": 50, "top_p": 1.0},
]
EVIL = "<img src=x onerror=alert(1)>"


# ---- independent reference: transformers' warpers ------------------------------------------------


def hf_probs(logits, temperature: float, top_k: int, top_p: float) -> np.ndarray:
    """softmax after TemperatureLogitsWarper -> TopKLogitsWarper -> TopPLogitsWarper (float64)."""
    x = torch.tensor([logits], dtype=torch.float64)
    if temperature == 0:
        return (x[0] == x.max()).double().numpy() / float((x[0] == x.max()).sum())
    chain = [TemperatureLogitsWarper(float(temperature)), TopKLogitsWarper(int(top_k))]
    chain += [TopPLogitsWarper(float(top_p))] if top_p < 1 else []
    return torch.softmax(LogitsProcessorList(chain)(None, x), -1)[0].numpy()


def entropy(p: np.ndarray) -> float:
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def golden_data(model=None, tokenizer=None) -> dict:
    """Build the golden file's content from SmolLM2 (loaded if not given)."""
    if model is None:
        from nlp_helpers.data.smollm2 import load_smollm2

        model, tokenizer = load_smollm2(verbose=False)
    rec = NextTokenExplorer.from_model(model, tokenizer, [GOLDEN_PROMPT], top=50).prompts[0]
    cases = []
    for c in GOLDEN_CASES:
        probs = hf_probs(rec["logits"], c["temperature"], c["top_k"], c["top_p"])
        cases.append(
            {
                "name": c["name"],
                "controls": [
                    {"testid": "sampling-prompt", "value": "0"},
                    {"testid": "sampling-temperature", "value": f"{c['temperature']:g}"},
                    {"testid": "sampling-topk", "value": str(c["top_k"])},
                    {"testid": "sampling-topp", "value": f"{c['top_p']:g}"},
                ],
                "settings": {k: c[k] for k in ("temperature", "top_k", "top_p")},
                "probs": probs.tolist(),
                "entropy": entropy(probs),
                "nucleus": int((probs > 0).sum()),
            }
        )
    return {
        "about": "Probabilities NextTokenExplorer must show (cells sampling-prob-<i>, i = rank of the token by logit) "
        "for the chapter's first prompt after setting the controls in order; entropy in nats "
        "(sampling-entropy) and surviving tokens (sampling-nucleus). Computed with transformers' "
        "Temperature/TopK/TopP warpers. Regenerate: python -m tests.widgets.test_widgets_sampling",
        "page": "book/sampling.html",
        "display_decimals": 4,
        "tolerance": 5e-05,
        "prompt": GOLDEN_PROMPT,
        "tokens": rec["tokens"],
        "logits": rec["logits"],
        "cases": cases,
    }


# ---- Python side -------------------------------------------------------------------------------


def make_explorer(**kw):
    rng = seeded_rng(0)
    recs = [
        explorer_prompt("a", [f"t{i}" for i in range(30)], rng.normal(size=30) * 2),
        explorer_prompt("b", ["x", "y", EVIL], [1.0, 3.0, 2.0], shown_mass=0.5),
    ]
    return NextTokenExplorer(recs, **kw)


def test_prompt_records_are_sorted_by_logit_and_validated():
    rec = explorer_prompt("p", ["x", "y", "z"], [1.0, 3.0, 2.0], shown_mass=0.4)
    assert rec["tokens"] == ["y", "z", "x"] and rec["logits"] == [3.0, 2.0, 1.0] and rec["shown_mass"] == 0.4
    with pytest.raises(ValueError, match="tokens has 2 entries but logits has 3"):
        explorer_prompt("p", ["x", "y"], [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="tokens must be strings"):
        explorer_prompt("p", ["x", 2], [1.0, 2.0])
    with pytest.raises(ValueError, match="logits must contain only finite"):
        explorer_prompt("p", ["x", "y"], [1.0, np.nan])
    with pytest.raises(ValueError, match="at most 200"):
        explorer_prompt("p", [str(i) for i in range(201)], np.zeros(201))
    with pytest.raises(ValueError, match="shown_mass"):
        explorer_prompt("p", ["x"], [1.0], shown_mass=1.5)


def test_explorer_validates_its_settings():
    with pytest.raises(ValueError, match="prompts must not be empty"):
        NextTokenExplorer([])
    with pytest.raises(ValueError, match="prompts\\[0\\] must be a mapping"):
        NextTokenExplorer([{"prompt": "x"}])
    with pytest.raises(ValueError, match="temperature must be >= 0"):
        make_explorer(temperature=-1)
    with pytest.raises(ValueError, match="top_p must be >= 0.05"):
        make_explorer(top_p=0.0)
    with pytest.raises(ValueError, match="top_k must be >= 1"):
        make_explorer(top_k=0)
    with pytest.raises(ValueError, match="prompt_index must be <= 1"):
        make_explorer(prompt_index=2)
    w = make_explorer(temperature=0.72, top_k=500)
    assert w.temperature == 0.7  # snapped to the slider's grid of 0.05
    assert w.top_k == 30  # at most the number of shipped tokens


@pytest.mark.parametrize("t, k, p", [(1.0, 30, 1.0), (0.7, 10, 0.9), (1.5, 5, 0.5), (0.3, 30, 0.95), (2.0, 1, 1.0)])
def test_explorer_probabilities_match_transformers(t, k, p):
    w = make_explorer()
    want = hf_probs(w.prompts[0]["logits"], t, k, p)
    np.testing.assert_allclose(w.probabilities(t, k, p), want, atol=1e-14)
    s = w.summary(temperature=t, top_k=k, top_p=p)
    assert s["nucleus"] == int((want > 0).sum()) and s["entropy"] == pytest.approx(entropy(want))


def test_temperature_zero_puts_all_mass_on_the_top_token():
    w = make_explorer(temperature=0)
    probs = w.probabilities()
    assert probs[0] == 1.0 and probs[1:].sum() == 0.0


def test_softmax_temperature_widget():
    w = SoftmaxTemperature([2.0, 1.0, 0.1], ["a", "b", EVIL], temperature=0.5)
    np.testing.assert_allclose(
        w.probabilities(), torch.softmax(torch.tensor([2.0, 1.0, 0.1], dtype=torch.float64) / 0.5, 0)
    )
    assert w._view == "softmax" and w.labels[2] == EVIL
    with pytest.raises(ValueError, match="labels has 2 entries but logits has 3"):
        SoftmaxTemperature([1.0, 2.0, 3.0], ["a", "b"])
    with pytest.raises(ValueError, match="temperature must be <= 3.0"):
        SoftmaxTemperature([1.0], ["a"], temperature=5)
    with pytest.raises(ValueError, match="logits must have 1 dimensions"):
        SoftmaxTemperature([[1.0]], ["a"])


def test_the_javascript_module_carries_the_test_ids():
    w = make_explorer()
    for testid in (
        "sampling-root",
        "sampling-temperature",
        "sampling-topk",
        "sampling-topp",
        "sampling-prompt",
        "sampling-entropy",
        "sampling-nucleus",
        "softmax-root",
        "softmax-temperature",
        "-prob-${i}",
    ):
        assert testid in w._esm
    assert ".innerHTML" not in w._esm and "insertAdjacentHTML" not in w._esm  # text goes in as text


# ---- the JavaScript under Node ----------------------------------------------------------------------


def _run_js(widget, actions, tmp_path):
    names = (
        "_view",
        "prompts",
        "prompt_index",
        "temperature",
        "top_k",
        "top_p",
        "logits",
        "labels",
        "min_temperature",
        "max_temperature",
    )
    state = {k: getattr(widget, k) for k in names if widget.has_trait(k)}
    return run_widget_js(widget._esm, state, actions, tmp_path)


def _probs(out, prefix, n, attr=True):
    return np.array(
        [
            float(out[f"{prefix}-prob-{i}"]["attrs"]["data-value"] if attr else out[f"{prefix}-prob-{i}"]["text"])
            for i in range(n)
        ]
    )


def test_js_filter_matches_python_on_random_and_tied_logits(tmp_path):
    """filterDistribution in sampling.js against nlp_helpers.sampling.distributions.filtered_probs, 300 cases."""
    from nlp_helpers.sampling.distributions import filtered_probs

    rng = seeded_rng(0)
    cases = []
    for i in range(300):
        n = int(rng.integers(1, 60))
        logits = rng.normal(size=n) * 3 if i % 2 else rng.choice([-1.0, 0.0, 0.5, 2.0], size=n)  # odd: ties galore
        cases.append(
            {
                "logits": logits.tolist(),
                "t": float(rng.choice([0, 0.05, 0.5, 1, 1.5, 3])),
                "k": int(rng.integers(1, n + 1)),
                "p": float(rng.choice([0.05, 0.3, 0.5, 0.9, 1.0])),
            }
        )
    (tmp_path / "m.mjs").write_text(
        make_explorer()._esm + "\nexport { filterDistribution, entropyNats };\n", encoding="utf-8"
    )
    (tmp_path / "c.json").write_text(json.dumps(cases), encoding="utf-8")
    (tmp_path / "run.mjs").write_text(
        "import { readFileSync } from 'node:fs';\n"
        f"const m = await import({json.dumps((tmp_path / 'm.mjs').as_uri())});\n"
        f"const cases = JSON.parse(readFileSync({json.dumps(str(tmp_path / 'c.json'))}, 'utf-8'));\n"
        "console.log(JSON.stringify(cases.map((c) => { const r = m.filterDistribution(c.logits, c.t, c.k, c.p);"
        " return { probs: r.probs, h: m.entropyNats(r.probs) }; })));\n",
        encoding="utf-8",
    )
    run = subprocess.run([node_binary(), str(tmp_path / "run.mjs")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    for case, got in zip(cases, json.loads(run.stdout)):
        want = filtered_probs(case["logits"], case["t"], case["k"], case["p"] if case["p"] < 1 else None)
        np.testing.assert_allclose(got["probs"], want, atol=1e-12, err_msg=str(case))
        assert got["h"] == pytest.approx(entropy(want), abs=1e-12)


def test_js_draws_the_golden_probabilities_after_moving_the_sliders(tmp_path):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    w = NextTokenExplorer([{"prompt": golden["prompt"], "tokens": golden["tokens"], "logits": golden["logits"]}])
    n = len(golden["tokens"])
    for case in golden["cases"]:
        out = _run_js(w, case["controls"], tmp_path)
        want = np.asarray(case["probs"])
        np.testing.assert_allclose(_probs(out, "sampling", n), want, atol=1e-12, err_msg=case["name"])
        np.testing.assert_allclose(_probs(out, "sampling", n, attr=False), want, atol=golden["tolerance"])
        assert float(out["sampling-entropy"]["text"]) == pytest.approx(case["entropy"], abs=5e-4)
        assert int(out["sampling-nucleus"]["text"]) == case["nucleus"]


def test_js_inserts_tokens_and_prompts_as_text(tmp_path):
    w = NextTokenExplorer([{"prompt": "<b>bold?</b>", "tokens": [EVIL, "x"], "logits": [2.0, 1.0]}])
    out = _run_js(w, [], tmp_path)
    assert EVIL in out["sampling-root"]["text"] and "<b>bold?</b>" in out["sampling-root"]["text"]
    assert out["sampling-topk"]["attrs"]["max"] == "2" and out["sampling-temperature"]["attrs"]["type"] == "range"
    out = _run_js(
        SoftmaxTemperature([1.0, 2.0], [EVIL, "b"]), [{"testid": "softmax-temperature", "value": "0"}], tmp_path
    )
    assert EVIL in out["softmax-root"]["text"]
    np.testing.assert_array_equal(_probs(out, "softmax", 2), [0.0, 1.0])


def test_js_switches_prompts_and_follows_python_changes(tmp_path):
    w = make_explorer()
    out = _run_js(
        w, [{"testid": "sampling-prompt", "value": "1"}, {"testid": "sampling-temperature", "value": "1"}], tmp_path
    )
    np.testing.assert_allclose(_probs(out, "sampling", 3), w.probabilities(1.0, 30, 1.0, prompt_index=1), atol=1e-12)
    assert out["__state"]["prompt_index"] == 1  # the view tells the model (and so Python) what changed
    assert out["sampling-topk"]["value"] == "3" and out["sampling-topk"]["attrs"]["max"] == "3"  # "all" stays "all"
    out = _run_js(
        w, [{"testid": "sampling-prompt", "value": "1"}, {"testid": "sampling-prompt", "value": "0"}], tmp_path
    )
    assert out["sampling-topk"]["value"] == "30" and out["__state"]["top_k"] == 30
    out = _run_js(
        w,
        [
            {"testid": "sampling-topk", "value": "2"},
            {"testid": "sampling-prompt", "value": "1"},
            {"testid": "sampling-prompt", "value": "0"},
        ],
        tmp_path,
    )
    assert out["sampling-topk"]["value"] == "2"  # a real cut-off is kept across prompts
    assert len(set(out[f"sampling-prob-{i}"]["text"] != "0.0000" for i in range(30))) == 2


def test_softmax_js_matches_python_at_a_new_temperature(tmp_path):
    w = SoftmaxTemperature([2.0, 1.0, 0.1, -1.0], list("abcd"))
    out = _run_js(w, [{"testid": "softmax-temperature", "value": "2.5"}], tmp_path)
    np.testing.assert_allclose(_probs(out, "softmax", 4), w.probabilities(2.5), atol=1e-12)


# ---- the golden file --------------------------------------------------------------------------------


def test_golden_probabilities_follow_from_the_golden_logits():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden["prompt"] == GOLDEN_PROMPT and len(golden["tokens"]) == len(golden["logits"]) == 50
    assert golden["tokens"][0] == " Paris"
    for case, spec in zip(golden["cases"], GOLDEN_CASES):
        probs = np.asarray(case["probs"])
        np.testing.assert_allclose(
            probs, hf_probs(golden["logits"], spec["temperature"], spec["top_k"], spec["top_p"]), atol=1e-15
        )
        assert probs.sum() == pytest.approx(1.0)
        w = NextTokenExplorer([{"prompt": golden["prompt"], "tokens": golden["tokens"], "logits": golden["logits"]}])
        np.testing.assert_allclose(w.probabilities(**case["settings"]), probs, atol=1e-14)


@pytest.mark.slow
def test_golden_logits_are_what_smollm2_gives_the_chapter():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    fresh = golden_data()
    assert fresh["tokens"] == golden["tokens"]
    np.testing.assert_allclose(fresh["logits"], golden["logits"], atol=1e-3)


if __name__ == "__main__":  # regenerate the golden file
    GOLDEN.write_text(json.dumps(golden_data(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)
