#!/usr/bin/env bash
# Puts everything the console and its tests need on a Debian/Ubuntu machine: the system
# libraries Qt loads (offscreen and on a desktop), socat, sway, and a virtual environment in .venv
# with the project installed editable. Safe to run again: it only does what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  # Qt 6 (offscreen and xcb platforms)
  libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libglib2.0-0
  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-render-util0 libxcb-image0
  fonts-dejavu-core
  # pseudo-terminal plumbing for driver tests and technicians
  socat
  # the table PC's kiosk compositor: tests/installers checks the unit with systemd-analyze
  # (which wants the program it starts) and starts the console under a headless sway as a
  # service user (tests/installers/test_kiosk_start.py): Qt's Wayland libraries, and grim for
  # the picture of the kiosk's screen
  sway libwayland-client0 libwayland-cursor0 grim
  # not udev: Debian 12's udevadm (systemd 252) has no 'verify' (253 and newer), and installing
  # it here would upgrade the container's systemd; tests/installers skips that one check
  # the linked jackpot's server: tests start a PostgreSQL of their own (initdb + pg_ctl)
  postgresql
  # Debian's package checker: tests/installers/test_lintian.py holds the built .deb to it
  lintian
)
missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

python="${PYTHON:-}"
if [ -z "$python" ]; then
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      python="$candidate"; break
    fi
  done
fi
[ -n "$python" ] || { echo "setup: Python 3.11 or newer is needed" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv 2>/dev/null || {
    echo "setup: python venv missing; installing python3-venv" >&2
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
    "$python" -m venv .venv
  }
fi

# Reinstall only when the dependency list changed.
stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "setup: installing Python packages into .venv"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[test]'
  rm -f .venv/.installed-*
  touch "$stamp"
fi
