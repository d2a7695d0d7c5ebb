"""The pieces of ``prewrite mcp`` (``prewrite_daemon.mcp_server``): what a model reads about the
tools (``guide``), how tool arguments become a patch (``inputs``), and how replies and errors
become tool results (``answers``). Named ``agent_mcp`` so it never shadows the ``mcp`` SDK."""
