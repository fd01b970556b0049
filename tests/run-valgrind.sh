#!/usr/bin/env bash
# Every cmocka test program under valgrind memcheck: no errors, no definite leaks.
#   tests/run-valgrind.sh BUILD_DIR
set -euo pipefail
build=$1
status=0
for t in "$build"/tests/test_*; do
  [ -x "$t" ] || continue
  if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
       "$t" >"$t.valgrind.log" 2>&1; then
    echo "valgrind: $(basename "$t") clean"
  else
    echo "valgrind: $(basename "$t") FAILED"; tail -40 "$t.valgrind.log"; status=1
  fi
done
exit "$status"
