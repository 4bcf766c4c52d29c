"""Hints, lines and shortest wins, per preset (figures, not a test).

    .venv/bin/python bench/hints.py                          # every preset, 100 deals each
    .venv/bin/python bench/hints.py --presets gaps,pyramid-3 --deals 20
    .venv/bin/python bench/hints.py --jobs 2                  # presets two at a time

For each deal (seeds from ``--seed``) it measures, at the solver level:

- the line from the deal's start at the hint budget: its length as the search found it and
  after cleaning (``app.solver.lines``), and the cleaning's time;
- Pyramid family: the proven shortest win (``shortest_win`` at its default budget): its
  length, the time to prove it, and whether the budget sufficed;
- a player who takes every hint: a hint is the next move of the one line kept from the last
  solve (``line_from``); only when the position is off that line, or no win was known, is
  the position solved again (no win known: the hint is ``best_score_move``). Hints until the
  game is over (at most ``--max-hints``), and the time of each hint as served that way;
- hint latency: ``solve`` at the hint budget (cleaning included) from positions along the
  hinted game and along a greedy player's game (off any solver line);
- Gaps: a greedy player's rounds 1 and 2, then the round-3 start and a position half way
  through the greedy player's round 3, each solved at the hint budget (decided or not).

The hint budget is the service's (``app/services/assist/assist.py``): 200,000 positions, 1.5 s.
Times are CPU time with wall time beside it. Every preset at 100 deals takes about half an
hour on a shared 2-core machine, almost half of it Double Pyramid's shortest-win budgets
(``--prove-seconds`` shortens them).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PRESETS = ("gaps", "gaps-danish", "pyramid", "pyramid-3", "relaxed", "giza", "double-pyramid")
HINT_NODES, HINT_SECONDS = 200_000, 1.5  # as app/services/assist/assist.py
SCORE_NODES = 20_000
SAMPLES = 2  # positions per game (hinted, greedy) whose solve time is measured


def _clock() -> tuple[float, float]:
    """Wall and CPU time now: the machine is shared, so CPU time is the steadier figure."""
    return time.perf_counter(), time.process_time()


def _since(began: tuple[float, float]) -> tuple[float, float]:
    wall, cpu = _clock()
    return wall - began[0], cpu - began[1]


def _times(pairs: list, q: float, scale: float = 1000, unit: str = "ms", digits: int = 0) -> str:
    """The q-quantile of (wall, cpu) pairs: CPU time, wall time in brackets."""
    cpu = _q([c for _, c in pairs], q) * scale
    wall = _q([w for w, _ in pairs], q) * scale
    return f"{cpu:.{digits}f} {unit} (wall {wall:.{digits}f})"


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _mean(values) -> float:
    values = list(values)
    return statistics.fmean(values) if values else float("nan")


# --- players -------------------------------------------------------------------------------
def _greedy_move(position, seen: set):
    """A move for a player without help: Gaps, the fill that puts most cards in correct runs
    without coming back to a grid of this round seen before, else a redeal; Pyramid family,
    the first removal, else a draw or recycle (the engine lists removals first)."""
    from app.engine import REDEAL, Fill, GapsPosition

    legal = position.legal_moves()
    if not legal:
        return None
    if not isinstance(position, GapsPosition):
        return legal[0]
    best, best_score = None, -1
    for move in legal:
        if isinstance(move, Fill):
            after = position.play_unchecked(move)
            if after.grid not in seen and after.simple_score > best_score:
                best, best_score = move, after.simple_score
    if best is None and REDEAL in legal:
        return REDEAL
    return best


def _greedy_game(start, limit: int = 400, until_round: int | None = None) -> list:
    """The greedy player's positions from ``start`` (Gaps: up to the start of round
    ``until_round`` if given)."""
    from app.engine import REDEAL, GapsPosition

    positions, seen, here = [start], set(), start
    while here.status == "playing" and len(positions) < limit:
        if until_round is not None and here.round >= until_round:
            break
        if isinstance(here, GapsPosition):
            seen.add(here.grid)
        move = _greedy_move(here, seen)
        if move is None:
            break
        if move == REDEAL:
            seen = set()
        here = here.play_unchecked(move)
        positions.append(here)
    return positions


def _solve_line(position) -> tuple:
    from app.solver import solve

    result = solve(position, budget_nodes=HINT_NODES, budget_seconds=HINT_SECONDS)
    return result.winnable, result.moves


def _shortest_line(position) -> tuple:
    from app.solver import shortest_win

    found = shortest_win(position, budget_nodes=HINT_NODES, budget_seconds=HINT_SECONDS)
    return found.winnable, found.moves


def _hinted_game(start, max_hints: int, line_of=_solve_line):
    """The player who takes every hint: (status, hints, solves, [(seconds, from a kept line)]
    per hint, positions). ``line_of(position)`` gives (winnable, moves) for a line to keep."""
    from app.solver import best_score_move, line_from

    kept_from, kept = None, ()
    here, hints, solves, served, positions = start, 0, 0, [], [start]
    while here.status == "playing" and hints < max_hints:
        began = _clock()
        rest = line_from(kept_from, kept, here) if kept else None
        if not rest:
            winnable, moves = line_of(here)
            solves += 1
            if winnable and moves:
                kept_from, kept, rest = here, moves, moves
            else:
                kept_from, kept = None, ()
        move = rest[0] if rest else best_score_move(here, SCORE_NODES)
        served.append((_since(began), bool(rest)))
        if move is None:
            break
        here = here.apply(move)
        hints += 1
        positions.append(here)
    return here.status, hints, solves, served, positions


def _timed_solve(position) -> tuple[float, object]:
    from app.solver import solve

    began = _clock()
    result = solve(position, budget_nodes=HINT_NODES, budget_seconds=HINT_SECONDS)
    return _since(began), result


def _samples(positions: list, k: int) -> list:
    playing = [p for p in positions if p.status == "playing"]
    if not playing or k <= 0:
        return []
    step = max(1, len(playing) // (k + 1))
    return playing[step::step][:k]


def _last_round(start) -> dict:
    """Gaps: rounds 1 and 2 by the greedy player, then the start and the middle of its round
    3, each solved at the hint budget: {"start": (seconds, winnable), "middle": ...}."""
    here = _greedy_game(start, until_round=3)[-1]
    out = {}
    if here.round != 3 or here.status != "playing":
        return out
    out["start"] = _timed_solve(here)
    path = _greedy_game(here)
    middle = path[len(path) // 2]
    if middle.status == "playing":
        out["middle"] = _timed_solve(middle)
    return out


# --- one preset ------------------------------------------------------------------------------
def run_preset(slug: str, deals: int, first_seed: int, max_hints: int, samples: int,
               prove_seconds: float | None, lost_hints: int) -> dict:
    from app.engine import PyramidPosition, deal_for_seed, get_preset
    from app.solver import clean_line, shortest_win
    from app.solver import PAR_POSITIONS
    from app.solver.solve import search

    preset = get_preset(slug)
    rules, variant = preset.rules, preset.variant
    rows: list[dict] = []
    began = time.perf_counter()
    for seed in range(first_seed, first_seed + deals):
        start = variant.new_position(deal_for_seed(preset.game, seed), rules)
        row: dict = {"seed": seed}
        t = _clock()
        raw = search(start, budget_nodes=HINT_NODES, budget_seconds=HINT_SECONDS)
        row["search_s"] = _since(t)
        row["winnable"] = raw.winnable
        if raw.winnable and raw.moves:
            t = _clock()
            cleaned = clean_line(start, raw.moves)
            row["clean_s"] = _since(t)
            row["raw"], row["cleaned"] = len(raw.moves), len(cleaned)
        if isinstance(start, PyramidPosition):
            t = _clock()
            found = shortest_win(start, budget_nodes=PAR_POSITIONS, budget_seconds=prove_seconds)
            row["prove_s"] = _since(t)
            row["shortest"] = {"winnable": found.winnable, "length": len(found.moves),
                               "proven": found.proven, "lower": found.lower_bound}
            if row["winnable"] is None:
                row["winnable"] = found.winnable
        # a deal proven lost from the start: only a few hints, to time the best-score fallback
        lost = row["winnable"] is False
        status, hints, solves, served, positions = _hinted_game(start, lost_hints if lost else max_hints)
        row["hinted"] = {"status": status, "hints": hints, "solves": solves}
        row["served_s"] = served
        if isinstance(start, PyramidPosition) and not lost:
            # the line kept is shortest_win's at the hint budget (the proven shortest if found)
            status2, hints2, _, served2, _ = _hinted_game(start, max_hints, _shortest_line)
            row["hinted_shortest"] = {"status": status2, "hints": hints2, "first_s": served2[0][0]}
        row["lost_at_start"] = lost
        row["latency_line"] = [_timed_solve(p)[0] for p in _samples(positions, samples)]
        row["latency_greedy"] = [_timed_solve(p)[0] for p in _samples(_greedy_game(start), samples)]
        if preset.game == "gaps" and rules.rounds == 3:
            row["last_round"] = {k: (s, r.winnable) for k, (s, r) in _last_round(start).items()}
        rows.append(row)
    return {"preset": slug, "rows": rows, "seconds": time.perf_counter() - began}


def report(summary: dict) -> str:
    rows = summary["rows"]
    n = len(rows)
    out = [f"== {summary['preset']}: {n} deals, {summary['seconds']:.0f} s"]
    won_known = [r for r in rows if r.get("cleaned")]
    out.append(f"start at the hint budget: win found {len(won_known)}, lost "
               f"{sum(r['winnable'] is False for r in rows)}, undecided "
               f"{sum(r['winnable'] is None for r in rows)}")
    if won_known:
        raw = sum(r["raw"] for r in won_known)
        cleaned = sum(r["cleaned"] for r in won_known)
        out.append(f"line length: search {raw / len(won_known):.1f}, cleaned "
                   f"{cleaned / len(won_known):.1f} (cleaning saves {100 * (raw - cleaned) / raw:.1f} %, "
                   f"{sum(r['raw'] > r['cleaned'] for r in won_known)} of {len(won_known)} lines shorter); "
                   f"cleaning p50 {_times([r['clean_s'] for r in won_known], .5, digits=1)} "
                   f"max {_times([r['clean_s'] for r in won_known], 1, digits=1)}")
    proved = [r for r in rows if "shortest" in r and r["shortest"]["winnable"]]
    if proved:
        within = [r for r in proved if r["shortest"]["proven"]]
        both = [r for r in within if r.get("cleaned")]
        times = [r["prove_s"] for r in proved]
        line = (f"shortest win: {len(within)} of {len(proved)} won deals proven within the budget "
                f"({100 * len(within) / len(proved):.0f} %); time to prove p50 "
                f"{_times(times, .5, 1, 's', 2)} max {_times(times, 1, 1, 's', 2)}")
        if both:
            line += (f"; proven {_mean(r['shortest']['length'] for r in both):.1f} moves against "
                     f"cleaned {_mean(r['cleaned'] for r in both):.1f} "
                     f"(cleaned {100 * (sum(r['cleaned'] for r in both) / sum(r['shortest']['length'] for r in both) - 1):.1f} % longer)")
        out.append(line)
        unproven = [r for r in proved if not r["shortest"]["proven"]]
        if unproven:
            gap = _mean(r["shortest"]["length"] - r["shortest"]["lower"] for r in unproven)
            out.append(f"  not proven: best line minus lower bound, mean {gap:.1f} moves")
    hinted_won = [r for r in rows if r["hinted"]["status"] == "won"]
    winnable = [r for r in rows if r["winnable"]]
    hints = [r["hinted"]["hints"] for r in hinted_won]
    out.append(f"player taking every hint: won {len(hinted_won)} of {n} "
               f"(winnable known {len(winnable)}; deals lost from the start get "
               f"only the hints timed below); hints to win median "
               f"{_q(hints, .5) if hints else '-'} mean {_mean(hints):.1f} max {max(hints) if hints else '-'}; "
               f"solves per game mean {_mean(r['hinted']['solves'] for r in rows):.2f}")
    shortest = [r["hinted_shortest"] for r in rows if "hinted_shortest" in r]
    if shortest:
        won2 = [x["hints"] for x in shortest if x["status"] == "won"]
        firsts = [x["first_s"] for x in shortest]
        out.append(f"  keeping shortest_win's line (hint budget) instead: won {len(won2)}, hints to win "
                   f"mean {_mean(won2):.1f}; its first hint p50 {_times(firsts, .5)} "
                   f"p95 {_times(firsts, .95)}")
    for kept, what in ((True, "the next move of the kept line"),
                       (False, "no win known: solve, then the best-score move")):
        served = [s for r in rows for s, k in r["served_s"] if k is kept]
        if served:
            out.append(f"hint as served, {what}: p50 {_times(served, .5, digits=1)} "
                       f"p95 {_times(served, .95, digits=1)} max {_times(served, 1)} "
                       f"({len(served)} hints)")
    for key, what in (("latency_line", "on the hinted line"), ("latency_greedy", "along a greedy game")):
        values = [s for r in rows for s in r[key]]
        if values:
            out.append(f"solve at the hint budget {what}: p50 {_times(values, .5)} "
                       f"p95 {_times(values, .95)} ({len(values)} positions)")
    last = [r["last_round"] for r in rows if r.get("last_round")]
    for key in ("start", "middle"):
        got = [x[key] for x in last if key in x]
        if got:
            decided = [w for _, w in got if w is not None]
            out.append(f"last round, {key} (greedy rounds 1-2): decided {len(decided)} of {len(got)} "
                       f"({100 * len(decided) / len(got):.0f} %; won {sum(bool(w) for w in decided)}, "
                       f"lost {sum(w is False for w in decided)}), solve p50 "
                       f"{_times([s for s, _ in got], .5)} p95 {_times([s for s, _ in got], .95)}")
    return "\n".join(out)


def _worker(args, queue) -> None:
    queue.put(run_preset(*args))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--max-hints", type=int, default=400)
    parser.add_argument("--samples", type=int, default=SAMPLES,
                        help="positions per game whose solve time is measured")
    parser.add_argument("--prove-seconds", type=float, default=None,
                        help="budget of shortest_win (default: its own)")
    parser.add_argument("--lost-hints", type=int, default=1,
                        help="hints timed in a deal proven lost from the start")
    parser.add_argument("--jobs", type=int, default=1, help="presets measured at once")
    parser.add_argument("--json", help="also write every row to this file")
    args = parser.parse_args(argv)
    slugs = [s.strip() for s in args.presets.split(",") if s.strip()]
    for slug in slugs:
        if slug not in PRESETS:
            parser.error(f"unknown preset {slug!r}: choose from {', '.join(PRESETS)}")
    began = time.perf_counter()
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    pending, running, results = list(slugs), [], []
    while pending or running:
        while pending and len(running) < args.jobs:
            job = (pending.pop(0), args.deals, args.seed, args.max_hints, args.samples,
                   args.prove_seconds, args.lost_hints)
            proc = ctx.Process(target=_worker, args=(job, queue))
            proc.start()
            running.append(proc)
        summary = queue.get()
        results.append(summary)
        print(report(summary), flush=True)
        for proc in list(running):
            proc.join(timeout=0.1)
            if not proc.is_alive():
                running.remove(proc)
    print(f"total {time.perf_counter() - began:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(results, default=str))


if __name__ == "__main__":
    main()
