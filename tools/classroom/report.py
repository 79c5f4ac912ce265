"""What the grader writes for people: a feedback file per submission and a summary for the instructor.

Beside the gradebook ``gradebook.csv`` it writes ``feedback/<submission>.md`` (each exercise's verdict and
the checker's hint, in plain words), ``gradebook-summary.md`` (the score distribution, which exercises
tripped most students and their most common hint, which submissions need a look) and
``gradebook-scores.png`` (the distribution as a histogram).
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from pathlib import Path

from tools.classroom.release import read_manifest

ICONS = {"correct": "✅ correct", "not yet": "⏳ not yet", "wrong": "❌ not quite", "error": "⚠️ not graded"}


def _exercise_info(manifest: dict) -> dict[str, dict]:
    return {e["label"]: e for page in manifest["pages"].values() for e in page["exercises"]}


def feedback_name(submission: str) -> str:
    """``alice/hw1/tagging.ipynb`` -> ``alice__hw1__tagging.md`` (one flat folder of feedback files)."""
    stem = submission[: -len(".ipynb")] if submission.endswith(".ipynb") else submission
    return stem.replace("/", "__") + ".md"


def feedback_text(submission: str, rows: list[dict], info: dict[str, dict]) -> str:
    """One student's feedback: score, then each exercise's verdict with the checker's message."""
    total = sum(r["points"] for r in rows)
    possible = sum(info.get(r["exercise"], {}).get("points", 0) for r in rows)
    lines = [f"# Feedback on {submission}", "", f"Score: {total:g} of {possible:g} points.", ""]
    for r in rows:
        e = info.get(r["exercise"], {})
        title = e.get("title") or r["exercise"]
        lines.append(f"## {title}")
        lines.append("")
        lines.append(f"{ICONS.get(r['status'], r['status'])}: {r['points']:g} of {e.get('points', 0):g} points.")
        lines.append("")
        lines.append(r["message"])
        lines.append("")
    if any(r["status"] == "error" for r in rows):
        lines.append("Exercises marked ⚠️ could not be graded; your instructor has been told why.")
    return "\n".join(lines).rstrip() + "\n"


def _histogram(totals: list[float], possible: float, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(6, 3.2))
    bins = [x - 0.5 for x in range(int(possible) + 2)] if possible <= 40 else 20
    ax.hist(totals, bins=bins, color="#0072B2", edgecolor="white")
    ax.set_xlabel(f"points (of {possible:g})")
    ax.set_ylabel("submissions")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"Score distribution ({len(totals)} submissions)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def summary_text(rows: list[dict], info: dict[str, dict], image: str | None) -> str:
    """The instructor's summary (Markdown): scores, the exercises that tripped most students, errors."""
    by_sub: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_sub[r["submission"]].append(r)
    totals = [sum(r["points"] for r in rs) for rs in by_sub.values()]
    labels = list(dict.fromkeys(r["exercise"] for r in rows))
    possible = max(sum(info.get(r["exercise"], {}).get("points", 0) for r in rs) for rs in by_sub.values())
    lines = ["# Gradebook summary", ""]
    lines.append(
        f"{len(by_sub)} submissions; score out of {possible:g}: mean {statistics.mean(totals):.1f}, "
        f"median {statistics.median(totals):g}, lowest {min(totals):g}, highest {max(totals):g}."
    )
    if image:
        lines += ["", f"![Histogram of the submissions' total points]({image})"]
    lines += ["", "## Exercises, hardest first", ""]
    lines.append("| exercise | correct | not yet | wrong | not graded | most common hint (how many) |")
    lines.append("| --- | ---: | ---: | ---: | ---: | --- |")
    stats = []
    for label in labels:
        mine = [r for r in rows if r["exercise"] == label]
        counts = Counter(r["status"] for r in mine)
        hints = Counter(r["message"] for r in mine if r["status"] == "wrong")
        hint = ""
        if hints:
            text, n = hints.most_common(1)[0]
            hint = f"{text[:200]} ({n})".replace("|", "\\|").replace("\n", " ")
        stats.append((counts["correct"] / len(mine), label, counts, hint))
    for _, label, counts, hint in sorted(stats):
        title = info.get(label, {}).get("title", label)
        lines.append(
            f"| {title} (`{label}`) | {counts['correct']} | {counts['not yet']} | {counts['wrong']} | "
            f"{counts['error']} | {hint} |"
        )
    errors = [(s, r) for s, rs in by_sub.items() for r in rs if r["status"] == "error"]
    if errors:
        lines += ["", "## Not graded (look at these)", ""]
        for sub in dict.fromkeys(s for s, _ in errors):
            first = next(r for s, r in errors if s == sub)
            lines.append(f"- `{sub}`: {first['message']}")
    return "\n".join(lines) + "\n"


def write_reports(rows: list[dict], manifest_path: Path, out: Path) -> list[Path]:
    """Write the feedback files, the summary and the histogram beside the gradebook ``out``; return their paths."""
    out = Path(out)
    info = _exercise_info(read_manifest(manifest_path))
    written = []
    feedback_dir = out.parent / "feedback"
    feedback_dir.mkdir(parents=True, exist_ok=True)
    by_sub: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_sub[r["submission"]].append(r)
    for sub, rs in by_sub.items():
        path = feedback_dir / feedback_name(sub)
        path.write_text(feedback_text(sub, rs, info), encoding="utf-8")
    written.append(feedback_dir)
    image = None
    if by_sub:
        image_path = out.with_name(out.stem + "-scores.png")
        totals = [sum(r["points"] for r in rs) for rs in by_sub.values()]
        possible = max(sum(info.get(r["exercise"], {}).get("points", 0) for r in rs) for rs in by_sub.values())
        _histogram(totals, possible, image_path)
        image = image_path.name
        written.append(image_path)
    summary = out.with_name(out.stem + "-summary.md")
    summary.write_text(summary_text(rows, info, image) if rows else "# Gradebook summary\n\nNo submissions.\n")
    written.append(summary)
    return written
