#!/usr/bin/env bash
# The unit and CLI tests again in an AddressSanitizer + UndefinedBehaviorSanitizer build.
#   tests/run-sanitized.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Asan >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
cd "$build"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -LE "sanitize|valgrind|fuzz|kernel|sweep"
