#!/usr/bin/env bash
# Builds the table PC's file tree, as it will lie on the disk, under
# dist/dealer-console-VERSION/root (build-deb.sh packs it into the .deb):
#   opt/dealer-console/releases/VERSION   the console's environment, built HERE at its final
#                                         path: every dependency from requirements.lock
#                                         (pip --require-hashes, wheels only), the console's
#                                         wheel, bytecode compiled now (checked-hash), the
#                                         launcher and the kiosk script, the reference copies
#                                         of the system files, and the manifest of all of it
#   opt/dealer-console/current            -> releases/VERSION
#   usr/lib/systemd/system/               the unit (the package's; /etc overrides are refused
#                                         by the self-test)
#   etc/...                               the configuration files (the package's conffiles)
#   usr/share/dealer-console/             install.sh (the postinst's steps)
#   usr/sbin/dealer-console-release       upgrade and roll back, each proven first
#   usr/bin/dealer-console                -> the current release's launcher
#   installers/linux/build.sh [--out DIR]
# Needs /usr/bin/python3.11 (the table PC's interpreter: the environment links to it) and a
# pip that can reach the package index or its cache.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/dist"
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    *) echo "build.sh: unknown option $1 (see the comment at the top)" >&2; exit 2 ;;
  esac
done
python="${PYTHON:-$repo/.venv/bin/python}"          # runs pip and the build's scripts
[ -x "$python" ] || python=python3
base=/usr/bin/python3.11                             # the release's interpreter
[ -x "$base" ] || { echo "build.sh: $base is needed (the table PC runs on it)" >&2; exit 1; }
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/pyproject.toml" | head -1)"
lock="$repo/requirements.lock"
build_id="${DEALER_CONSOLE_BUILD:-$(git -C "$repo" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}"
if [ -z "${DEALER_CONSOLE_BUILD:-}" ] && [ -n "$(git -C "$repo" status --porcelain 2>/dev/null)" ]; then
  build_id="$build_id-modified"
fi
top="$out/dealer-console-$version"
stage="$top/root"
final="/opt/dealer-console/releases/$version"
release="$stage$final"
rm -rf "$top"
mkdir -p "$top/wheels" "$stage/opt/dealer-console/releases"
export PYTHONDONTWRITEBYTECODE=1 SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 0)}"

# 1. the wheels: the console's own, and exactly the lock's (each checked against its hash)
"$python" -m pip wheel -q --no-deps -w "$top/wheels" "$repo"
rm -rf "$repo/build"
"$python" -m pip download -q --require-hashes --only-binary=:all: --no-deps \
  -d "$top/wheels" -r "$lock"

# 2. the environment at its final path (inside the stage), from those wheels only
"$base" -m venv --without-pip "$release"
pip_in=("$python" -m pip --python "$release/bin/python" install -q --no-index --no-compile
        --no-warn-script-location --find-links "$top/wheels")
"${pip_in[@]}" --require-hashes --no-deps -r "$lock"
"${pip_in[@]}" --no-deps "dealer-console==$version"
"$python" -m pip --python "$release/bin/python" check >/dev/null \
  || { echo "build.sh: the lock does not satisfy the console's requirements (run make_lock.py)" >&2; exit 1; }
site="$release/lib/python3.11/site-packages"
cp -r "$repo/config" "$site/config"
find "$site/config" -name README.md -delete
# the launcher (files/launcher.py, which says why each step): for gui and self-test it holds
# every file of the release to the manifest before any package of the release is on the path,
# with the two standard-library modules it runs first named by their digests here
digest() { sha256sum "$1" | cut -d' ' -f1; }
sed -e "s|@RELEASE@|$final|" \
    -e "s|@PROGRAM_FILES_SHA256@|$(digest "$site/dealer_console/selftest/program_files.py")|" \
    -e "s|@LOG_FILES_SHA256@|$(digest "$site/dealer_console/storage/log_files.py")|" \
    "$here/files/launcher.py" > "$release/bin/dealer-console"
chmod 0755 "$release/bin/dealer-console"
if grep -q '@[A-Z_]*@' "$release/bin/dealer-console"; then
  echo "build.sh: the launcher has a place not filled in" >&2; exit 1
fi
install -m 0755 "$here/files/dealer-console-kiosk" "$release/bin/dealer-console-kiosk"
mkdir -p "$release/system"
for f in dealer-console.service sway.conf 70-dealer-console.rules console.env; do
  install -m 0644 "$here/files/$f" "$release/system/$f"
