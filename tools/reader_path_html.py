"""The reader's-path checks of a built page (``_build/html/book/...html``): what the reader actually sees.

- Python warning text or a machine path in a cell's output;
- the same paragraph (at least 60 characters, whitespace and case normalised) twice on a page;
- an empty section (a heading with nothing before the next heading of the same or a higher level);
- headings out of order (a level skipped on the way down);
- a blank figure: an output PNG whose pixels are nearly all one colour, or one panel of a figure whose
  plotting area (the framed axes box) is empty (see ``blank_panels`` for what it can and cannot see);
- a DataFrame cell printing a plain number in scientific notation (``3.0000e+01``) in a column whose
  numbers all lie between 1e-3 and 1e6.

``python -m tools.reader_path_html`` prints the failures of every built page of ``_toc.yml``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
from bs4 import BeautifulSoup, Tag
from PIL import Image

from tools.toc_notebooks import ROOT, toc_notebooks

STUB_CLASS = "nlp-exercise-stub"  # the box tools/book_ext.py puts an exercise's starting code in

BUILD = ROOT / "_build" / "html"
WARNING = re.compile(r"\b(?:Future|Deprecation|User|Runtime|Pandas4|PendingDeprecation|Syntax)Warning\b|\bWarning:")
MACHINE_PATH = re.compile(r"/site-packages/|/root/|/tmp/|\.venv\b|/home/\w+/")
SCIENTIFIC = re.compile(r"^\s*[-+]?\d(?:\.\d+)?e[-+]?\d+\s*$", re.I)
MIN_PARAGRAPH = 60
# A figure is blank when this share of its pixels is within TOLERANCE of its commonest colour.
UNIFORM_SHARE, TOLERANCE = 0.995, 8


def _text(node: Tag) -> str:
    return re.sub(r"\s+", " ", node.get_text(" ")).strip()


def _article(soup: BeautifulSoup) -> Tag:
    return soup.select_one("article.bd-article") or soup.body or soup


def output_failures(article: Tag) -> list[str]:
    bad = []
    for out in article.select(".cell_output"):
        text = _text(out)
        for pattern, what in ((WARNING, "Python warning"), (MACHINE_PATH, "machine path")):
            hit = pattern.search(text)
            if hit:
                start = max(0, hit.start() - 40)
                bad.append(f"{what} in an output: '…{text[start : hit.end() + 40]}…'")
    return bad


def repeated_paragraphs(article: Tag) -> list[str]:
    seen: dict[str, int] = {}
    for p in article.find_all("p"):
        # Outputs, and the label the build puts above every exercise's starting code, may repeat.
        if p.find_parent(class_="cell_output") or p.find_parent(class_=STUB_CLASS):
            continue
        key = _text(p).lower()
        if len(key) >= MIN_PARAGRAPH:
            seen[key] = seen.get(key, 0) + 1
    return [f"a paragraph appears {n} times: '{key[:70]}…'" for key, n in seen.items() if n > 1]


def _heading(node: Tag) -> Tag | None:
    return next((c for c in node.find_all(re.compile(r"^h[1-6]$"), recursive=False)), None)


def empty_sections(article: Tag) -> list[str]:
    bad = []
    for section in article.find_all("section"):
        head = _heading(section)
        if head is None:
            continue
        rest = [c for c in section.children if isinstance(c, Tag) and c is not head]
        rest = [c for c in rest if c.name != "span" or _text(c)]  # Sphinx's anchors are empty spans
        if not rest:
            bad.append(f"the section '{_text(head).rstrip('#').strip()}' is empty")
    return bad


def heading_order(article: Tag) -> list[str]:
    bad, last = [], 0
    for head in article.find_all(re.compile(r"^h[1-6]$")):
        if head.find_parent(class_=["cell_output", "admonition", "sd-card"]):
            continue
        level = int(head.name[1])
        if last and level > last + 1:
            bad.append(f"heading '{_text(head).rstrip('#').strip()}' is h{level} right after an h{last}")
        last = level
    return bad


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def scientific_cells(article: Tag) -> list[str]:
    """Cells printing a plain number (1e-3 <= |x| < 1e6) in scientific notation, in a column that does not
    need it: a column that also holds 2.5e-07 is printed by pandas in scientific notation throughout, rightly."""
    bad = []
    for table in article.select("table.dataframe"):
        columns: dict[int, list[str]] = {}
        for row in table.select("tbody tr"):
            for k, cell in enumerate(row.find_all("td")):
                columns.setdefault(k, []).append(_text(cell))
        for texts in columns.values():
            values = [v for v in map(_number, texts) if v is not None]
            if any(v != 0 and not 1e-3 <= abs(v) < 1e6 for v in values):
                continue
            bad += [f"a table prints the plain number {float(t):g} as {t}" for t in texts if SCIENTIFIC.match(t)]
    return bad


def _background(rgb: np.ndarray) -> tuple[np.ndarray, float]:
    """The commonest colour of an image and the share of pixels within TOLERANCE of it."""
    # Colours binned by 4 per channel and packed into one integer (r, g, b in that order), so counting
    # them is one bincount (np.unique over rows sorted every pixel: seconds per figure).
    q = rgb.reshape(-1, 3).astype(np.int64) // 4
    counts = np.bincount((q[:, 0] << 12) | (q[:, 1] << 6) | q[:, 2], minlength=1 << 18)
    commonest = int(counts.argmax())
    bg = np.array([commonest >> 12, (commonest >> 6) & 63, commonest & 63]) * 4 + 2
    near = np.abs(rgb.astype(np.int16) - bg.astype(np.int16)).max(axis=-1) <= TOLERANCE
    return near, float(near.mean())


def _axes_box(box: np.ndarray) -> tuple[int, int, int, int] | None:
    """``(top, bottom, left, right)`` of the plotting area in a panel's ink mask, or None if none is found.

    The x axis is the lowest row of ink spanning half the panel; the y axis the leftmost column of ink
    spanning half the height above it; the area runs up the y axis and along the x axis as far as each
    line reaches. This finds both Matplotlib's full frame and the book style's left and bottom spines.
    """
    height, width = box.shape
    rows = np.flatnonzero(box.mean(axis=1) > 0.5)
    if not len(rows):
        return None
    bottom = int(rows[-1])
    cols = np.flatnonzero(box[:bottom].mean(axis=0) > 0.5 * bottom / height) if bottom > 20 else []
    if not len(cols):
        return None
    left = int(cols[0])
    top = bottom
    while top > 0 and box[top - 1, left]:
        top -= 1
    right = left
    while right + 1 < width and box[bottom, right + 1]:
        right += 1
    if bottom - top < 20 or right - left < 20:
        return None
    return top, bottom, left, right


def blank_panels(path: Path) -> list[str]:
    """Why the PNG at ``path`` looks blank, or [].

    The whole image is blank when nearly all its pixels share one colour. Panels: the image is cut at
    full-height columns of background colour; in each panel the plotting area is found from its axes
    (``_axes_box``) and the panel is blank when nothing is drawn inside it, away from the axes' ticks.
    It cannot judge a panel without axis lines (an image, a heatmap without a frame), nor see an empty
    panel that has grid lines (a grid is ink to it), nor panels that touch each other.
    """
    rgb = np.asarray(Image.open(path).convert("RGB"))
    near, share = _background(rgb)
    if share >= UNIFORM_SHARE:
        return [f"figure {path.name} is blank ({share:.1%} of its pixels are one colour)"]
    ink = ~near
    columns = ink.any(axis=0)
    panels, start = [], None
    for x, has_ink in enumerate([*columns, False]):
        if has_ink and start is None:
            start = x
        elif not has_ink and start is not None:
            if x - start >= 0.1 * rgb.shape[1]:
                panels.append((start, x))
            start = None
    bad = []
    for k, (a, b) in enumerate(panels):
        found = _axes_box(ink[:, a:b])
        if found is None:
            continue
        top, bottom, left, right = found
        margin = max(6, round(0.03 * (bottom - top)))  # tick marks drawn inwards stay out of the test
        inside = ink[top + margin : bottom - margin, a + left + margin : a + right - margin]
        if inside.size and inside.mean() < 0.0005:
            bad.append(f"figure {path.name}: panel {k + 1} of {len(panels)} is empty inside its axes")
    return bad


def figure_failures(article: Tag, page: Path) -> list[str]:
    bad = []
    for img in article.select(".cell_output img"):
        src = img.get("src", "")
        path = (page.parent / src).resolve()
        if src.endswith(".png") and path.is_file():
            bad += blank_panels(path)
    return bad


def output_images(page: Path) -> int:
    """How many images the cells' outputs of the built ``page`` show."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    return len(_article(soup).select(".cell_output img"))


def html_failures(page: Path) -> list[str]:
    """Every reader's-path failure of the built page ``page`` (empty if none)."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    article = _article(soup)
    return [
        *output_failures(article),
        *repeated_paragraphs(article),
        *empty_sections(article),
        *heading_order(article),
        *figure_failures(article, page),
        *scientific_cells(article),
    ]


def built_page(notebook: Path, build: Path = BUILD) -> Path:
    """Where the build writes the page of ``notebook`` (``book/x/y.ipynb`` -> ``_build/html/book/x/y.html``)."""
    return build / Path(notebook).resolve().relative_to(ROOT).with_suffix(".html")


def main(argv: list[str]) -> int:
    notebooks = [Path(a).resolve() for a in argv] or [p for p in toc_notebooks() if "appendix" not in p.parts]
    for nb in notebooks:
        page = built_page(nb)
        if not page.exists():
            print(f"{page.relative_to(ROOT)}: not built")
            continue
        for failure in html_failures(page):
            print(f"{nb.relative_to(ROOT)}: {failure}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
