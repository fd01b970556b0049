#!/usr/bin/env bash
# Builds arch/arm64/{kernel,mm,kvm}/ of Debian's linux-source-6.1 (arm64 defconfig with KPTI and the
# ThunderX2 erratum 219 workaround) for the audit benchmark, and links what these directories put into
# vmlinux into one relocatable object, `ld -r` of their built-in.a; every step is cached in the work
# directory, so a rerun costs seconds.
#   kernel-objects.sh WORKDIR    leaves WORKDIR/out/{arm64-built-in.o,entry.o,cpucaps.h,config}
set -euo pipefail

work=${1:?usage: kernel-objects.sh WORKDIR}
mkdir -p "$work"
work=$(cd "$work" && pwd)
src=$work/linux-source-6.1
out=$work/out
tarball=/usr/src/linux-source-6.1.tar.xz
kmake=(make -s -C "$src" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j "$(nproc)")
packages=(linux-source-6.1 gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu flex bison bc libssl-dev
          libelf-dev xz-utils make gcc libc6-dev)

log() { echo "kernel-objects: $*" >&2; }

"$(dirname "$0")"/../harness/install-packages "${packages[@]}"

# A stamp per step, keyed to the tarball, so a new linux-source-6.1 upload starts over.
key=$(stat -c '%s-%Y' "$tarball")
if [ "$(cat "$work/unpacked" 2>/dev/null)" != "$key" ]; then
  log "unpacking $tarball"
  rm -rf "$src" "$out" "$work/prepared" "$work/built"
  tar xf "$tarball" -C "$work"
  echo "$key" > "$work/unpacked"
fi
if [ "$(cat "$work/prepared" 2>/dev/null)" != "$key" ]; then
  log "configuring (defconfig + KPTI + CAVIUM_TX2_ERRATUM_219) and running make prepare"
  "${kmake[@]}" defconfig
  "$src/scripts/config" --file "$src/.config" --enable UNMAP_KERNEL_AT_EL0 \
    --enable CAVIUM_TX2_ERRATUM_219
  "${kmake[@]}" olddefconfig
  "${kmake[@]}" prepare
  echo "$key" > "$work/prepared"
fi
dirs=(arch/arm64/kernel arch/arm64/mm arch/arm64/kvm)
if [ "$(cat "$work/built" 2>/dev/null)" != "$key" ]; then
  log "building ${dirs[*]}"
  "${kmake[@]}" "${dirs[@]/%//}"
  echo "$key" > "$work/built"
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
