"""Beam search for a causal language model, written to give exactly what ``transformers`` gives.

:func:`beam_search` keeps the ``num_beams`` best partial sequences by summed
log-probability. At each step every beam is extended by every token, the
``2 * num_beams`` best (beam, token) candidates are kept, those that end in an
end-of-sequence token (or reach ``max_new_tokens``) become *finished hypotheses*
scored by their log-probability divided by their length (``length_penalty = 1``),
and the best ``num_beams`` unfinished candidates run on. The search stops when no
running beam can beat the worst of ``num_beams`` finished hypotheses (the
``early_stopping=False`` heuristic: the best running score divided by the current
length) or at ``max_new_tokens``. It returns the best finished hypothesis.

This follows ``GenerationMixin._beam_search`` of ``transformers`` 4.5x-5.x step for
step (Graves 2012; Freitag & Al-Onaizan 2017 for the stopping rule), including its
float32 arithmetic and its ``torch.topk`` tie-breaking, so that
``beam_search(model, ids, k, n)`` equals
``model.generate(ids, num_beams=k, do_sample=False, max_new_tokens=n)``.
The key/value cache is reordered after each step so each step runs one token per beam.

Left out: batches of prompts, sampling inside beams, ``num_return_sequences > 1``,
``early_stopping=True``/``"never"``, diverse and constrained beam search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from nlp_helpers._checks import check_float, check_int
from nlp_helpers.sampling.llm import forward_with_cache

__all__ = ["beam_search"]

_NEG = -1.0e9  # transformers' "impossible" score


def _eos_ids(model: Any, eos_token_id: int | Sequence[int] | None) -> list[int]:
    if eos_token_id is None:
        eos_token_id = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    if eos_token_id is None:
        return []
    ids = [eos_token_id] if isinstance(eos_token_id, int) else list(eos_token_id)
    if not all(isinstance(i, int) and i >= 0 for i in ids):
        raise ValueError(f"eos_token_id must be a non-negative int or a list of them, got {eos_token_id!r}")
    return ids


def beam_search(
    model: Any,
    input_ids: torch.Tensor,
    num_beams: int,
    max_new_tokens: int,
    length_penalty: float = 1.0,
    eos_token_id: int | Sequence[int] | None = None,
) -> torch.Tensor:
    """Token ids ``(1, T + n)`` of the best beam-search sequence, prompt included (``n <= max_new_tokens``).

    ``model``: a Hugging Face causal LM; ``input_ids``: ``(1, T)`` or ``(T,)`` prompt ids;
    ``eos_token_id``: defaults to ``model.generation_config.eos_token_id``. The finished
    hypotheses are ranked by ``sum log p / n ** length_penalty``.
    """
    if not hasattr(model, "get_output_embeddings"):
        raise TypeError(f"model must be a Hugging Face causal LM, got {type(model).__name__}")
    if not isinstance(input_ids, torch.Tensor) or input_ids.dtype not in (torch.int64, torch.int32):
        raise TypeError("input_ids must be an integer torch.Tensor of token ids")
    ids = input_ids.reshape(1, -1) if input_ids.ndim == 1 else input_ids
    if ids.ndim != 2 or ids.shape[0] != 1 or ids.shape[1] == 0:
        raise ValueError(f"input_ids must have shape (1, T) with T >= 1, got {tuple(input_ids.shape)}")
    vocab = model.get_output_embeddings().weight.shape[0]
    if int(ids.min()) < 0 or int(ids.max()) >= vocab:
        raise ValueError(f"input_ids must be token ids in [0, {vocab}), got values up to {int(ids.max())}")
    num_beams = check_int("num_beams", num_beams, minimum=1)
    max_new_tokens = check_int("max_new_tokens", max_new_tokens, minimum=1)
    length_penalty = check_float("length_penalty", length_penalty)
    with torch.no_grad():
        return _beam_search(model, ids.long(), num_beams, max_new_tokens, length_penalty, _eos_ids(model, eos_token_id))


def _beam_search(model, ids, k: int, n: int, penalty: float, eos: list[int]) -> torch.Tensor:
    t0 = ids.shape[1]
    keep = max(2, 1 + len(eos)) * k  # candidates kept per step: enough that k beams survive the finished ones
    eos_t = torch.tensor(eos, dtype=torch.long)
    running = ids.repeat(k, 1)  # (k, t) the live beams
    run_scores = torch.full((k,), _NEG)
    run_scores[0] = 0.0  # all beams start equal: only the first may expand at step 1
    fin_seqs: list[torch.Tensor] = [ids[0]] * k  # finished hypotheses (placeholders until they fill up)
    fin_scores = torch.full((k,), _NEG)
    fin_done = torch.zeros(k, dtype=torch.bool)
    can_improve = True
    cache, cur = None, t0
    while True:
        inp = running if cache is None else running[:, -1:]
        out, cache = forward_with_cache(model, inp, cache)
        log_p = torch.log_softmax(out.logits[:, -1].float(), dim=-1) + run_scores[:, None]  # (k, V)
        top_lp, top_idx = torch.topk(log_p.reshape(-1), keep)  # best (beam, token) pairs overall
        beam, tok = top_idx // log_p.shape[1], top_idx % log_p.shape[1]
        cand = torch.cat([running[beam], tok[:, None]], dim=1)  # (keep, cur + 1)
        hits = torch.isin(tok, eos_t) | (cur + 1 >= t0 + n)  # ends with EOS or reached the length limit
        # The best k candidates that have not finished run on.
        live = top_lp + hits.float() * _NEG
        nxt = torch.topk(live, k)[1]
        running, run_scores, beam_idx = cand[nxt], live[nxt], beam[nxt]
        # Finished candidates among the top k, scored per token, compete with the earlier finished ones.
        fin_lp = top_lp / ((cur + 1 - t0) ** penalty)
        just = hits & (torch.arange(keep) < k)
        fin_lp = fin_lp + float(not can_improve) * _NEG + (~just) * _NEG
        merged = torch.cat([fin_scores, fin_lp])
        best = torch.topk(merged, k)[1]
        pool = fin_seqs + list(cand)
        fin_seqs = [pool[int(i)] for i in best]
        fin_scores, fin_done = merged[best], torch.cat([fin_done, just])[best]
        cache.reorder_cache(beam_idx)  # each cache row follows its beam
        cur += 1
        # Can a running beam still beat the worst finished one? (transformers' early_stopping=False heuristic)
        worst = torch.where(fin_done, fin_scores.min(), torch.tensor(_NEG))
        can_improve = can_improve and bool((run_scores[0] / ((cur - t0) ** penalty) > worst).any())
        if not can_improve or bool(hits.all()):
            return fin_seqs[0][None]
