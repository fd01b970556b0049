#!/usr/bin/env bash
# Builds arch/arm64/{kernel,mm,kvm}/ of Debian's linux-source-6.1 or VERSION (prepared by kernel-tree.sh: arm64
# defconfig with KPTI, erratum 219 and the other errata options of kernel_errata) and links what these directories put into
# vmlinux into one relocatable object, `ld -r` of their built-in.a; what build-entry.sh builds comes
# first. Make does the caching: a cold build takes a few minutes on two cores, a rerun seconds. Shared by
# the kernel test and the audit benchmark (bench/kernel-objects.sh).
#   build-arm64.sh WORKDIR [VERSION]    leaves WORKDIR/out/arm64-built-in.o, and what build-entry.sh leaves there
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
"$here/build-entry.sh" "${1:?usage: build-arm64.sh WORKDIR [VERSION]}" "${2:-6.1}"
. "$here/kernel-tree.sh"
kernel_version=${2:-6.1}
kernel_tree "$1" build-arm64

dirs=(arch/arm64/kernel arch/arm64/mm arch/arm64/kvm)
# Earlier versions of build-entry.sh built their mutants over the tree's entry.S, leaving a mutant's
# entry.o newer than the restored source: rebuild it when it is not the shipped one.
cmp -s "$src/arch/arm64/kernel/entry.o" "$out/entry.o" || touch "$src/arch/arm64/kernel/entry.S"
log "building ${dirs[*]} (make: seconds when nothing changed)"
"${kmake[@]}" "${dirs[@]/%//}"
archives=()
for d in "${dirs[@]}"; do archives+=("$src/$d/built-in.a"); done
aarch64-linux-gnu-ld -r -o "$out/arm64-built-in.o.tmp" --whole-archive "${archives[@]}"
mv "$out/arm64-built-in.o.tmp" "$out/arm64-built-in.o"
cmp -s "$src/arch/arm64/kernel/entry.o" "$out/entry.o" || { log "the linked entry.o is not the shipped one"; exit 1; }
log "$(du -h "$out/arm64-built-in.o" | cut -f1) in arm64-built-in.o"
