#!/bin/sh
# The Prometheus test (test/e2e/prometheus-scrape.test.ts) scrapes `arena serve` with Debian's real
# prometheus package, and checks the exposition with its promtool. Install it when it is missing;
# `apt-get update` only when the install fails (stale lists), so a machine with fresh lists stays
# fast. Fail loudly when it cannot be installed, so the test never skips silently.
set -eu
PROMETHEUS="${ARENA_PROMETHEUS:-/usr/bin/prometheus}"
PROMTOOL="${ARENA_PROMTOOL:-/usr/bin/promtool}"
if [ -x "$PROMETHEUS" ] && [ -x "$PROMTOOL" ]; then
  exit 0
fi
echo "ensure-prometheus: $PROMETHEUS or $PROMTOOL is missing; installing Debian's prometheus package" >&2
if [ "$(id -u)" = "0" ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ensure-prometheus: cannot install prometheus: not root and no password-less sudo. Run: sudo apt-get install -y prometheus" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-prometheus: no apt-get on this machine. Install Prometheus 2.x and set ARENA_PROMETHEUS and ARENA_PROMTOOL" >&2
  exit 1
fi
install() {
  # --no-install-recommends: the package recommends node-exporter and friends, which the test does not need
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null
}
if ! install; then
  $SUDO apt-get update -qq
  install
fi
# the package starts a system-wide prometheus on :9090 where systemd runs; the test starts its own
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet prometheus 2>/dev/null; then
  $SUDO systemctl disable --now prometheus >/dev/null 2>&1 || true
fi
if [ ! -x "$PROMETHEUS" ] || [ ! -x "$PROMTOOL" ]; then
  echo "ensure-prometheus: apt-get finished but $PROMETHEUS or $PROMTOOL is still missing" >&2
  exit 1
fi
echo "ensure-prometheus: installed $("$PROMETHEUS" --version 2>&1 | head -n 1)" >&2
