# Sourced by the kernel test scripts: check NAME EXPECTED ACTUAL prints a TAP-like line and counts a
# failure in $failures when ACTUAL is not EXPECTED; registry_counts HARNESS sets nmodels and nerrata,
# the models and the errata with a static rule that `audit --model all` covers (as `models` and
# `list --errata` list them); kernel_objects HERE WORKDIR [mutants] builds what the kernel tests audit;
# kvm_at_suppress VERSION sets the suppression every audit of that kernel version needs.
failures=0
check() {
  if [ "$2" = "$3" ]; then
    echo "ok - $1: $3"
  else
    echo "not ok - $1: expected $2, got $3"
    failures=$((failures + 1))
  fi
}
# kvm_at_suppress VERSION: at_sup_file and at_sup (its --suppress option) are tests/kernel/kvm-at-restore.suppress
# for a kernel whose KVM emulates AT (6.12: the restore of VTTBR_EL2 leaves a window speculative-at cannot
# close, for the reason the file gives), empty for 6.1, which has no such code.
kvm_at_suppress() {
  at_sup_file="" at_sup=()
  [ "$1" = 6.1 ] && return 0
  at_sup_file=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kvm-at-restore.suppress
  at_sup=(--suppress "$at_sup_file")
}
registry_counts() {
  nmodels=$("$1" models | grep -c '^[a-z0-9]')
  nerrata=$("$1" list --errata --width 0 | awk '/^[a-z0-9]/ { id = $1 } /^  rule / { print id }' | grep -c .)
}
# kernel_objects HERE WORKDIR [mutants]: build-arm64.sh's objects under WORKDIR (with mutants, build-mutants.sh's
# too) of linux-source-$kernel_version (6.1 when unset), then start (when it began), out (their folder), obj
# (arm64-built-in.o) and inputs (the capability numbering and .config they were built with).
kernel_objects() {
  start=$(date +%s)
  "$1/build-arm64.sh" "$2" "${kernel_version:-6.1}"
  [ -z "${3:-}" ] || "$1/build-mutants.sh" "$2" "${kernel_version:-6.1}"
  echo "# objects ready in $(( $(date +%s) - start )) s"
  out=$(cd "$2/out" && pwd)
  obj=$out/arm64-built-in.o
  inputs=(--cpucaps "$out/cpucaps.h" --config "$out/config")
}
