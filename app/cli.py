"""The ``tretten`` command line: replay, deal, solve, survey, serve, prune.

Machine-readable output is JSON on stdout, exactly as ``docs/spec/notation.md`` says.
Wrong input prints ``{"error": …}`` on stdout, one plain line on stderr, and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import NoReturn

from app.engine import (
    GAMES,
    GameRecord,
    IllegalMoveError,
    InvalidMoveError,
    deal_for_seed,
    format_deal,
    get_game,
    trace,
)
from app.engine.variants import Position

USAGE_ERROR = 2
# Pyramid and Giza are always decided exactly; the larger searches get this by default.
DEFAULT_SOLVE_SECONDS = 20.0
SURVEY_SECONDS = 5.0
SHORTEST_NODES = 2_000_000  # positions A* may expand for ``solve --shortest`` (the time budget rules)


class UsageError(Exception):
    """Bad input on the command line: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse would print usage and a traceback-free exit
        raise UsageError(message)


def _emit(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def _rule_options(args: argparse.Namespace) -> dict[str, str]:
    """The rule options given on the command line (absent ones keep the game's default)."""
    names = ("passes", "goal", "rounds", "aces")
    options = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    if args.overlap:
        options["overlap"] = "true"
    return options


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=f"one of: {', '.join(GAMES)}")
    parser.add_argument("--passes", help="Pyramid family: 1|2|3|unlimited (default 1)")
    parser.add_argument("--goal", help="Pyramid family: pyramid|all (default pyramid)")
    parser.add_argument("--overlap", action="store_true", help="Pyramid family: relaxed pairing")
    parser.add_argument("--rounds", help="Gaps: 1|2|3|4|unlimited (default 3)")
    parser.add_argument("--aces", help="Gaps: removed|starters (default removed)")


def _start(args: argparse.Namespace) -> GameRecord:
    variant = get_game(args.game)
    rules = variant.parse_rules(_rule_options(args))
    return GameRecord.new(variant.name, rules, variant.parse_deal(args.deal))


def _move_error(index: int, exc: Exception) -> int:
    _emit({"error": f"move {index}: {exc}", "at": index})
    print(f"tretten: move {index}: {exc}", file=sys.stderr)
    return USAGE_ERROR


def replay(args: argparse.Namespace) -> int:
    record = _start(args)
    if args.trace:
        _emit(trace(record.position))
    for index, token in enumerate((args.moves or "").split()):
        try:
            record = record.play(token)
        except (InvalidMoveError, IllegalMoveError) as exc:
            return _move_error(index, exc)
        if args.trace:
            _emit(trace(record.position))
    if not args.trace:
        _emit(trace(record.position))
    return 0


def deal(args: argparse.Namespace) -> int:
    variant = get_game(args.game)
    try:
        seed = int(args.seed)
        cards = deal_for_seed(variant.name, seed)
    except ValueError:
        raise UsageError(f"a seed is an integer from 0 to 2**64 - 1, not {args.seed!r}") from None
    print(format_deal(cards))
    return 0


def solve(args: argparse.Namespace) -> int:
    from app.solver import solve as solve_position
    from app.solver.solve import wants_budget

    record = _start(args)
    for index, token in enumerate((args.moves or "").split()):
        try:
            record = record.play(token)
        except (InvalidMoveError, IllegalMoveError) as exc:
            return _move_error(index, exc)
    budget = args.budget
    if args.shortest:
        return _shortest(record.position, DEFAULT_SOLVE_SECONDS if budget is None else budget)
    if budget is None and wants_budget(record.position):
        budget = DEFAULT_SOLVE_SECONDS
    result = solve_position(record.position, budget_seconds=budget)
    if result.winnable is None:
        _emit({"winnable": None, "reason": result.reason or "budget"})
    elif result.winnable:
        _emit({"winnable": True, "moves": " ".join(result.moves)})
    else:
        _emit({"winnable": False})
    return 0


def _shortest(position: Position, seconds: float) -> int:
    """``solve --shortest``: the proven shortest win where the solver proves one (the Pyramid
    family: a deal's par), else the solver's line, never said proven."""
    from app.solver import proves_shortest, shortest_win
    from app.solver import solve as solve_position

    if proves_shortest(position):
        found = shortest_win(position, budget_nodes=SHORTEST_NODES, budget_seconds=seconds)
        winnable, moves, proven = found.winnable, found.moves, found.proven
    else:
        result = solve_position(position, budget_seconds=seconds)
        winnable, moves, proven = result.winnable, result.moves, result.winnable is False
    _emit({"winnable": winnable, "moves": " ".join(moves) if winnable else None,
           "length": len(moves) if winnable else None, "proven": proven})
    return 0


