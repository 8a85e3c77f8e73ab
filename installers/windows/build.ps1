# Builds the Windows bundle and its installer on a Windows build machine (a separate, slower
# CI step where a Windows runner exists):
#   powershell -File installers\windows\build.ps1
# needs Python 3.11+, and Inno Setup 6 (iscc.exe) on PATH.
$ErrorActionPreference = "Stop"
$repo = Resolve-Path "$PSScriptRoot\..\.."
Set-Location $repo
python -m venv .venv-win
.\.venv-win\Scripts\python -m pip install --upgrade pip
.\.venv-win\Scripts\python -m pip install . "pyinstaller>=6.3"
Remove-Item -Recurse -Force dist\windows-manifest -ErrorAction SilentlyContinue
.\.venv-win\Scripts\python -m pip wheel --no-deps -w dist\windows-manifest .
$wheel = Get-ChildItem dist\windows-manifest\dealer_console-*.whl | Select-Object -First 1
.\.venv-win\Scripts\python installers\linux\make_manifest.py --wheel $wheel.FullName `
  --config config --out dist\windows-manifest\dealer-console.manifest
.\.venv-win\Scripts\pyinstaller --noconfirm --distpath dist\windows `
  installers\windows\dealer-console.spec
$version = (.\.venv-win\Scripts\python -c "from importlib.metadata import version; print(version('dealer-console'))")
iscc /DAppVersion=$version installers\windows\dealer-console.iss
