"""The package's layout, checked: one room per chapter, imports that follow the reading order.

* Every chapter of ``_toc.yml`` has its helpers in ``nlp_helpers/<slug>/`` and its tests in ``tests/<slug>/``.
* A chapter's modules import only the shared modules (the package root, ``data``, ``exercises``), their own
  chapter, and chapters that come *earlier* in the table of contents. Shared modules import no chapter;
  ``widgets`` (used by several chapters) may import any chapter, and no chapter imports a widget.
* No module imports another module's private (underscore) name.
* ``__init__.py`` files hold a docstring only: no re-exports a reader would have to trace. One exception,
  ``nlp_helpers/checkpoints/__init__.py``: the shipped models' API is ``checkpoints.names()`` and
  ``checkpoints.load(name)``, so that package defines its few functions in ``__init__`` itself (it
  re-exports nothing and imports no chapter; a card names its model's class, imported on loading).
* No module is over 400 lines, and the package root has at most four modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tools.toc_notebooks import toc_chapters

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nlp_helpers"
SHARED_PACKAGES = {"data", "exercises", "checkpoints"}
# Packages whose __init__ defines their API itself (see the module docstring).
API_INITS = {"nlp_helpers/checkpoints/__init__.py"}
MAX_LINES = 400


def chapter_slugs() -> list[str]:
    """Chapters of _toc.yml with notebooks: one-notebook chapters and chapters of section pages alike."""
    return [slug for slug, notebooks in toc_chapters() if notebooks]


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def dotted(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room(name: str) -> str:
    """'shared', 'widgets' or a chapter slug, for a dotted module name inside nlp_helpers."""
    parts = name.split(".")
    if len(parts) < 2 or parts[1] in SHARED_PACKAGES or (PACKAGE / f"{parts[1]}.py").exists():
        return "shared"
    return parts[1]


def imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, imported module, imported names) for every import of nlp_helpers in a file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.startswith("nlp_helpers")
        ):
            names = [a.name for a in node.names]
            # `from nlp_helpers.x import y` may import the submodule y
            sub = [
                f"{node.module}.{n}"
                for n in names
                if (ROOT / f"{node.module}.{n}".replace(".", "/")).exists()
                or (ROOT / (f"{node.module}.{n}".replace(".", "/") + ".py")).exists()
            ]
            out.append((node.lineno, sub[0] if sub else node.module, [] if sub else names))
        elif isinstance(node, ast.ImportFrom) and node.level:
            out.append((node.lineno, "<relative>", []))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name, []) for a in node.names if a.name.startswith("nlp_helpers")]
    return out


def test_every_chapter_has_its_rooms() -> None:
    missing = [s for s in chapter_slugs() if not (PACKAGE / s / "__init__.py").is_file()]
    missing += [f"tests/{s}" for s in chapter_slugs() if not (ROOT / "tests" / s).is_dir()]
    assert not missing, f"chapters without their folders: {missing}"


def test_imports_follow_the_reading_order() -> None:
    order = {slug: i for i, slug in enumerate(chapter_slugs())}
    wrong = []
    for path in modules():
        here = room(dotted(path))
        for line, target, _ in imports(path):
            where = f"{path.relative_to(ROOT)}:{line} imports {target}"
            if target == "<relative>":
                wrong.append(f"{where} (use absolute imports)")
                continue
            there = room(target)
            if there in ("shared", here):
                continue
            if here == "shared":
                wrong.append(f"{where}: shared code must not depend on a chapter or widget")
            elif there == "widgets":
                wrong.append(f"{where}: a chapter's helpers must not import a widget")
            elif here != "widgets" and order[there] > order[here]:
                wrong.append(f"{where}: {there!r} comes after {here!r} in _toc.yml")
    assert not wrong, "\n".join(wrong)


def test_no_module_imports_another_modules_private_names() -> None:
    wrong = []
    for path in modules():
        for line, target, names in imports(path):
            private = [n for n in names if n.startswith("_") and n != "__version__"]
            if private and target != dotted(path):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {private} from {target}")
    assert not wrong, "\n".join(wrong)


def _plain_inits() -> list[Path]:
    return [p for p in modules() if p.name == "__init__.py" and p.relative_to(ROOT).as_posix() not in API_INITS]


@pytest.mark.parametrize("path", _plain_inits(), ids=lambda p: dotted(p))
def test_init_files_hold_only_a_docstring(path: Path) -> None:
    body = ast.parse(path.read_text(encoding="utf-8")).body
    extra = [n for n in body[1:] if not (isinstance(n, ast.Assign) and [t.id for t in n.targets] == ["__version__"])]
    assert body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), "no docstring"
    assert not extra, f"{path.relative_to(ROOT)} has code after its docstring (line {extra[0].lineno})"


def test_modules_are_short_and_the_root_is_small() -> None:
    long = [f"{p.relative_to(ROOT)}: {n}" for p in modules() if (n := len(p.read_text().splitlines())) > MAX_LINES]
    assert not long, f"modules over {MAX_LINES} lines (split them along their concepts): {long}"
    root = sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert len(root) <= 4, f"the package root has {len(root)} modules: {root}"


def test_api_inits_define_and_do_not_reexport() -> None:
    """The exception above defines functions; it imports no name from another nlp_helpers module."""
    for rel in API_INITS:
        path = ROOT / rel
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert isinstance(tree.body[0], ast.Expr), f"{rel}: no docstring"
        reexports = [target for _, target, names in imports(path) if names]
        assert not reexports, f"{rel} imports names from {reexports}: define them here or import the module"
