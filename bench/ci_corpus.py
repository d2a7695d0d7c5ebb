"""``python -m bench.ci_corpus [--projects a,b] [--json F]``: a replica of issue 22's corpus.

Six PyPI projects that configure mypy (click pyright too), each a release patch (older sdist ->
newer) and seven generated patches; each case judged by the checkers the project configures,
cold, as its CI runs them (``bench.ci_corpus_oracle``), and by a private prewrite daemon's
type-check rung, untrusted (prewrite's bundled checkers) and trusted (the workspace's own mypy,
the version its CI pins, in its venv). Prints a table, the totals and, for each disagreement,
the diagnostics on each side.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.ci_corpus_cases import Case, cases
from bench.ci_corpus_oracle import cold, configured, introduced, mypy_label
from bench.ci_corpus_projects import PROJECTS, Project
from bench.ci_corpus_report import report
from bench.trusting import environment_folder, trusting
from prewrite.client import Client
from tests.support.oracle import write_patched_copy
from tests.support.workloads import Workload, copy_workspace, prepare_workload

if TYPE_CHECKING:
    from prewrite.protocol import CheckReply, Diagnostic

TIMEOUT_S = 900.0


def _diag(d: Diagnostic) -> str:
    return f"{d.path}:{d.line}:{d.column}: {d.severity}: {d.message} [{d.rule}]"


def _prewrite(client: Client, root: Path, python: str, case: Case) -> dict[str, Any]:
    t = time.perf_counter()
    try:
        reply: CheckReply = client.check(str(root), case.changes, python=python,
                                         timeout_s=TIMEOUT_S, return_contents=False,
                                         rungs=["typecheck"])  # fmt: skip
    except Exception as exc:  # a case's failure is recorded, not raised
        return {"verdict": "error", "error": f"{type(exc).__name__}: {exc}"[:1500]}
    return {
        "verdict": "green" if reply.ok else "red",
        "failed_rung": reply.failed_rung,
        "diagnostics": [_diag(d) for d in reply.diagnostics],
        "verified": [v for v in reply.verified if "typecheck" in v or "judged" in v],
        "not_verified": list(reply.not_verified),
        "ms": round((time.perf_counter() - t) * 1000),
    }


def _oracle(project: Project, ws: Workload, checkers: list[str], case: Case, scratch: Path,
            base: Any) -> dict[str, Any]:  # fmt: skip
    tree = write_patched_copy(ws.root, case.changes, scratch)
    try:
        t = time.perf_counter()
        new = introduced(ws.root, base, tree, cold(project, tree, ws.python, checkers))
        flat = [f"{name}: {_diag(d)}" for name, ds in new.items() for d in ds]
        return {"verdict": "red" if flat else "green", "introduced": flat,
                "s": round(time.perf_counter() - t, 1)}  # fmt: skip
    except Exception as exc:
        return {"verdict": "error", "error": f"{type(exc).__name__}: {exc}"[:1500]}
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def _project(project: Project, work: Path, client: Client, ws: dict[str, Workload],
             out: list[dict[str, Any]], only: str = "") -> None:  # fmt: skip
    untrusted, trusted = ws["u"], ws["t"]
    checkers = configured(untrusted.root)
    base = cold(project, untrusted.root, untrusted.python, checkers)
    label = mypy_label(untrusted.python)
    chosen = [c for c in cases(project, untrusted.root) if only in c.name]
    for i, case in enumerate(chosen):
        row: dict[str, Any] = {"project": project.name, "case": case.name,
                               "checkers": checkers, "oracle_mypy": label}  # fmt: skip
        row["cold"] = _oracle(project, untrusted, checkers, case, work / f"p{i}", base)
        row["untrusted"] = _prewrite(client, untrusted.root, untrusted.python, case)
        row["trusted"] = _prewrite(client, trusted.root, trusted.python, case)
        out.append(row)
        print(
            f"{project.name:18} {case.name[:60]:60} cold {row['cold']['verdict']:5} "
            f"u {row['untrusted']['verdict']:5} t {row['trusted']['verdict']:5}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ci_corpus")
    parser.add_argument("--projects", default=",".join(PROJECTS))
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--only", default="", help="the cases whose name holds this text")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.projects.split(",") if n.strip()]
    if unknown := [n for n in names if n not in PROJECTS]:
        parser.error(f"unknown project(s): {', '.join(unknown)}")
    work = Path(tempfile.mkdtemp(prefix="pwcc-", dir="/tmp"))
    os.environ["PREWRITE_RUNTIME_DIR"] = str(work / "run")  # a private daemon
    started, load = time.strftime("%Y-%m-%d %H:%M %Z"), os.getloadavg()[0]
    rows: list[dict[str, Any]] = []
    staged: dict[str, dict[str, Workload]] = {}
    for name in names:
        try:
            pristine = prepare_workload(PROJECTS[name].old)
            staged[name] = {k: copy_workspace(pristine, work / name / k) for k in ("u", "t")}
        except Exception as exc:
            rows.append({"project": name, "case": "(workload)", "error": str(exc)[:1500]})
    trust = [
        p for ws in staged.values() for p in (ws["t"].root, environment_folder(ws["t"].python))
    ]
    try:
        with trusting(trust, work / "trust"), Client() as client:
            try:
                for name, ws in staged.items():
                    try:
                        _project(PROJECTS[name], work / name, client, ws, rows, args.only)
                    except Exception as exc:
                        rows.append({"project": name, "case": "(project)",
                                     "error": f"{type(exc).__name__}: {exc}"[:1500]})  # fmt: skip
            finally:
                client.stop()
        text = report(rows, started, load)
        print(text)
        if args.json:
            args.json.write_text(json.dumps({"started": started, "load": load, "rows": rows},
                                            indent=1))  # fmt: skip
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