done
# what a venv writes about the folder it was made in: the scripts' first lines and
# pyvenv.cfg now name the final path; the activate scripts (a shell's, not the table's) go
rm -f "$release"/bin/activate* "$release"/bin/Activate.ps1
grep -lIr --null "$release" "$release/bin" "$release/pyvenv.cfg" | xargs -0 -r sed -i "s|$release|$final|g"
# the scripts' new first lines, in their distributions' RECORD (hash and size), so the
# RECORDs name what is installed and the same build gives the same bytes
"$python" - "$site" <<'RECORDS'
import base64, csv, hashlib, io, os, sys
site = sys.argv[1]
for record in [os.path.join(site, d, "RECORD") for d in os.listdir(site) if d.endswith(".dist-info")]:
    rows = list(csv.reader(open(record, newline="")))
    for row in rows:
        path = os.path.normpath(os.path.join(site, row[0]))
        if row[0].startswith("../../../bin/") and os.path.isfile(path):
            data = open(path, "rb").read()
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            row[1:3] = ["sha256=" + digest.decode(), str(len(data))]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    open(record, "w").write(out.getvalue())
RECORDS
# bytecode now, checked against each source's hash, named by the final path, in the
# release's bytecode/ folder (the launcher's pycache_prefix) laid out by each source's final
# path: the environment's, and the standard library's (a table PC whose library differs
# compiles that module in memory: checked-hash); nothing is written at run time (-B)
compiled="$top/bytecode"
find "$release/lib" -name __pycache__ -type d -prune -exec rm -rf {} +  # a wheel's own
PYTHONPYCACHEPREFIX="$compiled" "$release/bin/python" -m compileall -q -j 2 \
  --invalidation-mode checked-hash -s "$stage" -p / "$release/lib" >/dev/null || true
mkdir -p "$release/bytecode"
mv "$compiled$stage/opt" "$release/bytecode/opt"
PYTHONPYCACHEPREFIX="$release/bytecode" "$release/bin/python" -m compileall -q -j 2 \
  --invalidation-mode checked-hash -x '/(test|tests|idlelib|lib2to3|tkinter|turtledemo)/' \
  /usr/lib/python3.11 >/dev/null || true
# modes as Debian's: data, modules and shared libraries 0644, programs 0755 (the wheels'
# own modes vary; the contents are untouched, byte for byte the locked wheels')
find "$release/lib" "$release/bytecode" "$release/system" -type f -exec chmod 0644 {} +
"$python" - "$release/lib" <<'MODES'
import os, sys
for folder, _dirs, files in os.walk(sys.argv[1]):
    for name in files:
        path = os.path.join(folder, name)
        if ".so" not in name and not os.path.islink(path):
            with open(path, "rb") as f:
                if f.read(4) == b"\x7fELF":
                    os.chmod(path, 0o755)
MODES
if find "$release/lib" -name __pycache__ | grep -q .; then
  echo "build.sh: a __pycache__ folder in the release (the launcher never reads one)" >&2; exit 1
fi
if grep -rlI --exclude='*.pyc' "$stage" "$release" | head -1 | grep -q .; then
  echo "build.sh: the build folder is still named in: $(grep -rlI "$stage" "$release" | head -3)" >&2
  exit 1
fi
ln -s "releases/$version" "$stage/opt/dealer-console/current"

# 3. the system files: the unit (the package's), the configuration (conffiles)
install -D -m 0644 "$here/files/dealer-console.service" "$stage/usr/lib/systemd/system/dealer-console.service"
install -D -m 0644 "$here/files/console.env" "$stage/etc/dealer-console/console.env"
install -D -m 0644 "$here/files/devices.toml" "$stage/etc/dealer-console/devices.toml"
install -D -m 0644 "$here/files/sway.conf" "$stage/etc/dealer-console/sway.conf"
install -D -m 0644 "$here/files/70-dealer-console.rules" "$stage/etc/udev/rules.d/70-dealer-console.rules"
install -D -m 0644 "$here/files/logrotate" "$stage/etc/logrotate.d/dealer-console"
install -D -m 0644 "$here/files/timesyncd.conf" "$stage/etc/systemd/timesyncd.conf.d/dealer-console.conf"
install -D -m 0644 "$here/files/journald.conf" "$stage/etc/systemd/journald.conf.d/dealer-console.conf"
install -D -m 0644 "$here/files/logind.conf" "$stage/etc/systemd/logind.conf.d/dealer-console.conf"
install -D -m 0755 "$here/install.sh" "$stage/usr/share/dealer-console/install.sh"
install -D -m 0755 "$here/dealer-console-release" "$stage/usr/sbin/dealer-console-release"
mkdir -p "$stage/usr/bin" && ln -s /opt/dealer-console/current/bin/dealer-console "$stage/usr/bin/dealer-console"
echo "$version" > "$stage/usr/share/dealer-console/VERSION"
mkdir -p "$stage/usr/share/man/man1" "$stage/usr/share/man/man8" "$stage/usr/share/doc/dealer-console"
"$python" "$here/make_docs.py" --version "$version" --man "$stage/usr/share/man/man1/dealer-console.1.gz" \
  --release-man "$stage/usr/share/man/man8/dealer-console-release.8.gz" \
  --changelog "$stage/usr/share/doc/dealer-console/changelog.gz"
install -m 0644 "$here/copyright" "$stage/usr/share/doc/dealer-console/copyright"
install -D -m 0644 "$here/lintian-overrides" "$stage/usr/share/lintian/overrides/dealer-console"

# 4. the manifest of everything above that runs or configures the console (its digest names
#    the release: version, build, lock)
"$python" "$here/make_manifest.py" --stage "$stage" --release "$final" --version "$version" \
  --build "$build_id" --lock "$lock" --out "$site/dealer-console.manifest" >&2
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
echo "$version" > "$top/VERSION"
echo "$top"
