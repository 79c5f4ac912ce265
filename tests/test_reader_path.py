"""The reader's path (CONTRIBUTING.md, "Section pages"): every page of the book is short, opens with what the
reader learns, ends with a summary and quick checks, and talks to the reader, not to us.

The checks live in ``tools/reader_path.py`` (notebooks) and ``tools/reader_path_html.py`` (the built page,
run on the real build by ``tests/browser/test_reader_path_html.py``). Here they run on every notebook of
``_toc.yml`` and, first, on small synthetic pages, so each check is seen to fail on a page that breaks it.
Pages in ``tests/reader_path_allowlist.txt`` have their failures reported as warnings (in pytest's
summary), not raised; the allowlist may only shrink.
"""

from __future__ import annotations

import itertools
import textwrap

import nbformat
import numpy as np
import pytest
from bs4 import BeautifulSoup
from PIL import Image

from tools import page_time as pt
from tools import reader_path as rp
from tools import reader_path_html as rh
from tools.classroom.exercises import MINUTES
from tools.notebooks import setup_cell

# The pages not yet converted when the checks arrived. Entries may leave the allowlist, never join it.
ORIGINAL_ALLOWLIST = frozenset(
    f"book/{slug}.ipynb"
    for slug in ("tokenization ngram tfidf word2vec feedforward rnn tagging attention bert sampling decoding".split())
)
PAGES = rp.pages()
ALLOWED = rp.read_allowlist()


