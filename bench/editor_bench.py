"""The Editors section of ``make bench``: what an editor gets through ``prewrite lsp``.

On the httpx workload (staged as for the Python section), one private daemon serves an agent
(``Client`` checks) and an editor (a pygls ``LanguageClient`` on ``prewrite lsp``); beside it the
bench starts a direct ``pyright-langserver --stdio`` with the daemon's settings (``openFilesOnly``,
the workspace's interpreter) and the same document open. Measured side by side:

- idle latency: hover, definition and completion at fixed positions in ``httpx/_client.py`` (the
  first ``self._send_handling_auth(`` call), proxy and direct interleaved in alternating order;
  the overhead is proxy p50 - direct p50;
- memory: RSS of the daemon's one pyright serving both agent and editor, vs a direct editor
  pyright plus the daemon's pyright as it was with only the agent;
- fairness: proxy hovers while an agent (a ``Client`` in a thread) checks an interface-changing
  patch (``bench.patches`` "signature") back to back, vs the idle hovers; direct hovers are
  interleaved as a control for plain CPU contention.

Nothing is tuned here: the figures are reported as measured.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psutil
from lsprotocol import types
from pygls.lsp.client import LanguageClient

from bench.measure import CHECK_TIMEOUT_S, start_daemon, stop_daemon
from bench.patches import generate
from bench.processes import rss_mb, summarize
from bench.workloads import CATALOGUE, prepare, stage
from prewrite import Client
from prewrite.errors import PrewriteError
from prewrite.runtime import RuntimePaths
from prewrite_daemon.backends.pyright_command import langserver_argv

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Generator

    from bench.patches import BenchPatch
    from bench.workloads import Staged

EDITOR_WORKLOAD = "httpx"
TARGET_FILE = "httpx/_client.py"
CALL = "self._send_handling_auth("
REQUESTS = 30  # per method and side, idle
FAIR_REQUESTS = 30  # proxy hovers under agent load
FAIR_PACE_S = 0.25  # between them: the hovers span several agent checks, as a person's would
WARMUP = 3  # unmeasured requests per method and side
REQUEST_TIMEOUT_S = 120.0
READY_TIMEOUT_S = 120.0
METHODS = ("hover", "definition", "completion")


@dataclass(frozen=True)
class Probe:
    """Where the requests are made: a call site's line, and the column of its member name."""

    path: str
    line: int  # 0-based
    member: int  # column of ``_send_handling_auth`` (after ``self.``)


def find_probe(root: Path) -> Probe:
    for line, text in enumerate((root / TARGET_FILE).read_text().splitlines()):
        col = text.find(CALL)
        if col >= 0:
            return Probe(TARGET_FILE, line, col + len("self."))
    raise RuntimeError(f"no {CALL!r} in {TARGET_FILE}")


def _pyright_settings(python: str, section: str | None) -> Any:
    """What the daemon's pyright is told (``backends.pyright.make_pyright``)."""
    analysis = {"diagnosticMode": "openFilesOnly", "autoSearchPaths": True}
    if section == "python":
        return {"analysis": analysis, "pythonPath": python}
    if section == "python.analysis":
        return analysis
    return {} if section in ("pyright", "basedpyright") else None


