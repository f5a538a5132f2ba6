"""Hostile values on every option of every command (issue 29): no traceback, ever.

The command tree is walked (so a new option is tried as soon as it exists); each option or
argument is classed by its type and name (a path, a number, a spec, an agent, a position, a Ray
address, any other word) and given each hostile value of its class from ``tests/hostile.py``,
on a small valid command of its own (``BASES``). Whatever the value, the command must end with
a documented status (0, 1, 2 or 3) and no traceback; refused as bad input (2), it prints one
line on stderr and nothing on stdout (no header before the error).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from cli_cases import invoke

from hostile import (
    HOSTILE_AGENTS,
    HOSTILE_NUMBERS,
    HOSTILE_PATHS,
    HOSTILE_POSITIONS,
    HOSTILE_RAY,
    HOSTILE_SPECS,
    HOSTILE_WORDS,
)
from noughts.cli.app import app

# A quick valid command per command; {name} is an argument (its default given in DEFAULTS),
# {tmp} the test's folder, {db} a store with one game, {record} that game's record file,
# {pairing} a saved pairing, {cert} a certificate, {dataset} a small solver-labelled dataset.
BASES: dict[str, list[str]] = {
    "show": ["show", "{spec}"],
    "brain": ["brain"],  # a Gomocup engine over stdin: the runner gives it none, so it ends at once
    "play": ["play", "{spec}", "--x", "random", "--o", "random", "--seed", "1", "--db", "{db}"],
    "solve": ["solve", "{spec}", "--value-only"],
    "explain": ["explain", "{spec}"],
    "count": ["count", "{spec}"],
    "classify": ["classify", "{spec}"],
    "quotient": ["quotient", "{spec}"],
    "grade": ["grade", "{agent}", "{spec}", "--games", "1", "--sample", "20", "--blunders", "1"],
    "match": ["match", "{agent_a}", "{agent_b}", "{spec}", "--games", "2", "--db", "{db}"],
    "tournament": ["tournament", "{spec}", "{agents}", "random", "--games", "1", "--db", "{db}"],
    "ratings": ["ratings", "{spec}", "--db", "{db}"],
    "train": [
        "train",
        "{learner}",
        "{spec}",
        "--out",
        "{tmp}/a.json",
        "--db",
        "{db}",
        "--criterion",
        "none",
        "--max-episodes",
        "50",
    ],
    "experiment": ["experiment", "{name}", "--db", "{db}"],
    "retro": ["retro", "{spec}"],
    "review": ["review", "{record}", "--max-seconds", "5"],
    "games list": ["games", "list", "--db", "{db}"],
    "games export": ["games", "export", "{ids}", "--db", "{db}"],
    "games import": ["games", "import", "{record}", "--db", "{db}"],
    "pairing find": ["pairing", "find", "{spec}"],
    "pairing check": ["pairing", "check", "{spec}", "--pairing", "{pairing}"],
    "potential simulate": ["potential", "simulate", "{spec}"],
    "potential criterion": ["potential", "criterion", "{spec}"],
    "prove casework": ["prove", "casework", "{spec}", "--workers", "1", "--out", "{tmp}/cw.json"],
    "prove check": ["prove", "check", "{cert}"],
    "prove breaker": ["prove", "breaker", "{spec}"],
    "prove draw": ["prove", "draw", "{spec}"],
    "dataset build": [
        "dataset",
        "build",
        "--out",
        "{tmp}/ds.parquet",
        "--games",
        "tictactoe",
        "--scale",
        "0.01",
    ],
    "dataset grade": ["dataset", "grade", "{agent}", "--data", "{dataset}", "--sample", "5"],
}

DEFAULTS: dict[tuple[str, str], str] = {
    ("quotient", "spec"): "notakto",
    ("retro", "spec"): "forget(tictactoe)",
    ("pairing find", "spec"): "mnk(5,5,5)",
    ("pairing check", "spec"): "mnk(5,5,5)",
    ("potential criterion", "spec"): "mnk(9,9,9)",
    ("prove casework", "spec"): "maker_breaker(mnk(4,4,4))",
    ("prove breaker", "spec"): "mnk(4,4,4)",
    ("experiment", "name"): "nosuch",  # the options are checked; no experiment is run
    ("train", "learner"): "qlearning",
    ("games export", "ids"): "1",
}
ARGUMENT_DEFAULTS = {"spec": "tictactoe", "agent": "random", "agent_a": "random", "agent_b": "random"}
ARGUMENT_DEFAULTS |= {"agents": "random"}

NOT_RUN = {
    "serve",  # serves until stopped: its refusals are tried in test_serve_refuses_hostile_values
    "prove cube7",  # the 7x7x7 proof: its refusals are in tests/pairing and test_edge_cases
    "solve check",  # tried through solve's FILE argument below
}


def _kind(param: object) -> str:
    name = getattr(param, "name", "")
    metavar = (getattr(param, "metavar", None) or "").upper()
    annotation = param.type_descriptor.annotation  # type: ignore[attr-defined]
    text = str(annotation)
    if annotation is bool:
        return "flag"
    if "Path" in text:
        return "path"
    if annotation in (int, float) or "int" in text or "float" in text:
        return "number"
    if name in ("ray", "address"):
        return "ray"
    if name == "position":
        return "position"
    if name in ("estimator",) or (metavar in ("AGENT", "AGENT...", "PLAYER", "A", "B") and name != "prove"):
        return "agent"
    if metavar == "SPEC" or name == "spec":
        return "spec"
    return "word"


VALUES = {
    "path": HOSTILE_PATHS,
    "number": HOSTILE_NUMBERS,
    "spec": HOSTILE_SPECS,
    "agent": HOSTILE_AGENTS,
    "position": HOSTILE_POSITIONS,
    "ray": HOSTILE_RAY,
    "word": HOSTILE_WORDS,
}


def _commands() -> Iterator[tuple[str, object]]:
    def walk(command: object, path: list[str]) -> Iterator[tuple[str, object]]:
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                yield from walk(sub, [*path, name])
        else:
            yield " ".join(path), command

    yield from walk(typer.main.get_command(app), [])


def _cases() -> list[tuple[str, str, str, str]]:
    cases = []
    for path, command in _commands():
        if path in NOT_RUN:
            continue
        assert path in BASES, f"no base command for 'noughts {path}': add one to BASES"
        for param in command.params:  # type: ignore[attr-defined]
            kind = _kind(param)
            if kind == "flag":
                continue
            where = param.name if param.param_type_name == "argument" else param.opts[0]
            for value in VALUES[kind]:
                cases.append((path, where, kind, value))
    cases += [("solve check", "file", "path", v) for v in HOSTILE_PATHS]
    return cases


QUICK = {
    "number": ("nan", "99999999999999999999"),
    "path": ("/proc/x.json", "{tmp}/nonexistent/x.json"),
    "spec": ("foo(3)",),
    "agent": ("mcts:sims=99999999999999999999", "saved:nobody"),
    "position": ("xxxx",),
    "ray": ("127.0.0.1:1",),
    "word": ("bogus",),
}
"""The values tried in the default suite; the rest run with the slow tests (``-m slow``)."""

CASES = [
    pytest.param(*c, id=f"{c[0]} {c[1]}={c[3][:20]!r}", marks=() if c[3] in QUICK[c[2]] else pytest.mark.slow)
    for c in _cases()
]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("hostile")
    (tmp / "not-ours.txt").write_text("root:x:0:0::/root:/bin/bash\n")  # HOSTILE_PATHS' file that is not ours
    db = str(tmp / "s.db")
    assert (
        invoke("play", "tictactoe", "--x", "random", "--o", "random", "--seed", "3", "--db", db).exit_code
        == 0
    )
    record = str(tmp / "g.ntr")
    assert invoke("games", "export", "1", "--db", db, "--out", record).exit_code == 0
    pairing = str(tmp / "p.json")
    assert invoke("pairing", "find", "mnk(5,5,5)", "--save", pairing).exit_code == 0
    cert = str(tmp / "d.json")
    assert invoke("prove", "draw", "tictactoe", "--certificate", cert).exit_code == 0
    dataset = str(tmp / "d.parquet")
    assert (
        invoke("dataset", "build", "--out", dataset, "--games", "tictactoe", "--scale", "0.02").exit_code == 0
    )
    return {"tmp": str(tmp), "db": db, "record": record, "pairing": pairing, "cert": cert, "dataset": dataset}


def _args(path: str, where: str, value: str, files: dict[str, str]) -> list[str]:
    if path == "solve check":
        return ["solve", "check", value.format(**files) if value.startswith("{tmp}") else value]
    base = BASES[path]
    value = value.format(**files) if value.startswith("{tmp}") else value
    out = []
    for token in base:
        if token.startswith("{") and token.endswith("}") and token[1:-1] not in files:
            name = token[1:-1]
            if name == where:
                out.append(value)
            else:
                out.append(DEFAULTS.get((path, name), ARGUMENT_DEFAULTS.get(name, "")))
        else:
            out.append(token.format(**files))
    if where.startswith("-"):
        out += [where, value]
    return out


@pytest.mark.parametrize(("path", "where", "kind", "value"), CASES)
def test_no_traceback(path: str, where: str, kind: str, value: str, files: dict[str, str]) -> None:
    args = _args(path, where, value, files)
    r = invoke(*args)
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, r.output)
    assert "Traceback" not in r.output, args
    assert r.exit_code in (0, 1, 2, 3), (args, r.exit_code, r.output)
    if r.exit_code == 2:
        lines = [line for line in r.stderr.splitlines() if line.strip()]
        assert lines and lines[0].startswith("noughts: error: "), (args, r.stderr)
        assert len(lines) in (1, 3), (args, r.stderr)  # a spec's error adds the spec and a caret
        assert r.stdout == "", (args, "printed before its error", r.stdout)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--port", "99999"),
        ("--port", "nan"),
        ("--db", "{tmp}/nonexistent/x.db"),
        ("--db", "/etc"),
        ("--workers", "0"),
        ("--workers", "99999999999999999999"),
        ("--max-memory", "inf"),
        ("--per-client", "-1"),
        ("--host", "no such host"),
    ],
)
def test_serve_refuses_hostile_values(
    option: str, value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    def served(*args: object, **kwargs: object) -> None:  # a value taken: fail, rather than serve forever
        raise AssertionError(f"serve {option} {value} started serving")

    monkeypatch.setattr(uvicorn.Server, "run", served)
    r = invoke("serve", option, value.format(tmp=tmp_path))
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("noughts: error: ") and r.stderr.count("\n") == 1
    assert "Traceback" not in r.output and r.stdout == ""
