"""The architecture holds: the layer order written in docs/architecture.md, read from there, is
checked against every import of every module of noughts (no upward import, no import between
packages of one layer, no cycle), and so are the rules beside it (no private names across
modules, no process-wide state, typed access to positions, capabilities instead of classes),
by reading the source (AST), not by running it. A light start is checked in fresh
interpreters: what ``import noughts`` and the commands that need no kernel load.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = SRC / "noughts"
DOC = ROOT / "docs" / "architecture.md"


def _game_classes() -> frozenset[str]:
    """Every class of ``core`` that derives from ``Game`` (not ``Game`` itself), read from the
    source: the rules families, their shared bases and any family added later."""
    bases: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / "core").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {ast.unparse(b).rpartition(".")[2] for b in node.bases}
    found = {"Game"}
    while more := {name for name, named in bases.items() if named & found} - found:
        found |= more
    return frozenset(found - {"Game"})


GAME_CLASSES = _game_classes()
"""The rules families: outside core, code asks a game what it declares (``claim_rule``,
``layout``, ``loop`` ...), not what it is."""

OTHER_STATE = {"self", "app", "rng", "request"}
"""Receivers whose ``.state`` is no position's: an object's own, Starlette's application state,
a SplitMix64 stream's word."""


# -- the layer order, from the document ------------------------------------------------------------


@cache
def layers() -> dict[str, int]:
    """Package -> layer index (0 the lowest), from the ``layers`` block of the document."""
    block = re.search(r"```layers\n(.*?)```", DOC.read_text(), re.S)
    assert block is not None, "docs/architecture.md has no ```layers block"
    order: dict[str, int] = {}
    for index, line in enumerate(line for line in block.group(1).splitlines() if line.strip()):
        for name in line.split():
            assert name not in order, f"{name} is on two layers"
            order[name] = index
    return order


# -- the modules and their imports -----------------------------------------------------------------


@dataclass
class Import:
    target: str  # the module imported (a module of noughts, resolved)
    names: tuple[str, ...]  # the names taken from it (empty for ``import x``)
    line: int
    typing_only: bool  # under ``if TYPE_CHECKING:``


@dataclass
class Module:
    name: str
    path: Path
    tree: ast.Module
    imports: list[Import] = field(default_factory=list)

    @property
    def package(self) -> str:
        """``core`` for noughts.core.*, ``testing`` for noughts.testing, ``noughts`` for the
        package's own ``__init__``."""
        parts = self.name.split(".")
        return parts[1] if len(parts) > 1 else "noughts"

    @property
    def relative(self) -> str:
        return self.path.relative_to(PACKAGE).as_posix()


@cache
def modules() -> dict[str, Module]:
    found: dict[str, Module] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        found[name] = Module(name, path, ast.parse(path.read_text(), str(path)))
    for module in found.values():
        module.imports = list(_imports(module, found))
    return found


def _typing_only_nodes(tree: ast.Module) -> set[ast.AST]:
    nodes: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                nodes.update(ast.walk(child))
    return nodes


def _imports(module: Module, found: dict[str, Module]):  # type: ignore[no-untyped-def]
    typing_only = _typing_only_nodes(module.tree)
    base = module.name if module.path.name == "__init__.py" else module.name.rpartition(".")[0]
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "noughts" or alias.name.startswith("noughts."):
                    yield Import(_resolve(alias.name, found), (), node.lineno, node in typing_only)
        elif isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:  # relative: from the module's own package
                up = base.split(".")[: len(base.split(".")) - node.level + 1]
                name = ".".join(up + ([name] if name else []))
            if name != "noughts" and not name.startswith("noughts."):
                continue
            for alias in node.names:
                full = f"{name}.{alias.name}"
                target = full if full in found else _resolve(name, found)
                taken = () if full in found else (alias.name,)
                yield Import(target, taken, node.lineno, node in typing_only)


def _resolve(name: str, found: dict[str, Module]) -> str:
    while name not in found and "." in name:
        name = name.rpartition(".")[0]
    return name


