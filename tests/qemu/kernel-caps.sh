#!/usr/bin/env bash
# The real kernel's capability decisions as the oracle of the harness's: Debian's 6.1 (or SERIES
# 6.12) cloud kernel booted under qemu-system-aarch64 -M virt on each QEMU CPU that maps to one of our models, entered
# at EL1 (a guest), at EL2 (virtualization=on: a host, VHE where the CPU has it) and at EL2 with
# kvm-arm.mode=nvhe (the kernel at EL1, KVM's hyp code at EL2), with no root file
# system and panic=-1, so the boot ends by itself at the panic, which prints the capability bitmap.
# Compared (kernel_caps) with what the harness computes, under the kernel's own .config and with the
# rules of its series, for
#   registers: the model models --from builds from QEMU's ID registers (dumped by probe/id-regs-bare.c
#              at the same EL): any difference is a difference of rules, and
#   model:     the known model of the same part (its TRM's registers),
#   bootlog:   the model models --from builds from the boot's own console log (its 'Booting Linux on
#              physical CPU' and secondary lines),
#   el0:       the model models --from builds from the EL0 view probe/id-regs.c printed as /init,
# and the two harness models with each other. bootlog and el0 take the known model's registers for
# what they do not give, so a difference docs/testing.md explains for model stands for them too. Each difference fails unless the "Checked
# against QEMU" table of docs/testing.md explains it (a row
# "| `SERIES` | `CPU` | `registers|model|from-vs-model|bootlog|el0` | `BOOT` or any | `CAP` |").
#   kernel-caps.sh KERNEL_CAPS ERRATA_HARNESS WORKDIR DOC [SERIES]
set -u
kc=$1 eh=$2 work=$3 doc=$4 series=${5:-6.1}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/../kernel/debian-kernel.sh"
qemu_require
mkdir -p "$work/debian" "$work/caps-$series"
work=$(cd "$work" && pwd)
caps_dir=$work/caps-$series

# The image package holds /boot/vmlinuz (an uncompressed arm64 Image) and /boot/config.
if ! debian_kernel_dep "$series"; then echo "SKIP: $skip_reason"; exit 77; fi
vmlinuz=$work/debian/vmlinuz-$abi config=$work/debian/config-$abi
if [ ! -s "$vmlinuz" ] || [ ! -s "$config" ]; then
  echo "kernel-caps: downloading $dep" >&2
  (cd "$work/debian" && rm -f "${dep}"_*.deb && apt-get download -q "$dep:arm64" >&2) ||
    { echo "SKIP: apt-get download $dep:arm64 failed (is the arm64 archive reachable?)"; exit 77; }
  deb=$(ls "$work/debian/${dep}"_*_arm64.deb)
  dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/config-$abi" > "$config.tmp" && mv "$config.tmp" "$config"
  dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/vmlinuz-$abi" > "$vmlinuz.tmp" && mv "$vmlinuz.tmp" "$vmlinuz"
  rm -f "$deb"
fi
probe_build "$work/id-regs-bare.elf" "$here/probe/id-regs-bare.c" || { echo "not ok - the probe does not build"; exit 1; }
# The EL0 probe as the kernel's /init: it prints the EL0 view on the console, exits, and the kernel
# panics ("Attempted to kill init"), printing the bitmap as for any panic.
rm -rf "$work/initrd" && mkdir -p "$work/initrd" &&
  aarch64-linux-gnu-gcc -O2 -Wall -Wextra -Werror -static -o "$work/initrd/init" "$here/probe/id-regs.c" &&
  (cd "$work/initrd" && echo init | cpio -o -H newc --quiet > "$work/initrd.cpio") ||
  { echo "not ok - the EL0 probe or its initramfs does not build"; exit 1; }

# QEMU's CPU and the known model of its part (QEMU 7.2's MIDR_EL1: A53 r0p4, A57 r1p0, A72 r0p3,
# A76 r4p1, N1 r4p1; the nearest revision we model).
cpus=(cortex-a53:cortex-a53-r0p4 cortex-a57:cortex-a57-r1p2 cortex-a72:cortex-a72 cortex-a76:cortex-a76-r4p0
      neoverse-n1:neoverse-n1-r4p0 max:-)
failures=0 explained=0 compared=0

