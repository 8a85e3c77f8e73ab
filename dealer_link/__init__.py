"""The jackpot link's PostgreSQL side: its client, threads, server and command line.

Kept out of ``dealer_console`` (the pure core, which never imports psycopg nor starts the link's
threads): the composition roots (the console's start, the command line) build the link here
and hand it to ``open_table``; this package may import the core, never the reverse.
"""
