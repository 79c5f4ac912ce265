"""Command line: ``python -m tools.classroom release|grade|export``.

``release OUT_DIR [pages…]``
    student copies of the pages (default: every notebook of ``_toc.yml``) and ``OUT_DIR/manifest.json``.
``grade SUBMISSIONS_DIR --manifest OUT_DIR/manifest.json --out gradebook.csv``
    grade every ``.ipynb`` under the folder; writes the gradebook, ``feedback/`` and a summary beside it.
``export --format nbgrader|otter OUT_DIR [pages…] [--exercises-only]``
    the exercises as an nbgrader source folder or otter-grader assignment notebooks.
``times [--write]``
    the table of exercises and a student's time per chapter (on the instructors' page).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.classroom", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("release", help="write student copies and a manifest of exercises and points")
    p.add_argument("out_dir", type=Path)
    p.add_argument("pages", nargs="*", type=Path)
    p = sub.add_parser("grade", help="grade a folder of submitted notebooks")
    p.add_argument("submissions", type=Path)
    p.add_argument("--manifest", type=Path, required=True, help="the release's manifest.json (or its folder)")
    p.add_argument("--out", type=Path, default=Path("gradebook.csv"))
    p.add_argument("--jobs", type=int, default=2, help="submissions graded at once (default 2)")
    p.add_argument(
        "--exercise-timeout",
        type=float,
        default=20.0,
        help="CPU seconds per exercise, on top of 20x the worked solution's (default 20)",
    )
    p.add_argument("--startup-timeout", type=float, default=60.0, help="CPU seconds to start a judge (default 60)")
    p.add_argument("--memory-mb", type=int, default=3072, help="memory limit per submission (default 3072)")
    p = sub.add_parser("export", help="export the exercises for nbgrader or otter-grader")
    p.add_argument("--format", choices=["nbgrader", "otter"], required=True)
    p.add_argument("out_dir", type=Path)
    p.add_argument("pages", nargs="*", type=Path)
    p.add_argument("--exercises-only", action="store_true", help="keep only the setup cell and ## Exercises")
    p.add_argument("--assignment", default="nlp", help="nbgrader's assignment name (default nlp)")
    p = sub.add_parser("times", help="print (or --write) the instructors' page table of exercise times")
    p.add_argument("--write", action="store_true", help="rewrite the table in book/appendix/instructors.md")
    args = parser.parse_args(argv)
    try:
        if args.command == "release":
            from tools.classroom.release import release

            path = release(args.out_dir, args.pages or None)
            print(f"student copies and {path} written")
        elif args.command == "grade":
            from tools.classroom.grade import grade_folder
            from tools.classroom.report import write_reports
            from tools.classroom.sandbox import Limits

            limits = Limits(args.exercise_timeout, args.startup_timeout, args.memory_mb)
            rows = grade_folder(args.submissions, args.manifest, args.out, jobs=args.jobs, limits=limits, log=_err)
            for path in write_reports(rows, args.manifest, args.out):
                print(f"wrote {path}")
            print(f"wrote {args.out}")
        elif args.command == "export":
            from tools.classroom.export import export

            for path in export(
                args.format,
                args.out_dir,
                args.pages or None,
                exercises_only=args.exercises_only,
                assignment=args.assignment,
            ):
                print(f"wrote {path}")
        else:
            from tools.classroom.times import PAGE, exercise_times, markdown_table, write_table

            if args.write:
                write_table()
                print(f"wrote the table of {PAGE}")
            else:
                print(markdown_table(exercise_times()))
    except ValueError as exc:
        parser.exit(2, f"error: {exc}\n")
    return 0


def _err(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
