# Builds the Windows bundle and its installer on a Windows build machine (a separate, slower
# CI step where a Windows runner exists):
#   powershell -File installers\windows\build.ps1
# needs Python 3.11+, and Inno Setup 6 (iscc.exe) on PATH. Any step that fails stops the
# build with its exit code (native commands do not stop PowerShell by themselves).
$ErrorActionPreference = "Stop"
function Check($what) {
  if ($LASTEXITCODE -ne 0) { throw "build.ps1: $what failed (exit code $LASTEXITCODE)" }
}
$repo = Resolve-Path "$PSScriptRoot\..\.."
Set-Location $repo
python -m venv .venv-win; Check "making the build environment"
.\.venv-win\Scripts\python -m pip install --upgrade pip; Check "upgrading pip"
.\.venv-win\Scripts\python -m pip install . "pyinstaller>=6.3"; Check "installing the console"
.\.venv-win\Scripts\python -m pip install --require-hashes --only-binary=:all: `
  -r installers\windows\requirements-windows.txt; Check "installing libusb (hash-locked)"
Remove-Item -Recurse -Force dist\windows-manifest -ErrorAction SilentlyContinue
.\.venv-win\Scripts\python -m pip wheel --no-deps -w dist\windows-manifest .
Check "building the wheel"
$wheel = Get-ChildItem dist\windows-manifest\dealer_console-*.whl | Select-Object -First 1
.\.venv-win\Scripts\python installers\linux\make_manifest.py --wheel $wheel.FullName `
  --config config --out dist\windows-manifest\dealer-console.manifest
Check "writing the manifest"
.\.venv-win\Scripts\pyinstaller --noconfirm --distpath dist\windows `
  installers\windows\dealer-console.spec
Check "PyInstaller"
$version = (.\.venv-win\Scripts\python -c "from importlib.metadata import version; print(version('dealer-console'))")
Check "reading the version"
iscc /DAppVersion=$version installers\windows\dealer-console.iss; Check "Inno Setup"