class Editor:
    """A pygls client on one language server (``prewrite lsp`` or pyright itself)."""

    def __init__(self, name: str, root: Path, python: str) -> None:
        self.name, self.root = name, root
        self.client = LanguageClient(f"bench-{name}", "0")

        def configuration(params: types.ConfigurationParams) -> list[Any]:
            return [_pyright_settings(python, item.section) for item in params.items]

        def ignore(_params: object) -> None:
            return None

        feature = self.client.feature  # pyright: ignore[reportUnknownMemberType]
        feature(types.WORKSPACE_CONFIGURATION)(configuration)
        for method in (
            types.CLIENT_REGISTER_CAPABILITY,
            types.WINDOW_WORK_DONE_PROGRESS_CREATE,
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
            types.WINDOW_LOG_MESSAGE,
        ):
            feature(method)(_plain(ignore))

    async def start(self, argv: list[str], env: dict[str, str], options: Any) -> None:
        cmd, *args = argv
        await self.client.start_io(cmd, *args, env=env, cwd=str(self.root))  # pyright: ignore[reportUnknownMemberType]
        uri = self.root.as_uri()
        caps = types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(configuration=True, workspace_folders=True)
        )
        params = types.InitializeParams(
            capabilities=caps, process_id=os.getpid(), root_uri=uri, initialization_options=options,
            workspace_folders=[types.WorkspaceFolder(uri, self.root.name)],
        )  # fmt: skip
        await asyncio.wait_for(self.client.initialize_async(params), READY_TIMEOUT_S)
        self.client.initialized(types.InitializedParams())

    def open(self, rel: str) -> None:
        item = types.TextDocumentItem(
            (self.root / rel).as_uri(), "python", 1, (self.root / rel).read_text()
        )
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(item))

    async def request(self, method: str, probe: Probe) -> tuple[float, Any]:
        """One timed request (ms) and its answer."""
        doc = types.TextDocumentIdentifier((self.root / probe.path).as_uri())
        col = probe.member if method == "completion" else probe.member + 1
        at = types.Position(probe.line, col)
        c = self.client
        calls: dict[str, Callable[[], Awaitable[Any]]] = {
            "hover": lambda: c.text_document_hover_async(types.HoverParams(doc, at)),
            "definition": lambda: c.text_document_definition_async(types.DefinitionParams(doc, at)),
            "completion": lambda: c.text_document_completion_async(types.CompletionParams(doc, at)),
        }
        t = time.perf_counter()
        answer = await asyncio.wait_for(calls[method](), REQUEST_TIMEOUT_S)
        return (time.perf_counter() - t) * 1000, answer

    async def wait_ready(self, probe: Probe) -> float:
        """Hover until the server has analysed the document (a non-empty answer); ms taken."""
        t = time.perf_counter()
        while (await self.request("hover", probe))[1] is None:
            if time.perf_counter() - t > READY_TIMEOUT_S:
                raise TimeoutError(f"{self.name}: no hover within {READY_TIMEOUT_S:.0f}s")
            await asyncio.sleep(0.2)
        return (time.perf_counter() - t) * 1000

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), 10)
            self.client.exit(None)
            await asyncio.wait_for(self.client.stop(), 10)
        except (TimeoutError, OSError, RuntimeError) as exc:
            print(f"    warning: {self.name} did not stop cleanly: {exc!r}", flush=True)


def _plain(handler: Callable[[Any], object]) -> Callable[[Any], object]:
    def call(params: Any) -> object:
        return handler(params)

    return call


def _direct_pyright_pid() -> int | None:
    """The direct pyright this process started (its child running langserver.index.js)."""
    script = langserver_argv()[1]
    for child in psutil.Process().children(recursive=True):
        try:
            if script in child.cmdline():
                return child.pid
        except psutil.NoSuchProcess:
            continue
    return None


async def idle_latency(proxy: Editor, direct: Editor, probe: Probe, n: int) -> dict[str, Any]:
    """Each method ``n`` times per side, the sides alternating which goes first."""
    for method in METHODS:
        for _ in range(WARMUP):
            await proxy.request(method, probe)
            await direct.request(method, probe)
    out: dict[str, Any] = {}
    for method in METHODS:
        times: dict[str, list[float]] = {"proxy": [], "direct": []}
        for i in range(n):
            for side in (proxy, direct) if i % 2 else (direct, proxy):
                times[side.name].append((await side.request(method, probe))[0])
        p, d = summarize(times["proxy"]), summarize(times["direct"])
        out[method] = {"proxy": p, "direct": d, "overhead_p50": round(p["p50"] - d["p50"], 1)}
        print(f"    idle {method}: proxy p50 {p['p50']:.1f} ms p95 {p['p95']:.1f} ms, "
              f"direct p50 {d['p50']:.1f} ms p95 {d['p95']:.1f} ms", flush=True)  # fmt: skip
    return out


