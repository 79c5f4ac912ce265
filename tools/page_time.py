"""The honest time of a section page: the ``Time`` line of its opener, written to one template and checked.

The line reads (wrapped lines are joined; the part after ";" only when some exercises are left out)::

    - **Time:** about N minutes: R to read and run the page, E for <the exercises included>;
      <the others> is/are optional depth (about M minutes more).

and, on a page without exercises, ``- **Time:** about N minutes to read and run the page.``
:func:`time_line` writes it; :func:`time_failures` checks it against the page:

* the exercises are all the page's ``{exercise}`` directives (:func:`page_exercises`), each estimated by the
  difficulty its title ends with, ``(easy)``, ``(medium)`` or ``(hard)``, in ``tools.classroom.exercises.MINUTES``
  (10, 20 and 40 minutes: the numbers of the instructors' table);
* N is at most :data:`LIMIT` (60) and equals R plus the minutes of the exercises included; E is those minutes;
  the exercises left out are named as optional depth, M their minutes;
* easy exercises are never optional, and a page without easy exercises always includes its first one;
* R is at least the reading floor (:func:`reading_floor`): the main path's words at :data:`WORDS_PER_MINUTE`
  (200) a minute plus its visible code lines at :data:`CODE_LINES_PER_MINUTE` (20) a minute, i.e. three seconds
  to read and run a line, to the nearest 5 minutes and at least 5. It is a floor, not an estimate: an author
  who finds a page slower states more.

The exercises are named by difficulty in a fixed way (:func:`describe`): "the easy exercise", "the two medium
exercises", "the easy and medium exercises", "the first medium exercise", "the second medium exercise and the
hard one". The line's words are compared with these, so every set of a page's exercises has one name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import nbformat

from tools.classroom.exercises import DIFFICULTY, MINUTES

LIMIT = 60  # minutes a page may promise, with the exercises it includes
WORDS_PER_MINUTE = 200  # prose on the main path
CODE_LINES_PER_MINUTE = 20  # visible code lines on the main path, read and run
STEP = 5  # times are given to the nearest 5 minutes
DIFFICULTIES = tuple(MINUTES)  # ("easy", "medium", "hard"), the order exercises climb in

_EXERCISE = re.compile(r"^\s*(?:`{3,}|:{3,})\{exercise\}[ \t]*(?P<title>[^\n]*)$", re.M)
_TIME = re.compile(r"^- \*\*Time:\*\*(?P<text>[^\n]*(?:\n[ \t]+(?!- )[^\n]*)*)", re.M)
_FULL = re.compile(
    r"about (?P<total>\d+) minutes: (?P<reading>\d+) to read and run the page, (?P<minutes>\d+) for "
    r"(?P<included>[^;]+?)(?:; (?P<optional>.+?) (?:is|are) optional depth \(about (?P<more>\d+) minutes more\))?\."
)
_SHORT = re.compile(r"about (?P<total>\d+) minutes to read and run the page\.")
_COUNT = {1: "", 2: "two ", 3: "three ", 4: "four ", 5: "five ", 6: "six "}
_ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth")


@dataclass(frozen=True)
class PageExercise:
    """One ``{exercise}`` directive of a page: its title and the difficulty the title ends with ("" if none)."""

    title: str
    difficulty: str

    @property
    def minutes(self) -> int:
        """The instructors' estimate for the difficulty (``MINUTES``); 0 for an exercise that names none."""
        return MINUTES.get(self.difficulty, 0)


def page_exercises(nb: nbformat.NotebookNode) -> list[PageExercise]:
    """Every ``{exercise}`` directive of the notebook's markdown cells, in page order."""
    if not hasattr(nb, "cells"):
        raise TypeError(f"nb must be a notebook (nbformat.NotebookNode), got {type(nb).__name__}")
    out = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for m in _EXERCISE.finditer(cell.source):
                title = m.group("title").strip()
                found = DIFFICULTY.search(title)
                out.append(PageExercise(title, found.group(1).lower() if found else ""))
    return out


def _check_count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative int, got {value!r}")
    return value


