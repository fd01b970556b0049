#!/usr/bin/env bash
# Builds the whole vmlinux of the kernel tree the kernel test prepares (Debian's linux-source-6.1, arm64
# defconfig with the errata options of tests/kernel/kernel-tree.sh), for the report benchmark's
# defconfig row. Slow: the rest of the kernel, an hour or more on two cores the first time; make
# caches it, so a rerun costs seconds. bench/run calls it when EH_BENCH_DEFCONFIG=1.
#   defconfig-vmlinux.sh WORKDIR    leaves WORKDIR/out/vmlinux (beside build-arm64.sh's objects)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
"$here/../tests/kernel/build-arm64.sh" "${1:?usage: defconfig-vmlinux.sh WORKDIR}"
. "$here/../tests/kernel/kernel-tree.sh"
kernel_tree_whole=1
kernel_tree "$1" defconfig-vmlinux
log "building vmlinux (make: seconds when nothing changed)"
nice "${kmake[@]}" vmlinux
cp "$src/vmlinux" "$out/vmlinux.tmp"
mv "$out/vmlinux.tmp" "$out/vmlinux"
log "$(du -h "$out/vmlinux" | cut -f1) in vmlinux"
