import subprocess

import pytest
from cli_cases import NOUGHTS, invoke, random_moves, replay, result_line, run_script

import noughts
from noughts.core import Player

AGENT_SPECS = [
    "tictactoe",
    "misere(tictactoe)",
    "notakto(boards=2)",
    "otrio",
    "veto(tictactoe)",
    "cumulative(tictactoe)",
    "maker_breaker(mnk(4,4,4),breaker_first=true)",
    "hypercube(3,3)",
]


@pytest.mark.parametrize("spec", AGENT_SPECS)
@pytest.mark.parametrize("seed", [0, 7])
def test_random_against_random_plays_to_the_end(spec: str, seed: int) -> None:
    result = invoke("play", spec, "--x", "random", "--o", "random", "--seed", str(seed))
    assert result.exit_code == 0, result.output
    game = noughts.game(spec)
    game_ = replay(spec, result.stdout)
    final = game_.final
    assert final.is_terminal()
    # the CLI's agents draw from one generator seeded with --seed, in turn
    assert game_.moves == random_moves(game, seed)
    lines = result.stdout.rstrip("\n").splitlines()
    assert (
        lines[0]
        == f"{game}: {game.player_label(Player.FIRST)} random, {game.player_label(Player.SECOND)} random (seed {seed})"
    )
    assert lines[-1] == result_line(game, final)
    assert final.render() in result.stdout  # the final board is drawn
    assert result.stdout.rstrip("\n").endswith(final.render() + "\n" + result_line(game, final))


def test_cumulative_prints_the_score() -> None:
    result = invoke("play", "cumulative(tictactoe)", "--x", "random", "--o", "random", "--seed", "3")
    final = replay("cumulative(tictactoe)", result.stdout).final
    score = final.score()
    assert score is not None
    last = result.stdout.rstrip("\n").splitlines()[-1]
    assert last.endswith(f"(score: x {score[0]}, o {score[1]})")
    assert sum(score) >= 1 or last.startswith("draw")


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    runs = [invoke("play", "mnk(4,4,3)", "--x", "random", "--o", "random", "--seed", s).stdout for s in "112"]
    assert runs[0] == runs[1]
    assert replay("mnk(4,4,3)", runs[0]).moves != replay("mnk(4,4,3)", runs[2]).moves


def test_without_seed_the_seed_used_is_printed_and_replays() -> None:
    first = invoke("play", "tictactoe", "--x", "random", "--o", "random").stdout
    seed = first.splitlines()[0].rpartition("(seed ")[2].rstrip(")")
    again = invoke("play", "tictactoe", "--x", "random", "--o", "random", "--seed", seed).stdout
    assert again == first


