# Sourced by the CLI contract scripts: expect NAME STATUS PATTERN CMD... runs CMD and checks that it
# exits STATUS with output matching PATTERN (grep -E); needs $tmp (a scratch directory) and $failures.
# check NAME WANT GOT compares two strings.
expect() {
  local name=$1 status=$2 pattern=$3 rc=0
  shift 3
  "$@" > "$tmp/out" 2>&1 || rc=$?
  if [ "$rc" != "$status" ] || ! grep -qE -- "$pattern" "$tmp/out"; then
    echo "not ok - $name: exit $rc (expected $status), output:"
    sed 's/^/    /' "$tmp/out"
    failures=$((failures + 1))
  else
    echo "ok - $name"
  fi
}
# absent PATTERN CMD...: prints "absent" when CMD's output (stdout and stderr) has no line matching PATTERN.
absent() {
  local pattern=$1
  shift
  "$@" 2>&1 | grep -qE -- "$pattern" || echo absent
}

check() {  # check NAME WANT GOT
  if [ "$2" = "$3" ]; then echo "ok - $1"; else echo "not ok - $1: expected '$2', got '$3'"; failures=$((failures + 1)); fi
}
