#!/usr/bin/env bash
# Runs real kernel code and compares two builds: Debian's linux-source-6.1 arch/arm64/kernel/entry.o
# (built by build-entry.sh) and its copy without the ISB after the trampoline's TTBR1_EL1 write.
# exec runs the trampoline vector at tramp_vectors+0x1c00 on thunderx2; audit --baseline compares the
# two objects both ways. Offsets are taken from GNU objdump, not from the harness.
#   exec-baseline.sh ERRATA_HARNESS WORKDIR
set -euo pipefail

harness=${1:?usage: exec-baseline.sh ERRATA_HARNESS WORKDIR}
work=${2:?usage: exec-baseline.sh ERRATA_HARNESS WORKDIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/check.sh"
# The EL0 synchronous vector (0x400) of the last of tramp_vectors' four tables, the one without a
# Spectre-BHB mitigation: ThunderX2 has no BHB loop (its patched count is 0, so the first table's
# loop would never end) nor CLEARBHB, and the firmware table needs the firmware's answer.
vector=0x1c00

"$here/build-entry.sh" "$work"
out=$(cd "$work/out" && pwd)
caps=(--cpucaps "$out/cpucaps.h" --config "$out/config")

# vector_insn OBJECT PATTERN: tramp_vectors+0x... of the first instruction of the vector matching PATTERN.
vector_insn() {
  local addr
  for addr in $(aarch64-linux-gnu-objdump -d "$1" |
                awk -v pat="$2" '/^[0-9a-f]+ <tramp_vectors>:/ { f = 1; next } /^[0-9a-f]+ </ { f = 0 }
                                 f && $0 ~ pat { sub(":", "", $1); print $1 }'); do
    if (( 0x$addr >= vector && 0x$addr < vector + 0x80 )); then
      printf 'tramp_vectors+0x%x\n' $((0x$addr))
      return
    fi
  done
}
ttbr=$(vector_insn "$out/entry.o" $'\tmsr\tttbr1_el1, x30')
prfm=$(vector_insn "$out/entry.o" $'\tprfm\tplil1strm')
vbar=$(vector_insn "$out/entry.o" $'\tmsr\tvbar_el1, x30')
load=$(vector_insn "$out/entry-noisb.o" $'\tldr\tx30, ')
ret=$(vector_insn "$out/entry.o" $'\tret')
echo "# objdump: TTBR1 write $ttbr, PRFM $prfm, VBAR write $vbar, RET $ret; without the ISB the vectors load is at $load"
for v in "$ttbr" "$prfm" "$vbar" "$load" "$ret"; do
  [ -n "$v" ] || { echo "not ok - objdump did not show the trampoline vector at $vector"; exit 1; }
done

# 1. The trampoline vector as built: the window closes at the ISB, the PRFM is a NOP, nothing injected.
rc=0; "$harness" exec "$out/entry.o" --symbol "tramp_vectors+$vector" --model thunderx2 "${caps[@]}" \
  --format json > "$work/exec.json" || rc=$?
j=$work/exec.json
check "exec of the trampoline vector exits 0" 0 "$rc"
check "TTBR1_EL1 written at the objdump address" "$ttbr" \
  "$(jq -r '[.events[] | select(.kind == "sysreg_write" and (.text | test("TTBR1_EL1")))][0].where' "$j")"
check "one TTBR window, closed by an ISB with no access inside" "1 closed by ISB, 0 accesses inside" \
  "$(jq -r '[.events[] | select(.kind == "window_close")] | "\(length) \(.[0].text | sub("^window +"; ""))"' "$j")"
check "the PRFM runs as a NOP on thunderx2" "nop" \
  "$(jq -r --arg w "$prfm" '[.events[] | select(.kind == "insn" and .where == $w)][0].text | sub("^.*: "; "")' "$j")"
check "VBAR_EL1 written at the objdump address" "$vbar" \
  "$(jq -r '[.events[] | select(.kind == "sysreg_write" and (.text | test("VBAR_EL1")))][0].where' "$j")"
check "no abort injected, no exception" "0 0" \
  "$(jq -r '"\(.summary.injected) \([.events[] | select(.kind == "exception")] | length)"' "$j")"
check "the vector reaches its RET" "$ret" \
  "$(jq -r '[.events[] | select(.kind == "insn")] | last | .where' "$j")"
check "and leaves for the kernel's vectors" "left the code at vectors+0x404" \
  "$(jq -r '"\(.stop.reason) at \(.stop.where)"' "$j")"

# 2. Without the ISB: the vectors-address load sits in the window and the erratum injects an abort there.
rc=0; "$harness" exec "$out/entry-noisb.o" --symbol "tramp_vectors+$vector" --model thunderx2 "${caps[@]}" \
  --format json > "$work/exec-noisb.json" || rc=$?
j=$work/exec-noisb.json
check "exec without the ISB exits 1" 1 "$rc"
check "abort injected, the vectors load the culprit" "1 $load" \
  "$(jq -r '[.events[] | select(.kind == "inject")] | "\(length) \(.[0].where)"' "$j")"
check "the load is inside the window" "true" \
  "$(jq -r --arg w "$load" '[.events[] | select(.kind == "access" and .where == $w)][0].in_window' "$j")"

# 3. The two builds compared, both ways: every trampoline window gains the vectors load.
tramp_ttbr=$(aarch64-linux-gnu-objdump -d "$out/entry.o" |
  awk '/^[0-9a-f]+ <tramp_vectors>:/{f=1;next} /^[0-9a-f]+ </{f=0} f' | grep -cE $'\tmsr\tttbr1_el1, x30')
rc=0; "$harness" audit --width 0 "$out/entry-noisb.o" --baseline "$out/entry.o" --model thunderx2 "${caps[@]}" \
  --erratum tx2-219 --format json > "$work/baseline.json" || rc=$?
j=$work/baseline.json
check "audit --baseline entry.o entry-noisb.o exits 1" 1 "$rc"
check "report names both builds" "$out/entry.o $out/entry-noisb.o" "$(jq -r '"\(.baseline) \(.file)"' "$j")"
check "introduced: one vectors load per trampoline window" "$tramp_ttbr 0 0" \
  "$(jq -r '"\(.introduced) \(.removed) \(.unchanged)"' "$j")"
check "every introduced hazard is an ldr x30 in tramp_vectors" "$tramp_ttbr" \
  "$(jq '[.findings[] | select(.change == "introduced" and .erratum == "tx2-219" and .kind == "load"
          and (.where | startswith("tramp_vectors+")) and (.text | startswith("ldr x30")))] | length' "$j")"
check "the vector at $vector is one of them" "1" \
  "$(jq --arg w "$load" --arg t "$ttbr" '[.findings[] | select(.where == $w and .anchor == $t)] | length' "$j")"
rc=0; "$harness" audit --width 0 "$out/entry.o" --baseline "$out/entry-noisb.o" --model thunderx2 "${caps[@]}" \
  --erratum tx2-219 > "$work/baseline-swapped.txt" || rc=$?
check "swapped: exits 0" 0 "$rc"
check "swapped: the same hazards reported removed" \
  "summary: 0 introduced, $tramp_ttbr removed, 0 unchanged from $out/entry-noisb.o to $out/entry.o; erratum tx2-219 affects thunderx2" \
  "$(tail -1 "$work/baseline-swapped.txt")"

echo "# $failures failed"
[ "$failures" -eq 0 ]
