"""Shared by the library Protocol tests: the scan's deadline and a one-member Protocol's source."""

from __future__ import annotations

SCAN_S = 240.0  # a typeshed scan on a loaded two-core machine takes a few seconds


PROTOCOL = "from typing import Protocol\n\nclass {cls}(Protocol):\n    {member}: int\n"
