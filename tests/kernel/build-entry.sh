#!/usr/bin/env bash
# Builds arch/arm64/kernel/entry.o of Debian's linux-source-6.1 (or VERSION, e.g. 6.12) for arm64 defconfig with KPTI and the
# ThunderX2 erratum 219 workaround on, and two mutated copies of entry.S, each a sibling source built on
# its own with the same flags (the tree's entry.S and entry.o stay as shipped): entry-noisb.o without the
# ISB after the trampoline's TTBR1_EL1 write, and entry-prfm-isb.o with the trampoline's PRFM taken out of
# its alternative and that ISB moved after it. Every step is cached in the work directory, so a rerun
# costs seconds. It also installs jq, which the kernel tests read the reports with.
#   build-entry.sh WORKDIR [VERSION]    leaves WORKDIR/out/{entry.o,entry-noisb.o,entry-prfm-isb.o,cpucaps.h,config,
#                                       config-no219}
set -euo pipefail

. "$(dirname "$0")/kernel-tree.sh"
kernel_version=${2:-6.1}
kernel_tree "${1:?usage: build-entry.sh WORKDIR [VERSION]}" build-entry jq

kdir=$src/arch/arm64/kernel
build_variant() {  # build_variant SOURCE NAME: SOURCE built as arch/arm64/kernel/NAME.o, kept as out/NAME.o
  [ -f "$out/$2.o" ] && cmp -s "$1" "$out/$2.o.src" && return 0
  cmp -s "$1" "$kdir/$2.S" || cp "$1" "$kdir/$2.S"
  "${kmake[@]}" "arch/arm64/kernel/$2.o"
  cp "$kdir/$2.o" "$out/$2.o"
  cp "$1" "$out/$2.o.src"
}
mutate() {  # mutate NAME SED-SCRIPT N: entry.S through sed into WORKDIR/NAME.S, N lines removed or added
  local changed
  sed "$2" "$work/entry.S.orig" > "$work/$1.S"
  changed=$(diff "$work/entry.S.orig" "$work/$1.S" | grep -c '^[<>]' || true)
  [ "$changed" = "$3" ] || { log "the $1 mutation changed $changed lines, expected $3"; exit 1; }
}
mkdir -p "$out"
# The trampoline (tramp_ventry) as shipped (the same lines in 6.1 and 6.12):
#	tramp_map_kernel	x30
# alternative_insn isb, nop, ARM64_WORKAROUND_QCOM_FALKOR_E1003
#	tramp_data_read_var	x30, vectors
# alternative_if_not ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM
#	prfm	plil1strm, [x30, #(1b - \vector_start)]
# alternative_else_nop_endif
mutate entry-noisb '/^\ttramp_map_kernel\tx30$/{n;/^alternative_insn isb, nop, ARM64_WORKAROUND_QCOM_FALKOR_E1003$/d}' 1
mutate entry-prfm-isb '/^\ttramp_map_kernel\tx30$/{n;/^alternative_insn isb, nop, ARM64_WORKAROUND_QCOM_FALKOR_E1003$/{h;d}}
/^alternative_if_not ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM$/{N;/\n\tprfm\tplil1strm, \[x30, #(1b - \\vector_start)\]$/{s/^[^\n]*\n//;n;/^alternative_else_nop_endif$/{x;}}}' 4
build_variant "$work/entry.S.orig" entry
build_variant "$work/entry-noisb.S" entry-noisb
build_variant "$work/entry-prfm-isb.S" entry-prfm-isb
# The generated numbering: asm/cpucaps.h in 6.1, asm/cpucap-defs.h from 6.3 on.
for h in cpucaps.h cpucap-defs.h; do
  [ ! -f "$src/arch/arm64/include/generated/asm/$h" ] || cp "$src/arch/arm64/include/generated/asm/$h" "$out/cpucaps.h"
done
[ -f "$out/cpucaps.h" ] || { log "make prepare generated no cpucaps header"; exit 1; }
cp "$src/.config" "$out/config"
sed 's/^CONFIG_CAVIUM_TX2_ERRATUM_219=y$/# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set/' "$out/config" \
  > "$out/config-no219"
grep -q '^# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set$' "$out/config-no219"
