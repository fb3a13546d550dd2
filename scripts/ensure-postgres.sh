#!/bin/sh
# The PostgreSQL store's tests run against a real PostgreSQL 15 (a throwaway
# cluster started by test/helpers/postgres-global-setup.ts, never Docker).
# Install Debian's postgresql package when its binaries are missing; fail
# loudly when it cannot be installed, so those tests never skip silently.
set -eu
BIN="${ARENA_PG_BIN:-/usr/lib/postgresql/15/bin}"
if [ -x "$BIN/initdb" ] && [ -x "$BIN/pg_ctl" ] && [ -x "$BIN/postgres" ]; then
  exit 0
fi
echo "ensure-postgres: $BIN/initdb is missing; installing Debian's postgresql package (needed by the PostgreSQL store tests)" >&2
if [ "$(id -u)" = "0" ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ensure-postgres: cannot install postgresql: not root and no password-less sudo. Run: sudo apt-get install -y postgresql" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-postgres: cannot install postgresql: no apt-get on this machine. Install PostgreSQL 15 and set ARENA_PG_BIN=/path/to/its/bin" >&2
  exit 1
fi
$SUDO apt-get update -qq
# the package's own cluster is not needed: the tests start their own in a temporary directory
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
if [ ! -x "$BIN/initdb" ]; then
  echo "ensure-postgres: apt-get finished but $BIN/initdb is still missing (another PostgreSQL major version? set ARENA_PG_BIN)" >&2
  exit 1
fi
echo "ensure-postgres: installed $("$BIN/postgres" --version 2>/dev/null || echo postgresql)" >&2
