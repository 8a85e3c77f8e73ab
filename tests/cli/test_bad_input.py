"""Every command against bad input: one line on stderr, exit status 2, no traceback, and not a
file created or changed.

``CASES`` is the list; add a line for every bad input found (a bug report becomes a case here
first). Each case runs in a fresh folder holding the files below, named in ``argv``:

- ``table.db``: a table database in good order (a jackpot game installed, one round played);
  ``later.db``: one written by a later console; ``damaged.db``: a page overwritten;
  ``truncated.db``: cut short; ``other.db``: another program's SQLite file; ``text.db``,
  ``empty.db``: not SQLite; ``folder.db``: a folder; ``missing.db``: nothing there.
- ``round.json`` (good), ``deep.json`` (nested 100,000 deep), ``bigint.json`` (an integer of
  5,000 digits), ``huge.json`` (over a megabyte), ``latin1.json`` (not UTF-8), ``folder.json``.
- ``deep.toml``, ``bigint.toml``, ``huge.toml``, ``folder.toml``, ``fullwidth.toml`` (a limit
  written in fullwidth digits), ``long-name.toml`` (a profile name of 100,000 characters).

Cases marked ``read_only`` make the folder and its files (or the files only) read-only and run
the command in a child process that permissions apply to even when the suite runs as root.
"""

from __future__ import annotations

import io
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from dealer_console.cli import main
from dealer_console.jackpot.setup import install_from_profile
from dealer_console.profiles.loader import PROFILE_DIR, get_profile
from tests.round.helpers import make_table, play_round
from tests.storage.readonly import read_only, run_obeying_permissions

GOLDEN_ROUND = Path(__file__).parents[1] / "settlement" / "golden" / "wa01-basic.round.json"
CARD = "6011000012345=2501"
LONG = "x" * 300
HUGE = "y" * 100_000
PROFILE = ["--profile", "washington-face-up"]


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]
    read_only: str = ""  # "folder": the folder and its files; "files": the files only
    stdin: str = CARD + "\n"


def case(name: str, *argv: str, read_only: str = "") -> Case:
    return Case(name, argv, read_only)


# A double that wrongly starts stops at once instead of serving until Ctrl-C.
SHUFFLER = ("sim", "shuffler", "--duration", "0")
SENSORS = ("sim", "bet-sensors", "--duration", "0")
SIM = ("simulate", "--devices", "in-process", "--rounds", "2", *PROFILE)
READ_ONLY = ("folder", "files")
SHIFT = ("--from", "2020-01-01", "--to", "2040-01-01")
DAMAGED = ("damaged.db", "truncated.db", "text.db", "empty.db", "other.db", "folder.db")

