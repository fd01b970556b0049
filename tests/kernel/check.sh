# Sourced by the kernel test scripts: check NAME EXPECTED ACTUAL prints a TAP-like line and counts a
# failure in $failures when ACTUAL is not EXPECTED; registry_counts HARNESS sets nmodels and nerrata,
# the models and the errata with a static rule that `audit --model all` covers (as `models` and
# `list --errata` list them).
failures=0
check() {
  if [ "$2" = "$3" ]; then
    echo "ok - $1: $3"
  else
    echo "not ok - $1: expected $2, got $3"
    failures=$((failures + 1))
  fi
}
registry_counts() {
  nmodels=$("$1" models | grep -c '^[a-z0-9]')
  nerrata=$("$1" list --errata --width 0 | awk '/^[a-z0-9]/ { id = $1 } /^  rule / { print id }' | grep -c .)
}
