"""One recalled round drawn as the table looked: each seat's seven cards set as low and high
hand (drawn with the dealer's cards), its wagers and how each was settled, then misdeals, the
warnings the dealer was given about the round's evidence (with when), fees, jackpot awards
(each print of its win page, and one not finished with what to do) and supervisor
interventions, in the order they happened. It draws the recall record
(``dealer_console.round.recall``) and decides nothing."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QVBoxLayout, QWidget

from dealer_console.money import dollars_in_text, format_cents
from ui import theme
from ui.widgets.card import CardRow
from ui.widgets.kit import label as _label
from ui.words import MISDEALS, kind_name, seat_name

RECALL_CARD_HEIGHT = 96


def local_time(stamp: str | None) -> str:
    """An event-log time (UTC) in the console's local time, to the second, with its zone (the
    hour the clocks go back is there twice: an outside review)."""
    if not stamp:
        return "-"
    return datetime.fromisoformat(stamp).astimezone().strftime("%d %b %Y %H:%M:%S %Z")


def clock_time(stamp: str, zone: bool = False) -> str:
    """The time of day of an event-log time in the console's local time (and its zone)."""
    return datetime.fromisoformat(stamp).astimezone().strftime(
        "%H:%M:%S" + (" %Z" if zone else ""))


def _told_time(stamp: str) -> str:
    """When a kept notice was told, as recall shows it (its stamp as kept, if it is none)."""
    try:
        return clock_time(stamp, zone=True)
    except ValueError:
        return stamp


def paid_words(line: dict[str, Any]) -> str:
    """A settled line in the dealer's words: paid, taken, pushed or collected."""
    name = kind_name(line["kind"])
    net = line["returned"] - line["staked"]
    if line["outcome"] == "charge":
        return f"{name}: collected {format_cents(line['staked'] - line['returned'])}"
    if net > 0:
        return f"{name}: paid {format_cents(net)}"
    if net < 0:
        return f"{name}: lost {format_cents(-net)}"
    return f"{name}: push, {format_cents(line['returned'])} returned"


def outcome_words(line: dict[str, Any]) -> str:
    """How a wager ended: won (what was paid), lost, or pushed."""
    net = line["returned"] - line["staked"]
    if net > 0:
        return f"won {format_cents(net)}"
    if net < 0:
        return "lost" if line["returned"] == 0 else f"lost {format_cents(-net)}"
    return "push"


