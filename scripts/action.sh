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
#   INPUT_VERSION         the robots-exclusion version npx runs (default: this checkout's)
#   ROBOTS_CLI            the command that runs `robots` (default: npx of that version)
#
# Writes result=pass|fail|error (and the CLI's checks, passed, failed,
# changed) to $GITHUB_OUTPUT. Exit status: 0 pass, 1 fail, 2 usage or input error.
set -uo pipefail

robots_txt=${INPUT_ROBOTS:-robots.txt}
expectations=${INPUT_EXPECTATIONS:-}
base=${INPUT_BASE:-}
base_ref=${INPUT_BASE_REF:-}
urls=${INPUT_URLS:-}
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

if [ -n "${ROBOTS_CLI:-}" ]; then
  read -r -a cli <<<"$ROBOTS_CLI"
else
  version=${INPUT_VERSION:-}
  if [ -z "$version" ]; then
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    version=$(node -p 'require(process.argv[1]).version' "$here/../package.json") ||
      fail "cannot read the version from $here/../package.json: set the version input"
  fi
  cli=(npx --yes "--package=robots-exclusion@$version" robots)
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
  "${cli[@]}" test "$robots_txt" "$expectations" --format github
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
