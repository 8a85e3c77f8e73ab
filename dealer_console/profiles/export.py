"""A profile as plain data, paytables included: what ``profile show`` prints and what a
technician compares with the table's posted signs. Money is shown as cents."""

from __future__ import annotations

from typing import Any

from dealer_console.jackpot_values.config import GameConfig
from dealer_console.paytables import Paytable
from dealer_console.profiles.model import Profile


def paytable_to_data(table: Paytable) -> dict[str, Any]:
    lines = []
    for line in table.lines:
        item: dict[str, Any] = {"id": line.id, "label": line.label, "pays": line.describe()}
        for key in ("odds", "envy_cents", "for_one", "meter_percent", "meter"):
            value = getattr(line, key)
            if value is not None:
                item[key] = value
        lines.append(item)
    return {"name": table.name, "kind": table.kind.value, "title": table.title,
            "source": table.source, "links": list(table.links), "lines": lines}


def profile_to_data(profile: Profile) -> dict[str, Any]:
    def opt(table: Paytable | None) -> dict[str, Any] | None:
        return paytable_to_data(table) if table is not None else None

    return {
        "name": profile.name,
        "title": profile.title,
        "source": profile.source,
        "game": profile.game.value,
        "banking": profile.banking.value,
        "positions": profile.positions,
        "direction": profile.direction.value,
        "settle_from": profile.settle_from.value,
        "house_way": profile.house_way,
        "wheel": profile.wheel.value,
        "joker_in_flush": profile.joker_in_flush.value,
        "foul": profile.foul.value,
        "action_seat_methods": [m.value for m in profile.action_seat_methods],
        "deal_methods": [m.value for m in profile.deal_methods],
        "banker_rotation": profile.banker_rotation.value,
        "backline": profile.backline,
        "tip_bets": profile.tip_bets,
        "house_covers_bonuses": profile.house_covers_bonuses,
        "limits_cents": {
            area.value: {"minimum": lim.minimum, "maximum": lim.maximum,
                         "increment": lim.increment}
            for area, lim in profile.limits.items()
        },
        "fortune": opt(profile.fortune),
        "envy": None if profile.envy is None else {
            "threshold_cents": profile.envy.threshold,
            "needs_fortune_on_hand": profile.envy.needs_fortune_on_hand,
        },
        "ace_high": opt(profile.ace_high),
        "commission": None if profile.commission is None else {
            "basis_points": profile.commission.basis_points,
            "waived_by_fortune_cents": profile.commission.waived_by_fortune,
            "player_banker_pays_on_net": profile.commission.player_banker_pays_on_net,
        },
        "fees": None if profile.fees is None else {
            "payer": profile.fees.payer.value,
            "rates": [{"up_to_cents": r.up_to, "fee_cents": r.fee} for r in profile.fees.rates],
        },
        "aggregate_limit": None if profile.aggregate_limit is None else {
            "cents": profile.aggregate_limit.cents,
            "scope": profile.aggregate_limit.scope.value,
        },
        "jackpot": None if profile.jackpot is None else {
            "wager_cents": profile.jackpot.wager,
            "paytable": paytable_to_data(profile.jackpot.paytable),
        },
        "jackpot_games": None if profile.jackpots is None else [
            jackpot_game_to_data(game) for game in profile.jackpots.games],
    }


def jackpot_game_to_data(game: GameConfig) -> dict[str, Any]:
    """One jackpot game's set-up (the jackpot system's view): spot, mode, wager, meters."""
    from dealer_console.jackpot_values.config import format_rate

    return {
        "spot": game.spot,
        "paytable": game.paytable.name,
        "mode": game.mode.value,
        "wager_cents": game.wager_cents,
        "fixed_from_meter": game.fixed_from_meter,
        "executive_above_cents": game.executive_threshold_cents,
        "meters": [{"name": lv.name, "seed_cents": lv.seed_cents,
                    "contribution": format_rate(lv.contribution_ppm),
                    "reserve": format_rate(lv.reserve_ppm)} for lv in game.levels],
    }
