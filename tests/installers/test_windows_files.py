"""The Windows bundle is built on a Windows runner (installers/windows/build.ps1); here its
PyInstaller spec is compiled and run against stand-ins for PyInstaller's build objects (so a
wrong path or name fails), and the Inno Setup script is linted: known sections, the keys a
setup needs, every file it takes present, and the console started at log-on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.installers.conftest import REPO

WINDOWS = REPO / "installers" / "windows"


class _Built:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs
        self.pure = self.scripts = self.binaries = self.datas = []


def test_the_pyinstaller_spec_runs_and_bundles_what_the_console_reads(tmp_path: Path,
                                                                      monkeypatch: Any) -> None:
    manifest = tmp_path / "dealer-console.manifest"
    manifest.write_text("")
    monkeypatch.setenv("DEALER_CONSOLE_MANIFEST", str(manifest))
    built: dict[str, list[_Built]] = {}

    def record(kind: str) -> Any:
        def make(*args: Any, **kwargs: Any) -> _Built:
            obj = _Built(*args, **kwargs)
            built.setdefault(kind, []).append(obj)
            return obj
        return make

    hooks = type("hooks", (), {
        "collect_submodules": staticmethod(
            lambda name, filter=None: [m for m in [f"{name}.x"] if filter is None or filter(m)]),
        "copy_metadata": staticmethod(lambda name: [(f"{name}.dist-info", ".")])})
    import sys
    import types
    fake = types.ModuleType("PyInstaller.utils.hooks")
    fake.collect_submodules = hooks.collect_submodules  # type: ignore[attr-defined]
    fake.copy_metadata = hooks.copy_metadata  # type: ignore[attr-defined]
    for name in ("PyInstaller", "PyInstaller.utils"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "PyInstaller.utils.hooks", fake)
    spec = WINDOWS / "dealer-console.spec"
    code = compile(spec.read_text(), str(spec), "exec")
    exec(code, {"SPECPATH": str(WINDOWS), "Analysis": record("Analysis"),
                "PYZ": record("PYZ"), "EXE": record("EXE"), "COLLECT": record("COLLECT")})
    [analysis] = built["Analysis"]
    for source, _dest in analysis.kwargs["datas"]:
        assert source.endswith(".dist-info") or Path(source).exists(), source
    assert Path(analysis.args[0][0]).is_file()
    assert analysis.kwargs["module_collection_mode"]["dealer_console"] == "py"
    # the keypad's libusb (its package's own hook bundles the DLL) and the kiosk's watchdog,
    # both imported by name, so named to PyInstaller
    assert {"libusb_package", "kiosk_watchdog", "kiosk_lockdown"} <= set(
        analysis.kwargs["hiddenimports"])
    assert (WINDOWS / "kiosk_watchdog.py").is_file() and (WINDOWS / "kiosk_lockdown.py").is_file()
    assert str(WINDOWS) in analysis.kwargs["pathex"]
    names = {exe.kwargs["name"]: exe.kwargs["console"] for exe in built["EXE"]}
    assert names == {"dealer-console": True, "dealer-console-kiosk": False}
    assert built["COLLECT"][0].kwargs["name"] == "dealer-console"


_SECTIONS = {"Setup", "Dirs", "Files", "Icons", "Run", "Code", "Registry", "UninstallDelete"}


def lint_inno(text: str, folder: Path) -> list[str]:
    problems: list[str] = []
    section = ""
    keys: dict[str, str] = {}
    defines = dict(re.findall(r'#define (\w+) "([^"]*)"', text))
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith((";", "#")) or section == "Code":
            if stripped.startswith("[") and stripped.endswith("]"):
                section = stripped[1:-1]
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1]
            if section not in _SECTIONS:
                problems.append(f"line {n}: unknown section [{section}]")
            continue
        if section == "Setup":
            key, sep, value = stripped.partition("=")
            if not sep:
                problems.append(f"line {n}: not 'Key=Value'")
            keys[key.strip()] = value.strip()
            continue
        entries = dict(re.findall(r'(\w+):\s*("(?:[^"]|"")*"|[^;]+)', stripped))
        if not entries:
            problems.append(f"line {n}: not 'Name: value; ...'")
        source = entries.get("Source", "").strip('"')
        for name, value in defines.items():
            source = source.replace("{#" + name + "}", value)
        if source and not source.startswith("..\\..\\dist") and not (folder / source).exists():
            problems.append(f"line {n}: {source} is not in installers/windows")
    for required in ("AppId", "AppName", "AppVersion", "DefaultDirName", "PrivilegesRequired"):
        if required not in keys:
            problems.append(f"[Setup] lacks {required}")
    return problems


def test_the_inno_script_passes_the_lint() -> None:
    text = (WINDOWS / "dealer-console.iss").read_text()
    assert lint_inno(text, WINDOWS) == []
    assert "{commonstartup}" in text and "console.cmd" in text  # started at log-on
    assert "uninsneveruninstall" in text  # the table's data survives removal
    # the backup before any file changes and the upgrade after, each exit code heeded
    assert "function PrepareToInstall" in text and "procedure CurStepChanged" in text
    assert text.count("or (Code <> 0) then") == 2 and "[Run]" not in text
    build = (WINDOWS / "build.ps1").read_text()
    logical = build.replace("`\n", " ").splitlines()  # continuation lines joined
    natives = [n for n, line in enumerate(logical)
               if line.startswith((".\\", "python ", "iscc ", "$version = (."))]
    assert len(natives) == 9
    for n in natives:  # each native command is followed by its exit code's check
        assert "; Check " in logical[n] or logical[n + 1].startswith("Check "), logical[n]
    cmd = (WINDOWS / "console.cmd").read_text()
    assert "gui --full-screen" in cmd and "DEALER_CONSOLE_REQUIRE_MANIFEST=1" in cmd
    # started by the watchdog, which starts it again (kiosk_watchdog.py)
    assert 'dealer-console-kiosk.exe" watchdog --log ' in cmd and ' -- "%APP%' in cmd


def test_libusb_for_windows_is_hash_locked_and_named_by_the_devices_file() -> None:
    from dealer_console.devices.config import load_devices

    lock = (WINDOWS / "requirements-windows.txt").read_text()
    assert "libusb-package==1.0.30.0" in lock
    assert re.search(r"--hash=sha256:[0-9a-f]{64}", lock)
    build = (WINDOWS / "build.ps1").read_text()
    assert "--require-hashes --only-binary=:all:" in build and "requirements-windows.txt" in build
    keypad = load_devices(WINDOWS / "devices.toml").keypad
    assert keypad is not None and keypad.backend == "libusb_package:get_libusb1_backend"


def test_the_lint_catches_a_broken_script() -> None:
    broken = "[Setup]\nAppName=x\n[Filez]\nSource: \"missing.txt\"; DestDir: \"{app}\"\n"
    problems = lint_inno(broken, WINDOWS)
    assert any("unknown section [Filez]" in p for p in problems)
    assert any("[Setup] lacks AppId" in p for p in problems)
