"""TypeScript and JavaScript, judged by the workspace's own TypeScript (or prewrite's pinned one
for an untrusted workspace, ``pinned``): the language object (``language``), its configuration
(``tsconfig``, ``environment``, ``scope``), and the import graph from tree-sitter syntax trees
(``syntax``, ``literals``, ``comments``, ``global_reach``, ``packages``, ``graph``,
``interface``).

May import: ``backends``, ``limits``, ``check.patch``, ``languages.jsonc`` and the language seam.
"""
