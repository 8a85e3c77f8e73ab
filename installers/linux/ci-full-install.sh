#!/usr/bin/env bash
# CI's slow step (minutes, needs the package index): the .deb built, unpacked into a throwaway
# root and installed there with a fresh virtual environment and every dependency downloaded,
# exactly as on a table PC, then the installed console's self-test. The unit tests
# (tests/installers) do the same with --reuse-deps, in seconds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
deb="$(bash "$here/build-deb.sh" --out "$work/deb" | tail -1)"
dpkg-deb -c "$deb" | grep './usr/share/dealer-console/install.sh' >/dev/null
dpkg-deb -x "$deb" "$work/root"
start=$(date +%s)
"$work/root/usr/share/dealer-console/install.sh" --root "$work/root"
echo "ci-full-install: install with a fresh environment took $(( $(date +%s) - start )) s"
QT_QPA_PLATFORM=offscreen "$work/root/opt/dealer-console/current/bin/dealer-console" self-test \
  --profile washington-face-up --db "$work/root/var/lib/dealer-console/table.db" \
  --require-manifest
