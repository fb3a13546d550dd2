#!/bin/sh
# The web console's browser tests drive Debian's chromium package through
# playwright-core (never a downloaded browser). Install it when it is missing;
# fail loudly when it cannot be installed, so the tests never skip silently.
set -eu
CHROMIUM="${ARENA_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium package (needed by test/e2e/web-console.test.ts)" >&2
if [ "$(id -u)" = "0" ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ensure-chromium: cannot install chromium: not root and no password-less sudo. Run: sudo apt-get install -y chromium" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: cannot install chromium: no apt-get on this machine. Install a Chromium and set ARENA_CHROMIUM=/path/to/chromium" >&2
  exit 1
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)" >&2
