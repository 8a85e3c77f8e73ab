"""The self-test's walk of the release names a folder it cannot list (``program_files.
release_files``): an outside review added a package in a folder of mode 0711, which Python
imports from (it finds a file by its name) but a walk as the service user passed by without a
word, so the program item passed with code added to the release."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.installers.conftest import REPO

WALK = ("import sys; from pathlib import Path; "
        "from dealer_console.selftest.program_files import release_files; "
        "found, unread = release_files(Path(sys.argv[1]), Path(sys.argv[1]) / 'manifest'); "
        "print(sorted(found)); print(unread)")


NO_DAC = "-dac_override,-dac_read_search"


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="lists the folder as another user would: needs root and setpriv")
def test_a_folder_the_service_user_cannot_list_is_named() -> None:
    """The walk runs as root without the right to pass permissions by (as the service user
    would be: root's own copy of the project and its interpreter stay readable), on a folder
    of another user's that it may enter but not list."""
    release = Path(tempfile.mkdtemp(prefix="release-"))
    try:
        (release / "kept.py").write_text("")
        hidden = release / "site-packages" / "sqlite_dump"
        hidden.mkdir(parents=True)
        (hidden / "__init__.py").write_text("print('ran')\n")
        os.chown(hidden, 65534, 65534)
        hidden.chmod(0o711)  # others may enter it and open a file by name, not list it
        done = subprocess.run(
            ["setpriv", f"--bounding-set={NO_DAC}", f"--inh-caps={NO_DAC}", sys.executable,
             "-B", "-c", WALK, str(release)], capture_output=True, text=True, timeout=60,
            cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)))
        assert done.returncode == 0, done.stderr
        found, unread = done.stdout.splitlines()
        assert found == "['kept.py']"
        assert unread == "['site-packages/sqlite_dump']"
    finally:
        hidden.chmod(0o755)
        shutil.rmtree(release)
