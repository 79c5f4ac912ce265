"""Sampling widgets: validation, the data they ship, their JavaScript (under Node) and the golden file.

The golden file ``tests/golden/sampling_widget.json`` holds, for the first prompt of the
chapter's NextTokenExplorer, SmolLM2's top-50 next-token logits, the rest of the vocabulary
as the histogram the widget ships, and the probabilities the widget must show (cells
``sampling-prob-<i>``, the last one for all other tokens), the entropy and the number of
tokens that can be sampled after moving the sliders, computed with ``transformers``'
logits warpers over the FULL 49,152-token distribution (independently of our code).
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
from nlp_helpers.widgets.sampling import (
    NextTokenExplorer,
    SoftmaxTemperature,
    compact_filter,
    explorer_prompt,
    tail_histogram,
)
from tests.widget_node import NODE_DOM, node_binary, run_widget_js  # noqa: F401

HERE = Path(__file__).resolve().parents[1]  # tests/
GOLDEN = HERE / "golden" / "sampling_widget.json"
GOLDEN_PROMPT = "My favourite food is"  # the first prompt of the chapter's explorer
GOLDEN_CASES = [  # top_k 0 = off (the slider's last position)
    {"name": "T 1, no top-k, top-p 0.9", "temperature": 1.0, "top_k": 0, "top_p": 0.9},
    {"name": "T 1, no filter", "temperature": 1.0, "top_k": 0, "top_p": 1.0},
    {"name": "T 1.3, top-k 10, top-p 0.85", "temperature": 1.3, "top_k": 10, "top_p": 0.85},
    {"name": "T 0.7, top-k 40, no top-p", "temperature": 0.7, "top_k": 40, "top_p": 1.0},
    {"name": "T 1.5, no top-k, top-p 0.95", "temperature": 1.5, "top_k": 0, "top_p": 0.95},
]
N_SHOWN = 50
EVIL = "<img src=x onerror=alert(1)>"


# ---- independent reference: transformers' warpers ------------------------------------------------


def hf_probs(logits, temperature: float, top_k: int, top_p: float) -> np.ndarray:
    """softmax after TemperatureLogitsWarper -> TopKLogitsWarper -> TopPLogitsWarper (float64); top_k 0 = off."""
    x = torch.tensor(np.array(logits, dtype=np.float64)[None])
    if temperature == 0:
        return (x[0] == x.max()).double().numpy() / float((x[0] == x.max()).sum())
    chain = [TemperatureLogitsWarper(float(temperature))]
    chain += [TopKLogitsWarper(int(top_k))] if top_k else []
    chain += [TopPLogitsWarper(float(top_p))] if top_p < 1 else []
    return torch.softmax(LogitsProcessorList(chain)(None, x), -1)[0].numpy()


def entropy(p: np.ndarray) -> float:
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def golden_data(model=None, tokenizer=None) -> dict:
    """Build the golden file's content from SmolLM2 (loaded if not given): shipped data + full-vocabulary answers."""
    from nlp_helpers.sampling.llm import next_token_logits

    if model is None:
        from nlp_helpers.data.smollm2 import load_smollm2

        model, tokenizer = load_smollm2(verbose=False)
    rec = NextTokenExplorer.from_model(model, tokenizer, [GOLDEN_PROMPT], top=N_SHOWN).prompts[0]
    full = next_token_logits(model, tokenizer, GOLDEN_PROMPT).astype(np.float64)
    order = np.argsort(-full, kind="stable")
    head = order[:N_SHOWN]
    cases = []
    for c in GOLDEN_CASES:
        probs = hf_probs(full, c["temperature"], c["top_k"], c["top_p"])
        cases.append(
            {
                "name": c["name"],
                "controls": [
                    {"testid": "sampling-prompt", "value": "0"},
                    {"testid": "sampling-temperature", "value": f"{c['temperature']:g}"},
                    {"testid": "sampling-topk", "value": str(c["top_k"] or N_SHOWN + 1)},
                    {"testid": "sampling-topp", "value": f"{c['top_p']:g}"},
                ],
                "settings": {k: c[k] for k in ("temperature", "top_k", "top_p")},
                "probs": probs[head].tolist() + [float(1.0 - probs[head].sum())],
                "entropy": entropy(probs),
                "nucleus": int((probs > 0).sum()),
            }
        )
    return {
        "about": "Probabilities NextTokenExplorer must show (cells sampling-prob-<i>, i = rank of the token by logit; "
        f"cell sampling-prob-{N_SHOWN} = all other tokens together) for the chapter's first prompt after setting the "
        "controls in order (top-k slider at its last position = off); entropy in nats (sampling-entropy) and tokens "
        "that can be sampled (sampling-nucleus). Computed with transformers' Temperature/TopK/TopP warpers over the "
        "full vocabulary. Regenerate: python -m tests.widgets.test_widgets_sampling",
        "page": "book/sampling/sampling.html",
        "display_decimals": 4,
        "tolerance": 5e-05,
        "entropy_tolerance": 1e-3,
        "prompt": GOLDEN_PROMPT,
        "vocab_size": int(full.size),
        "tokens": rec["tokens"],
        "logits": rec["logits"],
        "tail": rec["tail"],
        "cases": cases,
    }


