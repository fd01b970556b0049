#!/usr/bin/env bash
# models --from and report --model-from as a user meets them: each input form, the capability set a
# model read from a machine gives against the known model of the same registers, and bad input.
set -u
eh=$1 cases=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
. "$(dirname "$0")/expect.sh"

# The capability names models prints for its one model (the lines under "capabilities ...").
caps() { "$@" | sed -n '/^  capabilities /,$p' | sed -n 's/^    \(ARM64_[A-Z0-9_]*\).*/\1/p'; }

# A dump of the boot CPU's registers as tests/qemu/probe/ prints them: Cortex-A72 r0p3's MIDR_EL1
# (arch/arm64/include/asm/cputype.h: implementer 0x41, part 0xd08) and ISAR0 from its TRM (4.3).
printf '# id-regs probe\nMIDR_EL1=0x410fd083\nREVIDR_EL1=0x0\nID_AA64ISAR0_EL1=0x11120\n' > "$tmp/a72.regs"
for boot in el2 el1; do
  if diff <(caps "$eh" models --model cortex-a72 --boot $boot) <(caps "$eh" models --from "$tmp/a72.regs" --boot $boot) \
      > "$tmp/diff"; then
    echo "ok - models --from a Cortex-A72 dump detects what cortex-a72 does at $boot"
  else
    echo "not ok - models --from a Cortex-A72 dump differs from cortex-a72 at $boot"; cat "$tmp/diff"
    failures=$((failures + 1))
  fi
done
expect "models --from: the model is named by its MIDR_EL1, the nearest known model named" 0 \
  '^midr-410fd083~  r0p3 read from a72.regs, else as cortex-a72~' \
  tr '\n' '~' < <("$eh" models --from "$tmp/a72.regs")

# Every line of models --from fits 80 columns, as models' own (cli.sh).
printf 'MIDR_EL1=0x410fd034\nREVIDR_EL1=0x100\n' > "$tmp/a-file-name-longer-than-the-line-allows.regs"
expect "models --from: no line over 80 columns" 0 '^absent$' \
  absent '^.{81}' "$eh" models --from "$tmp/a-file-name-longer-than-the-line-allows.regs"

# A listing of sysfs: two A53 r0p4 (part 0xd03) and one A72 make a system, the boot CPU's core first.
for cpu in 0 1; do echo "/sys/devices/system/cpu/cpu$cpu/regs/identification/midr_el1:0x00000000410fd034"; done \
  > "$tmp/listing"
echo "/sys/devices/system/cpu/cpu2/regs/identification/midr_el1:0x00000000410fd083" >> "$tmp/listing"
expect "models --from a listing: a system of an A53 and an A72" 0 \
  'cores \(boot CPU first, 2 threads\): midr-410fd034' "$eh" models --from "$tmp/listing"

# A boot log: Debian's 6.1 kernel on QEMU's cortex-a57 prints this line (arch/arm64/kernel/setup.c).
printf '[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x411fd070]\n[    0.000000] Linux version 6.1\n' \
  > "$tmp/boot.log"
expect "models --from a boot log: Cortex-A57 r1p0, the nearest known A57 r1p2" 0 \
  'r1p0 read from boot.log, else as cortex-a57-r1p2' "$eh" models --from "$tmp/boot.log"

# A directory laid out as /sys/devices/system/cpu.
mkdir -p "$tmp/sys/cpu0/regs/identification"
echo 0x00000000431f0af1 > "$tmp/sys/cpu0/regs/identification/midr_el1"
echo 0x0000000000000000 > "$tmp/sys/cpu0/regs/identification/revidr_el1"
expect "models --from a sysfs directory: ThunderX2 (Cavium 0x43, part 0x0af) has erratum 219" 0 \
  'errata: .*tx2-219' "$eh" models --from "$tmp/sys"

# Bad input: exit 2, the file and line named.
printf 'MIDR_EL1=0x410fd083\nnot a register line\n' > "$tmp/bad"
expect "models --from: a line of no form names the file and line" 2 "--from: $tmp/bad:2: 'not a register line' is none of" \
  "$eh" models --from "$tmp/bad"
printf 'MIDR_EL1=0xq\n' > "$tmp/badhex"
expect "models --from: a bad value" 2 "$tmp/badhex:1: MIDR_EL1: '0xq' is not a hexadecimal value" \
  "$eh" models --from "$tmp/badhex"
expect "models --from: a missing file" 2 "$tmp/none: no such file" "$eh" models --from "$tmp/none"
expect "models --from with --model is bad usage" 2 "one or the other" "$eh" models --from "$tmp/a72.regs" --model cortex-a72

# report --model-from: the image audited for that machine alone, or beside the models named.
printf 'MIDR_EL1=0x431f0af1\n' > "$tmp/tx2.regs"
expect "report --model-from: one model, the machine's" 0 '[0-9]+ errata x 1 models' \
  "$eh" report "$cases/tx2-219-prfm.elf" --kernel 5.4 --model-from "$tmp/tx2.regs"
expect "... the same verdict as the known one-thread ThunderX2" 0 'tx2-219 +midr-431f0af1 +1  not exposed' \
  "$eh" report "$cases/tx2-219-prfm.elf" --kernel 5.4 --model-from "$tmp/tx2.regs" --all
expect "... which the summary says" 0 '^tx2-219 +not exposed on midr-431f0af1$' \
  "$eh" report "$cases/tx2-219-prfm.elf" --kernel 5.4 --model-from "$tmp/tx2.regs"
expect "report --model-from with --model: both" 0 '[0-9]+ errata x 2 models' \
  "$eh" report "$cases/tx2-219-prfm.elf" --kernel 5.4 --model-from "$tmp/tx2.regs" --model cortex-a72
expect "report --model-from: a bad file is exit 2" 2 "report: --model-from: $tmp/bad:2:" \
  "$eh" report "$cases/tx2-219-prfm.elf" --kernel 5.4 --model-from "$tmp/bad"

[ "$failures" -eq 0 ]
