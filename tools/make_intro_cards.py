"""Write the chapter cards of the landing page (book/intro.md) from the table of contents.

Each chapter in ``_toc.yml`` gets a card with its picture (``book/figures/cards/<slug>.svg``), its title
and a one-line promise (``CARDS`` below). Run after adding a chapter: ``python -m tools.make_intro_cards``.
A test (tests/test_notebooks.py) checks that the landing page has a card for every chapter.
"""

from __future__ import annotations

from pathlib import Path

from tools.toc_notebooks import toc_chapters

ROOT = Path(__file__).resolve().parent.parent
INTRO = ROOT / "book" / "intro.md"
TOC = ROOT / "_toc.yml"
BEGIN, END = "<!-- chapter cards: written by tools/make_intro_cards.py -->", "<!-- end of chapter cards -->"

# slug: (title, one-line promise, alt text of the picture)
CARDS = {
    "words": (
        "Words and text normalization",
        "Cut text into words and sentences with regular expressions, normalize word forms, measure edit distance.",
        "A sentence cut into three coloured word tokens: It, 's and $45.55.",
    ),
    "tokenization": (
        "Subword tokenization",
        "Learn subword vocabularies from data: build byte-pair encoding from scratch and watch it merge.",
        "A word split into three coloured subword pieces.",
    ),
    "ngram": (
        "N-gram language models",
        "Predict the next word from counts; smooth them up to Kneser-Ney and measure perplexity.",
        "A chain of word circles with a question mark for the next word.",
    ),
    "classification": (
        "Text classification",
        "Naive Bayes and logistic regression written out, evaluated honestly, compared with a significance test.",
        "Text snippets sorted into a positive and a negative pile.",
    ),
    "tfidf": (
        "Bag of words and TF-IDF",
        "Weigh words by how telling they are, search documents, and compare with human similarity judgements.",
        "A grid of word weights with a few strong cells.",
    ),
    "word2vec": (
        "word2vec",
        "Train word vectors with skip-gram and negative sampling, and test them on similarity and analogies.",
        "Arrows for word vectors: king minus man plus woman points near queen.",
    ),
    "feedforward": (
        "Neural networks and neural LMs",
        "Backpropagation by hand, checked against autograd; a neural language model against the n-gram one.",
        "A small neural network with two inputs, three hidden units and one output.",
    ),
    "rnn": (
        "RNNs, GRUs and LSTMs",
        "Recurrent cells equal to PyTorch's, vanishing gradients measured, a character language model trained.",
        "A recurrent network unrolled over three time steps.",
    ),
    "tagging": (
        "Sequence labelling",
        "Parts of speech and named entities with an HMM, Viterbi, a CRF and a BiLSTM, on real treebanks.",
        "A Viterbi trellis with the best path drawn through it.",
    ),
    "attention": (
        "Attention and the transformer",
        "One encoder layer computed number by number, then masks, heads, the decoder and word order.",
        "An attention matrix with strong weights on its diagonal.",
    ),
    "llm": (
        "Large language models",
        "A small GPT written out and trained on Shakespeare, and a 2024 LLM's layer recomputed from its weights.",
        "A stack of transformer layers over a row of tokens, predicting the next token.",
    ),
    "bert": (
        "BERT",
        "WordPiece, masked language modelling and next-sentence prediction, real attention heads and word senses.",
        "A sentence with one masked word the model fills in.",
    ),
    "finetuning": (
        "Fine-tuning encoders",
        "Fine-tune a pretrained encoder for classification, named entities, question answering and search.",
        "A pretrained encoder with a small new head on top that outputs a label.",
    ),
    "sampling": (
        "LLM sampling and decoding",
        "Greedy, temperature, top-k, top-p, beam search, speculative and constrained decoding on a real small LLM.",
        "A next-token probability distribution with the top tokens kept.",
    ),
    "llm_training": (
        "Training and evaluating LLMs",
        "Prompt a real small LLM, write out DPO and post-train a small GPT, and evaluate with benchmarks and ratings.",
        "A falling training-loss curve beside two scores with error bars.",
    ),
}


def chapter_slugs() -> list[str]:
    """The chapters of ``_toc.yml`` (``book/<slug>`` or ``book/<slug>/index``), in reading order, without the appendix.

    Only the chapters themselves get cards; their section pages (``sections:`` in ``_toc.yml``) do not.
    """
    return [slug for slug, _ in toc_chapters(TOC)]


def chapter_link(slug: str) -> str:
    """The page a card opens: the chapter page of a chapter with section pages, else the chapter's notebook."""
    return f"{slug}/index" if (ROOT / "book" / slug / "index.md").exists() else slug


def cards_markdown(slugs: list[str]) -> str:
    """The sphinx-design grid of cards for ``slugs``; raises ``KeyError`` naming a chapter without a card."""
    missing = [s for s in slugs if s not in CARDS]
    if missing:
        raise KeyError(f"no card for chapter(s) {missing}: add them to CARDS in tools/make_intro_cards.py")
    lines = [BEGIN, "::::{grid} 1 2 2 3", ":gutter: 3", ""]
    for number, slug in enumerate(slugs, start=1):
        title, promise, alt = CARDS[slug]
        lines += [
            f":::{{grid-item-card}} {number}. {title}",
            f":link: {chapter_link(slug)}",
            ":link-type: doc",
            f":img-top: figures/cards/{slug}.svg",
            f":img-alt: {alt}",
            "",
            promise,
            ":::",
            "",
        ]
    lines += ["::::", END]
    return "\n".join(lines)


def main() -> None:
    text = INTRO.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{INTRO} has no {BEGIN} ... {END} block to fill")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    INTRO.write_text(head + cards_markdown(chapter_slugs()) + tail, encoding="utf-8")


if __name__ == "__main__":
    main()
