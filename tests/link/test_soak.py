"""The link soak, short form (``tests/link/soak.py``; the full one is
``benchmarks/link_soak.py``): four tables, SIGKILLs, an immediate server restart, every
table's connections cut once and one table's for a while, then nothing lost or doubled and
no table closing with wagers unsent."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.link.pg_server import PgServer
from tests.link.soak import run_soak


@pytest.mark.slow
def test_tables_survive_kills_a_restart_and_a_cut_with_nothing_lost_or_doubled(
        tmp_path: Path, pg_server: PgServer) -> None:
    result = run_soak(pg_server, tmp_path, tables=4, runs_each=2, rounds=8, kills=2)
    assert result.table_problems == [], "\n".join(result.table_problems)
    assert result.link_problems == []
    assert result.kills == 2 and result.restarted and result.cuts >= 1 and result.cut_all >= 1
    # every table delivered what it owed before its simulate exited
    assert sum(result.owed_at_exit.values()) == 0, result.owed_at_exit
    # every table's jackpot wagers are on the server, to the cent, and no more
    assert result.wagers_server == result.wagers_tables
    assert sum(result.wagers_tables.values()) > 0
    # every hit was paid by the server from the shared meter, and each table recorded exactly
    # the server's award and meters (none paid from a table's own meter)
    assert result.unlinked_hits == 0
    assert result.hits_tables == result.hits_server
    # a tray pay a table paid itself while its link was down is on the server too, as paid
    assert result.trays_tables == result.trays_server
    assert sum(len(h) for h in result.hits_server.values()) >= 2


def test_the_benchmark_s_own_figures_run_to_their_end(pg_server: PgServer) -> None:
    """``benchmarks/link_soak.py``'s contributions and swipe figures, briefly: its tables sent
    a wager time no console writes ("bench"), which the server's play bound (stop 51) refused,
    and the figure read 0 wagers a second with a traceback per table, while this file's soak
    passed. So the benchmark's own functions run here too."""
    spec = importlib.util.spec_from_file_location(
        "link_soak_benchmark", Path(__file__).parents[2] / "benchmarks" / "link_soak.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.contributions_per_second(pg_server, 2, 0.5) > 0
    assert len(bench.swipe_to_reseed(pg_server, n=2)) == 2
