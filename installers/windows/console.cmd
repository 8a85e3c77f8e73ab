@echo off
rem Started at log-on (the Startup folder's shortcut): the console full screen with this
rem table's profile and devices. Edit the profile name for this table.
set DEALER_CONSOLE_REQUIRE_MANIFEST=1
set DEALER_CONSOLE_SELFTEST_LOG=%ProgramData%\DealerConsole\self-test.log
start "" "%ProgramFiles%\DealerConsole\dealer-console-kiosk.exe" gui --full-screen --profile washington-face-up --db "%ProgramData%\DealerConsole\table.db" --devices "%ProgramData%\DealerConsole\devices.toml"
