"""A "language server" that writes garbage to stdout instead of speaking JSON-RPC.

    python garbage_stdout.py lines|huge-line

``lines``: text, a malformed header and a body that is not JSON; ``huge-line``: one line longer
than any reader's line limit. Then it stays alive, reading stdin until the other side closes it.
Deliberately raw: a pygls server could not misbehave like this.
"""

from __future__ import annotations

import sys

KINDS = {
    "lines": b"hello?\r\nContent-Length: abc\r\n\r\nContent-Length: 8\r\n\r\n{oops!!}\xff\xfe\r\n",
    "huge-line": b"x" * (1 << 20),
}


def main() -> None:
    sys.stdout.buffer.write(KINDS[sys.argv[1]])
    sys.stdout.buffer.flush()
    for _line in sys.stdin.buffer:
        pass


if __name__ == "__main__":
    main()
