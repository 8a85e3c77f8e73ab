"""Linked jackpots: one set of meters in PostgreSQL fed by many tables (``docs/link.md``).

Washington document, "Linked Paytables" (FUPGPP-WA01/FPGPP-WA01, -WA03, -WA07, -ML02): one
game's meters shared by several tables with the same paytable and number of decks. Each table
keeps its rounds in its own SQLite file; what it owes the link waits there in an outbox
(:mod:`.outbox`) until a sender thread delivers it to the server. This package is the table's
side without the network (the outbox, the START GAME hook, the link's health, the server's SQL
text); the PostgreSQL client, its threads, the server, its audit and the administrator's
commands are ``dealer_link``, which the core never imports.
"""