CASES: list[Case] = [
    # -- issue 15, tracebacks ------------------------------------------------------------------
    case("recall count too large for SQLite", "recall", "--db", "table.db", "--last",
         "99999999999999999999999"),
    case("hit id too large for SQLite", "jackpot", "winpage", "--db", "table.db",
         "99999999999999999999999"),
    case("settle: JSON nested 100,000 deep", "settle", "deep.json", *PROFILE),
    case("settle: an integer of 5,000 digits", "settle", "bigint.json", *PROFILE),
    case("profile check: TOML nested 100,000 deep", "profile", "check", "deep.toml"),
    case("profile check: a folder", "profile", "check", "folder.toml"),
    case("profile show: a very long name", "profile", "show", LONG),
    case("settle: a very long profile name", "settle", "round.json", "--profile", LONG),
    case("simulate: a very long profile name", "simulate", "--profile", LONG, "--db", "new.db"),
    case("math base: a very long profile name", "math", "base", "--profile", LONG),
    case("rules: a very long profile name", "rules", "house-way", "--profile", LONG,
         "As", "Kd", "9c", "7h", "5s", "3d", "2c"),
    case("gui: a very long profile name", "gui", "--profile", LONG, "--db", "new.db"),
    case("simulate --hold-before-end nan", *SIM, "--db", "new.db", "--hold-before-end", "nan"),
    *(case(f"recall: {bad}", "recall", "--db", bad) for bad in DAMAGED),
    *(case(f"audit verify: {bad}", "audit", "verify", "--db", bad) for bad in DAMAGED),
    *(case(f"jackpot {action}: {bad}", "jackpot", action, "--db", bad)
      for action in ("meters", "hits", "audit") for bad in DAMAGED),
    *(case(f"jackpot winpage: {bad}", "jackpot", "winpage", "--db", bad, "1")
      for bad in DAMAGED),
    *(case(f"employees list: {bad}", "employees", "list", "--db", bad) for bad in DAMAGED),
    *(case(f"employees add: {bad}", "employees", "add", "--db", bad, "E1", "Pat", "dealer")
      for bad in DAMAGED),
    *(case(f"simulate --resume: {bad}", *SIM, "--db", bad, "--resume") for bad in DAMAGED),
    *(case(f"gui: {bad}", "gui", "--db", bad) for bad in DAMAGED),
    *(case(f"upgrade-db: {bad}", "upgrade-db", "--db", bad) for bad in (*DAMAGED, "later.db",
                                                                       "missing.db")),
    *(case(f"employees add: a read-only {what}", "employees", "add", "--db", "table.db",
           "E1", "Pat", "dealer", read_only=what) for what in READ_ONLY),
    *(case(f"simulate --resume: a read-only {what}", *SIM, "--db", "table.db", "--resume",
           read_only=what) for what in READ_ONLY),
    *(case(f"gui: a read-only {what}", "gui", "--db", "table.db", "--quit-after", "0",
           read_only=what) for what in READ_ONLY),
    *(case(f"upgrade-db: a read-only {what}", "upgrade-db", "--db", "table.db",
           read_only=what) for what in READ_ONLY),
    case("self-test: a very long profile name", "self-test", "--profile", LONG, "--db",
         "table.db", "--key", "missing.key"),
    # -- issue 15, accepted silently -----------------------------------------------------------
    case("profile check: fullwidth digits in an amount", "profile", "check", "fullwidth.toml"),
    case("settle: a profile with fullwidth digits", "settle", "round.json", "--profile",
         "fullwidth.toml"),
    case("profile check: a 100,000-character profile name", "profile", "check",
         "long-name.toml"),
    case("simulate: a 100,000-character profile name", "simulate", "--profile",
         "long-name.toml", "--db", "new.db"),
    case("sim shuffler: random number 0", *SHUFFLER, "--random-number", "0"),
    case("sim shuffler: random number 99", *SHUFFLER, "--random-number", "99"),
    case("sim shuffler: missing hand 99", *SHUFFLER, "--missing-hand", "99"),
    case("sim shuffler: short hand 0", *SHUFFLER, "--short-hand", "0"),
    case("sim shuffler: jam after hand 8", *SHUFFLER, "--jam-after", "8"),
    case("sim shuffler: deck count 300", *SHUFFLER, "--deck-count", "300"),
    case("sim shuffler: negative hand interval", *SHUFFLER, "--hand-interval", "-1"),
    case("sim shuffler: negative duration", "sim", "shuffler", "--duration", "-5"),
    case("sim shuffler: nan duration", "sim", "shuffler", "--duration", "nan"),
    case("sim shuffler: a seed of 30 digits", *SHUFFLER, "--seed", "9" * 30),
    case("sim shuffler: a fault probability of nan", *SHUFFLER, "--fault", "corrupt=nan"),
    case("sim bet-sensors: negative late-after", *SENSORS, "--late-after", "-1"),
    case("sim bet-sensors: a seat range to 10^17", *SENSORS, "--seats", "1-99999999999999999"),
    case("sim bet-sensors: fullwidth seat", *SENSORS, "--chip", "３.1"),
    # -- the same classes in every other command ----------------------------------------------
    case("recall: fullwidth digits", "recall", "--db", "table.db", "--last", "１２"),
    case("recall: a count of 0", "recall", "--db", "table.db", "--last", "0"),
    case("recall: a missing database is not created", "recall", "--db", "missing.db"),
    *(case(f"report: {bad}", "report", "--db", bad, *SHIFT) for bad in DAMAGED),
    case("report: a missing database is not created", "report", "--db", "missing.db", *SHIFT),
    case("report: a start that is not a time", "report", "--db", "table.db", "--from",
         "yesterday", "--to", "2030-01-01"),
    case("report: a fullwidth year", "report", "--db", "table.db", "--from", "２０２６-01-01",
         "--to", "2030-01-01"),
    case("report: a time of 100,000 characters", "report", "--db", "table.db", "--from", HUGE,
         "--to", "2030-01-01"),
    case("report: the 30th of February", "report", "--db", "table.db", "--from",
         "2026-02-30", "--to", "2030-01-01"),
    case("report: the range ends before it starts", "report", "--db", "table.db", "--from",
         "2030-01-01", "--to", "2020-01-01"),
    case("report: an empty range", "report", "--db", "table.db", "--from", "2030-01-01",
         "--to", "2030-01-01T00:00+00:00"),
    case("report: a folder for the PDF", "report", "--db", "table.db", *SHIFT, "--pdf",
         "folder.json"),
    case("report: a PDF not named .pdf (the database itself)", "report", "--db", "table.db",
         *SHIFT, "--pdf", "table.db"),
    case("report: a PDF in a folder that does not exist", "report", "--db", "table.db",
         *SHIFT, "--pdf", "nowhere/shift.pdf"),
    case("report: a PDF in a read-only folder", "report", "--db", "table.db", *SHIFT,
         "--pdf", "shift.pdf", read_only="folder"),
    case("jackpot meters: a missing database", "jackpot", "meters", "--db", "missing.db"),
    case("audit: a missing database", "audit", "verify", "--db", "missing.db"),
    case("employees add: a missing database is not created", "employees", "add", "--db",
         "missing.db", "E1", "Pat", "dealer"),
    case("employees add: a later schema", "employees", "add", "--db", "later.db", "E1", "Pat",
         "dealer"),
    case("employees add: a name of 100,000 characters", "employees", "add", "--db",
         "table.db", "E1", HUGE, "dealer"),
    case("employees add: a control character in the name", "employees", "add", "--db",
         "table.db", "E1", "Pat\x07", "dealer"),
    case("employees add: a newline in the employee id", "employees", "add", "--db",
         "table.db", "E1\nroot", "Pat", "dealer"),
    case("employees disable: a reason of 100,000 characters", "employees", "disable", "--db",
         "table.db", "E1", "--reason", HUGE),
    *(Case(f"employees pin: {what}", ("employees", "pin", "--db", "table.db", "E1"),
           stdin=f"{CARD}\n{typed}")
      for what, typed in (("a PIN of 3 digits", "123\n123\n"),
                          ("a PIN of 9 digits", "123456789\n123456789\n"),
                          ("a PIN with a letter", "12a4\n12a4\n"),
                          ("fullwidth digits", "１２３４\n１２３４\n"),
                          ("two PINs that differ", "1234\n1235\n"),
                          ("no second PIN", "1234\n"),
                          ("a PIN of 100,000 digits", "1" * 100_000 + "\n"))),
    case("jackpot winpage: a negative hit id", "jackpot", "winpage", "--db", "table.db", "--",
         "-1"),
    case("jackpot winpage: a table name of 100,000 characters", "jackpot", "winpage", "--db",
         "table.db", "1", "--table", HUGE),
    case("settle: a folder", "settle", "folder.json", *PROFILE),
    case("settle: over a megabyte", "settle", "huge.json", *PROFILE),
    case("settle: not UTF-8", "settle", "latin1.json", *PROFILE),
    case("settle: a missing file", "settle", "missing.json", *PROFILE),
    case("settle: a profile file nested 100,000 deep", "settle", "round.json", "--profile",
         "deep.toml"),
    case("profile check: an integer of 5,000 digits", "profile", "check", "bigint.toml"),
    case("profile check: over a megabyte", "profile", "check", "huge.toml"),
    case("profile check: a file name too long for the system", "profile", "check",
         "z" * 300 + ".toml"),
    case("simulate: a later schema", *SIM, "--db", "later.db", "--resume"),
    case("simulate: a missing database to resume", *SIM, "--db", "missing.db", "--resume"),
    case("simulate: rounds of 30 digits", "simulate", *PROFILE, "--rounds", "9" * 30, "--db",
         "new.db"),
    case("simulate: fullwidth rounds", "simulate", *PROFILE, "--rounds", "１０", "--db",
         "new.db"),
    case("simulate: a negative seed", "simulate", *PROFILE, "--seed", "-1", "--db", "new.db"),
    case("simulate: hold-before-end inf", *SIM, "--db", "new.db", "--hold-before-end", "inf"),
    case("simulate: hold-before-end negative", *SIM, "--db", "new.db", "--hold-before-end",
         "-3"),
    case("simulate: hold of nan seconds", *SIM, "--db", "new.db", "--hold", "end=nan"),
    case("simulate: a folder for the database", *SIM, "--db", "folder.db"),
    case("simulate: a database in a folder that does not exist", *SIM, "--db",
         "nowhere/new.db"),
    case("gui: quit-after nan", "gui", "--db", "new.db", "--quit-after", "nan"),
    case("gui: a later schema", "gui", "--db", "later.db"),
    case("math base: rounds of 30 digits", "math", "base", *PROFILE, "--rounds", "9" * 30),
    case("math base: fullwidth seed", "math", "base", *PROFILE, "--seed", "７"),
    case("math envy: 10^20 players", "math", "envy", "--players", "1" + "0" * 20),
    case("math jackpot: a contribution of nan", "math", "jackpot", "--paytable", "WA01",
         "--meter", "1", "--contribution", "nan"),
    case("math jackpot: fullwidth meter", "math", "jackpot", "--paytable", "WA01", "--meter",
         "１００"),
    case("math fortune: a paytable name of 100,000 characters", "math", "fortune",
         "--paytable", HUGE),
    case("math jackpot: a paytable name of 100,000 characters", "math", "jackpot",
         "--paytable", HUGE, "--meter", "1"),
    case("rules: a card of 100,000 characters", "rules", "classify", HUGE),
    case("rules: a fullwidth rank", "rules", "classify", "As", "Kd", "9c", "7h", "5s", "3d",
         "２c"),
    # -- issue 17, the link's commands (no server is needed to refuse these) -----------------
    case("link audit: no server address anywhere", "link", "audit"),
    case("link audit: a password in the address", "link", "audit", "--dsn",
         "host=/nowhere user=x password=secret"),
    case("link status: a password in a URI", "link", "status", "--dsn",
         "postgresql://table:secret@db/jackpot"),
    case("link status: an address of 100,000 characters", "link", "status", "--dsn", HUGE),
    case("link audit: no server there", "link", "audit", "--dsn",
         "host=/nowhere-at-all port=1 user=x dbname=x"),
    *(case(f"link init: {bad}", "link", "init", "--dsn", "host=/nowhere", "--profile", bad)
      for bad in ("deep.toml", "bigint.toml", "long-name.toml", "folder.toml",
                  "washington-face-up", "no-such-profile")),
    # -- issue 27, the pit's commands (no server is needed to refuse these) --------------------
    case("pit staff: no server address anywhere", "pit", "staff", "X1", "--name", "Ella",
         "--role", "executive", "--reason", "hired"),
    case("pit staff: a role there is not", "pit", "staff", "X1", "--name", "Ella", "--role",
         "owner", "--reason", "hired"),
    case("pit staff: a name of 100,000 characters", "pit", "staff", "X1", "--name", HUGE,
         "--role", "dealer", "--reason", "hired"),
    case("pit add-login: no server address anywhere", "pit", "add-login", "podium",
         "--credentials", "podium.pgpass"),
]


