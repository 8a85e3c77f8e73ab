"""Reading the golden House Way files.

A line is ``[option=value ...] <7 cards> -> <low> | <high>  # <rule>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dealer_console.cards import Card, parse_cards
from dealer_console.hands import HandRules, JokerInFlush, Wheel
from dealer_console.setting import Setting, parse_setting

HERE = Path(__file__).parent


@dataclass(frozen=True)
class GoldenLine:
    where: str
    rules: HandRules
    cards: tuple[Card, ...]
    expected: Setting
    rule: str


def read(name: str) -> list[GoldenLine]:
    path = HERE / f"{name}.txt"
    out = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{path.name}:{number}"
        body, _, rule = text.partition("#")
        hand_text, arrow, setting_text = body.partition("->")
        assert arrow and rule.strip(), f"{where}: expected 'cards -> low | high  # rule'"
        options = dict(t.split("=", 1) for t in hand_text.split() if "=" in t)
        card_tokens = [t for t in hand_text.split() if "=" not in t]
        rules = HandRules(
            Wheel(options.pop("wheel", "lowest")),
            JokerInFlush(options.pop("joker_in_flush", "highest_missing")),
        )
        assert not options, f"{where}: unknown options {options}"
        cards = parse_cards(card_tokens, 7)
        expected = parse_setting(setting_text)
        assert sorted(expected.cards) == sorted(cards), f"{where}: setting is not the 7 cards"
        out.append(GoldenLine(where, rules, cards, expected, rule.strip()))
    return out
