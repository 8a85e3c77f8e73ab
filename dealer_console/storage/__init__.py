"""Per-table SQLite storage: connection pragmas, schema migrations, the hash-chained event log
(``connection``, ``schema``, ``eventlog``), what a table database is (``identity``), the
writer's lock, failures explained, checkpoints (``anchor``) and backups.

The database is always passed in (never a module-level handle); see ``docs/storage.md``. The
package imports nothing itself, so the schema modules of the registry and the jackpot can use
the event log without a cycle through it.
"""
