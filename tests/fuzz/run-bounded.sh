#!/usr/bin/env bash
# Builds the fuzz targets with clang (libFuzzer, ASan, UBSan) and runs each a bounded amount.
#   tests/fuzz/run-bounded.sh SOURCE_DIR BUILD_DIR
# By default each target runs a fixed number of inputs from a fixed seed, so CI is repeatable
# and takes the same work on a busy host as on an idle one; EH_FUZZ_SECONDS=N runs each for N
# seconds from a random seed instead (for longer hunts). An input's own limit is a count: the
# snippet target stops each thread at its instruction budget and aborts when the engine calls
# exceed what the instructions allow (tests/fuzz/snippet.h). libFuzzer's -timeout is only a far
# backstop against a hang, never what a slow input meets first, even with every core busy.
# A finding fails the run; its input is left in BUILD_DIR/fuzz-findings/ to be added to
# tests/fuzz/regressions/<target>/ once fixed.
set -euo pipefail
src=$1 build=$2
fz=$build/fuzz
cmake -S "$src" -B "$fz" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Fuzz -DEH_FUZZ=ON >/dev/null
cmake --build "$fz" -j "$(nproc)" >/dev/null
mkdir -p "$build/fuzz-findings"
status=0
for target in fuzz_elf fuzz_kconfig fuzz_snippet; do
  corpus=$build/fuzz-corpus/$target
  mkdir -p "$corpus"
  case $target in
    fuzz_elf) cp "$fz"/cases/*.elf "$corpus"/
              cp "$build"/tests/objects/*.o "$corpus"/ 2>/dev/null || true ;;  # ET_REL seeds
    fuzz_kconfig) printf 'CONFIG_CAVIUM_TX2_ERRATUM_219=y\n# CONFIG_ARM64_SVE is not set\n' >"$corpus/seed" ;;
    fuzz_snippet) printf '\x1f\x20\x03\xd5\x01\x20\x18\xd5\x20\x00\x40\xf9\xdf\x3f\x03\xd5' >"$corpus/seed" ;;
  esac
  if [ -d "$src/tests/fuzz/regressions/$target" ]; then
    cp "$src/tests/fuzz/regressions/$target"/* "$corpus"/ 2>/dev/null || true
  fi
  case $target in
    fuzz_elf) runs=6000 ;;  # each input goes through the BTF and DWARF readers too: about 20 ms under ASan
    fuzz_kconfig) runs=200000 ;;
    fuzz_snippet) runs=1500 ;;
  esac
  if [ -n "${EH_FUZZ_SECONDS:-}" ]; then
    budget=(-max_total_time="$EH_FUZZ_SECONDS")
  else
    budget=(-runs="$runs" -seed=1)
  fi
  echo "fuzz: $target ${budget[*]}"
  if ! EH_CASES_DIR="$fz/cases" "$fz/tests/$target" "${budget[@]}" -timeout=60 \
       -rss_limit_mb=4096 -artifact_prefix="$build/fuzz-findings/$target-" "$corpus" \
       >"$build/fuzz-findings/$target.log" 2>&1; then
    echo "fuzz: $target found a problem; see $build/fuzz-findings/$target.log"
    tail -30 "$build/fuzz-findings/$target.log"
    status=1
  else
    tail -1 "$build/fuzz-findings/$target.log"
  fi
done
[ "$status" -eq 0 ] && echo "fuzz: no findings"
exit "$status"
