"""The table's one name, on every page and screen that names it.

Issue 23: the win page named the table by the profile's title on screen and "table" from the
command line, and the shift report by its database file. The table's name is its configured
id, ``DEALER_CONSOLE_TABLE_ID`` in the console's environment (the name it also has on its
jackpot links); a table without one is named by its database file, so two tables' papers
still differ.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

TABLE_ID_VARIABLE = "DEALER_CONSOLE_TABLE_ID"


def table_name(db_path: str | Path, environ: Mapping[str, str] | None = None) -> str:
    configured = (os.environ if environ is None else environ).get(TABLE_ID_VARIABLE, "").strip()
    return configured or Path(db_path).stem
