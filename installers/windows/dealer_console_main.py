"""The bundle's entry point: the ``dealer-console`` command (``gui``, ``self-test``, ...), and
two of the Windows kiosk's own: ``watchdog`` (``kiosk_watchdog.py``: the kiosk kept running,
as systemd keeps it on Linux) and ``lockdown`` (``kiosk_lockdown.py``: the kiosk account's
shell and policies)."""

import sys

if __name__ == "__main__":
    if sys.argv[1:2] == ["watchdog"]:
        from kiosk_watchdog import main as watchdog

        sys.exit(watchdog(sys.argv[2:]))
    if sys.argv[1:2] == ["lockdown"]:
        from kiosk_lockdown import main as lockdown

        sys.exit(lockdown(sys.argv[2:]))
    from dealer_console.cli import main

    sys.exit(main())
