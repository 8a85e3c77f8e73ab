"""The players' and the world's random choices at the simulated table: wagers, settings, the
bank, and the stacked decks of the ``jackpot-hands`` scenario.

Every choice comes from a generator seeded by ``(seed, round, purpose)``, so it does not depend
on what ran before: a run interrupted anywhere and resumed makes the same choices. The one thing
a choice reads from the table is what each seat wagered last round (a player betting the same
again), and that is recorded in the round itself when it opens.
"""

from __future__ import annotations

import random
from itertools import combinations

from dealer_console.cards import Card
from dealer_console.round.jackpot_kinds import SPOT_OF_KIND
from dealer_console.round.rotation import last_base, last_wagers
from dealer_console.round.rules import Banking, RoundRules
from dealer_console.round.state import RoundState
from dealer_console.setting import Setting, is_foul, make_setting

SIM_STAFF = (("SIM-S1", "Sim Supervisor", "supervisor", "5000100000001=2912"),
             ("SIM-X1", "Sim Executive", "executive", "5000200000001=2912"),
             ("SIM-D1", "Sim Dealer", "dealer", "5000300000001=2912"),
             ("SIM-T1", "Sim Technician", "technician", "5000400000001=2912"))
"""Employees of the simulated table and their cards' track 2 data (public test cards)."""
SIM_PINS = {"SIM-S1": "1357", "SIM-X1": "2468", "SIM-D1": "3579", "SIM-T1": "4680"}
"""Their PINs (public test data), for a profile with ``pin_required``."""
UNKNOWN_CARD = "5999900000001=2912"
"""A test card nobody on the simulated table's staff holds."""
HANDS = 7
SEATED = 0.8
"""Chance that a seat is taken at the table's first round (or after a round nobody played)."""
STAYS = 0.95
"""Chance that a seat which played last round plays again: players sit for many rounds."""
JOINS = 0.2
"""Chance that a seat empty last round is taken (so about four seats in five play, as at
the first round)."""
SAME_WAGERS = 0.7
"""Chance that a player who played last round bets exactly as then, as most players at a
table do most rounds (the dealer's "same wagers" touch is for them)."""


def rng_for(seed: int, round_id: int, purpose: str) -> random.Random:
    """The generator of one decision of one round: independent of what ran before."""
    return random.Random(f"{seed}/{round_id}/{purpose}")


def _card_text(rank: str, suit: str) -> str:
    return rank + suit


RANKS = "23456789TJQKA"


def _jackpot_template(rng: random.Random) -> list[str]:
    """The cards of one qualifying hand (the rest of its seven are dealt at random)."""
    suit = rng.choice("cdhs")
    kind = rng.choice(("five_aces", "seven_natural", "seven_wild", "royal", "straight_flush",
                       "four", "four", "full_house"))
    if kind == "five_aces":
        return ["As", "Ad", "Ah", "Ac", "JK"]
    if kind in ("seven_natural", "seven_wild"):
        start = rng.randint(0, 6)
        ranks = RANKS[start:start + 7]
        cards = [_card_text(r, suit) for r in ranks]
        return cards if kind == "seven_natural" else [*cards[:-1], "JK"]
    if kind == "royal":
        return [_card_text(r, suit) for r in "TJQKA"]
    if kind == "straight_flush":
        start = rng.randint(0, 7)
        return [_card_text(r, suit) for r in RANKS[start:start + 5]]
    rank = rng.choice(RANKS[:-1])
    four = [_card_text(rank, s) for s in "cdhs"]
    if kind == "four":
        return four
    pair = rng.choice([r for r in RANKS if r != rank])
    return four[:3] + [_card_text(pair, s) for s in rng.sample("cdhs", 2)]


def stacked_deck(rng: random.Random, shuffled: list[Card]) -> tuple[Card, ...]:
    """The ``jackpot-hands`` scenario: one to three deliveries hold a qualifying hand; the
    other cards keep their shuffled order."""
    from dealer_console.cards import parse_cards

    hands: dict[int, list[Card]] = {}
    used: set[Card] = set()
    for index in rng.sample(range(1, HANDS + 1), rng.randint(1, 3)):
        for _attempt in range(6):
            cards = list(parse_cards(" ".join(_jackpot_template(rng))))
            if not used.intersection(cards):
                used.update(cards)
                hands[index] = cards
                break
    rest = [card for card in shuffled if card not in used]
    out: list[Card] = []
    for index in range(1, HANDS + 1):
        hand = hands.get(index, [])
        fill = 7 - len(hand)
        out += hand + rest[:fill]
        rest = rest[fill:]
    return tuple(out + rest)


def _amount(rng: random.Random, minimum: int, maximum: int, step: int, top: int) -> int:
    high = min(maximum, max(minimum, top))
    steps = (high - minimum) // step
    return minimum + step * rng.randint(0, steps)


