"""Golden procedures: scripted rounds (``golden/procedures.txt``) with the events, or the
refusal, each step must produce. The file is readable by a floor supervisor: one scenario per
block, one dealer action or device report per line, ``=>`` and what the console must record.

Step language (seats are table seats; hands are drawn from a seeded deck unless given):
``bank SEAT CENTS`` | ``decline SEAT`` | ``bet SEAT KIND CENTS`` | ``start`` |
``action N`` | ``high-card SEAT [new [WHO]]`` | ``deal [N]`` (the next N hands, default all) |
``deal-to SEAT`` (the next hand put on SEAT) | ``short`` (a six-card hand) | ``left N`` |
``exposed N [WHO]`` | ``count-error`` | ``misdeal REASON [WHO]`` | ``deck N [WHO]`` |
``shuffler-deck N`` | ``redeal`` | ``correct`` | ``banker`` | ``player SEAT`` |
``player SEAT foul`` | ``reconstruct [WHO [REASON]]`` | ``settle`` | ``settle-all`` | ``end`` |
``void WHO``. ``rounds N`` first plays N ordinary rounds. ``WHO`` names the supervisor whose
card the step is made on.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from dealer_console.round import commands as c
from dealer_console.round.machine import Refused
from dealer_console.round.state import Phase
from dealer_console.round.table import Table
from dealer_console.setting import Setting, is_foul, make_setting
from tests.round.helpers import hands_with, make_table, play_round

GOLDEN = Path(__file__).parent / "golden" / "procedures.txt"


def scenarios() -> list[tuple[str, str, list[tuple[str, str]]]]:
    out: list[tuple[str, str, list[tuple[str, str]]]] = []
    for block in GOLDEN.read_text(encoding="utf-8").split("\n\n"):
        lines = [ln for ln in block.splitlines() if ln.strip() and not ln.startswith("#")]
        if not lines:
            continue
        title, profile = (x.strip() for x in lines[0].split("|"))
        steps = []
        for ln in lines[1:]:
            step, _, expect = ln.partition("=>")
            steps.append((step.strip(), expect.strip()))
        out.append((title, profile, steps))
    return out


def _foul(cards: tuple[object, ...]) -> Setting:
    for pair in combinations(cards, 2):
        s = make_setting(pair, [x for x in cards if x not in pair])  # type: ignore[arg-type]
        if is_foul(s):
            return s
    raise AssertionError("no foul setting")


def _other(table: Table) -> Setting:
    cards = table.state.hands[table.state.banker_seat]
    current = table.state.banker_setting
    for pair in combinations(cards, 2):
        s = make_setting(pair, [x for x in cards if x not in pair])
        if not is_foul(s) and current is not None and s.low != current.low:
            return s
    raise AssertionError("no other setting")


class Runner:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.hands = hands_with({}, 21)

    def command(self, step: str) -> list[c.Command]:
        word, *args = step.split()
        st = self.table.state
        if word == "bank":
            return [c.AcceptBank(int(args[0]), int(args[1]))]
        if word == "decline":
            return [c.DeclineBank(int(args[0]))]
        if word == "bet":
            return [c.PlaceWager(int(args[0]), args[1], int(args[2]))]
        if word == "start":
            return [c.StartGame()]
        if word == "action":
            return [c.SetActionNumber(int(args[0]))]
        if word == "high-card":
            new = args[1:2] == ["new"]
            return [c.SetActionSeat(int(args[0]), restart=new, who=" ".join(args[2:]))]
        if word == "deal":
            n = int(args[0]) if args else 7 - len(st.delivered)
            start = len(st.delivered)
            return [c.DealHand(h) for h in self.hands[start:start + n]]
        if word == "deal-to":
            return [c.DealHand(self.hands[len(st.delivered)], int(args[0]))]
        if word == "short":
            return [c.DealHand(self.hands[len(st.delivered)][:6])]
        if word == "left":
            return [c.RemainingCards(int(args[0]))]
        if word == "exposed":
            return [c.CardsExposed(int(args[0]), " ".join(args[1:]))]
        if word == "count-error":
            return [c.ShufflerCountError()]
        if word == "misdeal":
            return [c.DeclareMisdeal(args[0], who=" ".join(args[1:]))]
        if word == "deck":
            return [c.DeckCounted(int(args[0]), " ".join(args[1:]))]
        if word == "shuffler-deck":
            return [c.DeckCounted(int(args[0]), shuffler=True)]
        if word == "redeal":
            self.hands = hands_with({}, 22 + st.deal_no)
            return [c.Redeal()]
        if word == "correct":
            return [c.CorrectFirstHand()]
        if word == "banker":
            return [c.SetBankerHand()]
        if word == "player":
            seat = int(args[0])
            foul = _foul(st.hands[seat]) if args[1:] == ["foul"] else None
            return [c.SetPlayerHand(seat, foul)]
        if word == "reconstruct":
            return [c.ReconstructBankerHand(_other(self.table), args[0] if args else "",
                                            " ".join(args[1:]))]
        if word == "settle":
            return [c.SettleNext()]
        if word == "settle-all":
            n = len([s for s in st.opening.get("plan_seats", []) if s not in st.settled_seats])
            return [c.SettleNext()] * n
        if word == "end":
            return [c.EndGame()]
        if word == "void":
            return [c.VoidRound("closing", args[0] if args else "")]
        raise AssertionError(f"unknown step {step!r}")

    def run(self, step: str) -> str:
        word, *args = step.split()
        if word == "rounds":
            for seed in range(int(args[0])):
                play_round(self.table, seed=seed)
            return f"round {self.table.state.round_id} {self.table.state.phase.value}"
        kinds: list[str] = []
        try:
            for cmd in self.command(step):
                kinds += [e.kind for e in self.table.handle(cmd)]
        except Refused as exc:
            return f"refused: {exc}"
        phase = Phase.COMPLETE.value if "game_ended" in kinds or "round_voided" in kinds \
            else self.table.state.phase.value
        return " ".join(dict.fromkeys(kinds)) + f" [{phase}]"


@pytest.mark.parametrize(("title", "profile", "steps"), scenarios(),
                         ids=[s[0] for s in scenarios()])
def test_golden_procedure(tmp_path: Path, title: str, profile: str,
                          steps: list[tuple[str, str]]) -> None:
    runner = Runner(make_table(tmp_path, profile))
    for step, expect in steps:
        got = runner.run(step)
        if expect.startswith("refused:"):
            assert got.startswith("refused:") and expect[8:].strip() in got, (step, got)
        else:
            assert got == expect, f"{title}: {step!r} gave {got!r}, expected {expect!r}"
