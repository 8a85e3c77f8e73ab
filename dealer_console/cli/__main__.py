"""``python -m dealer_console.cli``: the same as the ``dealer-console`` command."""

import sys

from dealer_console.cli import main

sys.exit(main())
