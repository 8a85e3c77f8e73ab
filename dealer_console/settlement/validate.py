"""Refusing a round that cannot be settled, before anything is settled.

Every check names the place in the input (``positions[1].wagers.fortune``) so the same reason
reaches the dealer's screen and the ``settle`` command. Limits come from the profile; the
rules behind the cross-checks are cited where they apply.
"""

from __future__ import annotations

from dealer_console.cards import Card
from dealer_console.money import format_cents
from dealer_console.profiles.model import Area, Banking, Game, Profile, SettleFrom
from dealer_console.setting import Setting
from dealer_console.settlement.model import BankedBy, RoundError, RoundInput
from dealer_console.settlement.resolve import check_setting_cards, house_way, same_split
from dealer_console.seven import ace_high_status


def _check_limit(profile: Profile, area: Area, cents: int, place: str) -> None:
    if cents < 0:
        raise RoundError(place, f"{cents} is negative; wagers are cents of at least 0")
    if cents == 0:
        return
    limit = profile.limit(area)
    if limit is None:
        raise RoundError(place, f"this table ({profile.name}) takes no {area.value} wager")
    problem = limit.check(cents)
    if problem is not None:
        raise RoundError(place, f"{format_cents(cents)} is {problem}; the {area.value} limit is "
                                f"{format_cents(limit.minimum)} to {format_cents(limit.maximum)} "
                                f"in steps of {format_cents(limit.increment)}")


def _check_offered(profile: Profile, fortune: int, ace_high: int, place: str) -> None:
    """A bonus wager needs the bonus's paytable: without it settlement could neither pay nor
    take the wager, and it would vanish from the sheet."""
    if fortune and profile.fortune is None:
        raise RoundError(f"{place}.fortune", f"this table ({profile.name}) offers no Fortune "
                                             "bonus")
    if ace_high and profile.ace_high is None:
        raise RoundError(f"{place}.ace_high", f"this table ({profile.name}) offers no Ace-High "
                                              "bonus")


def _check_seven(cards: tuple[Card, ...], place: str) -> None:
    if len(cards) != 7:
        raise RoundError(place, f"a hand is seven cards, got {len(cards)}")


def validate(profile: Profile, rnd: RoundInput) -> None:
    """Raise :class:`RoundError` for the first problem found."""
    banker = rnd.banker
    _check_seven(banker.cards, "banker.cards")
    expected = {
        Banking.PLAYER_DEALER: (BankedBy.PLAYER,),
        Banking.DESIGNATED_PLAYER: (BankedBy.PLAYER,),
        Banking.HOUSE: (BankedBy.HOUSE,),
        Banking.HOUSE_OR_PLAYER_BANKER: (BankedBy.HOUSE, BankedBy.PLAYER),
    }[profile.banking]
    if banker.by not in expected:
        raise RoundError("banker.by", f"{profile.name} is banked by "
                                      f"{' or '.join(e.value for e in expected)}")
    player_banker = banker.by is BankedBy.PLAYER
    if profile.banking.covered:
        if banker.wager <= 0:
            raise RoundError("banker.wager", "a player banker's wager is needed: it bounds "
                                             "what they win and lose")
        _check_limit(profile, Area.BANKER, banker.wager, "banker.wager")
    elif not player_banker and banker.wager:
        raise RoundError("banker.wager", "the house banks this round; it places no wager")
    if banker.fortune:
        if not (player_banker and profile.house_covers_bonuses):
            raise RoundError("banker.fortune", "the banker may play Fortune only where the house "
                                               "covers bonuses (Catfish Bend, Player Banker)")
        _check_offered(profile, banker.fortune, 0, "banker")
        _check_limit(profile, Area.FORTUNE, banker.fortune, "banker.fortune")

    needs_house = profile.banking is Banking.HOUSE_OR_PLAYER_BANKER and player_banker
    if rnd.house is None and needs_house:
        raise RoundError("house", "a player banker plays against the house hand: give its "
                                  "cards and the house wager")
    if rnd.house is not None:
        if not needs_house:
            raise RoundError("house", "only a player banker round at a house_or_player_banker "
                                      "table has a house hand")
        _check_seven(rnd.house.cards, "house.cards")
        if rnd.house.wager <= 0:
            raise RoundError("house.wager", "the house wager against the player banker is "
                                            "needed (at least 1 cent)")
        _check_limit(profile, Area.HOUSE_WAGER, rnd.house.wager, "house.wager")

    seen_positions: dict[int, int] = {}
    all_cards: list[tuple[Card, str]] = [(c, "banker.cards") for c in banker.cards]
    if rnd.house is not None:
        all_cards += [(c, "house.cards") for c in rnd.house.cards]
    _check_action_seat(profile, rnd.action_seat)
    base_total = 0
    # Face Up: the banker's ace-high pai gow pushes every base wager before anyone sets.
    banker_ace_high = (profile.game is Game.FACE_UP
                       and ace_high_status(banker.cards) is not None)
    for i, pos in enumerate(rnd.positions):
        place = f"positions[{i}]"
        if not 2 <= pos.position <= profile.positions:
            raise RoundError(f"{place}.position", f"{pos.position} is not a player position; "
                                                  f"expected 2 to {profile.positions}")
        if pos.position in seen_positions:
            first = seen_positions[pos.position]
            raise RoundError(f"{place}.position", f"position {pos.position} is listed twice "
                                                  f"(also positions[{first}])")
        seen_positions[pos.position] = i
        _check_seven(pos.cards, f"{place}.cards")
        all_cards += [(c, f"{place}.cards") for c in pos.cards]
        if pos.prior_fouls < 0:
            raise RoundError(f"{place}.prior_fouls", "must be 0 or more")
        w = pos.wagers
        wp = f"{place}.wagers"
        if w.base and pos.setting is None and not banker_ace_high:
            raise RoundError(f"{place}.setting", "the hand must be set (a setting or "
                                                 "\"house way\") to settle its base wager")
        _check_limit(profile, Area.BASE, w.base, f"{wp}.base")
        base_total += w.base
        for name, cents in (("fortune", w.fortune), ("ace_high", w.ace_high), ("tips", w.tips),
                            ("jackpot", w.jackpot)):
            if cents and not w.base:
                raise RoundError(f"{wp}.{name}", "needs a base wager on the same hand (rules "
                                                 "README, Fortune bonus and Envy)")
        _check_offered(profile, w.fortune, w.ace_high, wp)
        _check_limit(profile, Area.FORTUNE, w.fortune, f"{wp}.fortune")
        _check_limit(profile, Area.ACE_HIGH, w.ace_high, f"{wp}.ace_high")
        if w.tips and not profile.tip_bets:
            raise RoundError(f"{wp}.tips", f"this table ({profile.name}) takes no tip bets")
        _check_limit(profile, Area.TIPS, w.tips, f"{wp}.tips")
        if w.jackpot:
            if profile.jackpot is None:
                raise RoundError(f"{wp}.jackpot", f"this table ({profile.name}) has no jackpot")
            if w.jackpot != profile.jackpot.wager:
                raise RoundError(f"{wp}.jackpot", f"the jackpot wager is fixed at "
                                                  f"{format_cents(profile.jackpot.wager)}")
        for j, back in enumerate(w.backline):
            bp = f"{wp}.backline[{j}]"
            if not profile.backline:
                raise RoundError(bp, f"this table ({profile.name}) takes no backline wagers")
            if not w.base:
                raise RoundError(bp, "a backline wager rides on a base wager at this position")
            if not back.bettor.strip():
                raise RoundError(f"{bp}.bettor", "name the backline bettor")
            _check_limit(profile, Area.BACKLINE, back.amount, f"{bp}.amount")
        if w.backline and len({b.bettor for b in w.backline}) != len(w.backline):
            raise RoundError(f"{wp}.backline", "a bettor is listed twice behind this position")
    holders: dict[Card, list[str]] = {}
    for card, where in all_cards:
        holders.setdefault(card, []).append(where)
    for card, where in all_cards:
        if len(holders[card]) > 1:
            raise RoundError(where, f"card {card} is dealt to two hands: "
                                    f"{' and '.join(holders[card])}")
    if player_banker and not profile.banking.covered:
        # Catfish Bend, "Introduction" and "Player Banker": the bank goes to a player only if
        # their stake covers all the base wagers plus the house's wager against them.
        at_risk = base_total + (rnd.house.wager if rnd.house is not None else 0)
        if banker.wager < at_risk:
            raise RoundError("banker.wager", f"the player banker must cover every standard wager "
                                             f"and the house wager: {format_cents(at_risk)} at "
                                             f"risk, {format_cents(banker.wager)} in front of them")
    _check_house_hands(profile, rnd)


