"""Per-table SQLite storage: connection pragmas, schema migrations, the hash-chained event log.

The database is always passed in (never a module-level handle); see ``docs/storage.md``.
"""

from dealer_console.storage.connection import (
    StorageError,
    connect,
    open_for_reading,
    open_table_db,
    pragmas,
)
from dealer_console.storage.eventlog import Event, append, events, verify_chain

__all__ = [
    "Event",
    "StorageError",
    "append",
    "connect",
    "events",
    "open_for_reading",
    "open_table_db",
    "pragmas",
    "verify_chain",
]
