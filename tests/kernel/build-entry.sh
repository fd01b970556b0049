#!/usr/bin/env bash
# Builds arch/arm64/kernel/entry.o of Debian's linux-source-6.1 for arm64 defconfig with KPTI and the
# ThunderX2 erratum 219 workaround on, plus a copy of entry.S without the ISB after the trampoline's
# TTBR1_EL1 write; every step is cached in the work directory so a rerun costs seconds. It also installs
# jq, which the kernel tests read the reports with.
#   build-entry.sh WORKDIR    leaves WORKDIR/out/{entry.o,entry-noisb.o,cpucaps.h,config}
set -euo pipefail

. "$(dirname "$0")/kernel-tree.sh"
kernel_tree "${1:?usage: build-entry.sh WORKDIR}" build-entry jq

# entry.S as shipped, then a copy whose trampoline lost the ISB right after tramp_map_kernel.
entry=$src/arch/arm64/kernel/entry.S
restore() { cp -p "$work/entry.S.orig" "$entry"; }
trap restore EXIT
build_entry() {  # build_entry SOURCE OUTPUT
  [ -f "$2" ] && cmp -s "$1" "$2.src" && return 0
  cp "$1" "$entry"
  touch "$entry"
  "${kmake[@]}" arch/arm64/kernel/entry.o
  cp "$src/arch/arm64/kernel/entry.o" "$2"
  cp "$1" "$2.src"
}
mkdir -p "$out"
sed '/^\ttramp_map_kernel\tx30$/{n;/^alternative_insn isb, nop, ARM64_WORKAROUND_QCOM_FALKOR_E1003$/d}' \
  "$work/entry.S.orig" > "$work/entry-noisb.S"
removed=$(diff "$work/entry.S.orig" "$work/entry-noisb.S" | grep -c '^<' || true)
[ "$removed" = 1 ] || { log "the ISB mutation removed $removed lines, expected 1"; exit 1; }
build_entry "$work/entry.S.orig" "$out/entry.o"
build_entry "$work/entry-noisb.S" "$out/entry-noisb.o"
cp "$src/arch/arm64/include/generated/asm/cpucaps.h" "$out/cpucaps.h"
cp "$src/.config" "$out/config"
sed 's/^CONFIG_CAVIUM_TX2_ERRATUM_219=y$/# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set/' "$out/config" \
  > "$out/config-no219"
grep -q '^# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set$' "$out/config-no219"
