"""``dealer-console simulate``: seeded determinism, the real drivers giving the same result over
pseudo-terminals as over the in-process link, resume, and the crash test (SIGKILL at random
moments, resumed each time: the audit passes and the totals equal an uninterrupted run's)."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

CLI = [sys.executable, "-m", "dealer_console.cli"]


def simulate(db: Path, *extra: str, profile: str = "washington-face-up", rounds: int = 12,
             seed: int = 7) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, "simulate", "--profile", profile, "--rounds", str(rounds), "--seed", str(seed),
         "--db", str(db), "--json", *extra],
        capture_output=True, text=True, timeout=300)


def summary_of(out: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert out.returncode == 0, out.stderr
    result: dict[str, Any] = json.loads(out.stdout)["summary"]
    return result


def audit_ok(db: Path) -> str:
    out = subprocess.run([*CLI, "audit", "verify", "--db", str(db)], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


PROFILES = ["washington-face-up", "california-face-up", "oxford-downs-face-up",
            "catfish-bend-fortune"]


@pytest.mark.parametrize("profile", PROFILES)
def test_same_seed_same_result_and_every_profile_plays_whole_rounds(tmp_path: Path,
                                                                   profile: str) -> None:
    a = summary_of(simulate(tmp_path / "a.db", "--devices", "in-process", "--faults", "all",
                            profile=profile, rounds=25))
    b = summary_of(simulate(tmp_path / "b.db", "--devices", "in-process", "--faults", "all",
                            profile=profile, rounds=25))
    assert a == b
    assert a["rounds_complete"] == 25
    assert a["players_net_cents"] + a["banker_net_cents"] + a["house_net_cents"] == 0
    assert sum(a["misdeals"].values()) > 0  # the faults really happened
    c = summary_of(simulate(tmp_path / "c.db", "--devices", "in-process", profile=profile,
                            rounds=25, seed=8))
    assert c != a
    audit_ok(tmp_path / "a.db")


@pytest.mark.parametrize("profile", ["washington-face-up", "catfish-bend-fortune"])
def test_pseudo_terminals_give_the_same_result_as_the_in_process_link(tmp_path: Path,
                                                            profile: str) -> None:
    """The doubles on pseudo-terminals with wire faults (split, corrupt, dropped frames,
    garbage) behind the real drivers and pyserial play exactly the rounds the same drivers
    play over the in-process link: the controller's path does not depend on the pipe."""
    driven = summary_of(simulate(tmp_path / "d.db", "--devices", "drivers", "--faults", "all",
                                 profile=profile, rounds=15))
    in_process = summary_of(simulate(tmp_path / "i.db", "--devices", "in-process", "--faults",
                                     "all", profile=profile, rounds=15))
    assert driven == in_process


def test_hand_dealt_seven_piles(tmp_path: Path) -> None:
    out = summary_of(simulate(tmp_path / "h.db", "--deal", "hand", "--devices", "in-process",
                              profile="california-face-up", rounds=10))
    assert out["rounds_complete"] == 10
    audit_ok(tmp_path / "h.db")


