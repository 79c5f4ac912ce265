"""The tools follow chapters made of section pages (``book/<slug>/index.md`` + ``book/<slug>/<page>.ipynb``):
the table of contents, the page template, student copies and the landing page's cards."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tools import make_intro_cards, reader_path
from tools.notebooks import SETUP_SOURCE, is_clean, student_path
from tools.section_page import new_page, section_page
from tools.toc_notebooks import toc_chapters

TOC = """\
format: jb-book
root: book/intro
parts:
  - caption: Chapters
    numbered: true
    chapters:
      - file: book/alpha
      - file: book/beta/index
        sections:
          - file: book/beta/first
          - file: book/beta/second
            sections:
              - file: book/beta/deeper
  - caption: Appendix
    chapters:
      - file: book/appendix/notes
"""


@pytest.fixture
def book(tmp_path: Path) -> Path:
    (tmp_path / "_toc.yml").write_text(TOC, encoding="utf-8")
    for name in ("alpha", "beta/first", "beta/second", "beta/deeper", "appendix/notes"):
        path = tmp_path / "book" / f"{name}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nbformat.v4.new_notebook(), path)
    (tmp_path / "book" / "beta" / "index.md").write_text("# Beta\n", encoding="utf-8")
    return tmp_path


def test_chapters_of_section_pages_are_read_from_nested_sections(book):
    chapters = toc_chapters(book / "_toc.yml", root=book)
    assert [(slug, [p.relative_to(book).as_posix() for p in pages]) for slug, pages in chapters] == [
        ("alpha", ["book/alpha.ipynb"]),
        ("beta", ["book/beta/first.ipynb", "book/beta/second.ipynb", "book/beta/deeper.ipynb"]),
    ]


def test_student_copies_keep_their_place_so_pages_never_clash(tmp_path):
    book = Path(make_intro_cards.ROOT) / "book"
    out = {student_path(tmp_path, book / f"{c}/evaluation.ipynb") for c in ("ngram", "classification")}
    assert out == {tmp_path / "ngram" / "evaluation.ipynb", tmp_path / "classification" / "evaluation.ipynb"}
    assert student_path(tmp_path, book / "tokenization.ipynb") == tmp_path / "tokenization.ipynb"


def test_a_card_opens_the_chapter_page_of_a_chapter_with_sections(book, monkeypatch):
    monkeypatch.setattr(make_intro_cards, "ROOT", book)
    monkeypatch.setitem(make_intro_cards.CARDS, "alpha", ("Alpha", "a", "picture of a"))
    monkeypatch.setitem(make_intro_cards.CARDS, "beta", ("Beta", "b", "picture of b"))
    cards = make_intro_cards.cards_markdown(["alpha", "beta"])
    assert ":link: alpha\n" in cards and ":link: beta/index\n" in cards


def test_the_template_page_passes_every_check_and_runs(tmp_path):
    message = new_page("demo_chapter", "first_steps", "First steps", root=tmp_path)
    path = tmp_path / "book" / "demo_chapter" / "first_steps.ipynb"
    assert "- file: book/demo_chapter/index" in message and "- file: book/demo_chapter/first_steps" in message
    assert (tmp_path / "book" / "demo_chapter" / "index.md").read_text().count("{doc}`first_steps`") == 1
    nb = nbformat.read(path, as_version=4)
    assert is_clean(nb) and nb.cells[0].source == SETUP_SOURCE
    # the course's cross-references live in the appendix (book/appendix/course_notes.md), never on a page
    assert not any("course-notes" in c.source or "For students of the course" in c.source for c in nb.cells)
    m, failures = reader_path.notebook_failures(nb)
    assert failures == [] and m.main_words > 50 and m.main_code > 0
    namespace: dict = {}
    for cell in nb.cells[1:]:  # the setup cell is IPython (a %pip line); the rest is plain Python
        if cell.cell_type == "code":
            exec(compile(cell.source, str(path), "exec"), namespace)  # noqa: S102 - our own template
    quick = eval(compile(nb.cells[-1].source.split("\n\n", 1)[1], str(path), "eval"), namespace)  # noqa: S307
    assert quick.check_id == "demo-chapter-first-steps"
    assert quick.judge(1, 2 / 6) == (True, quick.questions[1]["explanation"]) and not quick.judge(0, 0)[0]
    with pytest.raises(FileExistsError):
        new_page("demo_chapter", "first_steps", "Again", root=tmp_path)


def test_the_template_is_formatted_as_the_book_formats_notebooks(tmp_path):
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    path = tmp_path / "page.ipynb"
    nbformat.write(section_page("demo", "page", "A page"), path)
    config = make_intro_cards.ROOT / "book" / "ruff.toml"
    run = subprocess.run(
        [ruff, "format", "--check", "--config", str(config), str(path)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(("slug", "page", "title"), [("Bad", "p", "T"), ("ok", "a-b", "T"), ("ok", "p", " ")])
def test_the_template_refuses_bad_names(slug, page, title):
    with pytest.raises(ValueError, match="slug|page|title"):
        section_page(slug, page, title)