class AgentLoop:
    """An agent checking ``patch`` back to back in a thread until stopped."""

    def __init__(self, client: Client, staged: Staged, patch: BenchPatch) -> None:
        self.client, self.staged, self.patch = client, staged, patch
        self.checks: list[float] = []
        self.verdicts: set[str] = set()
        self.stopped = threading.Event()
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._run, name="bench-agent", daemon=True)

    def _run(self) -> None:
        run = 1000
        while not self.stopped.is_set():
            self.started.set()
            t = time.perf_counter()
            s = self.staged
            try:
                reply = self.client.check(
                    s.root, self.patch.salted(run), python=s.python, timeout_s=CHECK_TIMEOUT_S
                )
            except (PrewriteError, OSError) as exc:  # reported with the figures, not raised
                self.verdicts.add(f"error:{type(exc).__name__}")
                return
            self.checks.append((time.perf_counter() - t) * 1000)
            self.verdicts.add("ok" if reply.ok else f"failed:{reply.failed_rung}")
            run += 1


async def under_load(
    proxy: Editor, direct: Editor, probe: Probe, agent: AgentLoop, n: int, paths: RuntimePaths
) -> dict[str, Any]:
    """Hovers while the agent checks: proxy (the fairness figure) and direct (a control)."""
    agent.thread.start()
    await asyncio.to_thread(agent.started.wait, 60)
    times: dict[str, list[float]] = {"proxy": [], "direct": []}
    spare_rss: float | None = None
    served = 0
    try:
        for i in range(n):
            for side in (proxy, direct) if i % 2 else (direct, proxy):
                times[side.name].append((await side.request("hover", probe))[0])
            rss, served = _spare_status(paths)
            spare_rss = max(spare_rss or 0.0, rss) or None
            await asyncio.sleep(FAIR_PACE_S)
    finally:
        agent.stopped.set()
        await asyncio.to_thread(agent.thread.join, CHECK_TIMEOUT_S)
    p = summarize(times["proxy"])
    print(f"    hover under agent load: proxy p50 {p['p50']:.0f} ms p95 {p['p95']:.0f} ms "
          f"worst {p['max']:.0f} ms; {len(agent.checks)} agent checks", flush=True)  # fmt: skip
    return {
        "spare_rss_mb": spare_rss,
        "spare_served": served,
        "hover_proxy": p,
        "hover_direct": summarize(times["direct"]),
        "agent_checks": summarize(agent.checks) if agent.checks else None,
        "agent_verdicts": sorted(agent.verdicts),
    }


def _spare_status(paths: RuntimePaths) -> tuple[float, int]:
    """RSS of the editors' spare checkers now (0 when none runs), requests they served.
    Its own client: the agent's is busy in its thread."""
    with Client(paths=paths, autostart=False) as client:
        workspaces = client.status().workspaces
    rss = sum(rss_mb(ws.spare_pid) or 0.0 for ws in workspaces if ws.spare_pid)
    return rss, sum(ws.spare_served for ws in workspaces)


def _server_pids(client: Client) -> dict[Path, int | None]:
    """The daemon's workspaces: root -> its checker's pid."""
    return {Path(ws.root): ws.server_pid for ws in client.status().workspaces}


