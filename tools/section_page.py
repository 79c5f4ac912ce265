"""The section-page template (CONTRIBUTING.md, "Section pages: the reader's path").

``python -m tools.notebooks new-page SLUG PAGE "Title"`` writes ``book/SLUG/PAGE.ipynb`` from
:func:`section_page` (and ``book/SLUG/index.md`` from :func:`chapter_index` if the chapter has none).
The template runs as it is and passes every reader's-path check (``tests/test_reader_path.py`` proves
both), so a new page starts valid: replace its example with the lesson, keeping the shape.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

from tools.notebooks import clean

ROOT = Path(__file__).resolve().parent.parent
_NAME = re.compile(r"^[a-z0-9_]+$")

OPENER = """\
({label})=
# {title}

:::{{admonition}} On this page
:class: page-opener
- **You will learn:** what this page teaches, in one line (a reader decides from it whether to read on).
- **You need:** {{doc}}`index` (link each page this one builds on, and say what from it).
- **Time:** about 20 minutes to read and run the page.
:::

Open with the question this page answers, in a short paragraph of the book's own words."""

IDEA = """\
## Counting words

Teach one idea at a time: a short paragraph, then a short cell the reader can run and change, first on a
small example. Cite published sources with {cite}`jurafsky2025slp3` rather than a course's notes."""

CODE = """\
sentence = "the cat sat on the mat"
counts = {}
for word in sentence.split():
    counts[word] = counts.get(word, 0) + 1
counts"""

CHECK = """\
# Hidden from the reader: assert every number the prose states, and that the code
# written out above equals the package's helper on the same input.
from collections import Counter

assert counts == Counter(sentence.split())
assert counts["the"] == 2"""

PITFALL = """\
Every number in the prose comes from the code above it (quote it with `glue`).

:::{note} Common pitfall
A mistake readers often make on their own with this idea, and how to see it in the code above. Keep the
page about the idea itself: what only one course's students need (where their syllabus teaches a topic,
errata of their handouts) belongs in the appendix `book/appendix/course_notes.md`, never on a chapter page.
:::"""

FURTHER = """\
## Going further: where the optional depth goes

A detour a reader may skip (a proof, a measurement over seeds, a historical note) goes under a heading
that starts with "Going further". It does not count towards the main path."""

SUMMARY = """\
## Summary

- The key ideas of the page, one line each.
- What the reader can now do, and where the next page takes it (link it with {doc}`index`)."""

QUICK_HEADING = "## Quick checks"

QUICK = """\
from nlp_helpers.widgets.quick_check import Choice, Numeric, QuickCheck

QuickCheck(
    "{check_id}",
    [
        Choice(
            "Which word of the sentence is counted twice?",
            options=["cat", "the", "mat"],
            answer=1,
            feedback=[
                "`cat` appears once.",
                "`the` opens the sentence and comes back before `mat`.",
                "`mat` appears once, at the end.",
            ],
        ),
        Numeric(
            "What share of the sentence's tokens is the word `the`? (to 2 decimals)",
            answer=counts["the"] / sum(counts.values()),
            tolerance=0.005,
            explanation="2 of the 6 tokens are `the`: 2 / 6 = 0.33.",
            mistakes=[(2 / 5, "Divided by 5 distinct words, not 6 tokens.")],
        ),
    ],
)"""


def section_page(slug: str, page: str, title: str) -> nbformat.NotebookNode:
    """A clean section-page notebook for ``book/<slug>/<page>.ipynb`` that runs and passes the checks."""
    for name, value in (("slug", slug), ("page", page)):
        if not isinstance(value, str) or not _NAME.match(value):
            raise ValueError(f"{name} must be lower-case letters, digits and underscores, got {value!r}")
    if not isinstance(title, str) or not title.strip():
        raise ValueError(f"title must be a non-empty string, got {title!r}")
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    check_id = f"{slug}-{page}".replace("_", "-")
    cells = [
        md(OPENER.format(label=check_id, title=title.strip())),
        md(IDEA),
        code(CODE),
        code(CHECK, metadata={"tags": ["remove-cell"]}),
        md(PITFALL),
        md(FURTHER),
        md(SUMMARY),
        md(QUICK_HEADING),
        code(QUICK.format(check_id=check_id), metadata={"tags": ["remove-input"]}),
    ]
    return clean(nbformat.v4.new_notebook(cells=cells))


def chapter_index(slug: str, title: str, first_page: str) -> str:
    """The chapter page ``book/<slug>/index.md``: what the chapter is about and its pages in reading order."""
    return f"""({slug.replace("_", "-")})=
# {title}

One or two paragraphs on what this chapter is about and why it matters.

**Before you start:** say which earlier chapters the reader needs, with links.

The chapter's pages, in reading order (each runs on its own in a fresh kernel):

- {{doc}}`{first_page}`: one sentence on what the reader does there.
"""


def new_page(slug: str, page: str, title: str, root: Path = ROOT) -> str:
    """Write ``book/<slug>/<page>.ipynb`` (and the chapter's ``index.md`` if missing); return what to do next."""
    folder = root / "book" / slug
    path = folder / f"{page}.ipynb"
    if path.exists():
        raise FileExistsError(f"{path} exists: choose another page name")
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(section_page(slug, page, title), path)
    index = folder / "index.md"
    made = [str(path.relative_to(root))]
    if not index.exists():
        index.write_text(chapter_index(slug, slug.replace("_", " ").capitalize(), page), encoding="utf-8")
        made.append(str(index.relative_to(root)))
    return (
        f"wrote {', '.join(made)}\n"
        f"In _toc.yml the chapter reads:\n"
        f"      - file: book/{slug}/index\n"
        f"        sections:\n"
        f"          - file: book/{slug}/{page}\n"
        f"Then list the page in book/{slug}/index.md, and run `python -m tools.make_intro_cards`."
    )