def survey(args: argparse.Namespace) -> int:
    from app.solver.solve import wants_budget
    from app.survey import SurveyReport, progress, run_survey

    variant = get_game(args.game)
    rules = variant.parse_rules(_rule_options(args))
    options = rules.to_options()
    if args.deals < 1 or args.jobs < 1:
        raise UsageError("--deals and --jobs must be at least 1")
    budget = args.budget
    if budget is None and wants_budget(variant.new_position(variant.deal(0), rules)):
        budget = SURVEY_SECONDS
    report = SurveyReport(variant.name, options, args.seed)
    started = time.perf_counter()
    for result in run_survey(variant.name, options, args.deals, args.seed, args.jobs, budget):
        report.results.append(result)
        done = len(report.results)
        if not args.quiet and (done == args.deals or done % max(1, args.deals // 200) == 0):
            progress(done, args.deals, started)
    summary = report.as_dict()
    if args.json:
        _emit(summary)
    else:
        rate, low, high = report.win_rate()
        print(f"{variant.name} {' '.join(f'--{k} {v}' for k, v in options.items())}")
        print(f"deals {summary['deals']} (seeds {args.seed}..{args.seed + args.deals - 1}), "
              f"decided {report.decided}, undecided {report.undecided}")
        print(f"winnable {report.won}: {100 * rate:.2f} % (95 % CI {100 * low:.2f}–{100 * high:.2f} %)")
        print(f"seconds per deal: mean {summary['seconds_mean']:.4f}, "
              f"median {summary['seconds_median']:.4f}, max {summary['seconds_max']:.3f}")
    return 0


def serve(args: argparse.Namespace) -> int:
    from app.web.http.serve import serve as run_server

    run_server(host=args.host, port=args.port)
    return 0


def prune(args: argparse.Namespace) -> int:
    from app.db.session import session_factory
    from app.services.accounts.prune import prune as prune_database
    from app.settings import get_settings

    if args.older_than < 0:
        raise UsageError("--older-than must be 0 or more days")
    with session_factory(get_settings(), bounded=False)() as session, session.begin():  # one unit of work, no request
        result = prune_database(session, args.older_than, dry_run=args.dry_run)
    _emit({**result.as_dict(), "dry_run": args.dry_run})
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tretten", description="Tretten: Pyramid and Gaps solitaire.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = commands.add_parser("replay", help="replay moves on a deal and print the position (JSON)")
    _add_rule_options(p)
    p.add_argument("--deal", required=True, help="the deal in notation")
    p.add_argument("--moves", default="", help="moves separated by spaces")
    p.add_argument("--trace", action="store_true", help="one JSON line per position")
    p.set_defaults(run=replay)

    p = commands.add_parser("deal", help="print the deal of a seed")
    p.add_argument("game", help=f"one of: {', '.join(GAMES)}")
    p.add_argument("--seed", required=True, help="0 ≤ seed < 2**64")
    p.set_defaults(run=deal)

    p = commands.add_parser("solve", help="solve the position after the moves (JSON)")
    _add_rule_options(p)
    p.add_argument("--deal", required=True, help="the deal in notation")
    p.add_argument("--moves", default="", help="moves separated by spaces")
    p.add_argument("--budget", type=float, default=None,
                   help=f"seconds before 'unknown' (default: exact for pyramid and giza, "
                        f"{DEFAULT_SOLVE_SECONDS:g} s for gaps and double-pyramid)")
    p.add_argument("--shortest", action="store_true",
                   help="the shortest win: proven in the Pyramid family (the deal's par), "
                        "else the best line found; prints winnable, moves, length, proven")
    p.set_defaults(run=solve)

    p = commands.add_parser("survey", help="solve many seeded deals and print the win rate")
    _add_rule_options(p)
    p.add_argument("--deals", type=int, default=1000, help="how many deals (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--budget", type=float, default=None,
                   help="seconds per deal before 'unknown' (default: exact for pyramid and giza, "
                        f"{SURVEY_SECONDS:g} s for gaps and double-pyramid)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=survey)

    p = commands.add_parser("serve", help="migrate the database and serve the web app")
    p.add_argument("--host", default=None, help="default: the HOST setting (127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="default: the PORT setting (8000)")
    p.set_defaults(run=serve)

    p = commands.add_parser("prune", help="delete games never played and anonymous players without games")
    p.add_argument("--older-than", type=float, required=True, metavar="DAYS",
                   help="games never played (no move, no hint) untouched this many days; "
                        "players created before then with no games")
    p.add_argument("--dry-run", action="store_true", help="count, delete nothing")
    p.set_defaults(run=prune)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.run(args)
    except (UsageError, ValueError) as exc:
        _emit({"error": str(exc)})
        print(f"tretten: {exc}", file=sys.stderr)
        return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
