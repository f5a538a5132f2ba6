"""docs/cli.md's reference is generated from the commands (noughts.cli.reference) and current."""

from __future__ import annotations

from pathlib import Path

import typer

from noughts.cli.app import app
from noughts.cli.reference import BEGIN, END, reference, replace_reference

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def test_the_reference_in_docs_cli_md_is_current() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert replace_reference(page, reference()) == page, (
        "docs/cli.md's reference is out of date: python -m noughts.cli.reference --write docs/cli.md"
    )


def _commands(group: object, prefix: str) -> list[str]:
    out = []
    for name, command in sorted(getattr(group, "commands", {}).items()):
        if getattr(command, "hidden", False):
            continue
        out.append(f"{prefix} {name}")
        out += _commands(command, f"{prefix} {name}")
    return out


def test_the_reference_has_every_command_and_every_option() -> None:
    text = reference()
    root = typer.main.get_command(app)
    names = _commands(root, "noughts")
    assert len(names) > 25
    for name in names:
        assert f"### `{name}`" in text, name
    solve = text.split("### `noughts solve`", 1)[1].split("\n### ", 1)[0]
    for option in ("--position", "--max-seconds", "--certificate", "--json"):
        assert f"`{option}" in solve, option


def test_replace_reference_keeps_the_rest_of_the_page() -> None:
    page = f"# title\n\nintro\n\n{BEGIN}\nold\n{END}\n\nafter\n"
    assert replace_reference(page, "new\n") == f"# title\n\nintro\n\n{BEGIN}\n\nnew\n\n{END}\n\nafter\n"
