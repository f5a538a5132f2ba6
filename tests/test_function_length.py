"""No library function over 150 lines: a walk over the syntax trees of ``src/noughts``.

A function that long does several things in a row (phases of a search, modes of a command) and
is read, tested and changed as one; split it by phase. The functions longer than that today are
:data:`ALLOWED`, each with its length now: the list may only shrink. The test fails when a new
function passes the limit, when an allowed one grows, and when an entry is stale (the function
is gone or no longer over the limit: take it off the list).
"""

from __future__ import annotations

import ast
from pathlib import Path

import noughts

LIMIT = 150
"""The most lines a function may take, from its ``def`` line to its last line (nested functions
count in the function that holds them, and on their own)."""

SRC = Path(noughts.__file__).resolve().parent

ALLOWED: dict[str, int] = {
    "web/app.py:_routes": 421,
    "pairing/_breaker_kernels.py:search": 605,
    "exact/_dfpn_kernels.py:dfpn": 536,
    "pairing/_cover_kernels.py:find_cover": 286,
    "learn/experiments/cumulative_td.py:_write_markdown": 277,
    "exact/_tss_kernels.py:threat_search": 270,
    "exact/_kernels.py:_search_for": 254,
    "exact/_kernels.py:_search_for.search": 250,
    "exact/_misere_kernels.py:defend": 224,
    "exact/_strategy_kernels.py:extract": 221,
    "agents/_minimax_kernel.py:run": 217,
    "exact/strategy_check.py:walk": 213,
    "learn/experiments/arena.py:_write_markdown": 194,
    "agents/_mcts_kernel.py:_grow": 186,
    "learn/experiments/linear_lms.py:_write_markdown": 180,
    "learn/_hybrid_kernels.py:hybrid_episodes": 177,
    "pairing/certificate.py:_verify": 170,
    "pairing/_cube7_kernels.py:settle_nodes": 155,
}
"""``"module path:qualified name"`` -> its length now, for every function over :data:`LIMIT`
lines. Only ever shorten the list (or a number)."""


def function_lengths(root: Path = SRC) -> dict[str, int]:
    """Every function and method under ``root``: ``"path:qualified.name"`` -> its lines."""
    lengths: dict[str, int] = {}

    def walk(node: ast.AST, path: str, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = prefix + child.name
                end = child.end_lineno or child.lineno
                lengths[f"{path}:{name}"] = max(lengths.get(f"{path}:{name}", 0), end - child.lineno + 1)
                walk(child, path, name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, path, prefix + child.name + ".")
            else:
                walk(child, path, prefix)

    for file in sorted(root.rglob("*.py")):
        walk(ast.parse(file.read_text(), str(file)), file.relative_to(root).as_posix(), "")
    return lengths


def test_the_walk_measures_functions_nested_and_in_classes(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "def f():\n    def g():\n        return 1\n    return g\n\n\nclass C:\n    async def h(self):\n        pass\n"
    )
    assert function_lengths(tmp_path) == {"m.py:f": 4, "m.py:f.g": 2, "m.py:C.h": 2}


def test_no_function_over_the_limit_but_the_allowed_ones_and_none_grows() -> None:
    lengths = function_lengths()
    assert len(lengths) > 1000  # the walk found the library
    new = {name: n for name, n in lengths.items() if n > LIMIT and name not in ALLOWED}
    assert not new, f"functions over {LIMIT} lines (split them by phase): {new}"
    grown = {name: (ALLOWED[name], lengths[name]) for name in ALLOWED if lengths.get(name, 0) > ALLOWED[name]}
    assert not grown, f"allowed functions that grew (was, now): {grown}"


def test_the_allowed_list_only_names_functions_still_over_the_limit() -> None:
    lengths = function_lengths()
    stale = {name: lengths.get(name) for name in ALLOWED if lengths.get(name, 0) <= LIMIT}
    assert not stale, f"take these off ALLOWED (gone, or now within {LIMIT} lines): {stale}"
