"""Agents' way in besides the CLI: ``prewrite mcp`` (``server``), an MCP server over stdio that
drives the daemon through ``prewrite.Client``. What a model reads about the tools (``guide``),
how tool arguments become a patch (``inputs``), how replies and errors become tool results
(``answers``).

May import: the client package and the ``mcp`` SDK; nothing else of the daemon (it runs in its
own process and speaks to the daemon over the socket, as any agent does).
"""
