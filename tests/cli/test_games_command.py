import pytest
from cli_cases import invoke

import noughts
from noughts.cli.views import EXAMPLES, example_specs, params_parts, params_text
from noughts.core import ENTRIES


def test_games_lists_every_registered_entry_with_its_summary_and_examples() -> None:
    result = invoke("games")
    assert result.exit_code == 0, result.output
    rows: dict[str, str] = {}
    for line in result.stdout.splitlines():
        if line.split():
            rows.setdefault(line.split()[0], line)  # a row's first line holds name and makes
    for entry in ENTRIES.values():
        assert entry.name in rows
        assert entry.makes in rows[entry.name].split()
        assert entry.summary in result.stdout
        # long lists of parameters are printed one a line
        assert params_text(entry) in result.stdout or all(
            part in result.stdout for part in params_parts(entry)
        )
        for example in example_specs(entry):
            assert example in result.stdout


def test_every_registered_entry_has_an_example() -> None:
    assert set(EXAMPLES) == set(ENTRIES)


@pytest.mark.parametrize("spec", [s for e in ENTRIES.values() for s in example_specs(e)])
def test_every_example_builds(spec: str) -> None:
    made = noughts.game(spec)
    assert noughts.game(str(made)) == made
    name = spec.partition("(")[0]
    assert name in ENTRIES


def test_params_text_shows_defaults_and_bounds() -> None:
    assert params_text(ENTRIES["notakto"]) == "board=mnk(3,3,3), boards=1 (1..16), misere=true (bool)"
    assert params_text(ENTRIES["maker_breaker"]) == "board, breaker_first=false (bool)"
    assert params_text(ENTRIES["mnk"]) == "m (≥1), n (≥1), k (≥1)"
    assert params_text(ENTRIES["otrio"]) == "none"
