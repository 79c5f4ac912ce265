"""Take from a submission only the code an exercise needs, and refuse code that reaches for the grader.

The grader never runs a student's notebook top to bottom. For each exercise it takes the last
top-level definition of the exercise's function and, transitively, the top-level statements that bind
a name the function uses (imports, helper functions, classes, constants). A cell that redefines the
checker, ``CheckResult``, ``numpy`` or ``print`` therefore never runs, unless the student's own
function uses that name, and then it changes only the student's function.

Code that is extracted is screened first: no imports of the book's checkers or of modules that reach
into the interpreter (``ctypes``, ``gc``, ``inspect``, ``importlib``, ``builtins``, …), no ``eval``/``exec``,
``getattr``/``setattr``, no dunder attributes beyond the usual protocol methods, no frame objects.
The judge process adds run-time guards on top (read-only modules, an integrity check of the checker).
"""

from __future__ import annotations

import ast
import symtable
from dataclasses import dataclass, field

BLOCKED_MODULES = {
    "builtins",
    "ctypes",
    "cffi",
    "gc",
    "glob",
    "importlib",
    "io",
    "inspect",
    "marshal",
    "multiprocessing",
    "pathlib",
    "pickle",
    "shutil",
    "dill",
    "cloudpickle",
    "signal",
    "socket",
    "subprocess",
    "tempfile",
    "threading",
    "_thread",
    "tools",
    "types",
    "urllib",
    "requests",
    "http",
}
BLOCKED_NAMES = {
    "eval",
    "exec",
    "compile",
    "globals",
    "locals",
    "vars",
    "getattr",
    "setattr",
    "delattr",
    "__import__",
    "__builtins__",
    "breakpoint",
    "input",
    "open",
}
BLOCKED_ATTRIBUTES = {
    "modules",  # sys.modules
    "_getframe",
    "settrace",
    "setprofile",
    "f_back",
    "f_globals",
    "f_locals",
    "f_builtins",
    "tb_frame",
    "tb_next",
    "gi_frame",
    "cr_frame",
    "ag_frame",
    "gi_code",
}
ALLOWED_DUNDERS = {
    "__init__",
    "__call__",
    "__len__",
    "__iter__",
    "__next__",
    "__getitem__",
    "__setitem__",
    "__contains__",
    "__repr__",
    "__str__",
    "__eq__",
    "__lt__",
    "__hash__",
    "__name__",
    "__doc__",
    "__enter__",
    "__exit__",
    "__post_init__",
}


@dataclass
class Extraction:
    """What the grader runs for one submission: ``code`` per exercise function, and problems found."""

    code: dict[str, str] = field(default_factory=dict)  # function name -> source to execute
    missing: list[str] = field(default_factory=list)  # functions the notebook never defines
    blocked: dict[str, str] = field(default_factory=dict)  # function name -> why its code is refused
    syntax_errors: list[str] = field(default_factory=list)  # one message per cell that does not parse


def _to_python(source: str) -> str:
    """IPython cell source (magics, ``!shell``) as plain Python; magics become calls the screen refuses."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # pragma: no cover - IPython ships with Jupyter
        return source
    return TransformerManager().transform_cell(source)


def _bound(stmt: ast.stmt) -> set[str]:
    """Names a top-level statement binds."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names if a.name != "*"}
    out = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)) and node is not stmt:
            out |= _bound(node)
    return out


def _assigns(stmt: ast.stmt, name: str) -> bool:
    """A plain assignment ``name = ...`` (or ``name: T = ...``) at the top level."""
    if isinstance(stmt, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
    return isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name


def _used(stmt: ast.stmt) -> set[str]:
    """Global names a top-level statement reads (``symtable``: a function's locals and parameters excluded)."""
    try:
        top = symtable.symtable(ast.unparse(stmt), "<cell>", "exec")
    except SyntaxError:  # pragma: no cover - the statement came from ast.parse
        return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    names = {s.get_name() for s in top.get_symbols() if s.is_referenced()}
    todo = list(top.get_children())
    while todo:
        table = todo.pop()
        names |= {s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced()}
        todo.extend(table.get_children())
    return names


def screen(tree: ast.AST) -> str | None:
    """Why this code may not run in the grader (``"line N: …"``), or None if it passes the screen."""
    for node in ast.walk(tree):
        line = getattr(node, "lineno", "?")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for mod in mods:
                top = mod.split(".")[0]
                if (
                    top in BLOCKED_MODULES
                    or (top == "nlp_helpers" and "exercises" in mod.split("."))
                    or getattr(node, "level", 0)
                ):
                    return f"line {line}: imports `{mod or '.'}`, which graded code may not use"
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
                return f"line {line}: `from {node.module} import *` (import the names you use)"
        elif isinstance(node, ast.Name) and node.id in BLOCKED_NAMES:
            return f"line {line}: uses `{node.id}`, which graded code may not use"
        elif isinstance(node, ast.Attribute):
            name = node.attr
            if name in BLOCKED_ATTRIBUTES or (
                name.startswith("__") and name.endswith("__") and name not in ALLOWED_DUNDERS
            ):
                return f"line {line}: uses the attribute `.{name}`, which graded code may not use"
    return None


def extract(cells: list[str], functions: list[str]) -> Extraction:
    """Split a submission's code cells into the code each of ``functions`` needs.

    ``cells`` are the sources of the notebook's code cells in order. For each function the result
    holds the last definition of it plus every top-level statement (in notebook order) that binds a
    name it needs, transitively; or the function is listed as missing or blocked.
    """
    result = Extraction()
    statements: list[ast.stmt] = []
    for k, source in enumerate(cells, start=1):
        try:
            tree = ast.parse(_to_python(source))
        except SyntaxError as exc:
            result.syntax_errors.append(f"code cell {k} does not parse: {exc.msg} (line {exc.lineno})")
            continue
        statements.extend(tree.body)
    binders: dict[str, list[int]] = {}
    for i, stmt in enumerate(statements):
        for name in _bound(stmt):
            binders.setdefault(name, []).append(i)
    for fn in functions:
        defs = [i for i in binders.get(fn, []) if isinstance(statements[i], (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not defs:  # a by-hand exercise is answered with a value: `first_merges = [("e", "r"), ...]`
            defs = [i for i in binders.get(fn, []) if _assigns(statements[i], fn)]
        if not defs:
            result.missing.append(fn)
            continue
        chosen, todo, seen = {defs[-1]}, [defs[-1]], {fn}
        while todo:
            for name in _used(statements[todo.pop()]) - seen:
                seen.add(name)
                for i in binders.get(name, []):
                    if i not in chosen and name != fn:
                        chosen.add(i)
                        todo.append(i)
        # Later rebindings of the function's own name (e.g. `shape = None`) are not taken.
        module = ast.Module(body=[statements[i] for i in sorted(chosen)], type_ignores=[])
        why = screen(module)
        if why is not None:
            result.blocked[fn] = why
        else:
            result.code[fn] = ast.unparse(module)
    return result
