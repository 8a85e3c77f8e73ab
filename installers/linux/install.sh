#!/usr/bin/env bash
# Installs (or updates) the Dealer Console on a Debian/Ubuntu table PC from the payload
# build.sh makes (this script is inside it). docs/install.md walks a technician through it.
#
#   sudo ./install.sh [--profile NAME] [--root DIR] [--python PY] [--reuse-deps VENV]
#
# What goes where:
#   /opt/dealer-console/releases/VERSION   the console's own virtual environment; "current"
#                                          points at the one in use (the previous one is kept)
#   /etc/dealer-console/                   console.env (profile), devices.toml, sway.conf,
#                                          audit.key: written once, never overwritten
#   /var/lib/dealer-console/table.db       the table database (kept; backed up, then migrated)
#   /var/log/dealer-console/               the self-test log (logrotate)
#   the systemd unit, the udev rules, logrotate and time-sync settings
# --root DIR installs into DIR instead of / (tests, image builds): the steps that act on the
# running system (service user, ownership, systemctl, udevadm) are then left out and said so.
# --reuse-deps VENV makes the release's environment use VENV's installed dependencies instead
# of installing them (tests; an offline rebuild of the same versions).
set -euo pipefail
payload="$(cd "$(dirname "$0")" && pwd)"
root=/
profile=""
python=python3
reuse=""
while (($#)); do
  case "$1" in
    --root) root="$2"; shift 2 ;;
    --profile) profile="$2"; shift 2 ;;
    --python) python="$2"; shift 2 ;;
    --reuse-deps) reuse="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
fail() { echo "install.sh: $*" >&2; exit 1; }
say() { echo "install: $*"; }
[ -f "$payload/VERSION" ] || fail "run the install.sh inside a payload made by build.sh"
version="$(cat "$payload/VERSION")"
wheel="$(ls "$payload"/wheels/dealer_console-*.whl 2>/dev/null | head -1)"
[ -n "$wheel" ] || fail "$payload/wheels holds no dealer_console wheel"
root="${root%/}/"
live=0; [ "$root" = / ] && live=1
if ((live)) && [ "$(id -u)" -ne 0 ]; then fail "run as root (sudo)"; fi
export PYTHONDONTWRITEBYTECODE=1

opt="${root}opt/dealer-console"
etc="${root}etc/dealer-console"
data="${root}var/lib/dealer-console"
logs="${root}var/log/dealer-console"
release="$opt/releases/$version"
user=dealer-console

# 1. the service user, in the groups that reach serial ports, USB devices, input and the GPU
if ((live)); then
  if ! id "$user" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/dealer-console --shell /usr/sbin/nologin "$user"
    say "service user $user made"
  fi
  for group in dialout plugdev input video render; do
    getent group "$group" >/dev/null && usermod -aG "$group" "$user"
  done
else
  say "--root: service user $user not made (make it on the table PC)"
fi

# 2. the release's virtual environment (built beside the running one: the table keeps
#    playing until the switch below)
mkdir -p "$opt/releases"
rm -rf "$release.new"
if [ -n "$reuse" ]; then
  base="$("$reuse/bin/python" -c 'import sys; print(sys._base_executable)')"
  "$base" -m venv --without-pip "$release.new"
  site="$("$release.new/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  "$reuse/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' \
    > "$site/zz-reused-dependencies.pth"
  "$release.new/bin/python" -m pip install -q --no-deps --no-index "$wheel"
else
  "$python" -m venv "$release.new"
  site="$("$release.new/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  offline=(); [ "$(ls "$payload/wheels" | wc -l)" -gt 1 ] && offline=(--no-index)
  "$release.new/bin/python" -m pip install -q "${offline[@]}" --find-links "$payload/wheels" "$wheel"
