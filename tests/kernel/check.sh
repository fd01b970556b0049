# Sourced by the kernel tests: check NAME EXPECTED ACTUAL prints "ok - NAME: ACTUAL", or "not ok" with
# both and counts it in $failures.
check() {
  if [ "$2" = "$3" ]; then
    echo "ok - $1: $3"
  else
    echo "not ok - $1: expected $2, got $3"
    failures=$((failures + 1))
  fi
}