async def _measure(
    staged: Staged, patches: list[BenchPatch], work: Path, spare: bool = True
) -> dict[str, Any]:
    """Idle latency, memory and fairness with the daemon's editor spare; ``spare`` False: only
    the fairness figure, from a daemon without spares (editors wait for agent checks)."""
    paths = RuntimePaths(work / ("run" if spare else "run-nospare"))
    client, _start_ms = start_daemon(paths, () if spare else ("--editor-spare-idle", "0"))
    pid, server_pid = client.daemon_pid, None
    signature = next(p for p in patches if p.kind == "signature")
    probe = find_probe(staged.root)
    env = dict(os.environ, PREWRITE_RUNTIME_DIR=str(paths.runtime_dir))
    proxy = Editor("proxy", staged.root, staged.python)
    direct = Editor("direct", staged.root, staged.python)
    result: dict[str, Any] = {"label": staged.label, "file": probe.path, "line": probe.line + 1,
                              "signature_patch": signature.name}  # fmt: skip
    try:
        for run in range(3):  # the agent warms the daemon's pyright (a real agent's working set)
            client.check(staged.root, signature.salted(run), python=staged.python,
                         timeout_s=CHECK_TIMEOUT_S)  # fmt: skip
        server_pid = _server_pids(client).get(staged.root.resolve())
        agent_only = rss_mb(server_pid)
        prewrite = shutil.which("prewrite", path=str(Path(sys.executable).parent))
        if prewrite is None:
            raise RuntimeError("no prewrite executable beside this interpreter")
        await proxy.start([prewrite, "lsp"], env, {"python": staged.python})
        await direct.start(langserver_argv(), dict(os.environ), None)
        for ed in (proxy, direct):
            ed.open(probe.path)
            result[f"{ed.name}_ready_ms"] = round(await ed.wait_ready(probe), 1)
        if not spare:
            agent = AgentLoop(client, staged, signature)
            return {"fairness": await under_load(proxy, direct, probe, agent, FAIR_REQUESTS, paths)}
        result["idle"] = await idle_latency(proxy, direct, probe, REQUESTS)
        result["workspaces"] = len(_server_pids(client))  # 1: editor and agent share it
        direct_rss = rss_mb(_direct_pyright_pid())
        shared = rss_mb(server_pid)
        result["rss_mb"] = {
            "daemon_pyright_agent_only": agent_only,
            "daemon_pyright_shared": shared,
            "direct_editor_pyright": direct_rss,
            "separate_total": _sum(direct_rss, agent_only),
            "daemon": rss_mb(pid, children=False),
        }
        print(f"    RSS: shared pyright {shared} MB vs direct {direct_rss} MB + agent-only "
              f"{agent_only} MB", flush=True)  # fmt: skip
        agent = AgentLoop(client, staged, signature)
        result["fairness"] = await under_load(proxy, direct, probe, agent, FAIR_REQUESTS, paths)
        result["fairness"]["hover_idle"] = result["idle"]["hover"]["proxy"]
        return result
    finally:
        await proxy.stop()
        await direct.stop()
        stop_daemon(client, paths, pid, server_pid)


@contextlib.contextmanager
def _trusting(root: Path, trust_file: Path) -> Generator[None]:
    """Daemons started in the block trust ``root`` (their trust list is ``trust_file``)."""
    trust_file.parent.mkdir(parents=True, exist_ok=True)
    trust_file.write_text(f"{root}\n", encoding="utf-8")
    old = os.environ.get("PREWRITE_TRUST_FILE")
    os.environ["PREWRITE_TRUST_FILE"] = str(trust_file)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("PREWRITE_TRUST_FILE", None)
        else:
            os.environ["PREWRITE_TRUST_FILE"] = old


def _sum(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else round(a + b, 1)


def run_editors(tmp: Path, seed: int) -> dict[str, Any]:
    """The Editors section on httpx; a failure is recorded in the result, not raised."""
    started = time.perf_counter()
    result: dict[str, Any] = {"name": EDITOR_WORKLOAD, "label": EDITOR_WORKLOAD}
    print(f"[editors] {EDITOR_WORKLOAD}: prewrite lsp vs a direct pyright ...", flush=True)
    try:
        workload = CATALOGUE[EDITOR_WORKLOAD]
        staged = stage(workload, prepare(workload), tmp / "editors" / "ws")
        patches = generate(staged.root, seed)
        # A person's editor works in their own repository, trusted (spares need it): a trust
        # list private to the bench's daemons says so.
        with _trusting(staged.root.resolve(), tmp / "editors" / "trusted"):
            result.update(asyncio.run(_measure(staged, patches, tmp / "editors")))
            print("  the same load on a daemon without editor spares ...", flush=True)
            without = asyncio.run(_measure(staged, patches, tmp / "editors", spare=False))
        result["fairness_no_spare"] = without["fairness"]
    except Exception as exc:
        traceback.print_exc()
        result.setdefault("errors", []).append(f"{type(exc).__name__}: {exc}")
    result["phase_s"] = round(time.perf_counter() - started, 1)
    return result
