"""Every segmentation of a string, by brute force: the independent reference of the Unigram tests.

Written recursively (a first piece, then every segmentation of the rest), not with the bit masks of the
package and of the exercise checker, so that a mistake shared by those two does not hide here.
"""

from __future__ import annotations

from collections.abc import Iterator


def segmentations(text: str) -> Iterator[list[str]]:
    """All ways to cut ``text`` into non-empty pieces (2 ** (len(text) - 1) of them)."""
    if not text:
        yield []
        return
    for end in range(1, len(text) + 1):
        for rest in segmentations(text[end:]):
            yield [text[:end], *rest]
