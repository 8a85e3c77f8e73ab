"""The link under load, short form (``tests/link/load.py``; the full one with 30 tables is
``benchmarks/link_soak.py``): tables as separate processes contribute and ask for hits at once;
every ask is paid once, every wager counted, and ``link audit`` holds. No timing is asserted
here: the figures are the benchmark's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.link.load import run_load


@pytest.mark.slow
def test_tables_as_processes_contribute_and_hit_at_once(tmp_path: Path, link_dsn: str) -> None:
    result = run_load(link_dsn, tmp_path, tables=4, seconds=2.0, hit_every=3)
    assert result.refused == []
    assert result.link_problems == []
    assert result.contributions > 0 and len(result.asks_ms) > 0
    assert result.hits_on_server == len(result.asks_ms)
