"""The built package passes lintian, Debian's package checker, with nothing but the reasoned
overrides the package carries (``installers/linux/lintian-overrides``, each with its why).
About two minutes: lintian reads every one of the release's files."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.installers.conftest import REPO


def test_the_package_passes_lintian_with_only_reasoned_overrides(deb: Path) -> None:
    assert shutil.which("lintian"), "lintian is missing: installers/setup-dev.sh installs it"
    done = subprocess.run(["lintian", "--no-tag-display-limit", str(deb)], capture_output=True,
                          text=True, timeout=900)
    tags = [line for line in (done.stdout + done.stderr).splitlines()
            if line[:2] in ("E:", "W:", "I:")]
    assert tags == [], "\n".join(tags)
    overrides = (REPO / "installers/linux/lintian-overrides").read_text().splitlines()
    for n, line in enumerate(overrides):
        if line.startswith("dealer-console:"):  # each override follows its reason
            above = [x for x in overrides[:n] if x.strip()]
            assert above and (above[-1].startswith("#") or above[-1].startswith(
                "dealer-console:")), line
