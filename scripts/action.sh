#!/usr/bin/env bash
# The deploy gate of action.yml, as a script that runs without GitHub too
# (test/deploy-gate.test.ts runs it with GITHUB_STEP_SUMMARY and
# GITHUB_OUTPUT pointing to temporary files). Inputs come as environment
# variables, never pasted into the script's text:
#
#   INPUT_ROBOTS          the robots.txt: a path or an http(s) URL (default robots.txt)
#   INPUT_EXPECTATIONS    the expectations file for `robots test` (optional)
#   INPUT_BASE            a robots.txt (path or URL) to diff against (optional)
#   INPUT_BASE_REF        a git revision whose INPUT_ROBOTS to diff against (optional)
#   INPUT_URLS            URLs for the diff, one a line (default: probe paths)
#   INPUT_FAIL_ON_CHANGE  "true": a changed verdict fails the step too
#   INPUT_VERSION         a published robots-exclusion version to run with npx instead
#                         (default: the CLI of this action's own checkout)
#   INPUT_ORIGIN          check absolute expectation URLs against this origin (staging)
#   ROBOTS_CLI            the command that runs `robots` (default: this checkout's CLI)
#
# The action's checkout, as GitHub fetches it for `uses:`, has the sources
# only: no dist/, no node_modules/. The script installs its dependencies
# and builds it once (`npm ci`, then scripts/build-cli.mjs: the CLI bundled
# without a type check, in a second or so), then runs bin/robots.js. ROBOTS_ACTION_NODE_MODULES (tests only) names an installed
# node_modules to link instead of running `npm ci`; the build still runs.
#
# Writes result=pass|fail|error (and the CLI's checks, passed, failed,
# changed) to $GITHUB_OUTPUT: fail when expectations fail (or, with
# fail-on-change, verdicts changed); error when the gate could not run at
# all (the CLI could not be installed, an input is wrong, a file is
# missing or malformed). Exit status: 0 pass, 1 fail, 2 error.
set -uo pipefail

robots_txt=${INPUT_ROBOTS:-robots.txt}
expectations=${INPUT_EXPECTATIONS:-}
base=${INPUT_BASE:-}
base_ref=${INPUT_BASE_REF:-}
urls=${INPUT_URLS:-}
origin=${INPUT_ORIGIN:-}
fail_on_change=${INPUT_FAIL_ON_CHANGE:-false}

output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"; fi
}

fail() {
  # A workflow command's data: %, CR and LF percent-encoded.
  local message=$1
  message=${message//'%'/'%25'}
  message=${message//$'\r'/'%0D'}
  message=${message//$'\n'/'%0A'}
  printf '::error title=robots.txt deploy gate::%s\n' "$message"
  output result error
  exit 2
}

# The action's own checkout: install and build it unless it is built already.
install_here() {
  local root=$1
  if [ -f "$root/dist/src/cli-bundle/main.js" ]; then return 0; fi
  echo "Installing the robots CLI from $root (npm ci, then its build)"
  if [ -n "${ROBOTS_ACTION_NODE_MODULES:-}" ]; then
    ln -sfn "$ROBOTS_ACTION_NODE_MODULES" "$root/node_modules" &&
      (cd "$root" && node scripts/build-cli.mjs)
  else
    (cd "$root" && npm ci --no-audit --no-fund && node scripts/build-cli.mjs)
  fi
}

version=${INPUT_VERSION:-}
if [ -n "${ROBOTS_CLI:-}" ]; then
  read -r -a cli <<<"$ROBOTS_CLI"
elif [ -n "$version" ]; then
  cli=(npx --yes "--package=robots-exclusion@$version" robots)
  "${cli[@]}" --version >/dev/null ||
    fail "could not install robots-exclusion@$version with npx: is that version published? Leave the version input empty to run the action's own copy"
else
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  install_here "$root" >&2 ||
    fail "could not install the robots CLI from the action's checkout ($root): see the log above"
  cli=(node "$root/bin/robots.js")
fi

if [ -z "$expectations" ] && [ -z "$base" ] && [ -z "$base_ref" ]; then
  fail "nothing to check: set the expectations input, or base or base-ref to diff against"
fi
if [ -n "$base" ] && [ -n "$base_ref" ]; then
  fail "base and base-ref both set: set one of them"
fi

status=0

if [ -n "$base" ] || [ -n "$base_ref" ]; then
  old=$base
  if [ -n "$base_ref" ]; then
    old=$(mktemp)
    trap 'rm -f "$old"' EXIT
    git show "$base_ref:./${robots_txt#./}" >"$old" ||
      fail "cannot read $robots_txt at $base_ref (fetch that revision first: actions/checkout with fetch-depth: 0)"
  fi
  diff_args=(diff "$old" "$robots_txt" --format github)
  if [ -n "$urls" ]; then diff_args+=(--urls "$urls"); fi
  "${cli[@]}" "${diff_args[@]}"
  code=$?
  case $code in
    0) ;;
    1) if [ "$fail_on_change" = "true" ]; then status=1; fi ;;
    *)
      output result error
      exit 2
      ;;
  esac
fi

if [ -n "$expectations" ]; then
  test_args=(test "$robots_txt" "$expectations" --format github)
  if [ -n "$origin" ]; then test_args+=(--origin "$origin"); fi
  "${cli[@]}" "${test_args[@]}"
  code=$?
  case $code in
    0) ;;
    1) status=1 ;;
    *)
      output result error
      exit 2
      ;;
  esac
fi

if [ "$status" -eq 0 ]; then output result pass; else output result fail; fi
exit "$status"
