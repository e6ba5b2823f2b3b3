#!/usr/bin/env bash
# `npm test`: installs what the tests run against when missing
# (ensure-test-deps.sh), checks and builds, then runs every test file.
# Biome, the tester page's type check and the main compile are independent,
# so they run at once on a machine's cores; the tester page and the CLI's
# bundle (what bin/robots.js runs) are built from them; then the files of dist/test/
# four at a time, then those of dist/test/serial/ (gaps measured at a
# server, which other processes' load would distort) one at a time.
# The files start longest first, as the last run recorded them
# (scripts/test-order.mjs, scripts/test-times.mjs).
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
mapfile -t files < <(node scripts/test-order.mjs dist/test/*.test.js)
node --test --test-concurrency=4 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=./scripts/test-times.mjs --test-reporter-destination=dist/test-times.json \
  "${files[@]}"
node --test --test-reporter=spec --test-concurrency=1 dist/test/serial/*.test.js