def _package(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "noughts"


# -- the tests ---------------------------------------------------------------------------------------


def test_every_package_is_on_a_layer() -> None:
    packages = {module.package for module in modules().values()}
    missing = packages - set(layers())
    assert not missing, f"packages missing from docs/architecture.md's layers: {sorted(missing)}"


def test_imports_flow_down() -> None:
    order = layers()
    wrong = []
    for module in modules().values():
        mine = module.package
        for imp in module.imports:
            theirs = _package(imp.target)
            if theirs == mine:
                continue
            if order[theirs] >= order[mine]:
                where = "beside it" if order[theirs] == order[mine] else "above it"
                wrong.append(f"{module.relative}:{imp.line} imports {imp.target} ({theirs}, {where})")
    assert not wrong, "imports that do not flow down:\n" + "\n".join(wrong)


def test_no_import_cycles() -> None:
    graph = {
        name: {imp.target for imp in module.imports if not imp.typing_only and imp.target != name}
        for name, module in modules().items()
    }
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_private_name_crosses_a_module() -> None:
    wrong = []
    for module in modules().values():
        for imp in module.imports:
            for name in imp.names:
                if name.startswith("_") and imp.target != module.name:
                    wrong.append(f"{module.relative}:{imp.line} imports {name} from {imp.target}")
            private = [part for part in imp.target.split(".") if part.startswith("_")]
            if private and not module.name.startswith(imp.target.rpartition(".")[0] + "."):
                wrong.append(f"{module.relative}:{imp.line} imports the private module {imp.target}")
    assert not wrong, "private names imported from other modules:\n" + "\n".join(wrong)


def test_no_library_module_imports_the_front_door() -> None:
    order = layers()
    wrong = [
        f"{module.relative}:{imp.line}"
        for module in modules().values()
        for imp in module.imports
        if imp.target == "noughts" and order[module.package] < order["noughts"]
    ]
    assert not wrong, (
        "modules that import the top-level package (import from noughts.core etc.):\n" + "\n".join(wrong)
    )


def _calls(tree: ast.Module) -> list[tuple[int, str]]:
    return [(node.lineno, ast.unparse(node.func)) for node in ast.walk(tree) if isinstance(node, ast.Call)]


def test_no_process_wide_state() -> None:
    wrong = []
    for module in modules().values():
        for line, func in _calls(module.tree):
            seeds = func.endswith("random.seed")
            if func.endswith("setrecursionlimit") or seeds:
                wrong.append(f"{module.relative}:{line} calls {func}")
    assert not wrong, "library code that changes process-wide state:\n" + "\n".join(wrong)


def _typed_access_breaches(module: Module) -> list[str]:
    """Reads of a position's raw state (``x.state`` for any x but ``OTHER_STATE``, ``x._aux``)
    and dispatch on a game's class (``isinstance(g, VetoGame)``, ``type(g) is StandardGame``,
    ``type(g) in _RULES``)."""
    found = []
    calls = {node.func for node in ast.walk(module.tree) if isinstance(node, ast.Call)}
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Attribute) and node not in calls:
            receiver = ast.unparse(node.value)
            if node.attr == "_aux" or (node.attr == "state" and receiver not in OTHER_STATE):
                found.append(f"{module.relative}:{node.lineno} reads {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "isinstance" and len(node.args) == 2:
            named = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            if named & GAME_CLASSES:
                found.append(f"{module.relative}:{node.lineno} dispatches on {ast.unparse(node)}")
        elif isinstance(node, ast.Compare) and ast.unparse(node.left).startswith("type("):
            named = {n.id for c in node.comparators for n in ast.walk(c) if isinstance(n, ast.Name)}
            if named & (GAME_CLASSES | {"_RULES"}):
                found.append(f"{module.relative}:{node.lineno} dispatches on {ast.unparse(node)}")
    return found


def test_outside_core_positions_are_read_through_accessors() -> None:
    wrong = []
    for module in modules().values():
        if module.package == "core":
            continue
        wrong += _typed_access_breaches(module)
    assert not wrong, "code outside core reading raw state or dispatching on classes:\n" + "\n".join(wrong)


def test_every_registered_game_class_is_watched() -> None:
    """The classes the accessor check watches are every class of every registered game, the loopy
    ones included, and no class that is not a game's."""
    import noughts
    from noughts.core import ENTRIES

    made = set()
    for name, entry in ENTRIES.items():
        if entry.makes == "game":
            game = noughts.game("otrio" if name == "otrio" else f"{name}(tictactoe)")
            made |= {c.__name__ for c in type(game).__mro__} - {"Game", "ABC", "object"}
    assert made == GAME_CLASSES
    assert {"FadingGame", "MorrisGame", "ForgetGame", "VanishingGame", "OtrioGame", "VetoGame"} <= made


def test_the_checks_see_what_they_look_for() -> None:
    source = """
from noughts.core import FadingGame, MorrisGame, VetoGame
from noughts.exact.search import _helper
import sys
def f(position, game, rng, self):
    a = position.state[0]
    b = position._aux
    c = isinstance(game, VetoGame)
    f = isinstance(game, (FadingGame, MorrisGame))
    d = type(game) in _RULES
    e = rng.state, self.state, job.state()
    sys.setrecursionlimit(10)
"""
    module = Module("noughts.agents.example", PACKAGE / "agents" / "example.py", ast.parse(source))
    module.imports = list(_imports(module, modules()))
    breaches = _typed_access_breaches(module)
    assert sorted(b.split(" ", 1)[1] for b in breaches) == [
        "dispatches on isinstance(game, (FadingGame, MorrisGame))",
        "dispatches on isinstance(game, VetoGame)",
        "dispatches on type(game) in _RULES",
        "reads position._aux",
        "reads position.state",
    ]
    assert [(imp.target, imp.names) for imp in module.imports] == [
        ("noughts.core", ("FadingGame",)),
        ("noughts.core", ("MorrisGame",)),
        ("noughts.core", ("VetoGame",)),
        ("noughts.exact.search", ("_helper",)),
    ]
    assert (12, "sys.setrecursionlimit") in _calls(module.tree)


# -- a light start, in fresh interpreters ----------------------------------------------------------

HEAVY = (
    "numba",
    "scipy",
    "matplotlib",
    "fastapi",
    "uvicorn",
    "pygments",
    "markdown_it",
    "jax",
    "flax",
    "optax",
    "mctx",
    "pyarrow",
)
HEAVY_RICH = ("rich.markdown", "rich.traceback", "rich.progress", "rich.syntax", "rich.pretty")


def _loaded_after(code: str, stdin: str = "") -> set[str]:
    """The modules loaded in a fresh interpreter after running ``code``."""
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)), file=sys.__stderr__)\n"
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", probe], input=stdin, capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    import json

    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_import_noughts_loads_the_core_only() -> None:
    loaded = _loaded_after("import noughts")
    assert "noughts.core" in loaded
    assert not loaded & {*HEAVY, "numpy", "rich", "noughts.exact", "noughts.neural", "noughts.dataset"}


