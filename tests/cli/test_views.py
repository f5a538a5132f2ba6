import io

from rich.console import Console

import noughts
from noughts.cli.views import MARK_STYLES, rules_summary, styled_board, styled_line


def _spans(text) -> dict[str, set[str]]:  # type: ignore[no-untyped-def]
    """Which characters of a Rich Text carry which styles."""
    out: dict[str, set[str]] = {}
    for span in text.spans:
        out.setdefault(str(span.style), set()).add(text.plain[span.start : span.end])
    return out


def test_board_colours_marks_and_keeps_the_picture() -> None:
    game = noughts.game("tictactoe")
    position = game.parse("xo./.x./...")
    text = styled_board(position)
    assert text.plain == position.render()
    spans = _spans(text)
    assert spans[MARK_STYLES["x"]] == {"x"}
    assert spans[MARK_STYLES["o"]] == {"o"}
    # 2 x and 1 o coloured; the header 'a b c' is not
    coloured = [s for s in text.spans if str(s.style) in MARK_STYLES.values()]
    assert len(coloured) == 3


def test_column_letters_x_and_o_are_not_taken_for_marks() -> None:
    position = noughts.game("mnk(1,26,3)").start()
    text = styled_board(position)
    assert not [s for s in text.spans if str(s.style) in MARK_STYLES.values()]
    assert " x y z" in text.plain.splitlines()[0]


def test_status_lines_colour_lone_marks_only() -> None:
    text = styled_line("x holds: 3 small, 3 medium, 3 large")
    coloured = [text.plain[s.start : s.end] for s in text.spans]
    assert coloured == ["x"]
    assert styled_line("Breaker (o)").spans[0].style == MARK_STYLES["o"]
    assert styled_line("second player").spans == []


def test_colours_reach_a_terminal() -> None:
    out = io.StringIO()
    Console(file=out, force_terminal=True, color_system="standard").print(
        styled_board(noughts.game("tictactoe").parse("x../.../...")), end=""
    )
    assert "\x1b[" in out.getvalue()
    assert out.getvalue() != noughts.game("tictactoe").parse("x../.../...").render()


def test_rules_summary_for_boards_wrappers_and_games() -> None:
    assert rules_summary(noughts.game("tictactoe")).startswith("standard: ")
    assert rules_summary(noughts.game("otrio")).startswith("otrio: ")
    assert (
        rules_summary(noughts.game("veto(cumulative(tictactoe))"))
        .split("; the claims follow ")[1]
        .startswith("cumulative: ")
    )
