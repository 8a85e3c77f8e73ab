"""``dealer-console rules``: settle a dispute or audit a hand without the GUI.

Three questions, each answered in words or, with ``--json``, as one JSON object:
``house-way`` (how the chart sets seven cards), ``classify`` (Fortune class, ace-high pai gow,
best five) and ``compare`` (a player's set hand against the banker's). ``--batch`` reads one
hand per line from stdin and answers each line in order in one process; a bad line is answered
with ``{"error": ...}`` and the rest go on, so one misread hand never loses an audit run.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from dealer_console.cli import CommandError
from dealer_console.cli.checks import label, profile_ref
from dealer_console.house_ways import NAMES as HOUSE_WAYS

if TYPE_CHECKING:
    from dealer_console.hands import HandRules
    from dealer_console.setting import Setting

Answer = dict[str, Any]


def register(subparsers: Any) -> None:
    """Add ``rules`` and its three subcommands (cheap: the engine is imported when run)."""
    parser = subparsers.add_parser(
        "rules",
        help="set, classify or compare hands by the table's rules",
        description="Answer rules questions about hands, in words or as JSON.",
    )
    sub = parser.add_subparsers(dest="question", metavar="QUESTION", required=True)

    def common(p: argparse.ArgumentParser, cards_help: str | None) -> None:
        p.add_argument("--json", action="store_true", help="answer as one JSON object")
        p.add_argument(
            "--batch",
            action="store_true",
            help="with --json: read one hand per line from stdin, write one JSON object per line",
        )
        p.add_argument(
            "--profile",
            type=profile_ref,
            help="take the wheel, the joker in a flush and the House Way from this table "
                 "profile (an option given as well overrides it)",
        )
        p.add_argument(
            "--wheel",
            choices=("lowest", "second_highest"),
            default=None,
            help="where A-2-3-4-5 ranks among straights (default: the profile's, else lowest)",
        )
        p.add_argument(
            "--joker-in-flush",
            choices=("highest_missing", "ace"),
            default=None,
            help="what a joker counts as in a flush that holds an ace (default: the "
                 "profile's, else highest_missing)",
        )
        if cards_help is not None:
            p.add_argument("cards", nargs="*", metavar="CARD", help=cards_help,
                           type=label(100))
        p.set_defaults(func=run)

    house_way = sub.add_parser("house-way", help="set seven cards the House Way")
    house_way.add_argument("--house-way", choices=HOUSE_WAYS,
                           help="the chart (required unless --profile names the table)")
    common(house_way, "seven cards, for example As Kd 9c 7h 5s 3d 2c")
    classify = sub.add_parser("classify", help="Fortune class, ace-high pai gow and best five")
    common(classify, "seven cards")
    compare = sub.add_parser("compare", help="compare a player's set hand with the banker's")
    compare.add_argument("--banker", help='the banker\'s set hand, "low low | high x5"')
    compare.add_argument("--player", help='the player\'s set hand, "low low | high x5"')
    common(compare, None)


def run(args: argparse.Namespace) -> int:
    from dealer_console.hands import HandRules, JokerInFlush, Wheel

    _apply_profile(args)
    rules = HandRules(Wheel(args.wheel), JokerInFlush(args.joker_in_flush))
    answer_line = _answerer(args, rules)
    if args.batch:
        if not args.json:
            raise CommandError("--batch needs --json (one JSON object per input line)")
        if any(getattr(args, name, None) for name in ("cards", "banker", "player")):
            raise CommandError("--batch reads hands from stdin; give no hands on the command line")
        _run_batch(answer_line, sys.stdin, sys.stdout)
        return 0
    try:
        answer, text = answer_line(_line_from_args(args))
    except ValueError as exc:  # CardError is a ValueError
        raise CommandError(str(exc)) from None
    print(json.dumps(answer) if args.json else text)
    return 0


def _apply_profile(args: argparse.Namespace) -> None:
    """Fill the options left out from ``--profile`` (or the defaults), so an auditor checking
    a Catfish Bend hand cannot forget that its wheel is the second-highest straight."""
    wheel, joker, chart = "lowest", "highest_missing", None
    if args.profile is not None:
        from dealer_console.config_file import ConfigError
        from dealer_console.profiles.loader import get_profile

        try:
            profile = get_profile(args.profile)
        except (KeyError, ConfigError) as exc:
            raise CommandError(str(exc).strip("'\"")) from None
        wheel, joker, chart = (profile.wheel.value, profile.joker_in_flush.value,
                               profile.house_way)
    args.wheel = args.wheel or wheel
    args.joker_in_flush = args.joker_in_flush or joker
    if args.question == "house-way":
        args.house_way = args.house_way or chart
        if args.house_way is None:
            raise CommandError("house-way needs --house-way CHART or --profile NAME; charts: "
                               + ", ".join(HOUSE_WAYS))


def _line_from_args(args: argparse.Namespace) -> str:
    if args.question == "compare":
        missing = [n for n in ("banker", "player") if getattr(args, n) is None]
        if missing:
            raise CommandError(f"compare needs --banker and --player (missing: --{missing[0]})")
        return f"{args.banker} ; {args.player}"
    if not args.cards:
        raise CommandError(f"{args.question} needs seven cards, for example As Kd 9c 7h 5s 3d 2c")
    return " ".join(args.cards)


def _run_batch(
    answer_line: Callable[[str], tuple[Answer, str]],
    source: TextIO,
    sink: TextIO,
) -> None:
    for number, line in enumerate(source, start=1):
        if not line.strip():
            answer: Answer = {"error": f"line {number}: empty line"}
        else:
            try:
                answer = answer_line(line)[0]
            except ValueError as exc:  # CardError is a ValueError
                answer = {"error": f"line {number}: {exc}"}
        sink.write(json.dumps(answer))
        sink.write("\n")


def _answerer(args: argparse.Namespace, rules: HandRules) -> Callable[[str], tuple[Answer, str]]:
    """A function answering one hand (the text of one line) as a JSON object and as words."""
    from dealer_console.cards import format_cards, parse_cards
    from dealer_console.hands import five_card_class
    from dealer_console.house_ways import get
    from dealer_console.setting import compare, is_foul
    from dealer_console.seven import ace_high_status, best_five, fortune_class

    if args.question == "house-way":
        set_hand = get(args.house_way)

        def house_way(line: str) -> tuple[Answer, str]:
            cards = parse_cards(line, 7)
            setting = set_hand(cards, rules)
            answer = {
                "cards": [str(c) for c in cards],
                "low": [str(c) for c in setting.low],
                "high": [str(c) for c in setting.high],
                "rule": setting.rule,
            }
            text = (
                f"low:  {format_cards(setting.low)}\n"
                f"high: {format_cards(setting.high)}\n"
                f"rule: {setting.rule} ({args.house_way})"
            )
            return answer, text

        return house_way

    if args.question == "classify":

        def classify(line: str) -> tuple[Answer, str]:
            cards = parse_cards(line, 7)
            fortune = fortune_class(cards)
            ace_high = ace_high_status(cards)
            value, five = best_five(cards, rules)
            five_class = five_card_class(value).id
            answer = {
                "cards": [str(c) for c in cards],
                "fortune": None if fortune is None else fortune.value,
                "ace_high_pai_gow": None if ace_high is None else ace_high.value,
                "best_five": {"class": five_class, "cards": [str(c) for c in five]},
            }
            ace_text = {None: "no", "natural": "yes, natural ace", "joker": "yes, with the joker"}
            text = (
                f"cards:            {format_cards(cards)}\n"
                f"fortune:          {'nothing' if fortune is None else fortune.value}\n"
                f"ace-high pai gow: {ace_text[None if ace_high is None else ace_high.value]}\n"
                f"best five:        {format_cards(five)} ({five_class})"
            )
            return answer, text

        return classify

    def compare_line(line: str) -> tuple[Answer, str]:
        banker, player = _parse_pair(line)
        if is_foul(banker, rules):
            raise ValueError(
                f"banker's hand {banker} is foul; the banker's hand is never foul "
                "(set it the House Way: rules house-way)"
            )
        result = compare(player, banker, rules)
        foul = is_foul(player, rules)
        answer = {
            "outcome": result.outcome.value,
            "high": result.high.value,
            "low": result.low.value,
            "player_foul": foul,
        }
        text = (
            f"player {result.outcome.value}\n"
            f"high hand: {_side_text(result.high.value)}\n"
            f"low hand:  {_side_text(result.low.value)}\n"
            f"player's hand foul: {'yes' if foul else 'no'}"
        )
        return answer, text

    return compare_line


def _side_text(side: str) -> str:
    return "copy (banker wins it)" if side == "copy" else f"{side} higher"


def _parse_pair(line: str) -> tuple[Setting, Setting]:
    """A compare line: ``BANKER ; PLAYER`` (each ``low low | high x5``) or a JSON object
    ``{"banker": ..., "player": ...}``. Banker and player cannot share a card."""
    from dealer_console.cards import CardError, check_cards
    from dealer_console.setting import parse_setting

    text = line.strip()
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CardError(f"not a JSON object: {exc}") from None
        if not isinstance(obj, dict) or not all(
            isinstance(obj.get(k), str) for k in ("banker", "player")
        ):
            raise CardError('a JSON compare line needs "banker" and "player" strings')
        banker_text, player_text = obj["banker"], obj["player"]
    else:
        if text.count(";") != 1:
            raise CardError(f"{text!r}: write a compare line as 'BANKER ; PLAYER'")
        banker_text, player_text = text.split(";")
    try:
        banker = parse_setting(banker_text)
    except CardError as exc:
        raise CardError(f"banker: {exc}") from None
    try:
        player = parse_setting(player_text)
    except CardError as exc:
        raise CardError(f"player: {exc}") from None
    try:
        check_cards([*banker.cards, *player.cards])
    except CardError as exc:
        raise CardError(f"banker and player share a card: {exc}") from None
    return banker, player
