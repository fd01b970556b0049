#!/usr/bin/env bash
# The unit and CLI tests again in an AddressSanitizer + UndefinedBehaviorSanitizer build made with
# clang, so that the suite builds the code with both compilers (the main build is the default cc, gcc),
# with warnings as errors when WERROR is ON. Its tests run one per core at a time, as the fast suite does.
# Left out: report_consumers (the reports read by junitparser, prove, jsonschema: it runs the whole
# matrix again and again, the code every scenario test runs here already) and install (cmake --install
# and the installed tool run from elsewhere: packaging, no code of its own), and throwaway-erratum (a
# copy of the tree built again with the default compiler, unsanitised: nothing of this build runs).
#   tests/run-sanitized.sh SOURCE_DIR BUILD_DIR [WERROR]
set -euo pipefail
src=$1 build=$2 werror=${3:-OFF}
cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Asan -DEH_WERROR="$werror" >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
cd "$build"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -j "$(nproc)" -LE "sanitize|valgrind|fuzz|kernel|sweep|qemu" -E "^(report_consumers|install|throwaway-erratum)$"