def test_resume_and_its_guards(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    first = summary_of(simulate(db, "--devices", "in-process", rounds=5))
    assert first["rounds_complete"] == 5
    again = simulate(db, "--devices", "in-process", rounds=9)
    assert again.returncode == 2 and "--resume" in again.stderr
    other = simulate(db, "--devices", "in-process", "--resume", rounds=9, seed=8)
    assert other.returncode == 2 and "--seed" in other.stderr
    resumed = summary_of(simulate(db, "--devices", "in-process", "--resume", rounds=9))
    straight = summary_of(simulate(tmp_path / "s.db", "--devices", "in-process", rounds=9))
    assert resumed == straight
    bad = simulate(tmp_path / "x.db", "--faults", "gremlins")
    assert bad.returncode == 2 and "unknown gremlins" in bad.stderr
    for hold in ("dealing", "shuffle=1", "end=soon", "end=-1"):
        refused = simulate(tmp_path / "z.db", "--hold", hold)
        assert refused.returncode == 2 and f"--hold {hold!r}" in refused.stderr
        assert not (tmp_path / "z.db").exists()  # refused before the database was made
    nothing = simulate(tmp_path / "y.db", "--resume")
    assert nothing.returncode == 2 and "nothing to resume" in nothing.stderr


# Phases every profile passes through in a round; the crash test aims one kill at each.
AIMED_PHASES = ["betting", "action", "dealing", "deal_check", "banker_set", "players_set",
                "settlement", "end"]


def open_round_phase(db: Path) -> str | None:
    """The phase of the round in play, read as another process would (None: none yet)."""
    if not db.exists():
        return None
    conn = sqlite3.connect(db, timeout=5)
    try:
        row = conn.execute("SELECT phase FROM rounds WHERE status = 'open'").fetchone()
    except sqlite3.OperationalError:
        row = None  # the schema is not there yet
    finally:
        conn.close()
    return None if row is None else str(row[0])


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["washington-face-up", "catfish-bend-fortune"])
def test_crash_test_sigkill_at_random_moments(tmp_path: Path, profile: str) -> None:
    """SIGKILL again and again: at a random moment after start (often in the middle of a
    transaction), and once aimed at each phase of a round (the run pauses there with
    ``--hold`` and dies within the first 0.2 s of a 0.3 s pause). Every restart resumes; at
    the end the audit passes and the totals equal an uninterrupted run's."""
    rounds = 40
    db = tmp_path / "killed.db"
    rng = random.Random(f"crash/{profile}")
    args = [*CLI, "simulate", "--profile", profile, "--rounds", str(rounds), "--seed", "11",
            "--db", str(db), "--devices", "drivers", "--faults", "all", "--json"]
    aims: list[str | None] = [None, *AIMED_PHASES, None, None]
    kills = 0
    killed_in: set[str] = set()  # phases of the round in play when the process died
    finished = None
    for attempt in range(60):
        aim = aims[attempt] if attempt < len(aims) else None
        cmd = args + (["--resume"] if db.exists() else [])
        if aim is not None:
            cmd += ["--hold", f"{aim}=0.3"]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        if aim is None:
            deadline = time.monotonic() + rng.uniform(0.4, 1.6)
            while time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.01)
        else:
            deadline = time.monotonic() + 60
            while (time.monotonic() < deadline and proc.poll() is None
                   and open_round_phase(db) != aim):
                time.sleep(0.005)
            assert open_round_phase(db) == aim or proc.poll() is not None, aim
            time.sleep(rng.uniform(0.0, 0.2))
        if proc.poll() is None and attempt < 50:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            kills += 1
            phase = open_round_phase(db)
            if phase is not None:
                killed_in.add(phase)
            continue
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        finished = json.loads(out)["summary"]
        break
    assert finished is not None and kills >= len(aims), (kills, finished)
    assert killed_in >= set(AIMED_PHASES), killed_in  # killed in every phase
    audit_ok(db)
    reference = summary_of(simulate(tmp_path / "straight.db", "--devices", "in-process",
                                    "--faults", "all", profile=profile, rounds=rounds,
                                    seed=11))
    assert finished == reference


