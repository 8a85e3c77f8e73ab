"""The built package passes lintian, Debian's package checker, with nothing but the reasoned
overrides the package carries (``installers/linux/lintian-overrides``, each with its why).
About a minute: lintian reads every one of the release's files.

Five checks are not run (``SKIPPED``): all they could find is in the locked wheels' own files,
which the package keeps byte for byte (the overrides file says why), so each finding would be
overridden, and they took a third of lintian's time (19 s of 54 here)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.installers.conftest import REPO

SKIPPED = {
    "binaries/spelling": "words misspelt inside compiled modules: the package has none of its "
                         "own, only the wheels'",
    "libraries/embedded": "its one tag, embedded-library, is overridden for the whole package",
    "languages/javascript/embedded": "copies of known JavaScript libraries: the console ships "
                                     "no JavaScript of its own",
    "languages/php/embedded": "copies of known PHP libraries: the console has no PHP",
    "languages/php/pear/embedded": "the same, for PEAR",
}


def test_the_package_passes_lintian_with_only_reasoned_overrides(deb: Path) -> None:
    assert shutil.which("lintian"), "lintian is missing: installers/setup-dev.sh installs it"
    done = subprocess.run(["lintian", "--tag-display-limit", "0", "--dont-check-part",
                           ",".join(SKIPPED), str(deb)], capture_output=True, text=True,
                          timeout=900)
    tags = [line for line in (done.stdout + done.stderr).splitlines()
            if line[:2] in ("E:", "W:", "I:")]
    assert tags == [], "\n".join(tags)
    assert done.returncode == 0, done.stderr  # a check name lintian does not know, too
    overrides = (REPO / "installers/linux/lintian-overrides").read_text().splitlines()
    for n, line in enumerate(overrides):
        if line.startswith("dealer-console:"):  # each override follows its reason
            above = [x for x in overrides[:n] if x.strip()]
            assert above and (above[-1].startswith("#") or above[-1].startswith(
                "dealer-console:")), line
