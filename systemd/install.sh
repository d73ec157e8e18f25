#!/usr/bin/env bash
# `make install` / `make uninstall` (Makefile): lays out an installation under
# $DESTDIR$PREFIX and /etc, and takes away exactly what it laid out.
#
#   install.sh install BINDIR CITIES [LOCALEDIR]
#                                        BINDIR: the release build's bin path; CITIES: cities.bin;
#                                        LOCALEDIR: the compiled catalogues (make locales)
#   install.sh install-data              what needs no build (make install-data)
#   install.sh uninstall
#
# Environment: PREFIX (default /usr/local), DESTDIR (default empty), SYSCONFDIR (default /etc).
# Places, all in systemd's search paths for PREFIX=/usr/local or /usr (systemd-analyze unit-paths;
# journalctl reads /usr/local/lib/systemd/catalog/ and /usr/lib/systemd/catalog/; systemd-sysusers
# reads /usr/local/lib/sysusers.d/ and /usr/lib/sysusers.d/):
#   $PREFIX/bin/wundercastd, wundercastctl           stripped
#   $PREFIX/lib/systemd/system/wundercast.{service,socket}
#   $PREFIX/lib/systemd/user/wundercast.{service,socket}
#   $PREFIX/lib/sysusers.d/wundercast.conf
#   $PREFIX/lib/systemd/catalog/wundercast.catalog
#   $PREFIX/share/wundercast/cities.bin
#   $PREFIX/share/locale/<lang>/LC_MESSAGES/wundercast.mo   wundercastctl's messages (found from
#                                                           the binary: <bin>/../share/locale)
#   $SYSCONFDIR/wundercast/wundercast.conf           the sample, only if none exists
#   install-data: $PREFIX/share/man/manN/*, the bash, zsh and fish completions,
#   $PREFIX/share/doc/wundercast/{README.md,PROTOCOL.md,examples/…} (every file of etc/)
# Files that name /usr/local (units' ExecStart=, Documentation=, the sample's Cities=) are
# written with $PREFIX in its place.
#
# Every file and every directory it creates is listed in the manifest
# $PREFIX/share/wundercast/install-manifest (install and install-data add to it). Uninstall removes the listed files, then the listed directories
# that are empty, then the manifest. The configuration file is removed only when it is still
# byte for byte the sample that install wrote (its SHA-256 is in the manifest): an edited
# configuration stays, and so does its directory.
set -euo pipefail
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
SYSCONFDIR=${SYSCONFDIR:-/etc}
root="$DESTDIR"
manifest_path="$PREFIX/share/wundercast/install-manifest"
manifest="$root$manifest_path"
cd "$(dirname "$0")/.."

# Lines of the manifest being written: "d PATH", "f PATH", "c PATH SHA256" (paths without DESTDIR).
entries=()

# Creates the directories of PATH (without DESTDIR) that are missing, recording each.
make_parents() {
  local dir missing=()
  dir=$(dirname "$1")
  # A DESTDIR that does not exist yet is made (not recorded: uninstall leaves it, empty).
  [ -z "$root" ] || [ -d "$root" ] || install -d -m 0755 "$root"
  while [ "$dir" != / ] && [ ! -d "$root$dir" ]; do
    missing=("$dir" "${missing[@]}")
    dir=$(dirname "$dir")
  done
  for dir in "${missing[@]}"; do
    install -d -m 0755 "$root$dir"
    entries+=("d $dir")
  done
}

# put MODE SOURCE TARGET [strip|prefix]: installs one file, recorded.
put() {
  local mode=$1 source=$2 target=$3 how=${4:-}
  make_parents "$target"
  case $how in
    strip) install -s -m "$mode" "$source" "$root$target" ;;
    prefix)
      sed "s|/usr/local/|$PREFIX/|g" "$source" > "$root$target.tmp"
      chmod "$mode" "$root$target.tmp"
      mv "$root$target.tmp" "$root$target"
      ;;
    *) install -m "$mode" "$source" "$root$target" ;;
  esac
  entries+=("f $target")
}

# What an earlier run recorded stays recorded (a second install creates no directories).
load_manifest() {
  if [ -f "$manifest" ]; then
    mapfile -t entries < "$manifest"
  fi
}

write_manifest() {
  make_parents "$manifest_path"
  printf '%s\n' "${entries[@]}" | awk '!seen[$0]++' > "$manifest"
  entries=()
}