def test_crash_between_a_confirming_swipe_and_end_game(tmp_path: Path) -> None:
    """Killed while a round holds a confirmed jackpot award but has not reached END GAME:
    resumed, the award is not paid again, the audit passes (meters included) and the totals
    equal an uninterrupted run's."""
    rounds = 12
    db = tmp_path / "killed.db"
    args = [*CLI, "simulate", "--profile", "washington-face-up", "--rounds", str(rounds),
            "--seed", "7", "--db", str(db), "--devices", "drivers", "--faults", "jackpot-hands",
            "--json"]
    proc = subprocess.Popen([*args, "--hold-before-end", "30"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    held = None
    while held is None and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        if not db.exists():
            continue
        conn = sqlite3.connect(db)
        try:
            held = conn.execute(
                "SELECT h.round_id, COUNT(*) FROM jackpot_hits h JOIN rounds r USING (round_id)"
                " WHERE r.status = 'open' GROUP BY h.round_id").fetchone()
        except sqlite3.OperationalError:
            held = None  # tables not created yet
        finally:
            conn.close()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    assert held is not None, "no jackpot award was confirmed before the kill"
    conn = sqlite3.connect(db)
    phase = conn.execute("SELECT phase FROM rounds WHERE round_id = ?", [held[0]]).fetchone()
    conn.close()
    assert phase[0] == "end"  # killed after the swipe, before END GAME
    finished = summary_of(subprocess.run([*args, "--resume"], capture_output=True, text=True,
                                         timeout=300))
    audit_ok(db)
    reference = summary_of(simulate(tmp_path / "straight.db", "--devices", "in-process",
                                    "--faults", "jackpot-hands", rounds=rounds))
    assert finished == reference
    assert finished["jackpot_hits"] > 0
    assert finished["jackpot"]["awarded_cents"] == (finished["jackpot"]["from_meter_cents"]
                                                    + finished["jackpot"]["from_tray_cents"])


def test_a_layout_with_two_jackpot_games(tmp_path: Path) -> None:
    """A casino's profile file with a jackpot game on each sensor spot: wagers on both, hits
    confirmed on both, the same over pseudo-terminals as in-process, and the audit passes."""
    from tests.profiles.test_jackpot_setup import ONE_GAME, TWO_GAMES, WASHINGTON

    profile = tmp_path / "two-jackpots.toml"
    profile.write_text(WASHINGTON.replace(ONE_GAME, TWO_GAMES))
    runs = [summary_of(simulate(tmp_path / f"{devices}.db", "--devices", devices, "--faults",
                                "jackpot-hands,wire", profile=str(profile), rounds=20, seed=3))
            for devices in ("drivers", "in-process")]
    assert runs[0] == runs[1]
    games = {key.split("/")[0] for key in runs[0]["jackpot"]["by_line"]}
    assert games == {"1", "2"}  # hits on both games
    assert set(runs[0]["jackpot"]["meters"]) == {"1/main", "2/mega", "2/major", "2/minor"}
    audit_ok(tmp_path / "drivers.db")
    again = simulate(tmp_path / "drivers.db", "--devices", "in-process", "--resume",
                     profile="washington-face-up", rounds=20, seed=3)
    assert again.returncode == 2 and "--profile" in again.stderr


def test_awards_above_the_two_person_level_confirmed_by_two_cards(tmp_path: Path) -> None:
    """A casino's profile with ``two_person_above``: the simulated supervisor's swipe is held
    and the executive's pays; every such hit names both, and the audit holds it to the pair."""
    from tests.profiles.test_jackpot_setup import WASHINGTON

    profile = tmp_path / "two-people.toml"
    profile.write_text(WASHINGTON.replace('executive_above = "$1,000"\n',
                                          'executive_above = "$1,000"\n'
                                          'two_person_above = "$150"\n'))
    db = tmp_path / "t.db"
    summary_of(simulate(db, "--faults", "jackpot-hands", profile=str(profile), rounds=12))
    audit_ok(db)
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT amount_cents, employee_role, second_employee_role "
                        "FROM jackpot_hits").fetchall()
    conn.close()
    pairs = [(first, second) for amount, first, second in rows if amount > 15_000]
    assert pairs and set(pairs) == {("supervisor", "executive")}
    assert all(second is None for amount, _first, second in rows if amount <= 15_000)


def test_a_profile_asking_for_pins_confirms_with_the_test_pins(tmp_path: Path) -> None:
    """A casino's profile with ``pin_required`` (and two people above $150): the simulated
    dealer types each confirmer's test PIN after their card; every hit is paid, each accepted
    card's PIN is right (no wrong-PIN refusal), and the audit passes."""
    from tests.profiles.test_jackpot_setup import WASHINGTON

    profile = tmp_path / "pins.toml"
    profile.write_text(WASHINGTON.replace('executive_above = "$1,000"\n',
                                          'executive_above = "$1,000"\npin_required = true\n'
                                          'two_person_above = "$150"\n'))
    db = tmp_path / "t.db"
    summary = summary_of(simulate(db, "--faults", "jackpot-hands", profile=str(profile),
                                  rounds=12))
    audit_ok(db)
    conn = sqlite3.connect(db)
    hits = conn.execute("SELECT COUNT(*), COUNT(second_employee_id) FROM jackpot_hits"
                        ).fetchone()
    refusals = [r[0] for r in conn.execute(
        "SELECT detail FROM employee_log WHERE action = 'swipe_refused'")]
    pins_set = conn.execute("SELECT COUNT(*) FROM employees WHERE pin_hash IS NOT NULL"
                            ).fetchone()[0]
    conn.close()
    assert hits[0] > 0 and hits[1] > 0  # single and two-person awards both confirmed
    assert sum(summary["jackpot"]["by_line"].values()) == hits[0]
    assert not any("PIN" in detail for detail in refusals)
    assert pins_set == 4


@pytest.mark.parametrize("profile", ["california-face-up", "catfish-bend-fortune"])
def test_a_supervisor_reconstructs_banker_hands_at_a_table_without_a_jackpot(
        tmp_path: Path, profile: str) -> None:
    """An outside review: the simulated staff were installed at jackpot tables only, so the
    supervisor's reconstruction, now given on a supervisor's card, was refused and counted
    as any refusal: the fault never happened where a player banks."""
    out = summary_of(simulate(tmp_path / "s.db", "--devices", "in-process", "--faults",
                              "reconstruct", profile=profile, rounds=60))
    assert out["interventions"].get("banker_hand_reconstructed", 0) > 0, out["interventions"]
