"""The nodes each table-using search searches: run it under two trees and compare the lines.

The alpha-beta kernel (``FastSolver``, its table growing), the proof engine (``ValueSearches``,
also with its table capped so that entries are evicted) and the Breaker prover (``BreakerProver``
with 16, 64 and 4,096 entries, and ``prove_breaker`` with its default table): one line per
search, ``what value nodes``. The same search must search the same nodes on two revisions where
neither the search nor its table's hash and replacement changed::

    PYTHONPATH=/path/to/before/src python bench/table_nodes.py > before.txt
    PYTHONPATH=src python bench/table_nodes.py > after.txt
    diff before.txt after.txt

``--only ab pn br`` runs some of the three.
"""

from __future__ import annotations

import argparse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", default=["ab", "pn", "br"], choices=["ab", "pn", "br"])
    which = parser.parse_args().only
    import noughts

    if "ab" in which:
        from noughts.exact.fast import FastSolver

        for spec, words in [
            ("mnk(4,4,4)", None),
            ("hypercube(3,3)", None),
            ("misere(tictactoe)", None),
            ("maker_breaker(tictactoe)", None),
            ("cumulative(tictactoe)", None),
            ("mnk(4,4,4)", 2),
            ("mnk(5,5,4)", None),
            ("misere(mnk(4,4,3))", None),
        ]:
            game = noughts.game(spec)
            solver = FastSolver(game, words=words)
            value = solver.value(game.start())
            print(f"alpha-beta {spec} words={words}", value, solver.nodes, flush=True)
    if "pn" in which:
        from noughts.proving.proof import ValueSearches

        for spec, tt_bytes in [
            ("mnk(4,4,4)", None),
            ("mnk(4,4,4)", 1 << 14),
            ("hypercube(3,3)", None),
            ("maker_breaker(mnk(4,4,4))", None),
            ("misere(mnk(3,3,3))", None),
            ("mnk(5,5,4)", 1 << 16),
        ]:
            game = noughts.game(spec)
            searches = ValueSearches(game, **({} if tt_bytes is None else {"tt_bytes": tt_bytes}))
            value = searches.value(game.start())
            print(f"proof engine {spec} tt_bytes={tt_bytes}", value, searches.nodes, flush=True)
    if "br" in which:
        from noughts.breaker.prover import BreakerProver, prove_breaker
        from noughts.breaker.question import question

        for spec, rules in [
            ("mnk(3,3,3)", None),
            ("mnk(4,3,3)", None),
            ("mnk(4,4,3)", "maker_breaker"),
            ("mnk(5,4,4)", None),
            ("mnk(5,5,4)", "maker_breaker"),
            ("mnk(6,6,5)", None),
            ("hypercube(3,3)", None),
        ]:
            game = noughts.game(spec)
            for entries in (16, 64, 1 << 12):
                prover = BreakerProver(
                    question(game, game.start(), rules=rules), record=False, tt_entries=entries
                )
                status = prover.run()
                print(
                    f"Breaker {spec} rules={rules} entries={entries}",
                    status,
                    int(prover.stats[prover.K.S_NODES]),
                )
        for spec in [
            "mnk(3,3,3)",
            "maker_breaker(mnk(3,3,3))",
            "maker_breaker(mnk(4,4,4))",
            "mnk(4,3,3)",
            "mnk(5,5,5)",
        ]:
            result = prove_breaker(spec)
            print(f"Breaker {spec} default table", result.value, result.nodes, flush=True)


if __name__ == "__main__":
    main()
