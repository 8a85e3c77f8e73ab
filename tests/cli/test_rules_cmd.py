"""``dealer-console rules`` run for real, in a subprocess, as a supervisor or auditor would."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.house_ways.golden import read


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dealer_console.cli", "rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


HAND = ["As", "Kd", "9c", "7h", "5s", "3d", "2c"]


def test_house_way_json() -> None:
    out = run("house-way", "--house-way", "california", "--json", *HAND)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "cards": HAND,
        "low": ["Kd", "9c"],
        "high": ["As", "7h", "5s", "3d", "2c"],
        "rule": "high card: 2nd and 3rd highest cards in front",
    }


def test_house_way_words() -> None:
    out = run("house-way", "--house-way", "oxford_downs", "Ks", "Kd", "Kc", "5s", "5h", "3c", "3d")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[1:] == ["Ks", "Kd"]
    assert "full house: highest permissible pair in front" in lines[2]


@pytest.mark.parametrize(
    ("option", "player", "banker"),
    [
        # the wheel: second highest beats a 6-10 straight, lowest does not
        (["--wheel", "second_highest"], "Kd Qc | Ad 2c 3h 4s 5d", "Jd Tc | 6s 7h 8d 9c Ts"),
        # a joker in an ace flush: as another ace it beats the natural A-K flush, else copies it
        (["--joker-in-flush", "ace"], "2c 3d | JK Ah 9h 6h 3h", "4c 5d | As Ks 9s 6s 3s"),
    ],
)
def test_compare_options_reach_the_engine(option: list[str], player: str, banker: str) -> None:
    plain = run("compare", "--json", "--banker", banker, "--player", player)
    changed = run("compare", "--json", *option, "--banker", banker, "--player", player)
    assert json.loads(plain.stdout)["high"] in ("banker", "copy")
    assert json.loads(changed.stdout)["high"] == "player"


def test_classify_json() -> None:
    out = run("classify", "--json", "JK", "Kd", "Qd", "Jd", "Td", "9d", "8d")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["fortune"] == "wild_seven_card_straight_flush"
    assert answer["ace_high_pai_gow"] is None
    assert answer["best_five"]["class"] == "straight_flush"
    assert sorted(answer["best_five"]["cards"]) == sorted(["JK", "Kd", "Qd", "Jd", "Td"])
    assert answer["cards"] == ["JK", "Kd", "Qd", "Jd", "Td", "9d", "8d"]


def test_classify_ace_high_and_words() -> None:
    out = run("classify", "--json", "JK", "Kd", "9c", "7h", "5s", "3d", "2c")
    answer = json.loads(out.stdout)
    assert (answer["fortune"], answer["ace_high_pai_gow"]) == (None, "joker")
    assert answer["best_five"]["class"] == "high_card"
    words = run("classify", *HAND)
    assert words.returncode == 0
    assert "yes, natural ace" in words.stdout and "nothing" in words.stdout


def test_classify_wheel_option() -> None:
    cards = ["As", "2d", "3c", "4h", "5s", "6d", "Kc"]
    low = json.loads(run("classify", "--json", *cards).stdout)
    second = json.loads(run("classify", "--json", "--wheel", "second_highest", *cards).stdout)
    assert "As" not in low["best_five"]["cards"]
    assert "As" in second["best_five"]["cards"]


def test_compare_both_forms() -> None:
    args = ["--banker", "Kd 9c | As 7h 5s 3d 2c", "--player", "Ah Kh | 9s 9d 4c 3c 2h"]
    out = run("compare", "--json", *args)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "outcome": "win",
        "high": "player",
        "low": "player",
        "player_foul": False,
    }
    words = run("compare", *args)
    assert words.stdout.splitlines()[0] == "player win"


def test_compare_copy_and_foul() -> None:
    out = run(
        "compare",
        "--json",
        "--banker",
        "As Kd | 9c 9h 4d 3d 2d",
        "--player",
        "Ah Kh | 9s 9d 4c 3c 2h",
    )
    assert json.loads(out.stdout) == {
        "outcome": "loss",
        "high": "copy",
        "low": "copy",
        "player_foul": False,
    }
    foul = run(
        "compare",
        "--json",
        "--banker",
        "Kd 9c | As 7h 5s 3d 2c",
        "--player",
        "9s 9d | Ah Kh 4c 3c 2h",
    )
    assert json.loads(foul.stdout)["player_foul"] is True


def test_batch_house_way_with_a_bad_line() -> None:
    golden = read("catfish_bend")[:20]
    lines = [" ".join(str(c) for c in g.cards) for g in golden]
    lines.insert(3, "As As Kd 9c 7h 5s 3d")
    lines.insert(7, "Xx Kd 9c 7h 5s 3d 2c")
    out = run(
        "house-way",
        "--house-way",
        "catfish_bend",
        "--json",
        "--batch",
        "--wheel",
        "second_highest",
        stdin="\n".join(lines) + "\n",
    )
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert "duplicate card" in answers[3]["error"] and "line 4" in answers[3]["error"]
    assert "'Xx' is not a card" in answers[7]["error"]
    good = [a for a in answers if "error" not in a]
    assert [a["cards"] for a in good] == [[str(c) for c in g.cards] for g in golden]
    assert [a["rule"] for a in good][:5] == [g.rule for g in golden][:5]


def test_batch_compare_and_classify() -> None:
    pairs = (
        "Kd 9c | As 7h 5s 3d 2c ; Ah Kh | 9s 9d 4c 3c 2h\n"
        '{"banker": "Kd 9c | As 7h 5s 3d 2c", "player": "Kd Kh | 9s 9d 4c 3c 2h"}\n'
        "Kd 9c | As 7h 5s 3d 2c\n"
        "Ah 9c | Ks 7h 5s 3d 2c ; Qh Jh | 9s 9d 4c 3c 2h\n"
    )
    out = run("compare", "--json", "--batch", stdin=pairs)
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert answers[0]["outcome"] == "win"
    assert "share a card" in answers[1]["error"]
    assert "BANKER ; PLAYER" in answers[2]["error"]
    assert "foul" in answers[3]["error"]
    classify = run("classify", "--json", "--batch", stdin="As Kd 9c 7h 5s 3d 2c\n\nJK\n")
    answers = [json.loads(line) for line in classify.stdout.splitlines()]
    assert answers[0]["ace_high_pai_gow"] == "natural"
    assert "empty" in answers[1]["error"] and "expected 7 cards" in answers[2]["error"]


@pytest.mark.parametrize(
    "args",
    [
        ["house-way", "--house-way", "california", "As", "Kd"],
        ["house-way", "--house-way", "nowhere", *HAND],
        ["house-way", *HAND],
        ["classify", "As", "Kd", "9c", "7h", "5s", "3d", "Zz"],
        ["classify"],
        ["classify", "--wheel", "middle", *HAND],
        ["compare", "--banker", "Kd 9c | As 7h 5s 3d 2c"],
        ["compare", "--banker", "Kd 9c As 7h 5s 3d 2c", "--player", "Ah Kh | 9s 9d 4c 3c 2h"],
        ["classify", "--batch", *HAND],
        ["classify", "--batch"],
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str]) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stderr.strip()
    assert not out.stdout.strip()


@pytest.mark.parametrize("name", ["california", "oxford_downs", "catfish_bend"])
def test_batch_answers_every_golden_line_and_random_hands_as_the_library(name: str) -> None:
    """The command is the library: every golden line of the chart, and random hands, come
    back from one --batch run with the chart line and the setting the library gives."""
    import random

    from dealer_console.cards import DECK, format_cards, parse_cards
    from dealer_console.hands import HandRules
    from dealer_console.house_ways import set_house_way
    from dealer_console.setting import make_setting, setting_values

    rnd = random.Random(name)
    hands = [g.cards for g in read(name) if g.rules == HandRules()]
    hands += [tuple(rnd.sample(DECK, 7)) for _ in range(300)]
    out = run(
        "house-way",
        "--house-way",
        name,
        "--json",
        "--batch",
        stdin="".join(format_cards(h) + "\n" for h in hands),
    )
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(hands)
    for cards, answer in zip(hands, answers, strict=True):
        expected = set_house_way(name, cards)
        got = make_setting(parse_cards(answer["low"]), parse_cards(answer["high"]))
        assert answer["rule"] == expected.rule, format_cards(cards)
        assert setting_values(got) == setting_values(expected), format_cards(cards)
        assert sorted(got.cards) == sorted(cards)


def test_profile_supplies_the_table_rules_and_an_option_overrides_it() -> None:
    """Catfish Bend ranks the wheel second highest; auditing its hands by the profile cannot
    forget that, and an explicit option still wins."""
    player, banker = "Kd Qc | Ad 2c 3h 4s 5d", "Jd Tc | 6s 7h 8d 9c Ts"
    by_profile = run("compare", "--json", "--profile", "catfish-bend-fortune",
                     "--banker", banker, "--player", player)
    assert by_profile.returncode == 0, by_profile.stderr
    assert json.loads(by_profile.stdout)["high"] == "player"
    overridden = run("compare", "--json", "--profile", "catfish-bend-fortune",
                     "--wheel", "lowest", "--banker", banker, "--player", player)
    assert json.loads(overridden.stdout)["high"] in ("banker", "copy")
    for profile, chart in (("catfish-bend-fortune", "catfish_bend"),
                           ("oxford-downs-face-up", "oxford_downs")):
        hand = ["As", "Ks", "Qs", "Js", "Ts", "9d", "2c"]
        named = run("house-way", "--json", "--profile", profile, *hand)
        direct = run("house-way", "--json", "--house-way", chart, *hand)
        assert named.returncode == 0, named.stderr
        assert json.loads(named.stdout) == json.loads(direct.stdout)
    unknown = run("classify", "--profile", "nowhere", *HAND)
    assert unknown.returncode == 2 and "unknown profile 'nowhere'" in unknown.stderr
