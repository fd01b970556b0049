#!/usr/bin/env bash
# Builds arch/arm64/{kernel,mm,kvm}/ of Debian's linux-source-6.1 (arm64 defconfig with KPTI and the
# ThunderX2 erratum 219 workaround) for the audit benchmark, and links what these directories put into
# vmlinux into one relocatable object, `ld -r` of their built-in.a; every step is cached in the work
# directory, so a rerun costs seconds.
#   kernel-objects.sh WORKDIR    leaves WORKDIR/out/{arm64-built-in.o,entry.o,cpucaps.h,config}
set -euo pipefail

. "$(dirname "$0")/../tests/kernel/kernel-tree.sh"
kernel_tree "${1:?usage: kernel-objects.sh WORKDIR}" kernel-objects

dirs=(arch/arm64/kernel arch/arm64/mm arch/arm64/kvm)
if [ "$(cat "$work/built" 2>/dev/null)" != "$tree_key" ]; then
  log "building ${dirs[*]}"
  "${kmake[@]}" "${dirs[@]/%//}"
  echo "$tree_key" > "$work/built"
fi
rm -rf "$out"
mkdir -p "$out"
archives=()
for d in "${dirs[@]}"; do archives+=("$src/$d/built-in.a"); done
aarch64-linux-gnu-ld -r -o "$out/arm64-built-in.o" --whole-archive "${archives[@]}"
cp "$src/arch/arm64/kernel/entry.o" "$out/entry.o"
cp "$src/arch/arm64/include/generated/asm/cpucaps.h" "$out/cpucaps.h"
cp "$src/.config" "$out/config"
log "$(du -h "$out/arm64-built-in.o" | cut -f1) in arm64-built-in.o"