class RecallRoundView(QWidget):
    """The round on screen; ``set_round(record)`` draws another."""

    def __init__(self) -> None:
        super().__init__()
        self.record: dict[str, Any] | None = None
        self.heading = _label("", "heading")
        self.when = _label("", "hint")
        self.attention = _label("", "refusal")
        """An award's win page NOT FINISHED and what to do, above the seats: not to be
        scrolled past."""
        self.notes = _label("")
        self.seats = QVBoxLayout()
        self.seats.setSpacing(theme.SPACING // 2)
        self.after = _label("")
        self.rows: dict[int, QFrame] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(theme.SPACING, theme.SPACING, theme.SPACING, theme.SPACING)
        layout.addWidget(self.heading)
        layout.addWidget(self.when)
        layout.addWidget(self.attention)
        layout.addWidget(self.notes)
        layout.addLayout(self.seats)
        layout.addWidget(self.after)
        layout.addStretch(1)

    def set_round(self, r: dict[str, Any]) -> None:
        self.record = r
        banker = r["banker"]
        status = {"complete": "played to the end", "voided": "VOIDED",
                  "open": "still open (the live round)"}.get(r["status"], r["status"])
        self.heading.setText(f"Round {r['round']}: {status}")
        bank = ("the house banks" if banker["kind"] == "house" else
                f"{seat_name(banker['seat'], banker['seat'], banker['kind'])} banks "
                f"{format_cents(banker['wager_cents'])}")
        action = ("" if r["action_seat"] is None else
                  f"; the action at {seat_name(r['action_seat'], -1, '').lower()}")
        ended = f" to {clock_time(r['ended'], zone=True)}" if r["ended"] else ""
        deals = f"; dealt {r['deals']} times" if r["deals"] > 1 else ""
        self.when.setText(f"{local_time(r['started'])}{ended}: {bank}{action}{deals}")
        self.attention.setText("\n".join(
            f"Jackpot award {j['hit']}'s win page: {j['prints_todo']}"
            for j in r.get("jackpots", ()) if j.get("prints_todo")))
        self.attention.setVisible(bool(self.attention.text()))
        self.notes.setText("\n".join(self._notes(r)))
        self.notes.setVisible(bool(self.notes.text()))
        self._draw_seats(r)
        self.after.setText("\n".join(self._after(r)))
        self.after.setVisible(bool(self.after.text()))

    @staticmethod
    def _notes(r: dict[str, Any]) -> list[str]:
        out = []
        for m in r["misdeals"]:
            said = MISDEALS.get(m["reason"], (m["reason"].replace("_", " "),))[0]
            count = (f"; deck counted {m['deck_counted']}" if m["deck_counted"] is not None
                     else "")
            out.append(f"Misdeal on deal {m['deal'] + 1}: {said} ({m['detail']}){count}")
        if r["ace_high_push"]:
            out.append("The banker's hand was ace-high pai gow: every base wager pushed")
        for n in r.get("notices", ()):  # the time each was told, as the dealer read it
            todo = f" ({n['todo']})" if n["todo"] else ""
            late = (f", in round {n['told_in_round']}, saved later"
                    if n.get("told_in_round") is not None else "")
            out.append(f"The dealer was warned at {_told_time(n['at'])}{late}: "
                       f"{n['what']}{todo}")
        return out

    def _draw_seats(self, r: dict[str, Any]) -> None:
        for old in self.rows.values():
            old.hide()
            old.deleteLater()
        self.rows = {}
        last_deal = max((h["deal"] for h in r["hands"] if not h["void"]), default=None)
        hands = [h for h in r["hands"] if h["deal"] == last_deal and not h["void"]]
        banker = r["banker"]
        in_play = {w["seat"] for w in r["wagers"]} | {banker["seat"]}
        # the banker first, then each seat with a wager, then the hands dealt to empty spots
        for h in sorted(hands, key=lambda h: (h["seat"] != banker["seat"],
                                              h["seat"] not in in_play, h["seat"])):
            panel = self._seat_panel(r, h, h["seat"] in in_play)
            self.seats.addWidget(panel)
            self.rows[h["seat"]] = panel

    def _seat_panel(self, r: dict[str, Any], h: dict[str, Any], in_play: bool) -> QFrame:
        """One seat: its name and money on top, its cards as set below (full width)."""
        seat, banker = h["seat"], r["banker"]
        name = seat_name(seat, banker["seat"], banker["kind"])
        if seat == banker["seat"]:
            name += " (banker)"
        elif not in_play:
            name += ": no wager, hand discarded"
        panel = QFrame()
        panel.setProperty("role", "panel")
        label = _label(name, "group")
        money = _label("   ".join(self._money(r, seat, h)) if in_play else "")
        cards = CardRow(card_height=RECALL_CARD_HEIGHT if in_play else 60)
        if h["low"] and h["high"]:
            how = {"house_way": "House Way", "player": "set by the player"}.get(
                h["set_how"] or "", (h["set_how"] or "").replace("_", " "))
            cards.set_groups([(f"Low hand ({how})" if how else "Low hand", h["low"]),
                              ("High hand", h["high"])])
        else:
            cards.set_groups([("Not set" if in_play else "", h["cards"])])
        top = QHBoxLayout()
        top.addWidget(label)
        top.addWidget(money, 1)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(theme.SPACING // 2, theme.SPACING // 2, theme.SPACING // 2,
                                  theme.SPACING // 2)
        layout.addLayout(top)
        layout.addWidget(cards, 0, Qt.AlignmentFlag.AlignLeft)
        panel.setAccessibleName(name)
        return panel

    @staticmethod
    def _money(r: dict[str, Any], seat: int, hand: dict[str, Any]) -> list[str]:
        """Each wager with how it was settled, then the seat's other lines (awards,
        commission) in settlement order."""
        out: list[str] = []
        if hand["dead"]:
            out.append("Dead hand")
        if hand["fouls"]:
            out.append(f"Fouled {hand['fouls']} time(s)")
        lines = {ln["kind"]: ln for ln in r["lines"] if ln["seat"] == seat}
        for w in r["wagers"]:
            if w["seat"] != seat:
                continue
            envy = " with envy" if w["envy"] else ""
            line = lines.pop(w["kind"], None)
            result = f": {outcome_words(line)}" if line is not None else ""
            out.append(f"{kind_name(w['kind'])} {format_cents(w['cents'])}{envy}{result}")
        backed = [j["hit"] for j in r.get("jackpots", ())
                  if j["seat"] == seat and j.get("backed_out")]
        for ln in lines.values():  # an award backed out never reads as simply paid (issue 23)
            taken_back = backed and ln["kind"].startswith("jackpot")
            out.append(paid_words(ln) + (f", BACKED OUT (award {', '.join(map(str, backed))})"
                                         if taken_back else ""))
        if not out and seat == r["banker"]["seat"] and r["banker"]["kind"] == "house":
            return ["the house's hand"]
        return out or ["no wager"]

    @staticmethod
    def _after(r: dict[str, Any]) -> list[str]:
        out = [f"{kind_name(f['kind'])} taken from seat {f['seat']}: {format_cents(f['cents'])}"
               for f in r["fees"]]
        for j in r.get("jackpots", ()):
            out.append(f"Jackpot award, game {j['game']}, seat {j['seat']}: {j['line']} "
                       f"{format_cents(j['cents'])}, confirmed by {j['confirmed_by']}")
            if j.get("backed_out"):  # its own line, never read as paid (issue 23)
                out.append(f"Award {j['hit']} {j['backed_out']}")
            # each print of its win page under it, a copy or one not finished as recorded
            out += [f"\N{BULLET} {p['words'][0].upper()}{p['words'][1:]}"
                    for p in j.get("prints", ())]
        # the stored detail keeps its words (the audit hashes them): dollars only as shown
        out += [f"{i['kind'].replace('_', ' ').capitalize()} by {i['who']}: "
                f"{dollars_in_text(i['detail'])}" for i in r["interventions"]]
        return out


class RecallFrame(QFrame):
    """The round inside an amber border, the recall's colour all round it."""

    def __init__(self, view: QWidget) -> None:
        super().__init__()
        self.setObjectName("recall_frame")
        self.setStyleSheet(f"QFrame#recall_frame {{ border: 4px solid {theme.WARNING_AMBER};"
                           f" border-radius: {theme.RADIUS}px; }}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(view)
