"""`make demo`: start a daemon, check a green and a red patch on the bundled shop example, stop.

Prints what an agent sees, and the cold and warm times side by side.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from prewrite import CheckReply, Client, FileChange, change_file
from prewrite.runtime import RuntimePaths
from prewrite_daemon.backends.pyright_command import cli_argv

EXAMPLE = Path(__file__).parent / "demo" / "repo"
WARM_RUNS = 5


def green_patch(root: Path) -> list[FileChange]:
    """Two files: a new Money method and a Cart method that uses it."""
    money = (root / "shop/money.py").read_text() + (
        '\n    def scaled(self, factor: float) -> "Money":\n'
        "        return Money(round(self.cents * factor), self.currency)\n"
    )
    cart = (root / "shop/cart.py").read_text() + (
        "\n    def discounted_total(self, percent: int) -> Money:\n"
        "        return self.total().scaled(1 - percent / 100)\n"
    )
    return [change_file(root, "shop/money.py", money), change_file(root, "shop/cart.py", cart)]


def red_patch(root: Path) -> list[FileChange]:
    """Turns Money.format into a property: checkout.py, outside the patch, still calls it."""
    money = (
        (root / "shop/money.py")
        .read_text()
        .replace("    def format(self) -> str:", "    @property\n    def format(self) -> str:")
    )
    return [change_file(root, "shop/money.py", money)]


def show(label: str, reply: CheckReply, ms: float) -> None:
    verdict = "ok" if reply.ok else "FAILED"
    print(f"  {label}: {verdict} in {ms:.0f} ms, checked {', '.join(reply.checked_files)}")
    for d in reply.diagnostics:
        print(f"    {d.path}:{d.line}:{d.column}: {d.severity}: {d.message} [{d.rule}]")


def cold_cli(root: Path, changes: list[FileChange], python: str) -> float:
    """What an agent does without prewrite: write the patched tree, run pyright cold."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        shutil.copytree(root, tree)
        for c in changes:
            (tree / c.path).write_text(c.content or "")
        started = time.perf_counter()
        subprocess.run(
            [*cli_argv(), "--outputjson", "--pythonpath", python],
            cwd=tree,
            capture_output=True,
            check=False,
        )
        return (time.perf_counter() - started) * 1000


def timed(
    client: Client, root: Path, changes: list[FileChange], python: str
) -> tuple[CheckReply, float]:
    started = time.perf_counter()
    reply = client.check(root, changes, python=python)
    return reply, (time.perf_counter() - started) * 1000


def main() -> int:
    python = shutil.which("python3") or "python3"
    with tempfile.TemporaryDirectory(prefix="pw-demo-", dir="/tmp") as tmp:
        root = Path(tmp) / "shop-repo"
        shutil.copytree(EXAMPLE, root)
        paths = RuntimePaths(Path(tmp) / "run")
        os.environ["PREWRITE_RUNTIME_DIR"] = str(paths.runtime_dir)
        print(f"prewrite demo: example repository at {root}")
        green, red = green_patch(root), red_patch(root)

        cold_ms = cold_cli(root, green, python)
        print(f"cold pyright CLI on the patched tree, written to a copy: {cold_ms:.0f} ms")

        started = time.perf_counter()
        client = Client(paths=paths)  # auto-starts the daemon, like `prewrite check` does
        print(
            f"daemon started in {(time.perf_counter() - started) * 1000:.0f} ms "
            f"(pid {client.daemon_pid})"
        )
        try:
            reply, first_ms = timed(client, root, green, python)
            show("first check (a fresh daemon: cold pyright, JIT and caches)", reply, first_ms)
            print(f"  first check / cold CLI: {first_ms / cold_ms:.2f}x")
            greens = [timed(client, root, green, python) for _ in range(WARM_RUNS)]
            reds = [timed(client, root, red, python) for _ in range(WARM_RUNS)]
            show("green patch, warm", *greens[-1])
            show("red patch, warm", *reds[-1])
            warm = statistics.median(ms for _, ms in greens + reds)
            print(
                f"warm median over {2 * WARM_RUNS} checks: {warm:.0f} ms "
                f"({cold_ms / warm:.0f}x faster than the cold CLI)"
            )
            assert all(r.ok for r, _ in greens)
            assert not any(r.ok for r, _ in reds)
            unchanged = (root / "shop/money.py").read_text() == (
                EXAMPLE / "shop/money.py"
            ).read_text()
            print(f"repository untouched by the checks: {unchanged}")
        finally:
            client.stop()
            client.close()
            print("daemon stopped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
