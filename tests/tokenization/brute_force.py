"""Every segmentation of a string, by brute force: the independent reference of the Unigram tests."""

from __future__ import annotations

from collections.abc import Iterator


def segmentations(text: str) -> Iterator[list[str]]:
    """All ways to cut ``text`` into non-empty pieces (2 ** (len(text) - 1) of them), in a fixed order."""
    for cuts in range(2 ** max(len(text) - 1, 0)):
        pieces, start = [], 0
        for i in range(1, len(text)):
            if cuts >> (i - 1) & 1:
                pieces.append(text[start:i])
                start = i
        yield [*pieces, text[start:]]
