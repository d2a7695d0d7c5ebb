"""Writing a patch to the workspace, all files or none: the crash-safe transaction
(``transaction``: stage, verify, commit, swap, each numbered step a point the crash tests stop
at) and its journal with the recovery from it (``journal``: the durable plan, rollback and roll
forward after a crash, ``recover`` at start-up, ``revert`` of a completed write).

May import: the client package (errors, bounded reads); nothing else of the daemon.
"""
