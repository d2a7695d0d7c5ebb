"""Checker processes: the ``Backend`` interface (``base``), one supervised child (``child``,
adopted from the launcher when spawned ahead, ``spawned_ahead``), LSP servers through pygls
(``lsp_process``), pyright (``pyright``, ``pyright_command``, ``ready``), TypeScript
(``typescript``, ``tsserver``), and bounded one-shot runs of any tool (``process``).

May import: the client package (errors), ``limits``; nothing of the core, languages or ladder.
"""
