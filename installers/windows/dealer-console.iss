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

[Run]
; an existing database: a verified backup, then its migrations, before the new console runs it
Filename: "{app}\dealer-console.exe"; Parameters: "backup --db ""{#DataDir}\table.db"" --to ""{#DataDir}\backups\table-before-{#AppVersion}-{code:Stamp}.db"""; Flags: runhidden waituntilterminated; Check: FileExists(ExpandConstant('{#DataDir}\table.db'))
Filename: "{app}\dealer-console.exe"; Parameters: "upgrade-db --db ""{#DataDir}\table.db"""; Flags: runhidden waituntilterminated; Check: FileExists(ExpandConstant('{#DataDir}\table.db'))

[Code]
{ The backup's name carries the time: a second install of one version keeps both copies. }
function Stamp(Param: String): String;
begin
  Result := GetDateTimeString('yyyymmdd"T"hhnnss', #0, #0);
end;
