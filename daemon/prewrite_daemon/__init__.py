"""The prewrite daemon. The core lives at the top level: the command line (``launch``), the
lifecycle (``app``), the socket server (``rpc``), the registry of workspaces (``session``,
``entry``, ``retire``), one workspace (``workspace``) and its shadow tree (the ``shadow``
package), the overlay check (``checker``), applying (``apply``) with the all-or-nothing write
(the ``writer`` package), watching (``watcher``) and limits (``limits``). Subsystems are
packages: ``check``, ``recheck``, ``ladder``, ``languages``, ``backends``, ``editor``,
``agents``, ``concurrency``; each ``__init__`` says what it may import, and ``make lint`` holds
those lines (import-linter).
"""
