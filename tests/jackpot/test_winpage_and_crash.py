"""The win page of a confirmed award, and a crash between the confirming swipe and END GAME."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import zlib
from pathlib import Path

from sqlite_utils import Database

from dealer_console.award_words import local_time
from dealer_console.cards import parse_cards
from dealer_console.jackpot import games
from dealer_console.jackpot.audit import verify_meters
from dealer_console.jackpot.history import hit_history
from dealer_console.jackpot.service import JackpotRound
from dealer_console.jackpot.winpage import write_win_page
from dealer_console.jackpot_values.config import GameConfig, JackpotMode, level_configs
from dealer_console.jackpot_values.paytable import load
from tests.jackpot.conftest import CARDS, add_staff, open_db
from tests.jackpot.swipes import swipe_round

ROOT = Path(__file__).resolve().parents[2]


def install(db: Database) -> None:
    paytable = load("fupgpp-wa03")
    games.install_game(db, GameConfig(
        spot=1, paytable=paytable, mode=JackpotMode.HOUSE,
        levels=level_configs(paytable, {"main": {"seed": "$1,000", "contribution": "15%",
                                                 "reserve": "2%"}}),
    ), actor="test")


def pdf_text(path: Path) -> str:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    out = []
    # each stream read by its /Length: a compressed stream ending in a carriage return byte
    # (1 in 256, the bytes changing with the times printed) lost it to a "\r?\nendstream"
    # pattern and its text was skipped (CI, a report-screen test)
    for m in re.finditer(rb"<<([^>]*)>>\s*stream\r?\n", data):
        length = re.search(rb"/Length (\d+)", m.group(1))
        if length is None or b"/FlateDecode" not in m.group(1):
            continue
        stream = data[m.end():m.end() + int(length.group(1))]
        out.append(zlib.decompress(stream).decode("latin-1"))
    return "".join(re.findall(r"\((.*?)\)\s*Tj", "".join(out)))


def test_a_win_page_names_everything_accounting_needs(tmp_path: Path) -> None:
    db = open_db(tmp_path / "t.db")
    add_staff(db)
    install(db)
    jr = JackpotRound.start(db, 12, {1: [1, 4]})
    jr.show_hands({4: parse_cards("As Ad Ah Ac JK 2d 7h")})
    hit = swipe_round(jr, CARDS["supervisor"])
    text = pdf_text(write_win_page(hit, "PG-3", tmp_path / "win.pdf"))
    for expected in ("PG-3", "Round", "12", "Seat", "As Ad Ah Ac JK 2d 7h", "5 aces", "10%",
                     "$100.03", "$1,000.30", "$900.27", "Sam Super", "S1, supervisor",
                     local_time(hit.confirmed_at), "paid"):
        assert expected in text, expected


CHILD = """
import os, sys
from pathlib import Path
from dealer_console.cards import parse_cards
from dealer_console.jackpot.service import JackpotRound
from tests.jackpot.conftest import CARDS, open_db
from tests.jackpot.swipes import swipe_round
db = open_db(Path(sys.argv[1]))
jr = JackpotRound.start(db, 1, {1: [2, 5]})
jr.show_hands({5: parse_cards("2c 3c 4c 5c 6c 7c 8c"), 2: parse_cards("As Ad Ah Ac JK 2d 7h")})
swipe_round(jr, CARDS["executive"])
print("confirmed", flush=True)
sys.stdin.readline()  # killed here: after the confirming swipe, before END GAME
"""


def test_killed_between_the_confirming_swipe_and_end_game(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    db = open_db(path)
    add_staff(db)
    install(db)
    db.close()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)], cwd=ROOT, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "confirmed"
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)

    db = open_db(path)
    assert verify_meters(db) == []
    [hit] = hit_history(db)
    assert (hit.seat, hit.amount_cents) == (5, 100_030)
    jr = JackpotRound.resume(db, 1)
    jr.show_hands({5: parse_cards("2c 3c 4c 5c 6c 7c 8c"),
                   2: parse_cards("As Ad Ah Ac JK 2d 7h")})
    [left] = jr.pending()  # the confirmed award is not offered again
    assert left.mark.seat == 2
    second = swipe_round(jr, CARDS["supervisor"])
    assert second.amount_cents == 10_000  # 10% of $1,000.04: the seed + 4 cents of reserve
    jr.end()
    assert verify_meters(db) == []
    assert len(hit_history(db)) == 2
