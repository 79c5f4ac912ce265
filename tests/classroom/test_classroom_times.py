"""The instructors' page: its table of exercise times is the one the code computes from the book's pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.classroom.times import current_table, exercise_times, markdown_table, write_table

ROOT = Path(__file__).resolve().parents[2]


def test_table_on_the_instructors_page_is_current():
    # After a chapter's exercises change: python -m tools.classroom times --write
    assert current_table() == markdown_table(exercise_times())


def test_times_follow_difficulty():
    rows = {r["chapter"].split(":")[0]: r for r in exercise_times()}
    tagging = rows["Sequence labelling"]  # 4 easy, 4 medium, 1 hard (book/tagging/pos, crf, ner)
    assert tagging["exercises"] == 9 and tagging["points"] == 4 * 1 + 4 * 2 + 3
    assert tagging["minutes"] == 4 * 10 + 4 * 20 + 40
    assert "| 2 h 40 min |" in markdown_table([tagging])


def test_write_table_needs_its_markers(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# A page without markers\n")
    with pytest.raises(ValueError, match="page: .* has no <!-- exercise-times: start -->"):
        write_table(page)
    page.write_text("before\n<!-- exercise-times: start -->\nold\n<!-- exercise-times: end -->\nafter\n")
    write_table(page)
    text = page.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    assert "| chapter | exercises |" in text
