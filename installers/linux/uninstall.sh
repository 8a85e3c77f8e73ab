#!/usr/bin/env bash
# Removes the Dealer Console's program, unit and system settings, and KEEPS the table's data:
# the database and its backups (/var/lib/dealer-console), the logs, the configuration and the
# audit key (/etc/dealer-console), and the service user, so a reinstall picks up where the
# table stopped.   sudo ./uninstall.sh [--root DIR]
set -euo pipefail
root=/
while (($#)); do
  case "$1" in
    --root) root="$2"; shift 2 ;;
    *) echo "uninstall.sh: unknown option $1 (usage: uninstall.sh [--root DIR])" >&2; exit 2 ;;
  esac
done
root="${root%/}/"
if [ "$root" = / ]; then
  [ "$(id -u)" -eq 0 ] || { echo "uninstall.sh: run as root (sudo)" >&2; exit 1; }
  systemctl disable --now dealer-console 2>/dev/null || true
fi
rm -rf "${root}opt/dealer-console"
rm -f "${root}etc/systemd/system/dealer-console.service" \
      "${root}etc/logrotate.d/dealer-console" \
      "${root}etc/systemd/journald.conf.d/dealer-console.conf"
if [ "$root" = / ]; then
  systemctl daemon-reload || true
fi
echo "uninstall: program removed; kept ${root}var/lib/dealer-console (database, backups)," \
     "${root}var/log/dealer-console, ${root}etc/dealer-console (configuration, audit key)," \
     "the udev rules and the time settings"