def reading_floor(main_words: int, main_code: int) -> int:
    """The least time to read and run a page's main path: words at 200 and code lines at 20 a minute,
    to the nearest 5 minutes, at least 5."""
    raw = _check_count("main_words", main_words) / WORDS_PER_MINUTE
    raw += _check_count("main_code", main_code) / CODE_LINES_PER_MINUTE
    return max(STEP, STEP * math.floor(raw / STEP + 0.5))


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _check_chosen(exercises: Sequence[PageExercise], chosen: Collection[int], name: str) -> set[int]:
    if not all(isinstance(e, PageExercise) for e in exercises):
        raise TypeError("exercises must be a sequence of PageExercise")
    bad = [i for i in chosen if not isinstance(i, int) or not 0 <= i < len(exercises)]
    if bad:
        raise ValueError(f"{name} must hold indices of exercises (0 to {len(exercises) - 1}), got {bad}")
    return set(chosen)


def describe(exercises: Sequence[PageExercise], chosen: Collection[int]) -> str:
    """The name of the exercises at indices ``chosen``, by difficulty: "the easy and medium exercises",
    "the two hard exercises", "the first medium exercise and the hard one"."""
    picked = _check_chosen(exercises, chosen, "chosen")
    if not picked:
        raise ValueError("chosen must name at least one exercise")
    unrated = [exercises[i].title for i in sorted(picked) if exercises[i].difficulty not in DIFFICULTIES]
    if unrated:
        raise ValueError(f"exercises must each name a difficulty, (easy), (medium) or (hard); these do not: {unrated}")
    pieces: list[tuple[str, str, int, bool]] = []  # (words before the difficulty, difficulty, count, whole)
    for d in DIFFICULTIES:
        of_d = [i for i, e in enumerate(exercises) if e.difficulty == d]
        ranks = [k for k, i in enumerate(of_d) if i in picked]
        if not ranks:
            continue
        whole = len(ranks) == len(of_d)
        if whole:
            before = _COUNT.get(len(ranks), f"{len(ranks)} ")
        else:
            before = _and([_ORDINAL[k] if k < len(_ORDINAL) else f"{k + 1}th" for k in ranks]) + " "
        pieces.append((before, d, len(ranks), whole))
    if len(pieces) > 1 and all(whole for *_, whole in pieces):
        return f"the {_and([d for _, d, _, _ in pieces])} exercises"
    names = []
    for j, (before, d, n, _) in enumerate(pieces):
        noun = ("exercise" if j == 0 else "one") + ("s" if n > 1 else "")
        names.append(f"the {before}{d} {noun}")
    return _and(names)


def time_line(reading: int, exercises: Sequence[PageExercise], included: Collection[int]) -> str:
    """The page's ``- **Time:**`` line (one line) for ``reading`` minutes and the exercises at ``included``."""
    if _check_count("reading", reading) == 0:
        raise ValueError("reading must be at least 1 minute, got 0")
    inc = _check_chosen(exercises, included, "included")
    if not exercises:
        return f"- **Time:** about {reading} minutes to read and run the page."
    if not inc:
        raise ValueError("included must name at least one exercise: a page includes its easy or first one")
    minutes = sum(exercises[i].minutes for i in inc)
    line = f"- **Time:** about {reading + minutes} minutes: {reading} to read and run the page, {minutes} for "
    line += describe(exercises, inc)
    rest = [i for i in range(len(exercises)) if i not in inc]
    if rest:
        verb = "is" if len(rest) == 1 else "are"
        more = sum(exercises[i].minutes for i in rest)
        line += f"; {describe(exercises, rest)} {verb} optional depth (about {more} minutes more)"
    return line + "."


def suggested_line(
    exercises: Sequence[PageExercise], main_words: int, main_code: int, reading: int | None = None
) -> str:
    """The line the rule suggests. R is ``reading`` (an author's own estimate) or else the raw reading time
    rounded up to 5, at least 10 (the quick checks and the setup are not in the floor); never under the floor,
    and lowered towards it if that lets the required exercises fit.
    Included: the easy exercises (else the first), then the medium ones in page order while the total stays
    within 60; the rest are optional depth."""
    floor = reading_floor(main_words, main_code)
    if reading is None:
        raw = main_words / WORDS_PER_MINUTE + main_code / CODE_LINES_PER_MINUTE
        reading = max(2 * STEP, STEP * math.ceil(raw / STEP))
    reading = max(floor, _check_count("reading", reading))
    if not exercises:
        return time_line(reading, exercises, ())
    included = [i for i, e in enumerate(exercises) if e.difficulty == "easy"] or [0]
    required = sum(exercises[i].minutes for i in included)
    reading = max(floor, min(reading, LIMIT - required))
    total = reading + required
    for i, e in enumerate(exercises):
        if i in included or e.difficulty != "medium":
            continue
        if total + e.minutes > LIMIT:
            break
        included.append(i)
        total += e.minutes
    return time_line(reading, exercises, included)


