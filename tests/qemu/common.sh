# Sourced by the qemu oracles (tests/qemu/*.sh): skip with exit 77 and a message, never pass, when
# QEMU or the aarch64 cross compiler is absent; build a bare-metal probe; run one under QEMU.
#   qemu_require [WORKDIR]        exits 77 unless qemu-system-aarch64 and aarch64-linux-gnu-gcc are here;
#                                 makes WORKDIR
#   probe_build OUT SOURCES...    links SOURCES (tests/qemu/probe/) with start.S into OUT, at 0x40080000
#   probe_run ELF CPU EL2 OUT     runs ELF on -M virt -cpu CPU (EL2 1: virtualization=on, entered at
#                                 EL2), its semihosting output into OUT; fails on its exit code
qemu_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

qemu_require() {
  local tool
  for tool in qemu-system-aarch64 aarch64-linux-gnu-gcc; do
    if ! command -v $tool > /dev/null; then
      echo "SKIP: $tool is not installed (harness/setup test installs qemu-system-arm and gcc-aarch64-linux-gnu)"
      exit 77
    fi
  done
  [ $# -eq 0 ] || mkdir -p "$1"
}

probe_build() {
  local out=$1
  shift
  aarch64-linux-gnu-gcc -O2 -Wall -Wextra -Werror -ffreestanding -fno-pie -no-pie -nostdlib -static \
    -mgeneral-regs-only -march=armv8.2-a -Wl,-Ttext=0x40080000 -Wl,--build-id=none -I"$qemu_here/probe" \
    -o "$out" "$qemu_here/probe/start.S" "$@"
}

probe_run() {
  local elf=$1 cpu=$2 el2=$3 out=$4 machine=virt
  [ "$el2" = 1 ] && machine=virt,virtualization=on
  rm -f "$out"
  timeout 120 qemu-system-aarch64 -M $machine -cpu "$cpu" -m 256 -nic none -display none -monitor none -serial none \
    -chardev file,id=semihosting,path="$out" -semihosting-config enable=on,target=native,chardev=semihosting \
    -kernel "$elf"
}
