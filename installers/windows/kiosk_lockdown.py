"""Locks the Windows table PC's kiosk account down to the console: its shell is the console's
watchdog (no Explorer, so no taskbar, Start menu, desktop or Startup items), and the Task
Manager, locking, logging off, changing the password, the Windows keys and Run are turned
off by the account's policies. Run as an administrator, once, for the kiosk account (the
bundle's ``dealer-console.exe lockdown`` runs this module):

    dealer-console.exe lockdown --sid S-1-5-21-... --profile washington-face-up --print > k.reg
    dealer-console.exe lockdown --sid S-1-5-21-... --profile washington-face-up   (applies)
    dealer-console.exe lockdown --sid S-1-5-21-... --undo                         (reverses)

``--sid`` names the account's hive under ``HKEY_USERS`` (``wmic useraccount get name,sid``;
the account must have logged on once, or load its hive first: ``reg load HKU\\kiosk
C:\\Users\\kiosk\\NTUSER.DAT`` and give ``--sid kiosk``). ``--print`` writes the settings as a
``.reg`` file to review or import with ``reg import``. What it cannot do: Ctrl+Alt+Del still
shows the secure screen (only Windows' Keyboard Filter, Enterprise and IoT editions, can
remove it), and automatic log-on is set with Sysinternals Autologon (the password kept as an
LSA secret, not in the registry). Exit status 0 done, 1 could not (not Windows, no access), 2
bad usage. Applying and undoing have not been run on Windows by this project (no Windows
machine); ``--print`` and the exit codes are tested on Linux.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

APP = r"C:\Program Files\DealerConsole"
DATA = r"C:\ProgramData\DealerConsole"
POLICIES = r"Software\Microsoft\Windows\CurrentVersion\Policies"


@dataclass(frozen=True)
class Setting:
    key: str  # under the account's hive
    name: str
    value: int | str


def shell_command(profile: str) -> str:
    """The kiosk account's shell: the watchdog keeping the console full screen (as console.cmd
    starts it at log-on without the lockdown)."""
    kiosk = rf'"{APP}\dealer-console-kiosk.exe"'
    return (rf'{kiosk} watchdog --log "{DATA}\watchdog.log" -- {kiosk} gui --full-screen '
            rf'--profile {profile} --db "{DATA}\table.db" --devices "{DATA}\devices.toml"')


def plan(profile: str) -> list[Setting]:
    """Every value the lockdown writes to the account's hive."""
    return [
        Setting(r"Software\Microsoft\Windows NT\CurrentVersion\Winlogon", "Shell",
                shell_command(profile)),
        Setting("Environment", "DEALER_CONSOLE_REQUIRE_MANIFEST", "1"),
        Setting("Environment", "DEALER_CONSOLE_SELFTEST_LOG", rf"{DATA}\self-test.log"),
        Setting(rf"{POLICIES}\System", "DisableTaskMgr", 1),
        Setting(rf"{POLICIES}\System", "DisableLockWorkstation", 1),
        Setting(rf"{POLICIES}\System", "DisableChangePassword", 1),
        Setting(rf"{POLICIES}\Explorer", "NoLogoff", 1),
        Setting(rf"{POLICIES}\Explorer", "NoClose", 1),
        Setting(rf"{POLICIES}\Explorer", "NoWinKeys", 1),
        Setting(rf"{POLICIES}\Explorer", "NoRun", 1),
    ]


def reg_file(sid: str, settings: Sequence[Setting]) -> str:
    """The settings as a ``.reg`` file (Registry Editor 5.00, its own quoting)."""
    lines = ["Windows Registry Editor Version 5.00", ""]
    for key in dict.fromkeys(s.key for s in settings):
        lines.append(rf"[HKEY_USERS\{sid}\{key}]")
        for s in settings:
            if s.key != key:
                continue
            if isinstance(s.value, int):
                lines.append(f'"{s.name}"=dword:{s.value:08x}')
            else:
                quoted = s.value.replace("\\", "\\\\").replace('"', '\\"')
                lines.append(f'"{s.name}"="{quoted}"')
        lines.append("")
    return "\r\n".join(lines)


def apply(sid: str, settings: Sequence[Setting], *, undo: bool) -> None:  # pragma: no cover
    """Write (or delete) each value in ``HKEY_USERS\\sid`` (Windows only; not run here)."""
    import winreg  # type: ignore[import-not-found,unused-ignore]

    for s in settings:
        path = rf"{sid}\{s.key}"
        if undo:
            try:
                with winreg.OpenKey(winreg.HKEY_USERS, path, 0, winreg.KEY_SET_VALUE) as key:
                    winreg.DeleteValue(key, s.name)
            except FileNotFoundError:
                pass
            continue
        kind = winreg.REG_DWORD if isinstance(s.value, int) else winreg.REG_SZ
        with winreg.CreateKeyEx(winreg.HKEY_USERS, path, 0, winreg.KEY_SET_VALUE) as key:
            winreg.SetValueEx(key, s.name, 0, kind, s.value)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="kiosk_lockdown.py")
    parser.add_argument("--sid", required=True, help="the kiosk account's hive in HKEY_USERS")
    parser.add_argument("--profile", default="washington-face-up")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--print", action="store_true", help="write the .reg file, change nothing")
    what.add_argument("--undo", action="store_true", help="remove every value it sets")
    args = parser.parse_args(argv)
    if not args.sid.replace("-", "").replace("_", "").isalnum():
        parser.error(f"--sid {args.sid!r}: a SID or a loaded hive's name")
    if not args.profile.replace("-", "").isalnum():
        parser.error(f"--profile {args.profile!r}: a shipped profile's name")
    settings = plan(args.profile)
    if args.print:
        sys.stdout.flush()  # bytes: the file's CRLF lines as they are, on any system
        sys.stdout.buffer.write(reg_file(args.sid, settings).encode("utf-8"))
        return 0
    if sys.platform != "win32":
        print("kiosk_lockdown.py: applies only on Windows (use --print for the .reg file)",
              file=sys.stderr)
        return 1
    try:  # pragma: no cover
        apply(args.sid, settings, undo=args.undo)
    except OSError as exc:  # pragma: no cover
        print(f"kiosk_lockdown.py: {exc} (run as an administrator)", file=sys.stderr)
        return 1
    print(f"kiosk_lockdown.py: {'removed' if args.undo else 'set'} {len(settings)} values "
          f"for {args.sid}")  # pragma: no cover
    return 0  # pragma: no cover


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