def test_console_script_plays_with_stdin_closed() -> None:
    # bash's <&- closes fd 0 outright: two agents never read it
    proc = subprocess.run(
        [
            "bash",
            "-c",
            'exec "$0" play "misere(mnk(3,3,3))" --x random --o random --seed 7 <&-',
            str(NOUGHTS),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    final = replay("misere(mnk(3,3,3))", proc.stdout).final
    assert proc.stdout.rstrip("\n").splitlines()[-1] == result_line(final.game, final)
    assert proc.stderr == ""


def test_console_script_with_devnull_stdin() -> None:
    proc = run_script(
        "play", "notakto(boards=2)", "--x", "random", "--o", "random", "--seed", "2", "--delay", "0.001"
    )
    assert proc.returncode == 0, proc.stderr
    assert replay("notakto(boards=2)", proc.stdout).final.is_terminal()


def test_position_option_starts_from_the_parsed_position() -> None:
    text = "xo./.x./o.."
    result = invoke("play", "tictactoe", "--x", "random", "--o", "random", "--seed", "1", "--position", text)
    assert result.exit_code == 0, result.output
    game = noughts.game("tictactoe")
    start = game.parse(text)
    played = replay("tictactoe", result.stdout, start=start)
    assert played.final.is_terminal()
    assert start.render() in result.stdout
    assert len(played.moves) <= len(start.legal_moves())


def test_finished_position_just_shows_the_result() -> None:
    result = invoke("play", "tictactoe", "--position", "xxx/oo./...")
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n").splitlines()[-1] == "x wins"
    assert "to move" not in result.stdout


# -- a person at the keyboard (scripted on stdin) ----------------------------------------------------


def _lines(output: str) -> list[str]:
    return output.splitlines()


def test_scripted_human_session() -> None:
    game = noughts.game("tictactoe")
    script = ["b2", "b2", "zz", "moves", "undo", "undo", "a1", "help", "quit"]
    result = invoke(
        "play", "tictactoe", "--x", "human", "--o", "random", "--seed", "5", input="\n".join(script) + "\n"
    )
    assert result.exit_code == 0, result.output
    lines = _lines(result.stdout)
    prompts = [i for i, line in enumerate(lines) if line.startswith("x to move > ")]
    assert [lines[i].removeprefix("x to move > ") for i in prompts] == script

    # b2 is played and o replies; the reply is read back and replayed
    o_line = next(line for line in lines[prompts[0] : prompts[1]] if line.startswith("o plays "))
    after_reply = game.start().play(game.parse_move("b2")).play(game.parse_move(o_line.split()[-1]))
    assert after_reply.render() in "\n".join(lines[prompts[0] : prompts[1]])

    # the illegal b2 gets exactly one line, the library's reason, then the prompt again
    with pytest.raises(noughts.IllegalMoveError) as taken:
        after_reply.play(game.parse_move("b2"))
    assert prompts[2] == prompts[1] + 2
    assert lines[prompts[1] + 1] == str(taken.value)
    # the unreadable zz gets one line too: the NotationError's message
    with pytest.raises(noughts.NotationError) as unreadable:
        game.parse_move("zz")
    assert prompts[3] == prompts[2] + 2
    assert lines[prompts[2] + 1] == str(unreadable.value)
    # moves lists the legal moves in notation
    assert lines[prompts[3] + 1] == "legal moves: " + " ".join(
        game.format_move(m) for m in after_reply.legal_moves()
    )
    # undo takes back b2 and the reply: the empty board is drawn again
    between = "\n".join(lines[prompts[4] : prompts[5]])
    assert "took back 2 moves" in between
    assert game.start().render() in between
    # a second undo has nothing left to take back
    assert lines[prompts[5] + 1] == "nothing to undo"
    # help names the commands and the notation
    help_text = "\n".join(lines[prompts[7] : prompts[8]])
    for word in ("moves", "undo", "help", "quit", "e.g. b2"):
        assert word in help_text
    # quit stops, printing how to go on from the position reached
    played = replay(
        "tictactoe", "\n".join(lines[prompts[6] :]), start=game.start().play(game.parse_move("a1"))
    )
    assert lines[-1].endswith(f"--position {played.final.text()}")
    assert "game stopped" in lines[-2]


def test_end_of_input_quits_like_quit() -> None:
    result = invoke("play", "tictactoe", "--x", "human", "--o", "random", "--seed", "1", input="c3\n")
    assert result.exit_code == 0, result.output
    assert "game stopped" in result.stdout
    assert "Traceback" not in result.output


def test_human_wins_from_a_position_and_sees_the_result() -> None:
    result = invoke(
        "play", "tictactoe", "--x", "human", "--o", "human", "--position", "xx./oo./...", input="c1\n"
    )
    assert result.exit_code == 0, result.output
    final = noughts.game("tictactoe").parse("xxx/oo./...")
    assert result.stdout.rstrip("\n").endswith(final.render() + "\nx wins")


def test_human_against_human_undo_takes_back_one_move() -> None:
    result = invoke("play", "tictactoe", "--x", "human", "--o", "human", input="b2\nundo\nquit\n")
    lines = _lines(result.stdout)
    assert "took back 1 move" in lines
    assert lines[-1].endswith("--position .../.../...")


def test_undo_after_the_agent_moved_first_has_nothing_to_undo() -> None:
    result = invoke("play", "tictactoe", "--x", "random", "--o", "human", "--seed", "3", input="undo\nquit\n")
    assert "nothing to undo" in _lines(result.stdout)


def test_veto_human_session_with_pass_and_veto() -> None:
    game = noughts.game("veto(tictactoe)")
    result = invoke(
        "play",
        "veto(tictactoe)",
        "--x",
        "random",
        "--o",
        "human",
        "--seed",
        "2",
        input="b2\npass\nmoves\nquit\n",
    )
    assert result.exit_code == 0, result.output
    lines = _lines(result.stdout)
    # at o's veto step a claim is refused with the library's reason
    with pytest.raises(noughts.IllegalMoveError) as not_now:
        game.start().play(game.parse_move("b2"))
    assert lines[lines.index("o to move > b2") + 1] == str(not_now.value)
    assert "o to move > pass" in lines
    assert "no cell is forbidden this turn" in lines


def test_notakto_human_must_name_the_board() -> None:
    result = invoke(
        "play", "notakto(boards=2)", "--x", "human", "--o", "random", "--seed", "2", input="b2\n1:b2\nquit\n"
    )
    lines = _lines(result.stdout)
    with pytest.raises(noughts.NotationError) as unreadable:
        noughts.game("notakto(boards=2)").parse_move("b2")
    assert lines[lines.index("first player to move > b2") + 1] == str(unreadable.value)
    assert "first player to move > 1:b2" in lines


def test_help_texts() -> None:
    top = invoke("--help")
    assert top.exit_code == 0
    for command in ("show", "play", "games"):
        assert command in top.stdout
    play = invoke("play", "--help").stdout
    for word in ("--x", "--o", "--seed", "--position", "--delay", "human", "random", "notakto", "Breaker"):
        assert word in play
    show = invoke("show", "--help").stdout
    assert "--json" in show


def test_a_typo_never_ends_the_game() -> None:
    # '²' passes str.isdigit but is no digit int() reads: the core must answer with a NotationError
    result = invoke("play", "hypercube(3,3)", "--x", "human", "--o", "human", input="1,²,1\n2,2,2\nquit\n")
    assert result.exit_code == 0, result.output
    lines = _lines(result.stdout)
    after = lines.index("x to move > 1,²,1")
    assert lines[after + 2] == "x to move > 2,2,2"
    assert "o to move > quit" in lines
