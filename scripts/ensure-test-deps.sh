#!/usr/bin/env bash
# Installs the system programs the test suite runs against, when missing, so
# that `npm test` passes on a fresh Debian machine with nothing but Node.js
# (the README's two commands; .ci/run calls `npm test`). Each program is
# checked first and installed only when absent: a machine that has it runs
# no apt at all. Tests that need a program fail loudly when it cannot be
# started; they never skip.
set -euo pipefail

missing=()

# redis-server: the fleet and Redis tests (test/fleet.test.ts,
# test/redis-*.test.ts) start their own on free loopback ports, and kill and
# restart them; test/redis-cluster.test.ts starts three in cluster mode.
# redis-cli (redis-tools, which redis-server depends on) joins the cluster
# (redis-cli --cluster create).
if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
  missing+=(redis-server redis-tools)
fi

# chromium: the web page's tests (test/web-*.test.ts) and `npm run bench -- web`
# drive Debian's build at /usr/bin/chromium with playwright-core; no browser
# is downloaded from anywhere else.
if [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium)
fi

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

echo "ensure-test-deps: installing ${missing[*]}" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-test-deps: ${missing[*]} missing and apt-get not found; install them by hand" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
# Other jobs on the machine may hold the dpkg lock: wait for it rather than fail.
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >&2
# The Debian package starts a system redis on port 6379 where an init system
# runs; the tests never use it (each starts its own on a free port).
