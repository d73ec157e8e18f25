#!/usr/bin/env bash
# Checks the systemd units without a running systemd, for both pairs: the system units
# (systemd/wundercast.{service,socket}) and the user units (systemd/user/…): syntax
# (systemd-analyze verify) and the hardening score (systemd-analyze security --offline):
# the system service at most 1.5, the user service at most 3.0 (issue 8).
# ExecStart= names the installed binary, which a checkout does not have, so verify runs on a
# copy pointing at /bin/true (the installed units are verified by `make install` tests).
# `verify --user` and `security --user` need a runtime directory, not a user manager:
# a private XDG_RUNTIME_DIR is enough.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -m 0700 "$tmp/system" "$tmp/user" "$tmp/runtime"
for unit in systemd/wundercast.service systemd/wundercast.socket; do
  sed 's|^ExecStart=/usr/local/bin/wundercastd|ExecStart=/bin/true|' "$unit" > "$tmp/system/$(basename "$unit")"
done
for unit in systemd/user/wundercast.service systemd/user/wundercast.socket; do
  sed 's|^ExecStart=/usr/local/bin/wundercastd|ExecStart=/bin/true|' "$unit" > "$tmp/user/$(basename "$unit")"
done
systemd-analyze verify --man=no --recursive-errors=yes "$tmp/system/wundercast.service" "$tmp/system/wundercast.socket"
echo "system units: verify OK"
XDG_RUNTIME_DIR="$tmp/runtime" systemd-analyze verify --user --man=no --recursive-errors=yes \
  "$tmp/user/wundercast.service" "$tmp/user/wundercast.socket"
echo "user units: verify OK"
# A carefully hardened small daemon reaches 1.1 (PITFALLS). --threshold is in tenths.
systemd-analyze security --offline=true --threshold=15 systemd/wundercast.service | tail -1
XDG_RUNTIME_DIR="$tmp/runtime" systemd-analyze security --offline=true --user --threshold=30 \
  systemd/user/wundercast.service | tail -1
