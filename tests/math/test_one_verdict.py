"""One paytable verdict (``dealer_console/math/verdict.py``): the power-on self-test, ``profile
check``, ``dealer-console math``, the supervisor's profile screen (``profile_figures``) and the
technician's banner (``paytable_returns``) give the same verdict on the same bad paytable. A
Fortune table over 100% was passed by ``profile check`` while the self-test refused it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dealer_console.cli import main
from dealer_console.cli.math_cmd import _figures_json
from dealer_console.math.profile_figures import profile_figures
from dealer_console.math.returns import fortune_figures, fortune_return, percent
from dealer_console.math.table_returns import paytable_returns
from dealer_console.math.verdict import Verdict, bonus_verdicts, refusal
from dealer_console.paytables import Paytable
from dealer_console.profiles import loader
from dealer_console.profiles.loader import PROFILE_DIR, get_profile
from dealer_console.profiles.model import Profile
from dealer_console.selftest.configuration import check_paytables
from dealer_console.selftest.report import Report


def _generous_fortune() -> tuple[Profile, Paytable]:
    """The Washington profile with its Fortune table paying far too much (none shipped does)."""
    profile = get_profile("washington-face-up")
    table = profile.fortune
    assert table is not None
    lines = tuple(dataclasses.replace(x, odds=(x.odds or 0) * 40) for x in table.lines)
    rich = Paytable(table.name, table.kind, table.title, table.source, lines, table.links)
    return dataclasses.replace(profile, fortune=rich), rich


def test_the_verdict_refuses_over_100_percent_and_passes_the_rest() -> None:
    profile, rich = _generous_fortune()
    verdicts = {v.key: v for v in bonus_verdicts(profile)}
    assert set(verdicts) == {"fortune", "ace_high"}
    fortune = verdicts["fortune"]
    assert fortune.ret == fortune_return(rich) and fortune.ret > 1
    assert fortune.refused == (f"{rich.name} returns {percent(fortune.ret)} to the player "
                               "(over 100%): the operator must not offer it")
    assert verdicts["ace_high"].refused is None
    assert refusal("x", fortune.ret - fortune.ret + 1) is None  # exactly 100% is allowed
    assert Verdict("fortune", "x", fortune.ret).refused is not None


def test_every_caller_gives_the_same_verdict_on_a_fortune_table_over_100(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    profile, rich = _generous_fortune()
    [verdict] = [v for v in bonus_verdicts(profile) if v.key == "fortune"]
    said = verdict.refused
    assert said is not None
    # the power-on self-test
    report = Report()
    check_paytables(report, profile)
    [item] = report.checks
    assert not item.ok and said in item.detail
    # profile check, on a file naming the table
    real = loader.get_paytable
    monkeypatch.setattr(loader, "get_paytable",
                        lambda name: rich if name == rich.name else real(name))
    path = tmp_path / "generous.toml"
    path.write_text((PROFILE_DIR / "washington-face-up.toml").read_text())
    assert main(["profile", "check", str(path)]) == 1
    assert f"fortune.paytable: {said}" in capsys.readouterr().err
    # dealer-console math, and the supervisor's profile screen (profile_figures)
    assert _figures_json(fortune_figures(rich))["refused"] == said
    figures = {f.area: f for f in profile_figures(profile)}
    assert figures["Fortune bonus"].refused == said
    assert figures["Ace-High bonus"].refused is None
    # the technician's banner
    returns = dict(paytable_returns(profile))
    assert returns[rich.name].endswith("REFUSED, over 100%")
    assert "REFUSED" not in returns[profile.ace_high.name]  # type: ignore[union-attr]
