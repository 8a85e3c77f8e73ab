#!/usr/bin/env bash
# Builds the installable payload of the console: dist/dealer-console-VERSION/ holding the
# wheel, the shipped profiles and paytables, the file manifest (written now, at build time:
# self-test holds the installed files to it), the system files and install.sh/uninstall.sh.
#   installers/linux/build.sh [--out DIR] [--with-dependencies]
# --with-dependencies also puts every dependency's wheel in wheels/ (pip download from the
# package index), so the table PC installs offline; without it install.sh fetches them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/dist"
deps=0
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --with-dependencies) deps=1; shift ;;
    *) echo "build.sh: unknown option $1 (see the comment at the top)" >&2; exit 2 ;;
  esac
done
python="${PYTHON:-$repo/.venv/bin/python}"
[ -x "$python" ] || python=python3
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/pyproject.toml" | head -1)"
payload="$out/dealer-console-$version"
rm -rf "$payload"
mkdir -p "$payload/wheels"
"$python" -m pip wheel -q --no-deps -w "$payload/wheels" "$repo"
rm -rf "$repo/build"
if ((deps)); then
  "$python" -m pip download -q -d "$payload/wheels" "$payload"/wheels/dealer_console-*.whl
fi
cp -r "$repo/config" "$payload/config"
find "$payload/config" -name README.md -delete
"$python" "$here/make_manifest.py" "$payload"/wheels/dealer_console-*.whl "$payload/config" \
  "$payload/dealer-console.manifest"
cp -r "$here/files" "$payload/files"
install -m 0755 "$here/install.sh" "$here/uninstall.sh" "$payload/"
echo "$version" > "$payload/VERSION"
echo "$payload"
