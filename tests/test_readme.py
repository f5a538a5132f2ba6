"""The README's command-line quickstart, played top to bottom as a new user would: every
``sh`` block marked ``<!-- quickstart -->``, each command in order, in an empty folder with a
fresh store, exiting with status 0 or with the ``(exit N)`` its comment gives.

The commands run in this process (Typer's runner), so the interpreter and the compiled kernels
load once; ``tests/cli`` runs the installed console script itself."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from noughts.cli.app import app

README = Path(__file__).resolve().parents[1] / "README.md"
ENV = {"COLUMNS": "200", "NO_COLOR": "1", "FORCE_COLOR": None, "TERM": "dumb"}
EXIT = re.compile(r"#.*\(exit (\d)\)\s*$")


def quickstart(text: str) -> list[tuple[list[str], int, str]]:
    """Each command of the marked blocks: its arguments after ``noughts``, the exit status it
    should end with, and the line as written."""
    commands = []
    for block in re.findall(r"<!-- quickstart -->\s*```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if not words:
                continue
            assert words[0] == "noughts", f"the quickstart runs noughts commands only: {line!r}"
            status = EXIT.search(line)
            commands.append((words[1:], int(status.group(1)) if status else 0, line.strip()))
    return commands


def test_the_quickstart_is_found_and_covers_every_job() -> None:
    commands = quickstart(README.read_text())
    names = {args[0] for args, _, _ in commands}
    assert {"games", "show", "play", "review", "solve", "prove", "count", "train", "grade", "match"} <= names
    assert any("check" in args for args, _, _ in commands)  # a certificate is checked
    assert any(status != 0 for _, status, _ in commands)  # the (exit N) convention is in use


def test_quickstart_parser_reads_quotes_comments_and_statuses() -> None:
    text = (
        '<!-- quickstart -->\n```sh\nnoughts solve "mnk(4,4,4)"   # a draw\n\n'
        'noughts prove breaker "maker_breaker(mnk(3,3,3))"  # disproved (exit 1)\n```\n'
        "```sh\nnoughts serve\n```\n"
    )
    assert quickstart(text) == [
        (["solve", "mnk(4,4,4)"], 0, 'noughts solve "mnk(4,4,4)"   # a draw'),
        (
            ["prove", "breaker", "maker_breaker(mnk(3,3,3))"],
            1,
            'noughts prove breaker "maker_breaker(mnk(3,3,3))"  # disproved (exit 1)',
        ),
    ]


def test_readme_quickstart_runs_top_to_bottom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))  # a fresh per-user store
    runner = CliRunner()
    for args, status, line in quickstart(README.read_text()):
        result = runner.invoke(app, args, env=ENV)
        assert result.exit_code == status, (
            f"{line}\nexited {result.exit_code}:\n{result.output}{result.exception!r}"
        )
    # what the commands said they made is there: the game exported is the one played
    record = (tmp_path / "game.ntr").read_text()
    assert '[Game "mnk(3,3,3)"]' in record and '[First "random"]' in record and '[Second "perfect"]' in record
    for made in ("games.db", "q3.json", "q3.npz", "d555.json", "td.json"):
        assert (tmp_path / made).is_file(), made


def test_readme_and_benchmarks_stay_short_and_their_links_resolve() -> None:
    """The front page stays a front page (issue 29: README under 400 lines, BENCHMARKS.md under
    500), and every relative link in it names a file of the repository (mkdocs checks the
    docs pages' links; the README is outside the site)."""
    root = README.parent
    assert len(README.read_text().splitlines()) < 400
    assert len((root / "BENCHMARKS.md").read_text().splitlines()) < 500
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text())
    local = [link for link in links if "://" not in link]
    assert "docs/index.md" in local and "docs/sources.md" in local
    missing = [link for link in local if not (root / link).is_file()]
    assert not missing, missing
