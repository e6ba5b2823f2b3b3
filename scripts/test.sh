#!/usr/bin/env bash
# `npm test`: installs what the tests run against when missing
# (ensure-test-deps.sh), checks and builds, then runs every test file.
# Biome, the tester page's type check and the main compile are independent,
# so they run at once on a machine's cores; the tester page and the CLI's
# bundle (what bin/robots.js runs) are built from them. Then the files of
# dist/test/ run six at a time, then those of dist/test/serial/ (gaps read
# at a server, which other processes' load would distort, even at a lower
# CPU priority) one at a time; each set starts longest first, as the last
# run timed them (scripts/run-tests.mjs).
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
node scripts/run-tests.mjs --concurrency "${ROBOTS_TEST_CONCURRENCY:-6}" dist/test/*.test.js
node scripts/run-tests.mjs --concurrency 1 dist/test/serial/*.test.js
