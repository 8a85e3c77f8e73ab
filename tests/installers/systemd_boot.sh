#!/bin/bash
# Boots systemd as the first process of new PID, mount, UTS, IPC and network namespaces, on a
# root of its own, to run the package's unit sandbox for real (test_systemd_sandbox.py).
#   unshare --pid --fork --mount --uts --ipc --net --kill-child bash systemd_boot.sh \
#     WORK INSTALLED_ROOT [DATA]
# WORK holds units/ (put in the new root's /etc/systemd/system) and results/ (seen inside as
# /results). The new root: this machine's /usr under an overlay (the package's unit laid in
# its /usr/lib/systemd/system, as dpkg puts it), a copy of its /etc with every unit that acts
# on the machine (sysctl, udev, modules, the clock, gettys, services) masked, the installed
# root's /opt/dealer-console and /etc/dealer-console, DATA's table database and anchor, and
# fresh /dev, /run, /tmp and /var.
# systemd starts sandbox-test.target, whose last unit powers the namespace off.
set -euo pipefail
work="$1"; installed="$2"
R="$work/R"
mkdir -p "$R"
mount -t tmpfs -o mode=755 tmpfs "$R"
mkdir -p "$R"/{usr,etc,proc,sys,dev,run,tmp,var/log,var/lib,var/tmp,root,home,opt,results,.usr-up,.usr-work}
mount -t overlay overlay -o "lowerdir=/usr,upperdir=$R/.usr-up,workdir=$R/.usr-work" "$R/usr"
for l in bin lib lib64 sbin; do ln -s "usr/$l" "$R/$l"; done
cp -a /etc/. "$R/etc/"
rm -rf "$R/etc/systemd/system/"*.wants "$R/etc/systemd/system/default.target"
for u in systemd-sysctl systemd-modules-load systemd-udevd systemd-udev-trigger systemd-udev-settle \
  systemd-hwdb-update systemd-random-seed systemd-binfmt systemd-timesyncd systemd-time-wait-sync \
  keyboard-setup console-setup kmod-static-nodes systemd-remount-fs getty@tty1 postgresql \
  e2scrub_reap systemd-pstore systemd-firstboot systemd-repart systemd-machine-id-commit \
  systemd-pcrphase systemd-pcrphase-sysinit proc-sys-fs-binfmt_misc.automount \
  sys-kernel-config.mount sys-kernel-debug.mount sys-kernel-tracing.mount \
  sys-fs-fuse-connections.mount dev-hugepages.mount systemd-logind getty.target \
  serial-getty@ttyS0 systemd-networkd cron; do
  case "$u" in *.*) n="$u" ;; *) n="$u.service" ;; esac
  ln -sf /dev/null "$R/etc/systemd/system/$n"
done
cp "$work"/units/* "$R/etc/systemd/system/"
# the package's files, where dpkg puts them
cp -a "$installed/etc/dealer-console" "$R/etc/"
mkdir -p "$R/etc/udev/rules.d"
cp -a "$installed/etc/udev/rules.d/70-dealer-console.rules" "$R/etc/udev/rules.d/"
mount --bind "$installed/opt" "$R/opt"
cp -a "$installed/usr/lib/systemd/system/dealer-console.service" "$R/usr/lib/systemd/system/"
useradd --root "$R" --system --home-dir /var/lib/dealer-console --shell /usr/sbin/nologin dealer-console
mkdir -p "$R/var/lib/dealer-console" "$R/var/log/dealer-console"
chown dealer-console: "$R/var/lib/dealer-console" "$R/var/log/dealer-console" 2>/dev/null \
  || chown "$(grep ^dealer-console: "$R/etc/passwd" | cut -d: -f3,4)" "$R/var/lib/dealer-console" "$R/var/log/dealer-console"
chown "$(grep ^dealer-console: "$R/etc/passwd" | cut -d: -f3,4)" "$R/etc/dealer-console/audit.key"
mkdir -p "$R/var/tmp" && echo "a file in the machine's /var/tmp" > "$R/var/tmp/outside-marker"
# the table's database and its anchor, when the test made them (DATA)
if [ -n "${3:-}" ]; then
  cp -a "$3"/table.db* "$R/var/lib/dealer-console/"
  cp -a "$3/table-db.anchor" "$R/etc/dealer-console/table-db.anchor"
  chown -R "$(grep ^dealer-console: "$R/etc/passwd" | cut -d: -f3,4)" "$R/var/lib/dealer-console"
fi
mkdir -p "$R/home/someone" && echo private > "$R/home/someone/secret"
mount -t proc proc "$R/proc"
mount --rbind /sys "$R/sys"
mount -t tmpfs -o mode=755 tmpfs "$R/dev"
for n in null zero full random urandom tty; do touch "$R/dev/$n"; mount --bind "/dev/$n" "$R/dev/$n"; done
mkdir -p "$R/dev/pts" "$R/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$R/dev/pts"
ln -s pts/ptmx "$R/dev/ptmx"
touch "$R/dev/console" "$work/console.log"; mount --bind "$work/console.log" "$R/dev/console"
chmod 1777 "$work/results"  # the probes write there as the service user
mount --bind "$work/results" "$R/results"
mkdir -p "$work/journal" "$R/var/log/journal"  # kept, for journalctl -D after the run
mount --bind "$work/journal" "$R/var/log/journal"
echo sandbox-test > "$R/etc/hostname"
systemd-machine-id-setup --root="$R" >/dev/null 2>&1 || true
export container=unshare
exec chroot "$R" /lib/systemd/systemd --system --unit=sandbox-test.target --log-target=console --show-status=false
