"""Any task as next-token prediction: zero- and few-shot classification with an instruct LLM.

A classification task becomes a chat: a system message states the task, each *demonstration* (a solved
example) is a user turn holding the input and an assistant turn holding its label word, and the item to
classify is a last user turn followed by the start of an assistant turn. The model's answer is read off
its next-token distribution at that point: the label whose word's first token has the highest
log-probability wins. No text is generated and no weight changes.

* :func:`chat_text`: the ChatML chat template of SmolLM2, written out (equal to
  ``tokenizer.apply_chat_template(..., tokenize=False)``).
* :func:`prompt_messages`: the chat for one item, with ``k`` demonstrations.
* :func:`draw_demonstrations`: ``k`` demonstrations drawn at random from a training set, labels balanced.
* :func:`label_log_probs`: the log-probabilities of the label words' first tokens after a prompt.
* :func:`classify`: many items with the same demonstrations; the shared prefix (system message and
  demonstrations) is run once and its key/value cache reused, items run in batches, which gives the
  same scores as running every full prompt (to float32 rounding) in a fraction of the time.
* :func:`prompting_study`: the stored zero- versus few-shot study of ``benchmarks/sampling_prompting.py``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from nlp_helpers._checks import check_int, check_nonempty, check_text
from nlp_helpers.sampling.llm import forward_with_cache

if TYPE_CHECKING:  # imported lazily: torch and pandas take seconds to import
    import pandas as pd

__all__ = [
    "DEFAULT_SYSTEM",
    "INSTRUCTION",
    "LABEL_WORDS",
    "STUDY_FILE",
    "chat_text",
    "classify",
    "draw_demonstrations",
    "label_log_probs",
    "label_token_ids",
    "polarity_test_sample",
    "prompt_messages",
    "prompting_study",
]

LABEL_WORDS = ("negative", "positive")  # label 0, label 1
INSTRUCTION = "Classify the sentiment of each movie review. Answer with one word: positive or negative."
# The system message SmolLM2's template inserts when a chat does not start with one.
DEFAULT_SYSTEM = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"
STUDY_FILE = Path(__file__).with_name("prompting_study.json")  # benchmarks/sampling_prompting.py
_ROLES = ("system", "user", "assistant")


def chat_text(messages: Sequence[dict[str, str]], add_generation_prompt: bool = True) -> str:
    """Write a chat in SmolLM2's ChatML template: ``<|im_start|>role\\ncontent<|im_end|>\\n`` per turn.

    ``messages`` is a non-empty sequence of ``{"role": "system" | "user" | "assistant", "content": str}``.
    If the first message is not a system message, the template's default one is put first. With
    ``add_generation_prompt`` the text ends with ``<|im_start|>assistant\\n``, where the model answers.
    """
    messages = check_nonempty("messages", messages)
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or set(message) != {"role", "content"}:
            raise TypeError(f"messages[{i}] must be a dict with the keys 'role' and 'content', got {message!r}")
        if message["role"] not in _ROLES:
            raise ValueError(f"messages[{i}]['role'] must be one of {_ROLES}, got {message['role']!r}")
        check_text(f"messages[{i}]['content']", message["content"])
    return _chat_text(messages, add_generation_prompt)


def _chat_text(messages: Sequence[dict[str, str]], add_generation_prompt: bool) -> str:
    turns = list(messages)
    if turns[0]["role"] != "system":
        turns.insert(0, {"role": "system", "content": DEFAULT_SYSTEM})
    text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in turns)
    return text + ("<|im_start|>assistant\n" if add_generation_prompt else "")


def _check_demonstrations(demonstrations: Any, label_words: Sequence[str]) -> list[tuple[str, int]]:
    if isinstance(demonstrations, (str, bytes)) or not isinstance(demonstrations, Sequence):
        raise TypeError(
            f"demonstrations must be a sequence of (text, label) pairs, got {type(demonstrations).__name__}"
        )
    pairs = []
    for i, pair in enumerate(demonstrations):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"demonstrations[{i}] must be a (text, label) pair, got {pair!r}")
        text = check_text(f"demonstrations[{i}][0]", pair[0], allow_empty=False)
        label = check_int(f"demonstrations[{i}][1]", pair[1], minimum=0, maximum=len(label_words) - 1)
        pairs.append((text, label))
    return pairs


def _check_label_words(label_words: Any) -> tuple[str, ...]:
    words = check_nonempty("label_words", label_words)
    if len(words) < 2:
        raise ValueError(f"label_words must name at least 2 labels, got {words!r}")
    for i, word in enumerate(words):
        check_text(f"label_words[{i}]", word, allow_empty=False)
    return tuple(words)


def prompt_messages(
    text: str,
    demonstrations: Sequence[tuple[str, int]] = (),
    *,
    instruction: str = INSTRUCTION,
    label_words: Sequence[str] = LABEL_WORDS,
) -> list[dict[str, str]]:
    """The chat that asks for the label of ``text``, after ``k = len(demonstrations)`` solved examples.

    A system message holds ``instruction``; each demonstration ``(text, label)`` (``label`` an int
    indexing ``label_words``) is a user turn ``"Review: <text>"`` and an assistant turn with its label
    word; the last user turn is ``"Review: <text>"``. ``k = 0`` is zero-shot prompting.
    """
    text = check_text("text", text, allow_empty=False)
    instruction = check_text("instruction", instruction, allow_empty=False)
    label_words = _check_label_words(label_words)
    pairs = _check_demonstrations(demonstrations, label_words)
    return _messages(text, pairs, instruction, label_words)


def _messages(text: str, pairs: list[tuple[str, int]], instruction: str, words: Sequence[str]) -> list[dict]:
    chat = [{"role": "system", "content": instruction}]
    for demo, label in pairs:
        chat += [{"role": "user", "content": f"Review: {demo}"}, {"role": "assistant", "content": words[label]}]
    return chat + [{"role": "user", "content": f"Review: {text}"}]


def draw_demonstrations(
    texts: Sequence[str], labels: Sequence[int], k: int, rng: np.random.Generator
) -> list[tuple[str, int]]:
    """Draw ``k`` demonstrations from ``(texts, labels)`` (binary labels 0/1), balanced and shuffled.

    ``k // 2`` items of each label; when ``k`` is odd the extra item's label is drawn at random
    (equal chances). The order of the demonstrations is shuffled. Draws are without replacement.
    """
    k = check_int("k", k, minimum=0)
    texts = list(texts)
    labels = np.asarray(labels)
    if labels.ndim != 1 or len(labels) != len(texts):
        raise ValueError(f"labels must be 1-D with one label per text ({len(texts)}), got shape {labels.shape}")
    if not np.isin(labels, (0, 1)).all():
        raise ValueError("labels must be 0 or 1")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator (nlp_helpers.seeds.rng), got {type(rng).__name__}")
    wanted = [0, 1] * (k // 2) + ([int(rng.integers(2))] if k % 2 else [])
    for label in (0, 1):
        if wanted.count(label) > (labels == label).sum():
            raise ValueError(
                f"k={k} needs {wanted.count(label)} texts of label {label}, found {(labels == label).sum()}"
            )
    picks = [rng.choice(np.flatnonzero(labels == lab), size=wanted.count(lab), replace=False) for lab in (0, 1)]
    chosen = [(texts[int(i)], lab) for lab in (0, 1) for i in picks[lab]]
    return [chosen[int(i)] for i in rng.permutation(len(chosen))]


def label_token_ids(tokenizer: Any, label_words: Sequence[str] = LABEL_WORDS) -> list[int]:
    """The first token id of each label word (as the first text of an assistant turn, so no leading space).

    Raises ``ValueError`` if two label words start with the same token: their scores could not differ.
    """
    label_words = _check_label_words(label_words)
    ids = [tokenizer.encode(word, add_special_tokens=False)[0] for word in label_words]
    if len(set(ids)) < len(ids):
        raise ValueError(f"label_words must start with distinct tokens, got ids {ids} for {label_words}")
    return ids


def label_log_probs(model: Any, tokenizer: Any, prompt: str, label_words: Sequence[str] = LABEL_WORDS) -> np.ndarray:
    """log P(first token of each label word | ``prompt``) under ``model``: a float64 array, one per label.

    ``prompt`` is the full text (for a chat, :func:`chat_text` with the generation prompt). The
    log-probabilities are over the whole vocabulary (log-softmax of all logits at the last position).
    """
    prompt = check_text("prompt", prompt, allow_empty=False)
    ids = label_token_ids(tokenizer, label_words)
    return _label_log_probs(model, _encode(tokenizer, prompt), ids)


def _encode(tokenizer: Any, text: str) -> Any:
    return tokenizer(text, return_tensors="pt", add_special_tokens=False)["input_ids"]


def _label_log_probs(model: Any, input_ids: Any, label_ids: list[int], cache: Any = None) -> np.ndarray:
    import torch

    with torch.no_grad():
        out, _ = forward_with_cache(model, input_ids, cache)
        log_probs = torch.log_softmax(out.logits[0, -1].double(), dim=-1)
    return log_probs[label_ids].numpy()


def classify(
    model: Any,
    tokenizer: Any,
    texts: Sequence[str],
    demonstrations: Sequence[tuple[str, int]] = (),
    *,
    instruction: str = INSTRUCTION,
    label_words: Sequence[str] = LABEL_WORDS,
    batch_size: int = 8,
) -> pd.DataFrame:
    """Classify every text of ``texts`` by prompting with the same ``demonstrations``.

    Returns a DataFrame with one row per text: ``log p(<word>)`` for each label word, ``prediction``
    (the index of the label with the highest log-probability) and ``prompt tokens`` (the full prompt's
    length). The shared prefix is run once and its key/value cache copied for every batch of
    ``batch_size`` items (padded on the right, which the causal mask makes harmless).
    """
    import pandas as pd

    texts = [check_text(f"texts[{i}]", t, allow_empty=False) for i, t in enumerate(check_nonempty("texts", texts))]
    label_words = _check_label_words(label_words)
    pairs = _check_demonstrations(demonstrations, label_words)
    check_text("instruction", instruction, allow_empty=False)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    ids = label_token_ids(tokenizer, label_words)
    scores, lengths = _classify(model, tokenizer, texts, pairs, instruction, label_words, ids, batch_size)
    frame = pd.DataFrame(scores, columns=[f"log p({w})" for w in label_words])
    frame["prediction"] = scores.argmax(axis=1)
    frame["prompt tokens"] = lengths
    return frame


def _classify(model, tokenizer, texts, pairs, instruction, words, ids, batch_size) -> tuple[np.ndarray, list[int]]:
    import copy

    import torch

    full = _chat_text(_messages("x", pairs, instruction, words), True)
    prefix = full[: full.rindex("<|im_start|>user\n")]  # ends with "<|im_end|>\n": a token boundary
    prefix_ids = _encode(tokenizer, prefix)
    decoder, head = model.get_decoder(), model.get_output_embeddings()
    with torch.no_grad():
        _, cache = forward_with_cache(decoder, prefix_ids)  # the demonstrations, run once
        suffixes = [
            _encode(tokenizer, _chat_text(_messages(t, pairs, instruction, words), True)[len(prefix) :])[0]
            for t in texts
        ]
        scores = []
        for start in range(0, len(texts), batch_size):
            chunk = suffixes[start : start + batch_size]
            ends = torch.tensor([len(s) - 1 for s in chunk])
            # Padding on the right changes nothing before it: the causal mask hides later positions.
            batch = torch.nn.utils.rnn.pad_sequence(chunk, batch_first=True, padding_value=0)
            chunk_cache = copy.deepcopy(cache)
            chunk_cache.batch_repeat_interleave(len(chunk))
            out, _ = forward_with_cache(decoder, batch, chunk_cache)
            last = out.last_hidden_state[torch.arange(len(chunk)), ends]  # (B, d_model), already normed
            scores.append(torch.log_softmax(head(last).double(), dim=-1)[:, ids].numpy())
    return np.concatenate(scores), [prefix_ids.shape[1] + len(s) for s in suffixes]


def polarity_test_sample(n_per_label: int = 50) -> pd.DataFrame:
    """A fixed, balanced sample of the polarity test split: its first ``n_per_label`` items of each label.

    The test split is already shuffled (:func:`nlp_helpers.data.polarity.polarity_split`); the sample
    keeps the split's order and index (so other systems' test predictions can be aligned with it).
    A data definition: it does not depend on any seed.
    """
    from nlp_helpers.data.polarity import polarity_split

    n_per_label = check_int("n_per_label", n_per_label, minimum=1, maximum=1066)
    test = polarity_split()["test"]
    keep = test.groupby("label").cumcount() < n_per_label
    return test[keep]


def prompting_study() -> dict[str, Any]:
    """The zero- versus few-shot study stored by ``benchmarks/sampling_prompting.py``.

    Returns ``{"about": str, "setup": dict, "runs": DataFrame}``. ``setup`` holds the number of test
    items and the accuracies of the majority baseline and of logistic regression on them; ``runs`` has
    one row per (k, seed) (k = 0 once, seed None): ``k``, ``seed``, ``accuracy``, ``se`` (its standard
    error over the test items), ``share positive``, ``prompt tokens`` (mean prompt length), ``seconds``
    and ``margins`` (per item, log p(positive) - log p(negative), in the sample's order).
    """
    import pandas as pd

    if not STUDY_FILE.is_file():
        raise FileNotFoundError(f"{STUDY_FILE} is missing: run python -m benchmarks.sampling_prompting")
    stored = json.loads(STUDY_FILE.read_text(encoding="utf-8"))
    return stored | {"runs": pd.DataFrame(stored["runs"])}
