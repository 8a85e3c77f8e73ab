#!/usr/bin/env bash
# Builds dist/dealer-console_VERSION_amd64.deb with dpkg-deb from the tree build.sh makes, so
# a table PC is installed with   sudo apt install ./dealer-console_VERSION_amd64.deb
# Everything is in the package and dpkg owns (and `dpkg --verify` checks) every file: the
# release's environment built at its final path from requirements.lock, the unit in
# /usr/lib/systemd/system, the configuration in /etc as conffiles (a technician's edit is
# kept, or asked about when the package changes the file). Nothing is fetched on the table PC.
#   installers/linux/build-deb.sh [--out DIR] [--quick | --uncompressed]
# --quick packs with gzip -1 instead of xz (the tests: the same files, a faster build).
# --uncompressed packs without compression (the rollback tests' later releases, unpacked by
# every act on them: lintian refuses such a package, so no release is ever built so).
# Why dpkg-deb rather than a debian/ tree and dh-virtualenv: it builds exactly the tree it is
# given, and is part of dpkg on every Debian machine.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/dist"
compress=(-Zxz)
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --quick) compress=(-Zgzip -z1); shift ;;
    --uncompressed) compress=(-Znone); shift ;;
    *) echo "build-deb.sh: unknown option $1 (see the comment at the top)" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
top="$(bash "$here/build.sh" --out "$work" | tail -1)"
version="$(cat "$top/VERSION")"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 0)}"
arch=amd64   # the locked wheels are CPython 3.11 x86-64 builds
stage="$top/root"
doc="$stage/usr/share/doc/dealer-console"
install -D -m 0644 "$repo/docs/install.md" "$doc/install.md"
mkdir -p "$stage/DEBIAN"
# Installed-Size as dpkg-gencontrol counts it: each file's KiB rounded up, 1 per link
size="$(find "$stage" -path "$stage/DEBIAN" -prune -o \( -type f -printf '%s\n' \) -o \
  \( ! -type d -printf '1024\n' \) | awk '{k += int(($1 + 1023) / 1024)} END {print k}')"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: dealer-console
Version: $version
Architecture: $arch
Maintainer: Dealer Console project <dealer-console@invalid>
Installed-Size: $size
Section: misc
Priority: optional
Depends: python3.11, libc6 (>= 2.34), sway, libegl1, libgl1, libxkbcommon0, libfontconfig1, libdbus-1-3, libglib2.0-0, libxcb-cursor0, libwayland-client0, libwayland-cursor0, libwayland-egl1, libusb-1.0-0, fonts-dejavu-core, logrotate, systemd-timesyncd | chrony | ntpsec
Description: Dealer Console for Face Up Pai Gow Poker tables
 The touchscreen console at a Face Up Pai Gow Poker or Fortune Pai Gow
 table: started full screen at every boot under a kiosk Wayland
 compositor, with its power-on self-test (dealer-console self-test) and
 the table's database kept across updates. It carries its own Python
 environment (PySide6, under the LGPL) built from a locked, hash-checked
 set of wheels.
CONTROL
(cd "$stage" && find etc -type f | sort | sed 's|^|/|') > "$stage/DEBIAN/conffiles"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | sort \
  | xargs -d '\n' md5sum) > "$stage/DEBIAN/md5sums"
# the newest database schema this release reads (a table database's user_version)
schema="$("$stage/opt/dealer-console/releases/$version/bin/python" -BI -c \
  "import sys; sys.path.insert(0, sys.argv[1]); from dealer_console.table_db import schema_version; print(schema_version())" \
  "$stage/opt/dealer-console/releases/$version/lib/python3.11/site-packages")"
cat > "$stage/DEBIAN/preinst" <<PREINST
#!/bin/sh
# Before anything is unpacked: a table database this release may not open (its header's
# floor, the oldest console's schema that may, is above this release's: a later console
# applied a migration earlier ones cannot ignore) is refused here, so nothing changes and
# the running console is started again (postinst abort-upgrade). This release reads schema
# $schema. dealer-console-release refuses the same before it stops anything.
set -e
db="\$DPKG_ROOT/var/lib/dealer-console/table.db"
if [ "\$1" = install ] || [ "\$1" = upgrade ]; then
  if [ -f "\$db" ]; then
    have="\$(od -An -tu4 --endian=big -j60 -N4 "\$db" | tr -d ' ')"
    if [ -n "\$have" ] && [ "\$have" -gt $schema ]; then
      echo "dealer-console $version: the table database \$db was written by a later console" \\
           "(schema \$have; this release reads up to $schema): not installed, nothing changed." \\
           "Install the release that wrote it, or restore a backup this release can read" >&2
      exit 1
    fi
  fi
fi
PREINST
cat > "$stage/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
# The steps dpkg cannot do: the service user, the audit key, the database backed up then
# migrated, old backups pruned, the service enabled and started (install.sh). After a failed
# update (abort-upgrade) the release still installed is started again.
set -e
case "$1" in
  configure)
    "$DPKG_ROOT/usr/share/dealer-console/install.sh" --root "${DPKG_ROOT:-/}" ;;
  abort-upgrade|abort-remove|abort-deconfigure)
    if [ -z "$DPKG_ROOT" ] && [ -d /run/systemd/system ]; then
      deb-systemd-invoke start dealer-console.service || true
    fi ;;
esac
POSTINST
cat > "$stage/DEBIAN/prerm" <<'PRERM'
#!/bin/sh
# Before dpkg changes or removes the program: the console stopped (an unfinished round
# resumes at the next start), so no file it runs from changes under it.
set -e
if [ -z "$DPKG_ROOT" ] && [ -d /run/systemd/system ]; then
  case "$1" in
    remove) systemctl disable --now dealer-console.service || true ;;
    upgrade|deconfigure) systemctl stop dealer-console.service || true ;;
  esac
fi
PRERM
cat > "$stage/DEBIAN/postrm" <<'POSTRM'
#!/bin/sh
# Removal keeps the table's data (database, backups, logs) and its audit key, always: they
# are evidence, and a reinstall picks up where the table stopped. Purge also removes the
# configuration dpkg owns (its conffiles); the data and key stay and are named.
set -e
if [ -z "$DPKG_ROOT" ] && [ -d /run/systemd/system ]; then
  systemctl daemon-reload || true
fi
if [ "$1" = purge ]; then
  echo "dealer-console: kept ${DPKG_ROOT}/var/lib/dealer-console (database, backups)," \
       "${DPKG_ROOT}/var/log/dealer-console and ${DPKG_ROOT}/etc/dealer-console/audit.key"
fi
POSTRM
chmod 0755 "$stage/DEBIAN/preinst" "$stage/DEBIAN/postinst" "$stage/DEBIAN/prerm" "$stage/DEBIAN/postrm"
find "$stage" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$out"
deb="$out/dealer-console_${version}_${arch}.deb"
dpkg-deb --root-owner-group "${compress[@]}" --build "$stage" "$deb" >/dev/null
echo "$deb"
