"""Fault injection: tampering, crashes, concurrency and fuzzing against a realistic home.

Helpers (not collected): ``homebuild`` builds the home (memories with review provenance, drafts,
sealed day logs, ledger, cold storage with tombstones); ``tamper`` holds the tamper classes and the
trial runner; ``crashes`` and ``crashchild`` the SIGKILL trials; ``fuzzing`` the shared fuzz pieces;
``atheris_target`` the coverage-guided target. ``tests/bench/bench_faults.py`` is the long run.

Every trial is seeded (``REVERIE_FAULT_SEED``) and every failure message says how to replay it.
"""
