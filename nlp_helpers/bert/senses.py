"""Example sentences for two ambiguous English words, *bank* and *stick*, two senses each.

``SENSE_EXAMPLES[word][sense]`` holds four labelled sentences per sense (the "training" examples
of nearest-centroid word-sense disambiguation); ``WSD_TESTS`` holds eight further
``(word, sentence, sense)`` triples to test it on. The sentences were written for the book; each
contains its target word exactly once as a whole word.
"""

from __future__ import annotations

__all__ = ["SENSE_EXAMPLES", "WSD_TESTS"]

SENSE_EXAMPLES: dict[str, dict[str, list[str]]] = {
    "bank": {
        "river": [
            "We walked along the bank of the river after the storm.",
            "The fisherman sat on the muddy bank and watched the water.",
            "Trees along the bank had fallen into the pond.",
            "The canoe drifted toward the grassy bank of the stream.",
        ],
        "money": [
            "I deposited my salary at the bank this morning.",
            "The bank raised its interest rates on loans.",
            "She opened a savings account at a local bank.",
            "The bank refused to lend the company more money.",
        ],
    },
    "stick": {
        "adhere / keep to": [
            "Let's stick to statistics.",
            "We should stick to the plan we agreed on.",
            "Please stick to the facts in your report.",
            "The stamps did not stick to the wet envelope.",
        ],
        "piece of wood": [
            "The dog gets the stick.",
            "He threw a stick into the lake for the dog.",
            "The old man walked with a wooden stick.",
            "She broke a dry stick to start the fire.",
        ],
    },
}

WSD_TESTS: list[tuple[str, str, str]] = [
    ("bank", "The children fished from the bank of the canal.", "river"),
    ("bank", "Heavy rain washed away part of the steep bank.", "river"),
    ("bank", "He asked the bank for a mortgage on the house.", "money"),
    ("bank", "The bank charged a fee for the late payment.", "money"),
    ("stick", "Glue will make the label stick to the bottle.", "adhere / keep to"),
    ("stick", "You should stick with your original answer.", "adhere / keep to"),
    ("stick", "The hiker leaned on a long stick on the steep path.", "piece of wood"),
    ("stick", "The puppy chewed a stick in the garden.", "piece of wood"),
]
