# Sourced by tests/kernel/build-entry.sh and build-arm64.sh: the packages an arm64 kernel build
# needs, and Debian's linux-source-VERSION (6.1 unless the caller sets kernel_version, e.g. 6.12)
# unpacked into WORKDIR and prepared for arm64 defconfig with KPTI, the ThunderX2 erratum 219 workaround
# and every erratum workaround defconfig leaves off (kernel_errata) on, compiled with the flags of
# kernel_cflags. Each step is stamped with the tarball's size
# and date (and the preparation with those flags), so a rerun costs nothing, a new linux-source upload
# starts over and new flags prepare the tree again (make then recompiles what they change). One WORKDIR
# holds one version: the kernel tests keep 6.1's in build/kernel and 6.12's in build/kernel-6.12.
#   kernel_tree WORKDIR NAME [EXTRA_PACKAGE...]
# sets work, src, out, kmake and tree_key (the stamp, for the caller's own steps); leaves
# $work/entry.S.orig, the shipped entry.S. log MESSAGE prints "NAME: MESSAGE" on stderr.
# The tests build only under arch/arm64/, so the C, header and assembly files of drivers/ and sound/ (900 of
# the tarball's 1,240 MB) stay in it; their Kconfig files and Makefiles, which defconfig and make read, come
# out. A caller that builds the whole vmlinux sets kernel_tree_whole=1 (bench/defconfig-vmlinux.sh) and
# they are added, once, beside the files already there.
log() { echo "$kernel_tree_name: $*" >&2; }
# Cortex-A53 erratum 835769 has no workaround in the kernel: the compiler's is it, which neither 6.1's
# nor 6.12's Makefiles ask for and Debian 12's gcc 12 does not apply by default, so a kernel that may run on an A53
# is compiled with it (KCFLAGS, which Kbuild appends to every C compile).
kernel_cflags=-mfix-cortex-a53-835769
# The errata options beyond defconfig: KPTI and 219's (off in 6.1's defconfig), and those 6.12's Kconfig no
# longer turns on by default (the rare A53 834220, A76 1286807, N1 1542419, A55 2441007 and A510 2441009),
# so that each tree has every workaround the harness checks.
kernel_errata="UNMAP_KERNEL_AT_EL0 CAVIUM_TX2_ERRATUM_219 ARM64_ERRATUM_834220 ARM64_ERRATUM_1286807
  ARM64_ERRATUM_1542419 ARM64_ERRATUM_2441007 ARM64_ERRATUM_2441009"

# A tree not yet unpacked needs room: its package (a 140 MB tarball in /usr/src), the tree and its objects
# (600 to 800 MB), with the rest of the suite running beside them. With less than
# kernel_tree_room_mb MB free on WORKDIR's disk the test is skipped (exit 77), saying so, rather than filling
# the disk under the tests beside it.
#   kernel_tree_room WORKDIR VERSION
kernel_tree_room_mb=2000
kernel_tree_room() {
  local avail
  avail=$(df -Pm "$1" | awk 'NR == 2 { print $4 }')
  if [ "$avail" -lt "$kernel_tree_room_mb" ]; then
    echo "SKIP: linux-source-$2 needs $kernel_tree_room_mb MB free on the disk of $1, which has $avail MB"
    exit 77
  fi
}

kernel_tree() {
  work=$1
  kernel_tree_name=$2
  local version=${kernel_version:-6.1} tarball key opt
  tarball=/usr/src/linux-source-$version.tar.xz
  shift 2
  mkdir -p "$work"
  work=$(cd "$work" && pwd)
  src=$work/linux-source-$version
  [ "$(cat "$work/version" 2>/dev/null || echo "$version")" = "$version" ] \
    || { log "$work holds linux-source-$(cat "$work/version"), not $version"; exit 1; }
  echo "$version" > "$work/version"
  out=$work/out
  kmake=(make -s -C "$src" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- KCFLAGS="$kernel_cflags" -j "$(nproc)")
  [ -f "$work/unpacked" ] || kernel_tree_room "$work" "$version"

  "$(dirname "${BASH_SOURCE[0]}")"/../../harness/install-packages "linux-source-$version" \
    gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu flex bison bc libssl-dev libelf-dev xz-utils make \
    gcc libc6-dev "$@"

  key=$(stat -c '%s-%Y' "$tarball")
  if [ "$(cat "$work/unpacked" 2>/dev/null)" != "$key" ]; then
    log "unpacking $tarball (all but the sources of drivers/ and sound/)"
    rm -rf "$src" "$out" "$work/prepared" "$work/whole"
    tar xf "$tarball" -C "$work" --anchored \
      --exclude="linux-source-$version/drivers/*.[chS]" --exclude="linux-source-$version/sound/*.[chS]"
    cp "$src/arch/arm64/kernel/entry.S" "$work/entry.S.orig"
    echo "$key" > "$work/unpacked"
  fi
  if [ -n "${kernel_tree_whole:-}" ] && [ "$(cat "$work/whole" 2>/dev/null)" != "$key" ]; then
    log "adding the sources of drivers/ and sound/ from $tarball"
    tar xf "$tarball" -C "$work" --skip-old-files "linux-source-$version/drivers" "linux-source-$version/sound"
    echo "$key" > "$work/whole"
  fi
  if [ "$(cat "$work/prepared" 2>/dev/null)" != "$key $kernel_cflags $(echo $kernel_errata)" ]; then
    log "configuring (defconfig + $(echo $kernel_errata)) and running make prepare"
    "${kmake[@]}" defconfig
    for opt in $kernel_errata; do
      "$src/scripts/config" --file "$src/.config" --enable "$opt"
    done
    "${kmake[@]}" olddefconfig
    for opt in $kernel_errata; do
      grep -qx "CONFIG_$opt=y" "$src/.config" || { log "CONFIG_$opt did not stay enabled"; exit 1; }
    done
    "${kmake[@]}" prepare
    echo "$key $kernel_cflags $(echo $kernel_errata)" > "$work/prepared"
  fi
  tree_key="$key $kernel_cflags $(echo $kernel_errata)"
}
