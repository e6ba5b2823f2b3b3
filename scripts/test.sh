#!/usr/bin/env bash
# `npm test`: installs what the tests run against when missing
# (ensure-test-deps.sh), checks and builds, then runs every test file.
# Biome, the tester page's type check and the main compile are independent,
# so they run at once on a machine's cores; the tester page and the CLI's
# bundle (what bin/robots.js runs) are built from them. Then every test
# file runs, the longest first as the last run timed them
# (scripts/run-tests.mjs): those of dist/test/ six at a time at the lowest
# CPU priority, and meanwhile those of dist/test/serial/ one at a time at
# normal priority. The latter read gaps at a server, which other processes'
# load at the same priority would distort: the kernel hands them a core as
# soon as they wake. Their report is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-test-deps.sh
node scripts/clean-dist.mjs
# A check that fails ends the run; the others are stopped with it.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
biome check . &
biome_pid=$!
tsc -p tsconfig.web.json &
web_pid=$!
tsc -p tsconfig.json
wait "$biome_pid"
wait "$web_pid"
node scripts/build-web.mjs
node scripts/build-cli.mjs
nice -n 19 node scripts/run-tests.mjs --concurrency "${ROBOTS_TEST_CONCURRENCY:-6}" dist/test/*.test.js &
main_pid=$!
serial_status=0
node scripts/run-tests.mjs --concurrency 1 dist/test/serial/*.test.js > dist/serial-tests.log 2>&1 || serial_status=$?
main_status=0
wait "$main_pid" || main_status=$?
cat dist/serial-tests.log
exit $(( main_status || serial_status ))