def time_text(opener_body: str) -> str | None:
    """The words after ``**Time:**`` in an opener's body (a wrapped line joined), or None if it has none."""
    if not isinstance(opener_body, str):
        raise TypeError(f"opener_body must be a str, got {type(opener_body).__name__}")
    m = _TIME.search(opener_body)
    return " ".join(m.group("text").split()) if m else None


def _matching(exercises: Sequence[PageExercise], name: str) -> set[int] | None:
    """The set of exercises ``name`` describes, or None if it describes none."""
    n = len(exercises)
    for mask in range(1, 2**n):
        chosen = {i for i in range(n) if mask >> i & 1}
        if describe(exercises, chosen) == name:
            return chosen
    return None


def time_failures(text: str, exercises: Sequence[PageExercise], main_words: int, main_code: int) -> list[str]:
    """Every way the Time line ``text`` (the words after ``**Time:**``) breaks the rule (empty if none)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    unrated = [e.title for e in exercises if not e.difficulty]
    if unrated:
        return [f"exercise {t!r} names no difficulty: end its title with (easy), (medium) or (hard)" for t in unrated]
    text = " ".join(text.split())
    floor = reading_floor(main_words, main_code)
    suggestion = suggested_line(exercises, main_words, main_code)
    full, short = _FULL.fullmatch(text), _SHORT.fullmatch(text)
    if short and not exercises:
        reading, bad = int(short.group("total")), []
    elif full and exercises:
        reading, bad = int(full.group("reading")), []
    else:
        return [f"the Time line does not follow the template; for this page it could read: {suggestion!r}"]
    if reading < floor:
        bad.append(
            f"Time gives {reading} minutes to read and run the page, under the floor of {floor} for its main path "
            f"({main_words:,} words at {WORDS_PER_MINUTE} a minute + {main_code} code lines at "
            f"{CODE_LINES_PER_MINUTE} a minute, to the nearest {STEP})"
        )
    if short:
        if reading > LIMIT:
            bad.append(f"Time says {reading} minutes, more than {LIMIT}: make another page")
        return bad
    total, minutes, name = int(full.group("total")), int(full.group("minutes")), full.group("included")
    included = _matching(exercises, name)
    if included is None:
        return [*bad, f"the Time line's {name!r} names no set of this page's exercises; it could read: {suggestion!r}"]
    worth = [exercises[i].minutes for i in sorted(included)]
    if total > LIMIT:
        bad.append(f"Time says {total} minutes, more than {LIMIT}: make later medium or hard exercises optional depth")
    if total != reading + sum(worth):
        bad.append(
            f"Time says {total} minutes but reading ({reading}) + exercises included ({sum(worth)}) "
            f"is {reading + sum(worth)}"
        )
    if minutes != sum(worth):
        bad.append(
            f"Time gives {minutes} minutes for {name}, but they take {sum(worth)} ({' + '.join(map(str, worth))})"
        )
    rest = [i for i in range(len(exercises)) if i not in included]
    for i in rest:
        if exercises[i].difficulty == "easy":
            bad.append(
                f"the easy exercise {exercises[i].title!r} is called optional: a page always includes its easy ones"
            )
    if 0 in rest and not any(e.difficulty == "easy" for e in exercises):
        bad.append(
            f"the first exercise {exercises[0].title!r} is called optional: a page without easy ones includes it"
        )
    optional, more = full.group("optional"), full.group("more")
    if rest:
        left_out, left_minutes = describe(exercises, rest), sum(exercises[i].minutes for i in rest)
        if optional is None:
            bad.append(f"the Time line does not name {left_out} as optional depth (about {left_minutes} minutes more)")
        elif optional != left_out:
            bad.append(f"the Time line calls {optional!r} optional depth, but the exercises left out are {left_out}")
        elif int(more) != left_minutes:
            bad.append(f"Time gives the optional exercises {more} minutes more, but they take {left_minutes}")
    elif optional is not None:
        bad.append(f"the Time line calls {optional!r} optional depth, but it includes every exercise")
    expected = time_line(reading, exercises, included)[len("- **Time:** ") :]
    if not bad and text != expected:
        bad.append(f"the Time line should read {expected!r}")
    return bad
