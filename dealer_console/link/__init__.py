"""Linked jackpots: one set of meters in PostgreSQL fed by many tables (``docs/link.md``).

Washington document, "Linked Paytables" (FUPGPP-WA01/FPGPP-WA01, -WA03, -WA07, -ML02): one
game's meters shared by several tables with the same paytable and number of decks. Each table
keeps its rounds in its own SQLite file; what it owes the link waits there in an outbox
(:mod:`.outbox`) until a sender thread (:mod:`.sender`) delivers it to the server
(:mod:`.server`), which orders hits across tables and is audited by :mod:`.audit`. Each
table logs in as itself and reaches the data only through the server's functions
(:mod:`.server_trust`); a link administrator's changes go through :mod:`.admin`, and
:mod:`.reconcile` sets a table's records beside the server's.
"""