def _check_action_seat(profile: Profile, action_seat: int | None) -> None:
    """Settlement starts at the action seat, or (Catfish Bend, "Paying and Taking") at the
    player farthest to the dealer's right, whatever the button: an action seat given there
    would be silently ignored, so it is refused."""
    if profile.settle_from is not SettleFrom.ACTION_SEAT:
        if action_seat is not None:
            raise RoundError("action_seat", f"{profile.name} settles from position 2, the "
                                            "player farthest to the dealer's right, not from "
                                            "an action seat: leave action_seat out")
        return
    if action_seat is None:
        raise RoundError("action_seat", f"missing: {profile.name} settles from the action "
                                        f"seat (2 to {profile.positions})")
    if not 2 <= action_seat <= profile.positions:
        raise RoundError("action_seat", f"{action_seat} is not a player position; expected "
                                        f"2 to {profile.positions} (the banker is position 1)")


def _check_house_hands(profile: Profile, rnd: RoundInput) -> None:
    """The house's hand is set the House Way and no other way: the dealer's hand at a
    house-banked table (Washington, "Face Up Pai Gow Poker Rules of Play" 7; Catfish Bend,
    "Card Placement") and the house's hand against a player banker (Catfish Bend, "Player
    Banker": the dealer sets it after the player banker). Only a player-dealer, a designated
    player or a player banker sets their own (rules README, "Setting and comparing hands")."""
    hands = []
    if rnd.banker.by is BankedBy.HOUSE:
        hands.append(("banker", rnd.banker.setting, rnd.banker.cards))
    if rnd.house is not None:
        hands.append(("house", rnd.house.setting, rnd.house.cards))
    for place, choice, cards in hands:
        if not isinstance(choice, Setting):
            continue
        where = f"{place}.setting"
        check_setting_cards(choice, cards, where)
        wanted = house_way(profile, cards, where)
        if not same_split(choice, wanted):
            raise RoundError(where, f"the house's hand is set the House Way, never otherwise: "
                                    f"{choice} is not the House Way ({wanted}); give \"house "
                                    "way\" or leave the setting out (only a player-dealer, a "
                                    "designated player or a player banker sets their own)")

