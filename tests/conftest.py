"""The suite's own set-up for parallel workers (``pytest -n N --dist loadgroup``,
``scripts/run-tests``).

A fixture the suite shares wider than one test (the table PC the package is installed on, the
PostgreSQL server, a module's database) is built once per worker that needs it. So that it is
built once in all, every test using such a fixture is put in one ``xdist_group``: a session
fixture's tests in a group named after the fixture, a module fixture's tests in a group named
after their module. Without xdist the marks do nothing. A fixture the workers share through a
lock (``BUILT_ONCE_FOR_ALL``) groups nothing: its tests go to whichever worker is free.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import settings

# No deadline on a generated example: a deadline is a timing assertion, and with a worker on
# each core of a loaded machine an example that takes 200 ms says nothing about the code
# (speeds are the benchmarks' business). Each test's own max_examples and health checks stay.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


BUILT_ONCE_FOR_ALL = {"deb"}
"""Session fixtures the first worker builds and the others reuse (``tests/installers``: the
package, about 20 s to build)."""


def _group(item: pytest.Item) -> str | None:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    groups: list[str] = []
    for name in info.names_closure:
        for definition in info.name2fixturedefs.get(name, ()):
            # only the suite's own fixtures: a plugin's session fixture (qapp) is cheap
            if not str(definition.baseid).startswith("tests"):
                continue
            if definition.scope == "session" and name not in BUILT_ONCE_FOR_ALL:
                groups.append(f"session-{name}")
            elif definition.scope == "module":
                groups.append(f"module-{item.nodeid.split('::')[0]}")
    sessions = [g for g in groups if g.startswith("session-")]
    return min(sessions or groups) if groups else None


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    loadgroup = bool(getattr(config.option, "loadgroup", False))  # set on xdist's workers
    for item in items:
        marked = item.get_closest_marker("xdist_group")
        if marked is not None:  # a module's own group (the kiosk tests' one system user)
            group = str(marked.args[0] if marked.args else marked.kwargs.get("name", "default"))
        else:
            found = _group(item)
            if found is None:
                continue
            group = found
            item.add_marker(pytest.mark.xdist_group(group))
        if loadgroup:
            _name_the_group(item, group)


def _name_the_group(item: pytest.Item, group: str) -> None:
    """The group in the test's id, as ``--dist loadgroup`` schedules by it. pytest-xdist 3.8
    writes it to ``item._nodeid``, which pytest 9.2 no longer reads (the id is ``item._id``):
    without this every test went anywhere and two workers built the .deb in the same tree at
    once. Done here for pytest 9.2; an older pytest takes xdist's own."""
    if "@" in item.nodeid or not hasattr(item, "_id"):
        return
    from _pytest.nodeid import coerce_node_id

    item._id = coerce_node_id(f"{item.nodeid}@{group}")


def pytest_runtest_teardown(item: pytest.Item) -> None:
    """A worker whose Qt application took over Python's cycle collection (``ui/application.py``)
    collects what is due after every test too, so a test without an event loop cannot pile up
    cycles for the next."""
    application = sys.modules.get("ui.application")
    collector = application.collector() if application is not None else None
    if collector is not None:
        collector.collect_due()
