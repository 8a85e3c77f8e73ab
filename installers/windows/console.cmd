@echo off
rem Started at log-on (the Startup folder's shortcut): the console full screen with this
rem table's profile and devices. Edit the profile name for this table.
set DEALER_CONSOLE_REQUIRE_MANIFEST=1
set DEALER_CONSOLE_SELFTEST_LOG=%ProgramData%\DealerConsole\self-test.log
rem The watchdog starts the console again when it ends or stops answering (at most 10 times
rem in 10 minutes, then it shows why): kiosk_watchdog.py
set APP=%ProgramFiles%\DealerConsole
start "" "%APP%\dealer-console-kiosk.exe" watchdog --log "%ProgramData%\DealerConsole\watchdog.log" -- "%APP%\dealer-console-kiosk.exe" gui --full-screen --profile washington-face-up --db "%ProgramData%\DealerConsole\table.db" --devices "%ProgramData%\DealerConsole\devices.toml"