install_data() {
  load_manifest
  put 0644 README.md "$PREFIX/share/doc/wundercast/README.md"
  put 0644 docs/PROTOCOL.md "$PREFIX/share/doc/wundercast/PROTOCOL.md"
  local page file
  for page in man/*.[1-8]; do
    put 0644 "$page" "$PREFIX/share/man/man${page##*.}/${page#man/}"
  done
  put 0644 completions/wundercastctl.bash "$PREFIX/share/bash-completion/completions/wundercastctl"
  put 0644 completions/_wundercastctl "$PREFIX/share/zsh/site-functions/_wundercastctl"
  put 0644 completions/wundercastctl.fish "$PREFIX/share/fish/vendor_completions.d/wundercastctl.fish"
  while read -r file; do
    put 0644 "etc/$file" "$PREFIX/share/doc/wundercast/examples/$file"
  done < <(cd etc && find . -type f | sed 's|^\./||' | sort)
  write_manifest
}

install_all() {
  local bin=$1 cities=$2 locales=${3:-} catalog
  load_manifest
  put 0755 "$bin/wundercastd" "$PREFIX/bin/wundercastd" strip
  put 0755 "$bin/wundercastctl" "$PREFIX/bin/wundercastctl" strip
  put 0644 systemd/wundercast.service "$PREFIX/lib/systemd/system/wundercast.service" prefix
  put 0644 systemd/wundercast.socket "$PREFIX/lib/systemd/system/wundercast.socket" prefix
  put 0644 systemd/user/wundercast.service "$PREFIX/lib/systemd/user/wundercast.service" prefix
  put 0644 systemd/user/wundercast.socket "$PREFIX/lib/systemd/user/wundercast.socket" prefix
  put 0644 systemd/wundercast.sysusers "$PREFIX/lib/sysusers.d/wundercast.conf" prefix
  put 0644 systemd/wundercast.catalog "$PREFIX/lib/systemd/catalog/wundercast.catalog" prefix
  put 0644 "$cities" "$PREFIX/share/wundercast/cities.bin"
  if [ -n "$locales" ]; then
    while read -r catalog; do
      put 0644 "$locales/$catalog" "$PREFIX/share/locale/$catalog"
    done < <(cd "$locales" && find . -name wundercast.mo | sed 's|^\./||' | sort)
  fi
  local conf="$SYSCONFDIR/wundercast/wundercast.conf"
  if [ ! -e "$root$conf" ]; then
    make_parents "$conf"
    if [ "$PREFIX" = /usr/local ]; then
      install -m 0644 etc/wundercast.conf "$root$conf"
    else
      # The daemon's built-in Cities= is /usr/local/…: name the installed table.
      sed "s|^#Cities=/usr/local/|Cities=$PREFIX/|" etc/wundercast.conf > "$root$conf"
      chmod 0644 "$root$conf"
    fi
    entries+=("c $conf $(sha256sum < "$root$conf" | cut -d' ' -f1)")
  else
    echo "kept $root$conf (a sample installed earlier, if unchanged, is still removed by uninstall)"
  fi
  write_manifest
}

uninstall_all() {
  if [ ! -f "$manifest" ]; then
    echo "nothing to uninstall: no $manifest" >&2
    return 0
  fi
  local kind path sum dirs=()
  while read -r kind path sum; do
    case $kind in
      f) rm -f "$root$path" ;;
      c)
        if [ -f "$root$path" ] && [ "$(sha256sum < "$root$path" | cut -d' ' -f1)" = "$sum" ]; then
          rm -f "$root$path"
        elif [ -e "$root$path" ]; then
          echo "kept $root$path: changed since install" >&2
        fi
        ;;
      d) dirs=("$path" "${dirs[@]}") ;;
    esac
  done < "$manifest"
  rm -f "$manifest"
  # Deepest first: the manifest lists parents before children.
  for path in $(printf '%s\n' "${dirs[@]}" | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2-); do
    rmdir "$root$path" 2> /dev/null || true
  done
}

case ${1:-} in
  install) install_all "$2" "$3" "${4:-}" ;;
  install-data) install_data ;;
  uninstall) uninstall_all ;;
  *)
    echo "usage: $0 install BINDIR CITIES [LOCALEDIR] | install-data | uninstall" >&2
    exit 2
    ;;
esac
