"""A tiny, randomly initialised ``transformers`` causal LM for tests that compare with ``generate``.

Several chapters' helpers (beam search, speculative decoding, the sampling-tree widget) are checked
against Hugging Face's own decoding on the same model; a real model would be slow, so the tests share
this one, built offline from a config.
"""

from __future__ import annotations

from typing import Any

import torch


def tiny_llama(*, seed: int = 0, vocab_size: int = 40, layers: int = 2, dtype: Any = torch.float32, **config: Any):
    """A random ``LlamaForCausalLM`` in eval mode: hidden size 32, 4 heads (2 key/value heads) unless ``config`` says otherwise."""
    from transformers import LlamaConfig, LlamaForCausalLM

    settings = dict(hidden_size=32, intermediate_size=64, num_attention_heads=4, num_key_value_heads=2, pad_token_id=0)
    torch.manual_seed(seed)
    cfg = LlamaConfig(vocab_size=vocab_size, num_hidden_layers=layers, **{**settings, **config})
    return LlamaForCausalLM(cfg).to(dtype).eval()


def sharp_tiny_gpt(*, seed: int = 0, vocab_size: int = 13):
    """A random two-block ``TinyGPT`` (context 8, width 16) whose weights are scaled by 10 and in eval mode.

    Scaled weights make its predictions far from uniform, so the tests of the bits-per-character
    helpers can see whether the context a position was scored with matters.
    """
    from nlp_helpers.llm.gpt import TinyGPT, TinyGPTConfig

    torch.manual_seed(seed)
    model = TinyGPT(TinyGPTConfig(vocab_size=vocab_size, block_size=8, n_layers=2, n_heads=2, d_model=16))
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(10)
    return model.eval()