def _profile_text(**replace: str) -> str:
    text = (PROFILE_DIR / "washington-face-up.toml").read_text()
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new, 1)
    return text


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every case starts from."""
    folder = tmp_path_factory.mktemp("bad-input")
    table = make_table(folder, "washington-face-up")
    install_from_profile(table.db, get_profile("washington-face-up").jackpots, actor="test")
    play_round(table, seed=3)
    table.db.close()
    db = folder / "table.db"
    for name in ("later.db", "damaged.db", "truncated.db"):
        shutil.copy(db, folder / name)
    conn = sqlite3.connect(folder / "later.db")
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES "
                 "('dealer_console', '0099_later', '2030-01-01')")
    conn.commit()
    conn.close()
    data = bytearray((folder / "damaged.db").read_bytes())
    conn = sqlite3.connect(folder / "damaged.db")
    page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'rounds'").fetchone()[0]
    conn.close()
    data[(page - 1) * 4096:(page - 1) * 4096 + 64] = b"\xff" * 64
    (folder / "damaged.db").write_bytes(bytes(data))
    (folder / "truncated.db").write_bytes(db.read_bytes()[:9000])
    other = sqlite3.connect(folder / "other.db")
    other.execute("PRAGMA application_id = 1111")
    other.execute("CREATE TABLE notes (body TEXT)")
    other.commit()
    other.close()
    (folder / "text.db").write_text("this is a shopping list, not a table\n")
    (folder / "empty.db").write_bytes(b"")
    for name in ("folder.db", "folder.json", "folder.toml"):
        (folder / name).mkdir()
    shutil.copy(GOLDEN_ROUND, folder / "round.json")
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "bigint.json").write_text('{"action_seat": ' + "7" * 5000 + "}")
    (folder / "huge.json").write_text('{"note": "' + "z" * (1 << 20) + '"}')
    (folder / "latin1.json").write_bytes('{"note": "Café"}'.encode("latin-1"))
    (folder / "deep.toml").write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    (folder / "bigint.toml").write_text(_profile_text(**{"positions = 7": "positions = "
                                                         + "7" * 5000}))
    (folder / "huge.toml").write_text(_profile_text() + "# " + "z" * (1 << 20) + "\n")
    (folder / "fullwidth.toml").write_text(_profile_text(**{'minimum = "$10"':
                                                            'minimum = "$１０"'}))
    (folder / "long-name.toml").write_text(_profile_text(**{'name = "washington-face-up"':
                                                            f'name = "{HUGE}"'}))
    return folder


def snapshot(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (None if p.is_dir() else p.read_bytes())
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("bad", CASES, ids=[c.name for c in CASES])
def test_bad_input_is_one_line_status_2_and_changes_nothing(
        bad: Case, template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "work"
    shutil.copytree(template, folder)
    monkeypatch.chdir(folder)
    before = snapshot(folder)
    if bad.read_only:
        with read_only(folder, files_only=bad.read_only == "files"):
            out = run_obeying_permissions(*bad.argv, stdin=bad.stdin)
        status, err = out.returncode, out.stderr
    else:
        monkeypatch.setattr("sys.stdin", io.StringIO(bad.stdin))
        status = main(list(bad.argv))
        err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith(f"dealer-console {bad.argv[0]}: "), err
    assert err.count("\n") == 1 and len(err) < 1100, err
    assert "Traceback" not in err
    assert snapshot(folder) == before
