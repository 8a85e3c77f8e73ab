#!/usr/bin/env bash
# Builds dist/dealer-console_VERSION_ARCH.deb with dpkg-deb, so a table PC is installed with
#   sudo apt install ./dealer-console_VERSION_ARCH.deb
# The package carries the payload build.sh makes (in /usr/share/dealer-console) and its
# postinst runs that payload's install.sh: one install procedure, whichever way it comes.
#   installers/linux/build-deb.sh [--out DIR] [--with-dependencies]
# --with-dependencies puts every Python dependency's wheel in the package (an offline install;
# the package is then for this machine's architecture); without it the postinst fetches them
# from the package index, and the package is "all".
# Why dpkg-deb: it is part of dpkg on every Debian machine and builds exactly the tree it is
# given; fpm (a Ruby gem) and nfpm (a Go program) are not reachable from our registries, and
# dh-virtualenv needs a whole debian/ packaging tree to build the same thing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/dist"
build_args=()
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --with-dependencies) build_args+=(--with-dependencies); shift ;;
    *) echo "build-deb.sh: unknown option $1 (see the comment at the top)" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
payload="$(bash "$here/build.sh" --out "$work/payload" "${build_args[@]}" | tail -1)"
version="$(cat "$payload/VERSION")"
arch=all
if ls "$payload/wheels" | grep -qv -e '-none-any\.whl$'; then arch="$(dpkg --print-architecture)"; fi
stage="$work/stage"
mkdir -p "$stage/DEBIAN" "$stage/usr/share/doc/dealer-console"
cp -r "$payload" "$stage/usr/share/dealer-console"
install -m 0644 "$repo/docs/install.md" "$stage/usr/share/doc/dealer-console/install.md"
size="$(du -sk "$stage/usr" | cut -f1)"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: dealer-console
Version: $version
Architecture: $arch
Maintainer: Dealer Console project <dealer-console@invalid>
Installed-Size: $size
Section: misc
Priority: optional
Depends: python3 (>= 3.11), python3-venv, sway, libegl1, libgl1, libxkbcommon0,
 libfontconfig1, libdbus-1-3, libglib2.0-0, libxcb-cursor0, libwayland-client0,
 libwayland-cursor0, libwayland-egl1, libusb-1.0-0, fonts-dejavu-core, logrotate,
 systemd-timesyncd | chrony | ntpsec
Description: Dealer Console for Face Up Pai Gow Poker tables
 The touchscreen console at a Face Up Pai Gow Poker or Fortune Pai Gow table: started full
 screen at every boot under a kiosk Wayland compositor, with its power-on self-test
 (dealer-console self-test) and the table's database kept across updates.
CONTROL
cat > "$stage/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
# Runs the payload's installer: venv, configuration kept, database backed up and upgraded.
set -e
if [ "$1" = configure ]; then
  /usr/share/dealer-console/install.sh
fi
POSTINST
cat > "$stage/DEBIAN/prerm" <<'PRERM'
#!/bin/sh
# On removal: the console stopped (an unfinished round resumes at the next start) and the
# program, unit and system settings removed while uninstall.sh is still here; the table's
# data and configuration always stay (/var/lib, /var/log and /etc/dealer-console).
set -e
if [ "$1" = remove ]; then
  /usr/share/dealer-console/uninstall.sh
fi
PRERM
chmod 0755 "$stage/DEBIAN/postinst" "$stage/DEBIAN/prerm"
mkdir -p "$out"
deb="$out/dealer-console_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