# ---------------------------------------------------------------- synthetic pages: each check can fail
def md(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(text)


def code(text: str, *tags: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_code_cell(text, metadata={"tags": list(tags)} if tags else {})


OPENER = """# A page

:::{admonition} On this page
:class: page-opener
- **You will learn:** how to count.
- **You need:** {doc}`intro`.
- **Time:** about 20 minutes to read and run the page.
:::
"""
QUICK = 'QuickCheck("demo-page", [Numeric("One?", answer=1.0, tolerance=0.1, explanation="one")])'


def good_page(**replace: nbformat.NotebookNode) -> nbformat.NotebookNode:
    cells = {
        "opener": md(OPENER),
        "prose": md("Counting words is the first step. " * 10),
        "code": code("counts = {}\nfor w in 'a b a'.split():\n    counts[w] = counts.get(w, 0) + 1"),
        "further": md("## Going further: more counting\n\n" + "Optional depth. " * 20),
        "summary": md("## Summary\n\n- Words can be counted."),
        "checks": md("## Quick checks"),
        "quick": code(QUICK, "remove-input"),
    }
    cells.update(replace)
    return nbformat.v4.new_notebook(cells=[setup_cell(), *cells.values()])


def failures(nb: nbformat.NotebookNode) -> list[str]:
    return rp.notebook_failures(nb)[1]


def test_the_model_page_passes_every_notebook_check():
    assert failures(good_page()) == []


def test_main_path_leaves_out_going_further_and_the_closing_sections():
    nb = good_page(
        further=md("## Going further: depth\n\n" + "word " * 3000 + "\n\n### A subsection\n\n" + "word " * 100),
        summary=md("## Summary\n\n" + "word " * 50),
    )
    m, bad = rp.notebook_failures(nb)
    assert m.main_words < 300 and m.words > 3150
    assert bad == []


@pytest.mark.parametrize(
    ("replace", "expected"),
    [
        ({"prose": md("word " * 3600)}, "3,6"),  # 3,6xx words on the main path (limit 3,500)
        ({"code": code("x = 1\n" * 351)}, "351 lines of visible code on the main path"),
        ({"further": md("## Going further: x\n\n" + "word " * 4600)}, "on the whole page (limit 4,500)"),
        ({"further": code("x = 1\n" * 451)}, "on the whole page (limit 450)"),
        ({"opener": md("# A page\n\nNo opener.")}, "no `page-opener`"),
        (
            {"opener": md(OPENER.replace("- **Time:** about 20 minutes to read and run the page.\n", ""))},
            "lacks 'Time'",
        ),
        ({"summary": md("## In short\n\n- x")}, "no `## Summary`"),
        ({"checks": md("## Self-test")}, "no `## Quick checks`"),
        ({"quick": code(QUICK)}, "no code cell tagged remove-input"),
        ({"prose": md("As the lecture notes say, counting helps.")}, "'lecture notes'"),
        ({"prose": md("A hidden cell checks this number.")}, "'hidden cell'"),
        ({"prose": md("As the slides show, counting helps.")}, "'slides'"),
        ({"prose": md("Slide 12 has a typo.")}, "'slide'"),
        ({"prose": md("The script `benchmarks/bench_x.py` measures it.")}, "'benchmarks/'"),
        ({"prose": md("See issue 26 for details.")}, "'issue 26'"),
        ({"code": code("x = 1  # differs with NLP_SEED_OFFSET")}, "in a code comment"),
        ({"code": code("x = 1  # the seed offset changes this")}, "in a code comment"),
        ({"prose": md("We return to this later in the chapter.")}, "without a link"),
        ({"prose": md("The idea comes back in the section on smoothing.")}, "without a link"),
    ],
)
def test_each_check_fails_on_a_page_that_breaks_it(replace, expected):
    bad = failures(good_page(**replace))
    assert any(expected in f for f in bad), bad


def test_what_the_checks_allow():
    aside = md(
        "Counting.\n\n:::{admonition} For students of the course\n:class: dropdown course-notes\n"
        "The lecture notes write this with a slide of their own.\n:::\n\nMore counting."
    )
    linked = md(
        "We return to this in {ref}`smoothing`, later in this chapter. The window slides along; a label such as ex-slide-norm is fine."
    )
    hidden = code("# a hidden cell checks: the slides say 0.5\nassert True", "remove-cell")
    assert failures(good_page(prose=aside, code=hidden, further=linked)) == []
    # code hidden from the reader does not count as visible code
    assert failures(good_page(code=code("x = 1\n" * 400, "hide-input"))) == []


# ---------------------------------------------------------------- the opener's Time line (tools/page_time.py)
def exercise(title: str) -> nbformat.NotebookNode:
    label = "demo-ex-" + "".join(ch for ch in title.lower() if ch.isalnum())
    return md(f"```{{exercise}} {title}\n:label: {label}\n\nWrite it.\n```")


def timed_page(time: str, *titles: str, **replace: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The model page with ``time`` as its Time line and one exercise per title after its quick checks."""
    opener = md(OPENER.replace("- **Time:** about 20 minutes to read and run the page.", f"- **Time:** {time}"))
    exercises = {f"exercise{i}": exercise(t) for i, t in enumerate(titles)}
    return good_page(opener=opener, **replace, **exercises)


CLIMB = ("Counting by hand (easy)", "Counting in code (medium)", "A counter of your own (hard)")
GOOD_TIME = (
    "about 35 minutes: 5 to read and run the page, 30 for the easy and medium exercises; the hard exercise "
    "is optional depth (about 40 minutes more)."
)


def test_an_honest_time_line_passes():
    assert failures(timed_page(GOOD_TIME, *CLIMB)) == []
    wrapped = GOOD_TIME.replace("; the hard exercise ", "; the hard exercise\n  ")  # wrapped, indented two spaces
    assert failures(timed_page(wrapped, *CLIMB)) == []
    # a directive after a heading in the same cell counts too (the line names it: a page without it would fail)
    headed = md("## Exercises\n\n" + exercise("Counting by hand (easy)").source)
    nb = timed_page("about 15 minutes: 5 to read and run the page, 10 for the easy exercise.", ex=headed)
    assert pt.page_exercises(nb) == [pt.PageExercise("Counting by hand (easy)", "easy")]
    assert failures(nb) == []


@pytest.mark.parametrize(
    ("time", "expected"),
    [
        (
            GOOD_TIME.replace("about 35", "about 30"),
            "Time says 30 minutes but reading (5) + exercises included (30) is 35",
        ),
        (
            "about 35 minutes: 5 to read and run the page, 30 for the easy and medium exercises.",
            "does not name the hard exercise as optional depth (about 40 minutes more)",
        ),
        ("about 75 minutes: 5 to read and run the page, 70 for the easy, medium and hard exercises.", "more than 60"),
        (
            "about 25 minutes: 5 to read and run the page, 20 for the medium exercise; the easy exercise and the "
            "hard one are optional depth (about 50 minutes more).",
            "the easy exercise 'Counting by hand (easy)' is called optional",
        ),
        (
            GOOD_TIME.replace("30 for", "20 for"),
            "gives 20 minutes for the easy and medium exercises, but they take 30 (10 + 20)",
        ),
        (GOOD_TIME.replace("about 40 minutes more", "about 30 minutes more"), "30 minutes more, but they take 40"),
        (
            GOOD_TIME.replace("the hard exercise is", "the medium exercise is"),
            "but the exercises left out are the hard exercise",
        ),
        (GOOD_TIME.replace("the hard exercise is", "the hard exercise are"), "should read"),
        (
            GOOD_TIME.replace("the easy and medium exercises", "the first exercises"),
            "names no set of this page's exercises",
        ),
        ("about 60 minutes, with the three exercises", "does not follow the template"),
        ("about 20 minutes to read and run the page.", "does not follow the template"),  # the page has exercises
    ],
)
def test_each_broken_time_rule_is_reported(time, expected):
    bad = failures(timed_page(time, *CLIMB))
    assert any(expected in f for f in bad), bad


def test_reading_under_the_floor_is_reported():
    # 3,000 words and 3 code lines on the main path: 15 + 0.15 minutes, to the nearest 5: 15
    long = {"prose": md("word " * 3000)}
    bad = failures(timed_page(GOOD_TIME, *CLIMB, **long))
    assert any("Time gives 5 minutes to read and run the page, under the floor of 15" in f for f in bad), bad
    fine = GOOD_TIME.replace("about 35 minutes: 5", "about 45 minutes: 15")
    assert failures(timed_page(fine, *CLIMB, **long)) == []


def test_a_page_without_easy_exercises_includes_its_first():
    time = (
        "about 45 minutes: 5 to read and run the page, 40 for the hard exercise; the medium exercise is optional "
        "depth (about 20 minutes more)."
    )
    bad = failures(timed_page(time, "Counting in code (medium)", "A counter of your own (hard)"))
    assert any("the first exercise 'Counting in code (medium)' is called optional" in f for f in bad), bad


def test_an_exercise_without_a_difficulty_is_reported():
    bad = failures(timed_page(GOOD_TIME, "Easy: counting by hand", *CLIMB[1:]))
    assert any("'Easy: counting by hand' names no difficulty" in f for f in bad), bad


def test_a_page_without_exercises_says_only_its_reading_time():
    assert failures(timed_page("about 20 minutes to read and run the page.")) == []
    bad = failures(timed_page("about 20 minutes: 20 to read and run the page, 0 for the exercises."))
    assert any("does not follow the template" in f for f in bad), bad


def test_exercises_are_named_by_difficulty_one_name_per_set():
    ex = [pt.PageExercise(f"e{i}", d) for i, d in enumerate(("easy", "medium", "medium", "hard"))]
    assert pt.describe(ex, {0, 1, 2}) == "the easy and medium exercises"
    assert pt.describe(ex, {0, 1}) == "the easy exercise and the first medium one"
    assert pt.describe(ex, {2, 3}) == "the second medium exercise and the hard one"
    names = [pt.describe(ex, {i for i in range(4) if mask >> i & 1}) for mask in range(1, 16)]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(
    "difficulties",
    [d for n in range(4) for d in itertools.product(("easy", "medium", "hard"), repeat=n)],
)
@pytest.mark.parametrize(("words", "lines"), [(200, 10), (2500, 250)])
def test_the_suggested_line_keeps_the_rule(difficulties, words, lines):
    ex = [pt.PageExercise(f"e{i} ({d})", d) for i, d in enumerate(difficulties)]
    line = pt.suggested_line(ex, words, lines)
    text = line.removeprefix("- **Time:** ")
    required = sum(e.minutes for e in ex if e.difficulty == "easy") or (ex[0].minutes if ex else 0)
    if pt.reading_floor(words, lines) + required <= pt.LIMIT:
        assert pt.time_failures(text, ex, words, lines) == [], line
    wrapped = textwrap.fill(line, width=60, subsequent_indent="  ")  # as an opener wraps it
    assert pt.time_text(f"- **You need:** x\n{wrapped}\n:::\n") == text


def test_the_time_rule_checks_its_arguments():
    with pytest.raises(ValueError, match="main_words"):
        pt.reading_floor(-1, 0)
    with pytest.raises(ValueError, match="chosen"):
        pt.describe([pt.PageExercise("x (easy)", "easy")], {3})
    with pytest.raises(ValueError, match="reading"):
        pt.time_line(0, [], ())
    with pytest.raises(TypeError, match="opener_body"):
        pt.time_text(None)
    with pytest.raises(TypeError, match="nb"):
        pt.page_exercises("book/x.ipynb")
    assert pt.PageExercise("x (hard)", "hard").minutes == MINUTES["hard"]  # the instructors' estimate


# ---------------------------------------------------------------- every page of the book
@pytest.mark.parametrize("path", PAGES, ids=[rp.page_name(p) for p in PAGES])
def test_page_follows_the_readers_path(path):
    m, bad = rp.notebook_failures(nbformat.read(path, as_version=4))
    name = rp.page_name(path)
    if name in ALLOWED:
        rp.report(name, bad)
        return
    assert not bad, "\n".join(rp.report_lines(name, m, bad))


def test_allowlist_only_shrinks():
    assert len(ALLOWED) == len(set(ALLOWED)), "the allowlist names a page twice"
    new = sorted(set(ALLOWED) - ORIGINAL_ALLOWLIST)
    assert not new, f"pages may leave tests/reader_path_allowlist.txt, never join it: {new}"
    names = {rp.page_name(p) for p in PAGES}
    gone = sorted(set(ALLOWED) - names)
    assert not gone, f"the allowlist names pages that are not in the book (remove them): {gone}"


def test_allowlisted_pages_still_fail_something():
    names = {rp.page_name(p) for p in PAGES}
    passing = [n for n in ALLOWED if n in names and not failures(nbformat.read(rp.ROOT / n, as_version=4))]
    assert not passing, f"these pages now pass every notebook check: remove them from the allowlist: {passing}"


# ---------------------------------------------------------------- the HTML checks on synthetic pages
def article(body: str):
    return BeautifulSoup(f"<article class='bd-article'>{body}</article>", "html.parser").article


def section(level: int, title: str, inner: str) -> str:
    return f"<section id='{title}'><h{level}>{title}</h{level}>{inner}</section>"


GOOD_HTML = section(1, "Page", "<p>Intro.</p>" + section(2, "One", "<p>Text.</p>" + section(3, "Sub", "<p>x</p>")))


def test_a_clean_built_page_passes():
    a = article(GOOD_HTML + "<div class='cell_output'><pre>0.25</pre></div>")
    assert rh.output_failures(a) == rh.repeated_paragraphs(a) == rh.empty_sections(a) == rh.heading_order(a) == []


@pytest.mark.parametrize(
    "text",
    [
        "/x/y.py:3: FutureWarning: the default will change",
        "Pandas4Warning: ...",
        "DeprecationWarning: old",
        "Warning: the tokenizer is slow",
        "loaded from /usr/lib/python3/site-packages/x",
        "/root/.cache/model",
        "/work/.venv/lib",
    ],
)
def test_warning_text_and_machine_paths_in_outputs_fail(text):
    assert rh.output_failures(article(f"<div class='cell_output'><pre>{text}</pre></div>"))
    assert not rh.output_failures(article(f"<p>{text}</p>"))  # prose may name them


def test_a_paragraph_twice_fails_but_short_ones_may_repeat():
    para = "<p>The same paragraph,   written twice by a merge that went wrong somewhere.</p>"
    assert rh.repeated_paragraphs(article(para + para.upper()))
    assert not rh.repeated_paragraphs(article("<p>Short one.</p>" * 2))


def test_an_empty_section_fails():
    assert rh.empty_sections(article(section(2, "Empty", "<span id='x'></span>") + section(2, "Full", "<p>x</p>")))
    assert not rh.empty_sections(article(section(2, "Parent", section(3, "Child", "<p>x</p>"))))


def test_a_skipped_heading_level_fails():
    assert rh.heading_order(article(section(1, "T", section(3, "Deep", "<p>x</p>"))))
    assert not rh.heading_order(article(section(1, "T", section(2, "A", "<p>x</p>")) + section(2, "B", "<p>y</p>")))


def test_plain_numbers_in_scientific_notation_fail():
    table = "<table class='dataframe'><tbody><tr><th>a</th><td>{}</td><td>x</td></tr>{}</tbody></table>"
    assert rh.scientific_cells(article(table.format("3.0000e+01", "")))
    assert rh.scientific_cells(article(table.format("3.0000e+01", "<tr><th>b</th><td>0.0</td></tr>")))
    for fine in ("1.2e-05", "3.0e+07", "30.0", "0.25"):
        assert not rh.scientific_cells(article(table.format(fine, ""))), fine
    # a column that needs scientific notation (one value below 1e-3) may print all its values so
    mixed = "<tr><th>b</th><td>2.498352e-07</td></tr>"
    assert not rh.scientific_cells(article(table.format("2.914263e-01", mixed)))


def _png(tmp_path, name: str, panels: list[bool]):
    """A white image with one framed axes box per panel; a True panel has a curve drawn inside."""
    w = 200 * len(panels)
    img = np.full((150, w, 3), 255, np.uint8)
    for k, drawn in enumerate(panels):
        x0, x1, y0, y1 = 200 * k + 30, 200 * k + 180, 20, 130
        img[y0, x0:x1] = img[y1, x0:x1] = 0
        img[y0:y1, x0] = img[y0:y1, x1] = 0
        img[y0 + 40 : y0 + 46, x0 - 20 : x0 - 5] = 60  # a tick label left of the box
        img[135:140, x0 : x0 + 50] = 60  # an axis label under the box
        if drawn:
            xs = np.arange(x0 + 10, x1 - 10)
            img[(75 + 30 * np.sin(xs / 15)).astype(int), xs] = (0, 114, 178)
    path = tmp_path / name
    Image.fromarray(img).save(path)
    return path


def test_blank_figures_and_blank_panels_fail(tmp_path):
    white = tmp_path / "white.png"
    Image.fromarray(np.full((100, 100, 3), 255, np.uint8)).save(white)
    assert "is blank" in rh.blank_panels(white)[0]
    assert rh.blank_panels(_png(tmp_path, "ok.png", [True, True])) == []
    bad = rh.blank_panels(_png(tmp_path, "half.png", [True, False]))
    assert len(bad) == 1 and "panel 2 of 2" in bad[0]


@pytest.mark.parametrize("colour", [(250, 10, 120), (10, 250, 120), (120, 10, 250), (30, 30, 30)])
def test_a_blank_figure_of_any_background_colour_is_found(tmp_path, colour):
    # A dark-mode or coloured background: the commonest colour must be found channel by channel (a channel
    # mixed up with another gives a background no pixel has, and the blank figure passes).
    rng = np.random.default_rng(0)
    img = np.empty((120, 160, 3), np.uint8)
    img[...] = colour
    noise = rng.random(img.shape[:2]) < 0.002  # a few stray pixels of another colour
    img[noise] = (255 - np.array(colour)).astype(np.uint8)
    blank = tmp_path / "blank.png"
    Image.fromarray(img).save(blank)
    assert "is blank" in rh.blank_panels(blank)[0]
    img[40:80, 20:140] = (255 - np.array(colour)).astype(np.uint8)  # a third of the image drawn on
    drawn = tmp_path / "drawn.png"
    Image.fromarray(img).save(drawn)
    assert not any("is blank" in f for f in rh.blank_panels(drawn))


@pytest.mark.parametrize("book_style", [False, True])
@pytest.mark.parametrize("dpi", [100, 200])
def test_an_empty_matplotlib_panel_is_found(tmp_path, book_style, dpi):
    """Real figures: full frames (Matplotlib's default) and left/bottom spines only (the book's style)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from nlp_helpers.plotting import use_book_style

    with plt.rc_context():
        if book_style:
            use_book_style()
        found = {}
        for name, empty in (("full", False), ("half", True)):
            fig, axes = plt.subplots(1, 2, figsize=(8, 3.4))
            axes[0].plot(np.arange(10), np.arange(10) ** 2)
            axes[0].set(xlabel="step", ylabel="loss", title="training")
            if not empty:
                axes[1].scatter(*np.random.default_rng(0).random((2, 20)))
            axes[1].set(xlabel="component 1", ylabel="component 2", title="projection")
            fig.savefig(tmp_path / f"{name}.png", dpi=dpi)
            plt.close(fig)
            found[name] = rh.blank_panels(tmp_path / f"{name}.png")
    assert found["full"] == []
    assert len(found["half"]) == 1 and "panel 2 of 2" in found["half"][0]


def test_figure_failures_reads_the_page_images(tmp_path):
    (tmp_path / "_images").mkdir()
    _png(tmp_path / "_images", "a.png", [False])
    page = tmp_path / "book" / "p.html"
    page.parent.mkdir()
    a = article("<div class='cell_output'><img src='../_images/a.png'></div>")
    assert rh.figure_failures(a, page)


def test_the_build_resolves_every_cross_reference():
    """`{ref}` targets that do not resolve are warnings; the build turns warnings into errors (-W), nitpicky (-n)."""
    run_tests = (rp.ROOT / "tools" / "run_tests.sh").read_text(encoding="utf-8")
    build = [ln for ln in run_tests.splitlines() if 'jupyter-book" build' in ln]
    assert build and all("-W" in ln and "-n" in ln for ln in build), build
