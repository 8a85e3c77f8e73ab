#!/bin/bash
# Run by a unit inside the booted systemd (test_systemd_sandbox.py): writes what the process
# can and cannot do to /results/NAME, then runs the installed console's self-test.
name="$1"
out="/results/$name"
{
  echo "user=$(id -un)"
  echo "capeff=$(awk '/^CapEff/ {print $2}' /proc/self/status)"
  echo "nonewprivs=$(awk '/^NoNewPrivs/ {print $2}' /proc/self/status)"
  echo "seccomp=$(awk '/^Seccomp:/ {print $2}' /proc/self/status)"
  if [ -e /var/tmp/outside-marker ]; then echo "tmp=shared"; else echo "tmp=private"; fi
  if ls /home/someone >/dev/null 2>&1; then echo "home=visible"; else echo "home=hidden"; fi
  if awk '$5 == "/proc/sys" && $6 ~ /^ro/ {found = 1} END {exit !found}' /proc/self/mountinfo
  then echo "proc_sys=ro"; else echo "proc_sys=rw"; fi
  /usr/bin/python3 -I - <<'PY'
import ctypes, socket
# @debug: ptrace(PTRACE_TRACEME) is allowed to any process, unless the filter refuses it
libc = ctypes.CDLL(None, use_errno=True)
done = libc.ptrace(0, 0, None, None)
print("debug_syscall=" + ("allowed" if done == 0 else "refused errno %d" % ctypes.get_errno()))
# RestrictAddressFamilies: a VM socket (AF_VSOCK) needs no privilege, unless refused
try:
    socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM).close()
    print("af_vsock=allowed")
except OSError as exc:
    print("af_vsock=refused errno %d" % exc.errno)
PY
  /opt/dealer-console/current/bin/dealer-console self-test --profile washington-face-up \
    --db /var/lib/dealer-console/table.db --key /etc/dealer-console/audit.key \
    --require-manifest > "$out.self-test" 2>&1
  echo "self_test=$?"
} > "$out" 2>&1
