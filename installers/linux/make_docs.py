"""Write the package's manual pages and changelog (gzip, no time stamp inside, so the same
build gives the same bytes): ``dealer-console(1)`` and ``dealer-console-release(8)`` point
at the commands' own ``--help`` and the technician's guide; the changelog names the version
and what a release is.

Usage: python make_docs.py --version V --man OUT.1.gz --release-man OUT.8.gz --changelog OUT.gz
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
from datetime import UTC, datetime

MAN = """\
.TH DEALER-CONSOLE 1 "{date}" "dealer-console {version}" "Dealer Console"
.SH NAME
dealer-console \\- the Face Up Pai Gow Poker table's console and its tools
.SH SYNOPSIS
.B dealer-console
.I COMMAND
.RI [ OPTIONS ]
.SH DESCRIPTION
The touchscreen console of a Face Up Pai Gow Poker or Fortune Pai Gow table, started full
screen by the dealer-console unit, and the commands a technician, a supervisor or an
auditor runs: self-test, table-db, backup, upgrade-db, audit, report, recall, employees and
others. Each command prints its own help with
.BR "dealer-console COMMAND --help" .
.SH FILES
.TP
.I /etc/dealer-console/console.env
the table's profile and settings
.TP
.I /etc/dealer-console/table-db.anchor
which database the table keeps
.TP
.I /var/lib/dealer-console/table.db
the table database
.SH SEE ALSO
/usr/share/doc/dealer-console/install.md
"""

RELEASE_MAN = """\
.TH DEALER-CONSOLE-RELEASE 8 "{date}" "dealer-console {version}" "Dealer Console"
.SH NAME
dealer-console-release \\- move a table PC to a later or an earlier console release
.SH SYNOPSIS
.B dealer-console-release
.RB {{ check | upgrade | rollback }}
.I PACKAGE.deb
.br
.B dealer-console-release log
.SH DESCRIPTION
Unpacks the package beside the running console, lets its release migrate and self-test a
verified copy of the table database and audit it, and only then installs it. A rollback
to a release that may not write the database (a later migration it cannot ignore) is
refused with the reason before anything is stopped. Every act is logged in
.IR /var/log/dealer-console-release/release.log .
Exit status 0 when done, 1 when refused or failed, 2 on bad usage.
.SH SEE ALSO
.BR dealer-console (1),
/usr/share/doc/dealer-console/install.md
"""

CHANGELOG = """\
dealer-console ({version}) stable; urgency=medium

  * Release {version}: the console's environment built from requirements.lock,
    with the manifest of every file the self-test checks.

 -- Dealer Console project <dealer-console@invalid>  {stamp}
"""


def write_gz(path: str, text: str) -> None:
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                 compresslevel=9, filename="") as out:
        out.write(text.encode("utf-8"))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="make_docs.py")
    for option in ("--version", "--man", "--release-man", "--changelog"):
        parser.add_argument(option, required=True)
    args = parser.parse_args(argv)
    when = datetime.fromtimestamp(int(os.environ.get("SOURCE_DATE_EPOCH", "0")), UTC)
    write_gz(args.man, MAN.format(version=args.version, date=when.strftime("%Y-%m-%d")))
    write_gz(args.release_man, RELEASE_MAN.format(version=args.version,
                                                  date=when.strftime("%Y-%m-%d")))
    write_gz(args.changelog, CHANGELOG.format(
        version=args.version, stamp=when.strftime("%a, %d %b %Y %H:%M:%S +0000")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
