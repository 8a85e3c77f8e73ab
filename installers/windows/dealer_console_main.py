"""The bundle's entry point: the ``dealer-console`` command (``gui``, ``self-test``, ...)."""

import sys

from dealer_console.cli import main

if __name__ == "__main__":
    sys.exit(main())
