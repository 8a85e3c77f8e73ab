#!/usr/bin/env bash
# The package's configure step (its postinst runs this), after dpkg has put every file in
# place: the release's environment in /opt/dealer-console/releases/VERSION ("current" points
# at it), the unit in /usr/lib/systemd/system, the configuration in /etc/dealer-console.
# docs/install.md walks a technician through it.
#
#   sudo /usr/share/dealer-console/install.sh [--profile NAME] [--root DIR] [--as-user NAME]
#
# It makes the service user, the audit key (once), backs up the table database, applies its
# migrations and anchors it (table-db anchor, once), prunes old backups (the newest $keep_backups are kept), and on a running
# system sets ownership, reloads udev and systemd and starts the console.
# --root DIR acts on the tree in DIR instead of / (dpkg --root, image builds, tests): the
# steps that act on the running system (service user, ownership, systemctl, udevadm) are then
# left out and said so.
# The database steps (backup, migrations) run as the service user, never as root: the
# database's folder is that user's, and SQLite opens files there by name, so a link the user
# left there would be written through as root (an outside review's finding). --as-user NAME
# names that user for a --root install (an image whose user exists, the tests); a live
# install always uses dealer-console.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root=/
profile=""
as_user=""
keep_backups=10
while (($#)); do
  case "$1" in
    --root) root="$2"; shift 2 ;;
    --profile) profile="$2"; shift 2 ;;
    --as-user) as_user="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
fail() { echo "install.sh: $*" >&2; exit 1; }
say() { echo "install: $*"; }
[ -f "$here/VERSION" ] || fail "run the install.sh the package installed"
version="$(cat "$here/VERSION")"
root="${root%/}/"
live=0; [ "$root" = / ] && live=1
if ((live)) && [ "$(id -u)" -ne 0 ]; then fail "run as root (sudo)"; fi
export PYTHONDONTWRITEBYTECODE=1

etc="${root}etc/dealer-console"
data="${root}var/lib/dealer-console"
logs="${root}var/log/dealer-console"
release="${root}opt/dealer-console/releases/$version"
user=dealer-console
[ -x "$release/bin/python" ] || fail "$release is not there: install the package"
# the launcher's own way (its first line names the final path, which is elsewhere under --root)
console() { "$release/bin/python" -BIS "$release/bin/dealer-console" "$@"; }
# the same, as the user who owns the database's folder (from /, a folder every user may enter)
as_owner() {
  if [ -n "$as_user" ]; then
    (cd / && runuser -u "$as_user" -- "$release/bin/python" -BIS "$release/bin/dealer-console" "$@")
  else
    console "$@"
  fi
}

# 1. the service user, in the groups that reach input and the GPU (its session's logind
#    hands them over too); the serial adapters and the keypad are its own by the udev rules,
#    so it is in neither dialout nor plugdev
if ((live)); then
  if ! id "$user" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/dealer-console --shell /usr/sbin/nologin "$user"
    say "service user $user made"
  fi
  for group in input video render; do
    getent group "$group" >/dev/null && usermod -aG "$group" "$user"
  done
  as_user="$user"
else
  say "--root: service user $user not made (make it on the table PC)"
fi
if [ -n "$as_user" ] && ! id "$as_user" >/dev/null 2>&1; then
  fail "--as-user $as_user: no such user"
fi

# 2. the profile (when given) and the audit key (made once, never replaced)
mkdir -p "$etc" "$data/backups" "$logs"
if [ -n "$as_user" ]; then
  # the data and the logs are the service user's, before the steps it runs there (chown -R
  # changes a link itself, never what it points at)
  chown -R "$as_user:" "$data" "$logs"  # and the user's own group
  chmod 0750 "$data" "$logs"
fi
if [ -n "$profile" ]; then
  sed -i "s|^DEALER_CONSOLE_PROFILE=.*|DEALER_CONSOLE_PROFILE=$profile|" "$etc/console.env"
fi
[ -e "$etc/audit.key" ] || console audit init-key --key "$etc/audit.key" >/dev/null
if [ -n "$as_user" ]; then
  chown "$as_user:" "$etc/audit.key" && chmod 0600 "$etc/audit.key"  # its reader only
fi
say "release $version in $release"

# 3. an existing table database: a verified backup, then its migrations (the package's
#    prerm stopped the console)
db="$data/table.db"
if [ -e "$db" ]; then
  copy="$data/backups/table-before-$version-$(date -u +%Y%m%dT%H%M%SZ).db"
  as_owner backup --db "$db" --to "$copy"
  as_owner upgrade-db --db "$db"
  # which database this table keeps, outside its folder (a database from before anchors)
  console table-db anchor --db "$db" --anchor "$etc/table-db.anchor" \
    || say "the table database is not anchored: the self-test will say why (docs/install.md)"
fi
# old backups pruned: the newest $keep_backups kept
ls -1t "$data/backups" | { grep -E '^table-before-.*\.db$' || true; } | tail -n +$((keep_backups + 1)) \
  | while read -r old; do rm -f "$data/backups/$old"; say "pruned old backup $old"; done

# 4. the running system: ownership, the devices, the time, the service
if ((live)); then
  udevadm control --reload && udevadm trigger --subsystem-match=tty --subsystem-match=usb || true
  systemctl daemon-reload
  systemctl enable --now systemd-timesyncd 2>/dev/null || say "no systemd-timesyncd: keep the clock synchronised with chrony or ntpsec"
  # time-sync.target (the unit starts after it) then waits for the clock to be set
  systemctl enable systemd-time-wait-sync.service 2>/dev/null || true
  # no login console: the kiosk owns tty7, no getty on tty1 (logind starts none on the rest)
  systemctl mask getty@tty1.service >/dev/null 2>&1 || true
  systemctl set-default graphical.target >/dev/null
  systemctl enable dealer-console
  systemctl restart systemd-journald || true
  systemctl restart dealer-console
  say "started; check it with: sudo -u $user dealer-console self-test --profile <profile> --db $db --devices $etc/devices.toml"
else
  say "--root: ownership, udev, time sync and the service not touched (the running system)"
fi
say "done: dealer-console $version"