fi
# the shipped profiles and paytables, where the console reads them, and the build's manifest
cp -r "$payload/config" "$site/config"
install -m 0644 "$payload/dealer-console.manifest" "$site/dealer-console.manifest"
install -m 0755 "$payload/files/dealer-console-kiosk" "$release.new/bin/dealer-console-kiosk"
rm -rf "$release"
mv "$release.new" "$release"
# the new release's own paths (a venv records where it was made)
# (text files only: bin/python is a link to the system's interpreter and stays one)
find "$release/bin" -maxdepth 1 -type f ! -type l -exec grep -lI "$release.new" {} + 2>/dev/null \
  | xargs -r sed -i "s|$release.new|$release|g" || true
console="$release/bin/dealer-console"
say "release $version in $release ($("$console" self-test --help >/dev/null && echo ok))"

# 3. configuration, written once: a technician's edits are never overwritten
mkdir -p "$etc" "$data" "$logs" "$data/backups"
keep() {  # keep SOURCE TARGET MODE
  if [ -e "$2" ]; then say "kept $2"; else install -D -m "$3" "$1" "$2"; say "wrote $2"; fi
}
keep "$payload/files/console.env" "$etc/console.env" 0644
keep "$payload/files/devices.toml" "$etc/devices.toml" 0644
keep "$payload/files/sway.conf" "$etc/sway.conf" 0644
if [ -n "$profile" ]; then
  sed -i "s|^DEALER_CONSOLE_PROFILE=.*|DEALER_CONSOLE_PROFILE=$profile|" "$etc/console.env"
fi
[ -e "$etc/audit.key" ] || "$console" audit init-key --key "$etc/audit.key" >/dev/null
install -D -m 0644 "$payload/files/dealer-console.service" "${root}etc/systemd/system/dealer-console.service"
keep "$payload/files/70-dealer-console.rules" "${root}etc/udev/rules.d/70-dealer-console.rules" 0644
install -D -m 0644 "$payload/files/logrotate" "${root}etc/logrotate.d/dealer-console"
mkdir -p "${root}etc/systemd/timesyncd.conf.d" "${root}etc/systemd/journald.conf.d"
keep "$payload/files/timesyncd.conf" "${root}etc/systemd/timesyncd.conf.d/dealer-console.conf" 0644
install -m 0644 "$payload/files/journald.conf" "${root}etc/systemd/journald.conf.d/dealer-console.conf"

# 4. an existing table database: the table closed, a verified backup, then its migrations
db="$data/table.db"
if ((live)) && systemctl is-active --quiet dealer-console; then
  say "stopping the console for the update (an unfinished round resumes at the next start)"
  systemctl stop dealer-console
fi
if [ -e "$db" ]; then
  copy="$data/backups/table-before-$version-$(date -u +%Y%m%dT%H%M%SZ).db"
  "$console" backup --db "$db" --to "$copy"
  "$console" upgrade-db --db "$db"
fi

# 5. switch to the new release (the previous one kept for a rollback, older ones removed)
ln -sfn "releases/$version" "$opt/current.new"
mv -T "$opt/current.new" "$opt/current"
ls -1t "$opt/releases" | { grep -vx "$version" || true; } | tail -n +2 | while read -r old; do
  rm -rf "${opt:?}/releases/$old"
done

# 6. the running system: ownership, the devices, the time, the service
if ((live)); then
  chown -R "$user:$user" "$data" "$logs"
  chmod 0750 "$data" "$logs"
  chown "$user:$user" "$etc/audit.key" && chmod 0600 "$etc/audit.key"  # its reader only
  udevadm control --reload && udevadm trigger --subsystem-match=tty --subsystem-match=usb || true
  systemctl daemon-reload
  systemctl enable --now systemd-timesyncd 2>/dev/null || say "no systemd-timesyncd: keep the clock synchronised with chrony or ntpsec"
  systemctl set-default graphical.target >/dev/null
  systemctl enable dealer-console
  systemctl restart systemd-journald || true
  systemctl start dealer-console
  say "started; check it with: sudo -u $user $console self-test --profile <profile> --db $db --devices $etc/devices.toml"
else
  say "--root: ownership, udev, time sync and the service not touched (the running system)"
fi
say "done: dealer-console $version"