# ---- Python side -------------------------------------------------------------------------------


def make_explorer(**kw):
    rng = seeded_rng(0)
    recs = [
        explorer_prompt("a", [f"t{i}" for i in range(30)], rng.normal(size=30) * 2),
        explorer_prompt("b", ["x", "y", EVIL], [1.0, 3.0, 2.0]),
    ]
    return NextTokenExplorer(recs, **kw)


def full_and_compact(seed: int = 0, V: int = 5000, n: int = 20):
    """Random logits of a V-token vocabulary and the compact record (n drawn tokens + tail histogram)."""
    rng = seeded_rng(seed)
    full = np.sort(rng.standard_t(5, size=V) * 1.5)[::-1].copy()  # a fat-tailed logit distribution, sorted
    tail = tail_histogram(full[n:], ceiling=float(full[n - 1]))
    return full, explorer_prompt("p", [f"t{i}" for i in range(n)], full[:n], tail)


def test_prompt_records_are_sorted_by_logit_and_validated():
    rec = explorer_prompt("p", ["x", "y", "z"], [1.0, 3.0, 2.0], {"logits": [0.5, 0.2], "counts": [3, 1]})
    assert rec["tokens"] == ["y", "z", "x"] and rec["logits"] == [3.0, 2.0, 1.0]
    assert rec["tail"] == {"logits": [0.5, 0.2], "counts": [3, 1]}
    with pytest.raises(ValueError, match="tokens has 2 entries but logits has 3"):
        explorer_prompt("p", ["x", "y"], [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="tokens must be strings"):
        explorer_prompt("p", ["x", 2], [1.0, 2.0])
    with pytest.raises(ValueError, match="logits must contain only finite"):
        explorer_prompt("p", ["x", "y"], [1.0, np.nan])
    with pytest.raises(ValueError, match="at most 200"):
        explorer_prompt("p", [str(i) for i in range(201)], np.zeros(201))
    with pytest.raises(ValueError, match="tail must be a mapping"):
        explorer_prompt("p", ["x"], [1.0], tail=[0.5])
    with pytest.raises(ValueError, match="tail counts must be positive"):
        explorer_prompt("p", ["x"], [1.0], tail={"logits": [0.5], "counts": [0]})
    with pytest.raises(ValueError, match="tail logits must be strictly decreasing"):
        explorer_prompt("p", ["x"], [1.0], tail={"logits": [2.0], "counts": [1]})


def test_tail_histogram_rounds_to_the_grid_and_counts():
    hist = tail_histogram([0.004, 0.006, 0.011, -1.0, 0.3], ceiling=0.2, grid=0.01)
    np.testing.assert_allclose(hist["logits"], [0.2, 0.01, 0.0, -1.0])  # 0.3 capped at the ceiling
    assert hist["counts"] == [1, 2, 1, 1]  # 0.006 and 0.011 both round to 0.01
    with pytest.raises(ValueError, match="grid must be > 0"):
        tail_histogram([1.0], grid=0)


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
    assert w.top_k == 30  # at most the number of tokens (no tail: k = 30 keeps them all)


@pytest.mark.parametrize("t, k, p", [(1.0, 0, 1.0), (0.7, 10, 0.9), (1.5, 5, 0.5), (0.3, 0, 0.95), (2.0, 1, 1.0)])
def test_explorer_probabilities_match_transformers(t, k, p):
    w = make_explorer()
    want = hf_probs(w.prompts[0]["logits"], t, k, p)
    got = w.probabilities(t, k, p)
    np.testing.assert_allclose(got, want, atol=1e-14)
    assert w.summary(temperature=t, top_k=k, top_p=p)["other"] == 0.0  # nothing beyond the drawn tokens
    s = w.summary(temperature=t, top_k=k, top_p=p)
    assert s["nucleus"] == int((want > 0).sum()) and s["entropy"] == pytest.approx(entropy(want))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("t, k, p", [(1.0, 0, 0.9), (1.0, 0, 1.0), (1.3, 10, 0.85), (0.7, 15, 1.0), (1.5, 0, 0.95)])
def test_compact_record_gives_the_full_vocabulary_answer(seed, t, k, p):
    """The shipped data (20 tokens + a histogram of 4,980 on a 0.01 grid) against transformers on all 5,000 logits."""
    full, rec = full_and_compact(seed)
    want = hf_probs(full, t, k, p)
    res = compact_filter(rec["logits"], rec["tail"], t, k, p)
    # The grid moves a tail logit by <= 0.005, a probability by <= 0.5 % of the tail's mass
    np.testing.assert_allclose(res["probs"], want[:20], rtol=0, atol=2e-4)
    assert res["other"] == pytest.approx(want[20:].sum(), abs=2e-4)
    assert res["entropy"] == pytest.approx(entropy(want), abs=2e-3)
    assert abs(res["nucleus"] - int((want > 0).sum())) <= max(2, 0.002 * (want > 0).sum())


def test_temperature_zero_puts_all_mass_on_the_top_token():
    w = make_explorer(temperature=0)
    probs = w.probabilities()
    assert probs[0] == 1.0 and probs[1:].sum() == 0.0
    _, rec = full_and_compact(0)
    res = compact_filter(rec["logits"], rec["tail"], 0.0, 0, 0.9)
    assert res["probs"][0] == 1.0 and res["other"] == 0.0 and res["nucleus"] == 1 and res["entropy"] == 0.0


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


def _js_filter(cases, tmp_path):
    (tmp_path / "m.mjs").write_text(
        make_explorer()._esm + "\nexport { filterDistribution, entropyNats };\n", encoding="utf-8"
    )
    (tmp_path / "c.json").write_text(json.dumps(cases), encoding="utf-8")
    (tmp_path / "run.mjs").write_text(
        "import { readFileSync } from 'node:fs';\n"
        f"const m = await import({json.dumps((tmp_path / 'm.mjs').as_uri())});\n"
        f"const cases = JSON.parse(readFileSync({json.dumps(str(tmp_path / 'c.json'))}, 'utf-8'));\n"
        "console.log(JSON.stringify(cases.map((c) => m.filterDistribution(c.logits, c.t, c.k, c.p, c.tail))));\n",
        encoding="utf-8",
    )
    run = subprocess.run([node_binary(), str(tmp_path / "run.mjs")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_js_filter_matches_python_on_random_and_tied_logits(tmp_path):
    """filterDistribution in sampling.js against filtered_probs (no tail) and compact_filter (with a tail)."""
    from nlp_helpers.sampling.distributions import filtered_probs

    rng = seeded_rng(0)
    cases = []
    for i in range(300):
        n = int(rng.integers(1, 60))
        logits = rng.normal(size=n) * 3 if i % 2 else rng.choice([-1.0, 0.0, 0.5, 2.0], size=n)  # odd: ties galore
        tail = None
        if i % 3 == 0:
            rest = rng.normal(size=int(rng.integers(1, 3000))) * 3 + logits.min() - 3
            tail = tail_histogram(rest, ceiling=float(logits.min()))
        k = int(rng.integers(0, n + 1))
        cases.append(
            {
                "logits": logits.tolist(),
                "t": float(rng.choice([0, 0.05, 0.5, 1, 1.5, 3])),
                "k": k,
                "p": float(rng.choice([0.05, 0.3, 0.5, 0.9, 1.0])),
                "tail": tail,
            }
        )
    for case, got in zip(cases, _js_filter(cases, tmp_path)):
        want = compact_filter(case["logits"], case["tail"], case["t"], case["k"], case["p"])
        np.testing.assert_allclose(got["probs"], want["probs"], atol=1e-12, err_msg=str(case))
        assert got["other"] == pytest.approx(want["other"], abs=1e-12)
        assert got["nucleus"] == want["nucleus"] and got["entropy"] == pytest.approx(want["entropy"], abs=1e-10)
        if case["tail"] is None:  # no tail: exactly the chapter's filtered_probs
            k = case["k"] if 0 < case["k"] < len(case["logits"]) else None
            ref = filtered_probs(case["logits"], case["t"], k, case["p"] if case["p"] < 1 else None)
            np.testing.assert_allclose(got["probs"], ref, atol=1e-12, err_msg=str(case))


def test_js_draws_the_golden_probabilities_after_moving_the_sliders(tmp_path):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    rec = {k: golden[k] for k in ("prompt", "tokens", "logits", "tail")}
    w = NextTokenExplorer([rec])
    n = len(golden["tokens"])
    for case in golden["cases"]:
        out = _run_js(w, case["controls"], tmp_path)
        want = np.asarray(case["probs"])
        got = _probs(out, "sampling", n + 1)
        mine = np.append(w.probabilities(**case["settings"]), w.summary(**case["settings"])["other"])
        np.testing.assert_allclose(got, mine, atol=1e-12, err_msg=case["name"])
        np.testing.assert_allclose(got, want, atol=golden["tolerance"], err_msg=case["name"])
        np.testing.assert_allclose(_probs(out, "sampling", n + 1, attr=False), want, atol=golden["tolerance"] + 5e-5)
        assert float(out["sampling-entropy"]["text"]) == pytest.approx(case["entropy"], abs=golden["entropy_tolerance"])
        assert int(out["sampling-nucleus"]["text"]) == case["nucleus"], case["name"]
        # the note's count of the tokens gathered in the chart's last bar that can still be sampled: all that
        # can be sampled but those among the 20 drawn one by one (rewritten in place at each step)
        drawn_kept = int((want[:20] > 0).sum())
        assert int(out["sampling-rest-kept"]["text"].replace(",", "")) == case["nucleus"] - drawn_kept, case["name"]


def test_js_inserts_tokens_and_prompts_as_text(tmp_path):
    w = NextTokenExplorer([{"prompt": "<b>bold?</b>", "tokens": [EVIL, "x"], "logits": [2.0, 1.0]}])
    out = _run_js(w, [], tmp_path)
    assert EVIL in out["sampling-root"]["text"] and "<b>bold?</b>" in out["sampling-root"]["text"]
    assert out["sampling-topk"]["attrs"]["max"] == "3" and out["sampling-temperature"]["attrs"]["type"] == "range"
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
    np.testing.assert_allclose(_probs(out, "sampling", 3), w.probabilities(1.0, 0, 1.0, prompt_index=1), atol=1e-12)
    assert out["__state"]["prompt_index"] == 1  # the view tells the model (and so Python) what changed
    assert out["sampling-topk"]["value"] == "3" and out["sampling-topk"]["attrs"]["max"] == "4"  # "all" stays all
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


def test_softmax_js_shows_each_step_of_the_computation(tmp_path):
    z = np.array([2.0, 1.0, 0.1, -1.0])
    w = SoftmaxTemperature(z, list("abcd"))
    out = _run_js(w, [{"testid": "softmax-temperature", "value": "0.5"}], tmp_path)
    e = np.exp(z / 0.5 - (z / 0.5).max())  # exp(z / T - max), by hand
    for i in range(4):
        row = out[f"softmax-step-{i}"]["text"]
        assert f"{z[i] / 0.5:.3f}" in row
    assert float(out["softmax-sum"]["attrs"]["data-sum"]) == pytest.approx(e.sum(), rel=1e-12)
    want = torch.softmax(torch.tensor(z, dtype=torch.float64) / 0.5, 0).numpy()
    np.testing.assert_allclose(_probs(out, "softmax", 4), want, rtol=1e-12)
    out = _run_js(w, [{"testid": "softmax-temperature", "value": "0"}], tmp_path)
    assert "greedy" in out["softmax-root"]["text"] and "softmax-steps" not in out


# ---- the golden file --------------------------------------------------------------------------------


def test_golden_file_is_consistent():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden["prompt"] == GOLDEN_PROMPT and len(golden["tokens"]) == len(golden["logits"]) == N_SHOWN
    assert golden["tokens"][:3] == [" a", "...", " pizza"]
    assert N_SHOWN + sum(golden["tail"]["counts"]) == golden["vocab_size"] == 49152
    for case, spec in zip(golden["cases"], GOLDEN_CASES):
        probs = np.asarray(case["probs"])
        assert case["settings"] == {k: spec[k] for k in ("temperature", "top_k", "top_p")}
        assert probs.sum() == pytest.approx(1.0) and len(probs) == N_SHOWN + 1
    by_name = {c["name"]: c for c in golden["cases"]}
    # What the chapter's table says for this prompt (full vocabulary): nucleus 458 at p = 0.9, entropy 5.31 nats
    assert by_name["T 1, no top-k, top-p 0.9"]["nucleus"] == 458
    assert by_name["T 1, no filter"]["entropy"] == pytest.approx(5.31, abs=0.005)


@pytest.mark.slow
def test_golden_logits_are_what_smollm2_gives_the_chapter():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    fresh = golden_data()
    assert fresh["tokens"] == golden["tokens"]
    np.testing.assert_allclose(fresh["logits"], golden["logits"], atol=1e-3)


if __name__ == "__main__":  # regenerate the golden file
    GOLDEN.write_text(json.dumps(golden_data(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)


# ---- the state the page carries: rounded to what the display needs ------------------------------


def _golden_record_as_from_model():
    """The golden prompt as ``from_model`` ships it: full-precision logits, tail on the 0.01 grid with float noise."""
    g = json.loads(GOLDEN.read_text(encoding="utf-8"))
    tail = {
        "logits": [float(v) for v in np.round(np.array(g["tail"]["logits"]) / 0.01) * 0.01],
        "counts": g["tail"]["counts"],
    }
    return g, {"prompt": g["prompt"], "tokens": g["tokens"], "logits": g["logits"], "tail": tail}


def _displayed(res):
    """What the page shows: probabilities with 4 decimals (table), entropy with 3, the nucleus size."""
    return [f"{q:.4f}" for q in res["probs"]] + [f"{res['other']:.4f}", f"{res['entropy']:.3f}", str(res["nucleus"])]


def test_serialized_prompts_are_rounded_and_below_the_size_budget():
    _, rec = _golden_record_as_from_model()
    w = NextTokenExplorer([rec] * 4)  # the chapter's explorer has 4 prompts like this one
    size = len(json.dumps(w.prompts))
    # Measured: 89,452 bytes for 4 prompts (106,692 before rounding); budget 24 KB per prompt.
    assert size < 4 * 24_000, size
    shipped = w.prompts[0]["logits"]
    assert all(len(repr(v).split(".")[-1]) <= 6 for v in shipped)
    np.testing.assert_allclose(shipped, sorted(rec["logits"], reverse=True), rtol=0, atol=5e-7 + 1e-12)
    tail = w.prompts[0]["tail"]["logits"]
    assert all(len(repr(v).split(".")[-1]) <= 2 for v in tail)  # 13.12, not 13.120000000000001
    np.testing.assert_allclose(tail, rec["tail"]["logits"], rtol=0, atol=1e-9)
    assert max(tail) <= min(shipped)
    sm = SoftmaxTemperature([1 / 3, 2 / 3, 1.0], ["a", "b", "c"])
    assert sm.logits == [0.333333, 0.666667, 1.0]


@pytest.mark.parametrize("t", [0.0, 0.05, 0.3, 0.7, 1.0, 1.3, 2.0, 3.0])
def test_rounding_keeps_the_displayed_numbers(t):
    # The unrounded record is the reference. Logits rounded to 6 decimals move a probability by at most
    # 5e-7 / (2 T) <= 5e-6 (T >= 0.05), so a displayed digit (4 decimals) may differ only where the
    # exact value lies within 1e-5 of a rounding boundary of the display.
    _, rec = _golden_record_as_from_model()
    page = NextTokenExplorer([rec]).prompts[0]
    for k, p in [(0, 1.0), (0, 0.9), (0, 0.5), (5, 1.0), (10, 0.85), (40, 1.0), (50, 0.95), (1, 1.0)]:
        exact = compact_filter(rec["logits"], rec["tail"], t, k, p)
        shown = compact_filter(page["logits"], page["tail"], t, k, p)
        assert shown["nucleus"] == exact["nucleus"], (t, k, p)
        values = [*exact["probs"], exact["other"], exact["entropy"]]
        digits = [4] * (len(values) - 1) + [3]
        for a, b, va, d in zip(_displayed(exact), _displayed(shown), values, digits):
            near_boundary = abs((va * 10**d) % 1 - 0.5) < 1e-5 * 10**d
            assert a == b or near_boundary, (t, k, p, a, b)
        bound = 5e-7 / (2 * t) if t else 0.0
        np.testing.assert_allclose(shown["probs"], exact["probs"], rtol=0, atol=bound + 1e-12)


def test_js_note_counts_the_bars_the_chart_draws(tmp_path):
    # 30 shipped tokens: the chart draws 20 bars and gathers the other 10 in its last bar, and the
    # note says so (it used to say all 30 were "drawn one by one").
    out = _run_js(make_explorer(), [], tmp_path)
    text = out["sampling-root"]["text"]
    assert "the chart draws the 20 most likely one by one and the other 10 in its last bar" in text
    assert "the 30 most likely are drawn" not in text
