; Inno Setup script around the PyInstaller bundle (dist\windows\dealer-console): installs it
; under Program Files, keeps the table's data under ProgramData across updates and removal,
; and starts the console full screen at every log-on. Built by build.ps1:
;   iscc /DAppVersion=0.1.0 installers\windows\dealer-console.iss
#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "Dealer Console"
#define Bundle "..\..\dist\windows\dealer-console"
#define DataDir "{commonappdata}\DealerConsole"

[Setup]
AppId={{6F1B7C52-3A1D-4E0B-9C57-2D4E7B1A9F30}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher=Dealer Console project
DefaultDirName={autopf}\DealerConsole
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=admin
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\..\dist
OutputBaseFilename=dealer-console-{#AppVersion}-setup
Compression=lzma2
SolidCompression=yes
CloseApplications=force
UninstallDisplayName={#AppName}

[Dirs]
; the table's database, its backups and the self-test log: never removed by the uninstaller
Name: "{#DataDir}"; Flags: uninsneveruninstall
Name: "{#DataDir}\backups"; Flags: uninsneveruninstall

[Files]
Source: "{#Bundle}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
; the table's devices and profile choice, written once and kept (a technician edits them)
Source: "devices.toml"; DestDir: "{#DataDir}"; Flags: onlyifdoesntexist uninsneveruninstall
Source: "console.cmd"; DestDir: "{#DataDir}"; Flags: onlyifdoesntexist uninsneveruninstall

[Icons]
; full screen at every log-on of the table's Windows account
Name: "{commonstartup}\{#AppName}"; Filename: "{#DataDir}\console.cmd"; WorkingDir: "{#DataDir}"
Name: "{group}\{#AppName} self-test"; Filename: "{cmd}"; Parameters: "/k ""{app}\dealer-console.exe"" self-test --profile washington-face-up --db ""{#DataDir}\table.db"" --devices ""{#DataDir}\devices.toml"""

[Code]
{ The backup's name carries the time: a second install of one version keeps both copies. }
function Stamp(Param: String): String;
begin
  Result := GetDateTimeString('yyyymmdd"T"hhnnss', #0, #0);
end;

{ Before any file is replaced, the installed console (an update) backs up the table database;
  a failed backup stops the setup with nothing changed, its exit code said. }
function PrepareToInstall(var NeedsRestart: Boolean): String;
var
  Code: Integer;
  Exe, Db, Copy: String;
begin
  Result := '';
  Exe := ExpandConstant('{app}\dealer-console.exe');
  Db := ExpandConstant('{#DataDir}\table.db');
  Copy := ExpandConstant('{#DataDir}\backups\table-before-{#AppVersion}-') + Stamp('') + '.db';
  if FileExists(Db) and FileExists(Exe) then
    if not Exec(Exe, 'backup --db "' + Db + '" --to "' + Copy + '"', '', SW_HIDE,
                ewWaitUntilTerminated, Code) or (Code <> 0) then
      Result := 'The backup of the table database failed (exit code ' + IntToStr(Code) +
                '): nothing was changed. Run "dealer-console backup" by hand to see why.';
end;

{ After the files: the new console applies its migrations; a failure is said with its exit
  code (the console's self-test then keeps the table closed: migrations not applied). }
procedure CurStepChanged(CurStep: TSetupStep);
var
  Code: Integer;
  Db: String;
begin
  if CurStep = ssPostInstall then
  begin
    Db := ExpandConstant('{#DataDir}\table.db');
    if FileExists(Db) then
      if not Exec(ExpandConstant('{app}\dealer-console.exe'), 'upgrade-db --db "' + Db + '"',
                  '', SW_HIDE, ewWaitUntilTerminated, Code) or (Code <> 0) then
        MsgBox('The table database could not be upgraded (exit code ' + IntToStr(Code) +
               '). The table stays closed: restore the backup from ' +
               ExpandConstant('{#DataDir}\backups') + ' or call support.',
               mbCriticalError, MB_OK);
  end;
end;