def planned_wagers(rules: RoundRules, state: RoundState, seed: int) -> list[tuple[int, str, int]]:
    """Random but legal wagers of the round: base first, then bonuses, seat by seat. A seat
    that bets as last round (:data:`SAME_WAGERS`) places again what it played then (a jackpot
    chip is drawn afresh: the sensor reads it every round)."""
    rng = rng_for(seed, state.round_id, "wagers")
    out: list[tuple[int, str, int]] = []
    base = rules.limit("base")
    assert base is not None
    played = {s for s, _k, _a in last_wagers(state)}
    for seat in rules.player_seats:
        banker = state.banker_kind == "player" and seat == state.banker_seat
        plays = rng.random() < (SEATED if not played else STAYS if seat in played else JOINS)
        amount = _amount(rng, base.minimum, base.maximum, base.increment, base.minimum * 10)
        fortune_roll, ace_roll, jackpot_roll = rng.random(), rng.random(), rng.random()
        side_roll = rng.random()
        if banker:
            fortune = rules.limit("fortune")
            if (fortune and rules.banking is Banking.HOUSE_OR_PLAYER_BANKER
                    and fortune_roll < 0.3):
                out.append((seat, "fortune", fortune.minimum))
            continue
        if not plays:
            continue
        same = same_as_last_round(state, seed, seat)
        if same:
            out.extend(same)
        else:
            _fresh_wagers(rules, rng, out, seat, amount, side_roll, fortune_roll, ace_roll)
        for kind, spot in SPOT_OF_KIND.items():
            fixed = rules.jackpot_wager(kind)
            if fixed is None or kind not in rules.wager_kinds:
                continue
            # a second game draws its own number, so a one-game table's rounds stay as they were
            roll = jackpot_roll if spot == 1 else rng_for(
                seed, state.round_id, f"jackpot-{spot}/{seat}").random()
            if roll < 0.5:
                out.append((seat, kind, fixed))
    if not any(k == "base" for _s, k, _a in out):
        seat = next(s for s in rules.player_seats
                    if not (state.banker_kind == "player" and s == state.banker_seat))
        out.insert(0, (seat, "base", base.minimum))
    if state.banker_kind == "player" and rules.house_hand:
        house = rules.limit("house_wager")
        assert house is not None
        # Catfish Bend, "Player Banker": at most the banker's last wager against the house
        most = min(house.maximum, last_base(state, state.banker_seat) or house.minimum)
        out.append((0, "house_wager", _amount(rng, house.minimum, most, house.increment,
                                              house.minimum * 10)))
    return out


def same_as_last_round(state: RoundState, seed: int, seat: int) -> list[tuple[int, str, int]]:
    """``seat``'s wagers as it last played, base first, when its player bets the same again
    this round; else none."""
    kept = sorted((w for w in last_wagers(state) if w[0] == seat),
                  key=lambda w: (w[1] != "base", w[1]))
    if not kept or kept[0][1] != "base":
        return []
    if rng_for(seed, state.round_id, f"same/{seat}").random() >= SAME_WAGERS:
        return []
    return kept


def _fresh_wagers(rules: RoundRules, rng: random.Random, out: list[tuple[int, str, int]],
                  seat: int, amount: int, side_roll: float, fortune_roll: float,
                  ace_roll: float) -> None:
    """A seat's new base wager and its drawn side wagers."""
    out.append((seat, "base", amount))
    if "backline" in rules.wager_kinds and side_roll < 0.25:
        limit = rules.limit("backline")
        assert limit is not None
        out.append((seat, f"backline:bettor {seat}",
                    _amount(rng, limit.minimum, limit.maximum, limit.increment,
                            limit.minimum * 4)))
    if "tips" in rules.wager_kinds and side_roll < 0.25:
        limit = rules.limit("tips")
        assert limit is not None
        out.append((seat, "tips", limit.minimum))
    for kind, roll, p in (("fortune", fortune_roll, 0.5), ("ace_high", ace_roll, 0.3)):
        limit = rules.limit(kind)
        if kind in rules.wager_kinds and limit is not None and roll < p:
            out.append((seat, kind, _amount(rng, limit.minimum, limit.maximum,
                                            limit.increment, 1000)))


def random_setting(cards: tuple[Card, ...], rng: random.Random, allow_foul: bool
                   ) -> Setting | None:
    """A player's own setting: None asks for the House Way."""
    if rng.random() < 0.6:
        return None
    pairs = list(combinations(cards, 2))
    rng.shuffle(pairs)
    for pair in pairs:
        setting = make_setting(pair, [x for x in cards if x not in pair])
        if is_foul(setting) == allow_foul:
            return setting
    return None
