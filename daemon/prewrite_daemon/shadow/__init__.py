"""The shadow: the daemon-owned mirror of a workspace the warm checker runs on. The tree and
its sync, the patch files materialised in it and put back (``tree``); the stat-scan that decides
which files are mirrored and where each symlink points (``scan``).

May import: the client package (bounded reads), ``backends.base`` (file events); nothing of the
core.
"""
