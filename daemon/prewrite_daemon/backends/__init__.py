"""Checker processes: the ``Backend`` interface (``base``), one supervised child (``child``,
adopted from the launcher when spawned ahead, ``spawned_ahead``), LSP servers through pygls
(``lsp_process``: its lifecycle and calls, composing the document sync ``lsp_documents``, the
diagnostics pulled or pushed ``lsp_diagnostics`` and the pygls handlers ``lsp_handlers``; what
they speak in, ``lsp_types``), pyright (``pyright``, ``pyright_command``, ``ready``), TypeScript
(``typescript``, ``tsserver``, ``tsserver_wire``), and bounded one-shot runs of any tool
(``process``).

May import: the client package (errors), ``limits``; nothing of the core, languages or ladder.
"""
