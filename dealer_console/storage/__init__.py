"""Per-table SQLite storage: connection pragmas, schema migrations, the hash-chained event log.

The database is always passed in (never a module-level handle); see ``docs/storage.md``.
"""

from dealer_console.storage.connection import (
    LaterSchema,
    NotATableDatabase,
    StorageError,
    TableDatabase,
    WriteFailed,
    connect,
    open_for_reading,
    open_table_db,
    pragmas,
)
from dealer_console.storage.eventlog import Event, append, events, verify_chain

__all__ = [
    "Event",
    "LaterSchema",
    "NotATableDatabase",
    "StorageError",
    "TableDatabase",
    "WriteFailed",
    "append",
    "connect",
    "events",
    "open_for_reading",
    "open_table_db",
    "pragmas",
    "verify_chain",
]
