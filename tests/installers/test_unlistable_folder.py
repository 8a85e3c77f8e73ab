"""The self-test's walk of the release names a folder it cannot list (``integrity.
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
        "from dealer_console.selftest.integrity import release_files; "
        "found, unread = release_files(Path(sys.argv[1]), Path(sys.argv[1]) / 'manifest'); "
        "print(sorted(found)); print(unread)")


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="lists the folder as another user: needs root and setpriv")
def test_a_folder_the_service_user_cannot_list_is_named() -> None:
    release = Path(tempfile.mkdtemp(prefix="release-"))
    try:
        release.chmod(0o755)
        (release / "kept.py").write_text("")
        hidden = release / "site-packages" / "sqlite_dump"
        hidden.mkdir(parents=True)
        (release / "site-packages").chmod(0o755)
        (hidden / "__init__.py").write_text("print('ran')\n")
        hidden.chmod(0o711)  # others may enter it and open a file by name, not list it
        done = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
             "-B", "-c", WALK, str(release)], capture_output=True, text=True, timeout=60,
            cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)))
        assert done.returncode == 0, done.stderr
        found, unread = done.stdout.splitlines()
        assert found == "['kept.py']"
        assert unread == "['site-packages/sqlite_dump']"
    finally:
        hidden.chmod(0o755)
        shutil.rmtree(release)
