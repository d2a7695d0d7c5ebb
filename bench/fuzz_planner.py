"""Run the Python planner fuzzer for a while and write what it found (issue 19 item 5).

``.venv/bin/python -m bench.fuzz_planner [--programs N] [--seed S] [--batch B] [--patches P]
[--cold-every K] [--no-shrink] [--out FILE]``

Generated programs and interface changes (``tests/support/py_fuzzgen.py``), each patch judged by
the narrowed warm check against the same check comparing every file of its program, about one
in K cold too (``tests/support/py_fuzzgen_judge.py``). Findings are printed as they come, shrunk,
each with a reproduction; the summary and every finding also go to ``--out`` (default
``bench/results/fuzz-planner-<seed>.txt``). ``make fuzz`` runs the pytest tier instead.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from tests.support.py_fuzzgen_run import FuzzPlan, fuzz

RESULTS = Path(__file__).resolve().parent / "results"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz_planner")
    parser.add_argument("--programs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=12)
    parser.add_argument("--patches", type=int, default=5)
    parser.add_argument("--cold-every", type=int, default=10)
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    out: Path = args.out or RESULTS / f"fuzz-planner-{args.seed}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    seeds = range(args.seed, args.seed + args.programs)
    plan = FuzzPlan(seeds, args.batch, args.patches, args.cold_every, not args.no_shrink)
    with tempfile.TemporaryDirectory(prefix="pw-fuzz-") as tmp, out.open("w") as sink:

        def log(line: str) -> None:
            print(line, flush=True)
            sink.write(line + "\n")
            sink.flush()

        report = asyncio.run(fuzz(plan, Path(tmp), sys.executable, log))
        log(f"seeds {seeds.start}..{seeds.stop - 1}: {report.summary()}")
    return 1 if report.findings or report.errors else 0


if __name__ == "__main__":
    sys.exit(main())