# The model's capability names, as models prints them.
caps() { "$eh" models "$@" --kernel "$series" --config "$config" | sed -n '/^  capabilities /,$p' |
         sed -n 's/^    \(ARM64_[A-Z0-9_]*\).*/\1/p' | sort; }

# A difference (cpu, against, boot, line) is explained by a row of the doc, or it fails.
judge() {
  local cpu=$1 against=$2 boot=$3 cap=${4#* }
  local rows=$against row found=""
  case $against in bootlog|el0) rows="$against model" ;; esac
  for row in $rows; do
    if grep -qF "| \`$series\` | \`$cpu\` | \`$row\` | \`$boot\` | \`$cap\` |" "$doc" ||
       grep -qF "| \`$series\` | \`$cpu\` | \`$row\` | any | \`$cap\` |" "$doc"; then found=1; fi
  done
  if [ -n "$found" ]; then
    echo "    explained: $4"
    explained=$((explained + 1))
  else
    echo "not ok - $series $cpu $boot $against: $4 (not explained in $doc)"
    failures=$((failures + 1))
  fi
}

for pair in "${cpus[@]}"; do
  cpu=${pair%%:*} model=${pair#*:}
  for boot in el1 el2 nvhe; do
    el2=0 machine=virt append=""
    [ $boot != el1 ] && el2=1 machine=virt,virtualization=on
    [ $boot = nvhe ] && append=" kvm-arm.mode=nvhe"
    regs=$caps_dir/$cpu-$boot.regs log=$caps_dir/$cpu-$boot.log
    probe_run "$work/id-regs-bare.elf" "$cpu" $el2 "$regs" ||
      { echo "not ok - $cpu $boot: the ID register probe failed"; failures=$((failures + 1)); continue; }
    timeout 300 qemu-system-aarch64 -M $machine -cpu "$cpu" -m 1024 -smp 2 -nic none -nographic -no-reboot \
      -kernel "$vmlinuz" -initrd "$work/initrd.cpio" -append "console=ttyAMA0 panic=-1$append" 2>&1 < /dev/null |
      tr -d '\r' > "$log"
    if ! grep -q "Kernel panic" "$log"; then
      echo "not ok - $cpu $boot: the boot did not end in the expected panic (see $log)"
      failures=$((failures + 1))
      continue
    fi
    grep -E '^(# id-regs|[A-Z0-9_]+_EL[01]=0x)' "$log" > "$caps_dir/$cpu-$boot.el0"
    for against in registers model bootlog el0; do
      [ $against != registers ] && [ "$model" = - ] && continue
      case $against in
        registers) set -- --from "$regs" ;;
        model) set -- "$model" ;;
        bootlog) set -- --from "$log" ;;
        el0) set -- --from "$caps_dir/$cpu-$boot.el0" ;;
      esac
      if ! "$kc" --kernel "$series" "$log" $boot "$config" "$@" > "$caps_dir/$cpu-$boot-$against.txt"; then
        echo "not ok - $cpu $boot $against: kernel_caps could not compare"; failures=$((failures + 1)); continue
      fi
      compared=$((compared + 1))
      echo "ok - $cpu $boot against $against: $(tail -1 "$caps_dir/$cpu-$boot-$against.txt")"
      while read -r line; do judge "$cpu" $against $boot "$line"; done < <(grep -v '^agree' "$caps_dir/$cpu-$boot-$against.txt")
    done
    if [ "$model" != - ]; then
      diff <(caps --from "$regs" --boot $boot) <(caps --model "$model" --boot $boot) | sed -n 's/^\([<>]\) /\1 /p' |
        while read -r side cap; do echo "$([ "$side" = '<' ] && echo registers-only || echo model-only) $cap"; done \
        > "$caps_dir/$cpu-$boot-from-vs-model.txt"
      echo "ok - $cpu $boot: models --from QEMU's registers against $model: $(wc -l < "$caps_dir/$cpu-$boot-from-vs-model.txt") differences"
      while read -r line; do judge "$cpu" from-vs-model $boot "$line"; done < "$caps_dir/$cpu-$boot-from-vs-model.txt"
    fi
  done
done
echo "kernel-caps $series: $compared comparisons, $explained explained differences, $failures unexplained"
[ "$failures" -eq 0 ] && [ "$compared" -gt 0 ]