def _command(*argv: str) -> str:
    return (
        "import sys\n"
        f"sys.argv = ['noughts', *{argv!r}]\n"
        "from noughts.cli.app import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
    )


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (("--help",), ""),
        (("-h",), ""),
        (("--version",), ""),
        (("show", "tictactoe"), ""),
        (("games",), ""),
        (("play", "tictactoe", "--x", "random", "--o", "random", "--seed", "3"), ""),
        (("play", "misere(tictactoe)", "--x", "human", "--o", "random", "--seed", "3"), "b2\nquit\n"),
    ],
)
def test_commands_without_kernels_start_light(argv: tuple[str, ...], stdin: str) -> None:
    loaded = _loaded_after(_command(*argv), stdin)
    heavy = loaded & {*HEAVY, *HEAVY_RICH}
    assert not heavy, f"noughts {' '.join(argv)} loads {sorted(heavy)}"


def test_solve_loads_its_engine_on_first_use() -> None:
    loaded = _loaded_after(
        "import noughts\nassert noughts.solve('mnk(2,2,2)').value.outcome.value == 'first'"
    )
    assert "noughts.exact.search" in loaded


@pytest.mark.parametrize("argv", [("--help",), ("-h",), ("--version",)])
def test_help_and_version_load_neither_rich_nor_numpy(argv: tuple[str, ...]) -> None:
    loaded = _loaded_after(_command(*argv))
    assert not loaded & {"rich", "numpy"}, (
        f"noughts {' '.join(argv)} loads {sorted(loaded & {'rich', 'numpy'})}"
    )


def test_counting_a_small_game_loads_no_compiler() -> None:
    """``noughts count`` of a small game runs NumPy's counter: numba is not imported (the CLI's
    compile notice, which imports it, stays off this command)."""
    loaded = _loaded_after(_command("count", "tictactoe", "--json"))
    assert "noughts.exact.count" in loaded
    assert "numba" not in loaded
