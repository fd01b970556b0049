# Sourced by the kernel test scripts: check NAME EXPECTED ACTUAL prints a TAP-like line and counts a
# failure in $failures when ACTUAL is not EXPECTED.
failures=0
check() {
  if [ "$2" = "$3" ]; then
    echo "ok - $1: $3"
  else
    echo "not ok - $1: expected $2, got $3"
    failures=$((failures + 1))
  fi
}
