#!/usr/bin/env bash
# Every cmocka test program under valgrind memcheck: no errors, no definite leaks. The programs are
# independent (each reads the built snippets and objects, writes only its own log), so they run one
# per core at a time.
#   tests/run-valgrind.sh BUILD_DIR
set -euo pipefail
build=$1

# One program: its log beside it, a line saying how it went, its tail when it failed.
one() {
  local t=$1
  if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
       "$t" >"$t.valgrind.log" 2>&1; then
    echo "valgrind: $(basename "$t") clean"
  else
    { echo "valgrind: $(basename "$t") FAILED"; tail -40 "$t.valgrind.log"; } | tee "$t.valgrind.failed"
  fi
}
export -f one
# What a test leaves out under valgrind (tests/test_file.c: a mapped file replaced at its path).
export EH_UNDER_VALGRIND=1

rm -f "$build"/tests/test_*.valgrind.failed
find "$build/tests" -maxdepth 1 -name 'test_*' -type f -executable ! -name '*.*' -print0 | sort -z |
  xargs -0 -n 1 -P "$(nproc)" bash -c 'one "$1"' one
n=$(find "$build/tests" -maxdepth 1 -name 'test_*.valgrind.failed' | wc -l)
echo "valgrind: $n program(s) failed"
[ "$n" -eq 0 ]
