#!/usr/bin/env bash
# The static rules of repeat-tlbi, a520-2966298, a77-1508412, clean-cache, tsb-flush-failure, a53-845719,
# falkor-e1003, speculative-at and cavium-27456 on real 6.1 code. The unmodified arm64-built-in.o
# (build-arm64.sh) is clean for them on every model the erratum affects, booted at EL2 and at EL1; booted
# with kvm-arm.mode=nvhe, a77-1508412 finds the six unbracketed reads of PAR_EL1 in KVM's nVHE host vector,
# and nothing else (see tests/kernel/nvhe-host-vector.suppress for why they are left to a suppression). The
# mutants of build-mutants.sh, each object without its erratum's workaround, are flagged on exactly the models the
# erratum affects, at the places objdump shows, as many as the workaround had.
# With VERSION 6.12, the same on linux-source-6.12 (its ports of the patches that do not apply, ERRATUM-6.12.patch),
# and a715-2645198, which only 6.12 carries.
#   errata-audit.sh ERRATA_HARNESS WORKDIR [VERSION]
set -euo pipefail

harness=${1:?usage: errata-audit.sh ERRATA_HARNESS WORKDIR [VERSION]}
work=${2:?usage: errata-audit.sh ERRATA_HARNESS WORKDIR [VERSION]}
kernel_version=${3:-6.1}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/check.sh"

kernel_objects "$here" "$work" mutants
errata=(repeat-tlbi a520-2966298 a77-1508412 clean-cache tsb-flush-failure a53-845719 falkor-e1003 speculative-at cavium-27456)
[ "$kernel_version" = 6.1 ] || errata+=(a715-2645198)

# The models that have erratum $1, as `models` lists them (the erratum modules decide; test_errata checks
# them against the kernel's capability rules).
having() {
  "$harness" models | awk -v e="$1" '/^[a-z0-9]/ { m = $1 } /^  errata:/ { for (i = 2; i <= NF; i++) if ($i == e) print m }' |
    sort | paste -sd' '
}
# The models with findings of erratum $1 in the matrix of audit text $2, and their statuses.
flagged() { grep -E "^$1 " "$2" | awk '$NF != "affected" && $NF != "clean" { print $2 }' | sort | paste -sd' '; }
statuses() { grep -E "^$1 " "$2" | awk '{ print ($NF == "affected" ? "not affected" : $NF) }' | sort -u | paste -sd','; }

# 6.12's KVM AT emulation restores the host's VTTBR_EL2 in a window speculative-at cannot close.
kvm_at_suppress "$kernel_version"

# 1. The object as built: clean for these errata on every model, booted at EL2 (VHE where the CPU
#    has it) and at EL1.
for boot in el2 el1; do
  t=$work/errata-builtin-$boot.txt
  rc=0; "$harness" audit --width 0 "$obj" --model all --boot "$boot" "${inputs[@]}" "${at_sup[@]}" \
    --erratum "$(IFS=,; echo "${errata[*]}")" > "$t" || rc=$?
  check "arm64-built-in.o booted $boot, every model: exit 0" 0 "$rc"
  for e in "${errata[@]}"; do
    check "$e on arm64-built-in.o booted $boot: clean where it shows, not affected elsewhere" "clean,not affected" \
      "$(statuses "$e" "$t")"
  done
done

# 2. Booted nvhe, KVM's nVHE code runs: a77-1508412 finds the PAR_EL1 reads of invalid_host_el1_vect
#    (kvm/hyp/nvhe/host.S), as objdump shows them, and nothing else; the other errata stay clean.
dis=$work/errata-builtin.dis
aarch64-linux-gnu-objdump -d "$obj" > "$dis"
vector_reads=$(awk '/^[0-9a-f]+ <__kvm_nvhe___kvm_hyp_host_vector>:/ { base = $1; f = 1; next }
  /^[0-9a-f]+ </ { f = 0 } f && /\tmrs\t[^,]*, par_el1/ { sub(":", "", $1); print base, $1 }' "$dis" |
  while read -r base at; do printf '__kvm_nvhe___kvm_hyp_host_vector+0x%x\n' $(( 16#$at - 16#$base )); done | paste -sd' ')
echo "# objdump: PAR_EL1 reads in the nVHE host vector: $vector_reads"
[ -n "$vector_reads" ] || { echo "not ok - objdump found no read of PAR_EL1 in the nVHE host vector"; exit 1; }
t=$work/errata-builtin-nvhe.txt
"$harness" audit --width 0 "$obj" --model all --boot nvhe "${inputs[@]}" "${at_sup[@]}" \
  --erratum "$(IFS=,; echo "${errata[*]}")" > "$t" || true
for e in "${errata[@]}"; do
  [ "$e" = a77-1508412 ] && continue
  check "$e on arm64-built-in.o booted nvhe: clean where it shows" "clean,not affected" "$(statuses "$e" "$t")"
done
j=$work/errata-builtin-nvhe-a77.json
rc=0; "$harness" audit --width 0 "$obj" --model cortex-a77-r1p0 --boot nvhe "${inputs[@]}" --erratum a77-1508412 --format json \
  > "$j" || rc=$?
check "a77-1508412 on arm64-built-in.o booted nvhe, cortex-a77-r1p0: exit 1" 1 "$rc"
check "... the findings are the nVHE host vector's reads" "$vector_reads" \
  "$(jq -r '.errata[0].findings[].where' "$j" | paste -sd' ')"
rc=0; "$harness" audit --width 0 "$obj" --model all --boot nvhe "${inputs[@]}" --erratum a77-1508412 \
  --suppress "$here/nvhe-host-vector.suppress" > "$t" || rc=$?
check "... suppressed with their justification: exit 0" 0 "$rc"

# 3. The mutants: each object flagged on exactly the models its erratum affects (for KVM's nVHE objects,
#    booted nvhe, where they run), with as many findings as objdump counts places without the workaround,
#    each at an instruction objdump names as the rule does.
# insn_at OBJECT SYMBOL+OFFSET: the mnemonic and operands objdump gives there.
# In a relocatable object every section starts at 0: the address is looked up in the symbol's own section
# (from the symbol table, so an alias objdump labels by another name, 6.12's caches_clean_inval_pou, is found).
insn_at() {
  local sym=${2%+*} base sec at
  read -r base sec < <(aarch64-linux-gnu-objdump -t "$1" |
    awk -v s="$sym" '$NF == s { for (i = 2; i < NF; i++) if ($i ~ /^\./) { print $1, $i; exit } }')
  at=$(( 16#$base + ${2##*+} ))
  aarch64-linux-gnu-objdump -d --no-show-raw-insn -j "$sec" --start-address=$at --stop-address=$((at + 4)) "$1" |
    awk -v at="$(printf '%x' $at):" '$1 == at { sub(/^[^\t]*\t/, ""); print; exit }' | tr '\t' ' '
}
# sites OBJECT CAPABILITY: the alternatives of the shipped object on that capability (struct alt_instr is
# 12 bytes, its cpufeature a u16 at offset 8), read from its .altinstructions with objcopy and od.
sites() {
  local num bin=$work/errata-altinstructions.bin
  num=$(awk -v c="$2" '$2 == c { print $3 }' "$out/cpucaps.h")
  aarch64-linux-gnu-objcopy -O binary --only-section=.altinstructions "$1" "$bin"
  od -An -v -tu2 -w12 "$bin" | awk -v n="$num" '$5 == n { c++ } END { print c + 0 }'
}
src=$work/linux-source-$kernel_version/arch/arm64
check_mutant() {  # check_mutant ERRATUM MUTANT BOOT EXPECTED-COUNT MNEMONIC [places]: places counts where, not findings
  local e=$1 mut=$2 boot=$3 count=$4 mnem=$5 name t j rc where model count_of='.errata[0].findings | length'
  [ -z "${6:-}" ] || count_of='[.errata[0].findings[].where] | unique | length'
  name=$e/$(basename "$mut")
  t=$work/errata-mutant-${e}-$(basename "$mut").txt
  rc=0; "$harness" audit --width 0 "$mut" --model all --boot "$boot" "${inputs[@]}" --erratum "$e" > "$t" || rc=$?
  check "$name booted $boot: exit 1" 1 "$rc"
  check "$name booted $boot: findings on exactly the models with $e" "$(having "$e")" "$(flagged "$e" "$t")"
  model=$(having "$e" | cut -d' ' -f1)
  j=$work/errata-mutant-${e}-$(basename "$mut").json
  "$harness" audit --width 0 "$mut" --model "$model" --boot "$boot" "${inputs[@]}" --erratum "$e" --format json > "$j" || true
  check "$name on $model: the findings objdump expects" "$count" \
    "$(jq "$count_of" "$j")"
  for where in $(jq -r '.errata[0].findings[].where' "$j"); do
    check "$name: objdump at $where" "$mnem" "$(insn_at "$mut" "$where" | awk '{ print $1 }')"
  done
}
m=$out/mutants
# unrepeated MUTANT: its DSB ISHs that complete a broadcast TLBI (one since the last DSB ISH in the function)
# and that no broadcast TLBI follows, as objdump lists them (the compiler may duplicate a sync that the
# shipped object shares behind one alternative). Several TLBIs may run into one such DSB (6.12's
# __kvm_tlbi_s1e2()): the rule finds each pair, so the mutants are compared by places.
unrepeated() {
  aarch64-linux-gnu-objdump -d --no-show-raw-insn "$1" |
    awk '/^[0-9a-f]+ <.*>:$/ { pending = 0; dsb = 0 }
      dsb { if (!/\ttlbi\t[a-z0-9]+(is|os)(,|$)/) n++; dsb = 0 }
      /\ttlbi\t[a-z0-9]+(is|os)(,|$)/ { pending = 1 }
      /\tdsb\tish$/ { dsb = pending; pending = 0 }
      END { print n + 0 }'
}
# Systems of cores (models/systems.c) are models like the others: those with a core repeat-tlbi affects
# (Cortex-A55, A76, A510 r1p1, A710) must be flagged too.
check "repeat-tlbi: the systems with an affected core among its models" "system-a510-a710 system-a55-a76" \
  "$(having repeat-tlbi | tr ' ' '\n' | grep '^system-' | paste -sd' ')"
for o in kernel/sys_compat:el2 kvm/hyp/pgtable:el2 kvm/hyp/vhe/tlb:el2 kvm/hyp/nvhe/tlb.nvhe:nvhe; do
  boot=${o#*:}
  o=${o%:*}
  check_mutant repeat-tlbi "$m/repeat-tlbi/$(basename "$o").o" "$boot" \
    "$(unrepeated "$m/repeat-tlbi/$(basename "$o").o")" dsb places
done
check "the shipped entry.o has one site of the A520 workaround" 1 \
  "$(sites "$out/entry.o" ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD)"
check_mutant a520-2966298 "$m/a520-2966298/entry.o" el2 1 ldr
# read_sysreg_par() is two sites a read; switch.h's barrier before guest entry is one more in switch.o.
par_reads() { aarch64-linux-gnu-objdump -d "$1" | grep -cE $'\tmrs\t[^,]*, par_el1' || true; }
for o in mm/fault:0 kvm/hyp/vhe/switch:1; do
  extra=${o#*:}
  o=${o%:*}
  check "the shipped $(basename "$o").o brackets each of its PAR_EL1 reads" \
    "$(( 2 * $(par_reads "$src/$o.o") + extra ))" "$(sites "$src/$o.o" ARM64_WORKAROUND_1508412)"
  check_mutant a77-1508412 "$m/a77-1508412/$(basename "$o").o" el2 "$(par_reads "$m/a77-1508412/$(basename "$o").o")" mrs
done
check_mutant a77-1508412 "$m/a77-1508412/switch.nvhe.o" nvhe "$(par_reads "$m/a77-1508412/switch.nvhe.o")" mrs
# Every DC CVAU and CVAC of the shipped objects is a CLEAN_CACHE alternative (6.1 leaves none to run as it
# is); without them, each is flagged where the erratum shows.
cleans() { aarch64-linux-gnu-objdump -d "$1" | grep -cE $'\tdc\t(cvau|cvac),' || true; }
for o in mm/cache kernel/hibernate-asm; do
  check "the shipped $(basename "$o").o has an alternative at each of its cleans" \
    "$(cleans "$src/$o.o")" "$(sites "$src/$o.o" ARM64_WORKAROUND_CLEAN_CACHE)"
  check_mutant clean-cache "$m/clean-cache/$(basename "$o").o" el2 "$(cleans "$m/clean-cache/$(basename "$o").o")" dc
done
# tsb_csync() is a TSB CSYNC and, behind an alternative, a second one: the shipped debug-sr.nvhe.o has two
# (6.12's compiles to three: one inline where the CPU needs none, the pair out of line) and a site for each
# one the mutant has alone; booted nvhe (only KVM's nVHE code drains the trace), each lone one is flagged
# where the erratum shows.
tsbs() { aarch64-linux-gnu-objdump -d "$1" | grep -cE $'\ttsb\tcsync' || true; }
shipped=$src/kvm/hyp/nvhe/debug-sr.nvhe.o
mut=$m/tsb-flush-failure/debug-sr.nvhe.o
per=2
[ "$kernel_version" = 6.1 ] || per=3
check "the shipped debug-sr.nvhe.o: $per TSB CSYNCs and a site for each the mutant has" \
  "$(( per * $(tsbs "$mut") )) $(tsbs "$mut")" "$(tsbs "$shipped") $(sites "$shipped" ARM64_WORKAROUND_TSB_FLUSH_FAILURE)"
check_mutant tsb-flush-failure "$mut" nvhe "$(tsbs "$mut")" tsb

# kernel_exit 0's return to an AArch32 task writes CONTEXTIDR_EL1 behind one alternative; without it, the
# check of SPSR's AArch32 bit (the b.eq after tst x22, #0x10, as objdump shows it) is flagged where 845719 is.
check "the shipped entry.o has one site of the 845719 workaround" 1 "$(sites "$out/entry.o" ARM64_WORKAROUND_845719)"
aarch32_checks() {
  aarch64-linux-gnu-objdump -d --no-show-raw-insn "$1" | awk '/^[0-9a-f]+ <ret_to_user>:$/ { f = 1; next }
    /^[0-9a-f]+ </ { f = 0 } f && tst { if (/\tb\.eq\t/) n++ } f { tst = /\ttst\tx22, #0x10$/ } END { print n + 0 }'
}
check "the shipped entry.o tests ret_to_user's SPSR for AArch32 once" 1 "$(aarch32_checks "$out/entry.o")"
check_mutant a53-845719 "$m/a53-845719/entry.o" el2 "$(aarch32_checks "$m/a53-845719/entry.o")" b.eq

# The KPTI trampoline switches TTBR1_EL1 into the kernel in tramp_map_kernel (its BIC of USER_ASID_FLAG, which
# objdump shows as an AND with #0xfffeffffffffffff, right before the write), in each vector entry and in SDEI's
# entry trampoline; the shipped entry.o has an E1003 site after each switch and an ISB site in each vector entry
# (each ends in a RET). Without them, each switch is flagged where E1003 is, at its write.
tramp() { aarch64-linux-gnu-objdump -d --no-show-raw-insn -j .entry.tramp.text "$1"; }
maps() {
  tramp "$1" | awk 'clear && /\tmsr\tttbr1_el1, / { n++ } { clear = /\tand\tx[0-9]+, x[0-9]+, #0xfffeffffffffffff$/ }
    END { print n + 0 }'
}
check "the shipped entry.o has an E1003 site after each switch into the kernel and in each vector entry" \
  "$(( $(maps "$out/entry.o") + $(tramp "$out/entry.o" | grep -c $'\tret$') ))" \
  "$(sites "$out/entry.o" ARM64_WORKAROUND_QCOM_FALKOR_E1003)"
check_mutant falkor-e1003 "$m/falkor-e1003/entry.o" el2 "$(maps "$m/falkor-e1003/entry.o")" msr

# __load_stage2()'s ISB is an alternative whose NOP follows each write of a register to VTTBR_EL2 in the
# shipped objects; the mutants have none. Without it KVM writes HCR_EL2 (clearing TGE under VHE, a vcpu's
# traps without) before anything synchronises the stage 2: each mutant is flagged on exactly the models
# with speculative-at, every hazard (the window's paths out of the object are open ends, not hazards) at an
# `msr hcr_el2` objdump shows, among them each that objdump's straight line puts after such a write with no
# ISB between.
# vttbr_nops OBJECT: the writes of a register to VTTBR_EL2 objdump shows, and how many of them a NOP follows.
vttbr_nops() {
  aarch64-linux-gnu-objdump -d --no-show-raw-insn "$1" |
    awk 'v { n += /\tnop$/ } { v = /\tmsr\tvttbr_el2, x[0-9]+$/; w += v } END { print w + 0, n + 0 }'
}
# straight_hcr OBJECT: the first `msr hcr_el2` after each write of a register to VTTBR_EL2, in address order in
# the same function with no ISB or RET between, as SYMBOL+OFFSET.
straight_hcr() {
  aarch64-linux-gnu-objdump -d --no-show-raw-insn "$1" | awk '
    /^[0-9a-f]+ <.*>:$/ { base = $1; sym = substr($2, 2, length($2) - 3); open = 0; next }
    /\tmsr\tvttbr_el2, x[0-9]+$/ { open = 1; next }
    /\t(isb|ret)$/ { open = 0 }
    open && /\tmsr\thcr_el2, / { a = $1; sub(":", "", a); print sym, base, a; open = 0 }' |
    while read -r sym base at; do printf '%s+0x%x\n' "$sym" $(( 16#$at - 16#$base )); done | sort
}
for o in vhe/tlb:el2 vhe/switch:el2 nvhe/switch.nvhe:nvhe; do
  boot=${o#*:}
  o=${o%:*}
  mut=$m/speculative-at/$(basename "$o").o
  name=speculative-at/$(basename "$mut")
  n=$(vttbr_nops "$src/kvm/hyp/$o.o" | cut -d' ' -f1)
  check "the shipped $(basename "$o").o: a NOP after each of its $n stage-2 loads; none in the mutant" \
    "$n $n $n 0" "$(vttbr_nops "$src/kvm/hyp/$o.o") $(vttbr_nops "$mut")"
  t=$work/errata-mutant-speculative-at-$(basename "$mut").txt
  rc=0; "$harness" audit --width 0 "$mut" --model all --boot "$boot" "${inputs[@]}" --erratum speculative-at > "$t" || rc=$?
  check "$name booted $boot: exit 1" 1 "$rc"
  check "$name booted $boot: findings on exactly the models with speculative-at" "$(having speculative-at)" \
    "$(flagged speculative-at "$t")"
  model=$(having speculative-at | cut -d' ' -f1)
  j=$work/errata-mutant-speculative-at-$(basename "$mut").json
  "$harness" audit --width 0 "$mut" --model "$model" --boot "$boot" "${inputs[@]}" --erratum speculative-at \
    --format json > "$j" || true
  hazards=$(jq -r '.errata[0].findings[] | select(.kind != "open") | .where' "$j" | sort -u)
  # The writes the rule names: HCR_EL2, or the EL1&0 regime's TCR and SCTLR (6.12's enter_vmid_context() and
  # exit_vmid_context() write TCR_EL12 and SCTLR_EL12 right after the stage 2).
  for where in $hazards; do
    check "$name: objdump at $where" "a write of HCR_EL2, TCR or SCTLR" \
      "$(insn_at "$mut" "$where" | awk '$1 == "msr" && $2 ~ /^(hcr_el2|tcr_el12?|sctlr_el12?),$/ { print "a write of HCR_EL2, TCR or SCTLR"; next } { print }')"
  done
  expected=$(straight_hcr "$mut")
  check "$name on $model: objdump's HCR_EL2 writes straight after a stage-2 load ($(echo $expected)) are findings" \
    "" "$(comm -23 <(echo "$expected") <(echo "$hazards"))"
  # 6.12's kvm_vcpu_load_vhe() loads the stage 2 and returns; the guest's regime is entered by another call,
  # so switch.o's window is left open (a finding, not a hazard).
  [ -n "$hazards" ] || { [ "$kernel_version" != 6.1 ] && [ "$o" = vhe/switch ]; } ||
    check "$name on $model: a hazard" "at least one" "none"
done

# cpu_do_switch_mm() writes TTBR1_EL1 (the ASID), then TTBR0_EL1, then calls post_ttbr_update_workaround(),
# whose alternative is the shipped context.o's one CAVIUM_27456 site; without it, each TTBR0_EL1 write that
# objdump shows a few instructions after a TTBR1_EL1 write is flagged where 27456 is.
switches() {
  aarch64-linux-gnu-objdump -d --no-show-raw-insn "$1" |
    awk '/\tmsr\tttbr1_el1, / { since = 0 } /\tmsr\tttbr0_el1, / && since < 4 { n++ } { since++ } BEGIN { since = 99 }
      END { print n + 0 }'
}
check "the shipped context.o has one site of the 27456 workaround" 1 \
  "$(sites "$src/mm/context.o" ARM64_WORKAROUND_CAVIUM_27456)"
check_mutant cavium-27456 "$m/cavium-27456/context.o" el2 "$(switches "$m/cavium-27456/context.o")" msr

# 6.12's ptep_modify_prot_start() (mm/mmu.c) and huge_ptep_modify_prot_start() (mm/hugetlbpage.c) each hold one
# ARM64_WORKAROUND_2645198 site; without it, each function is flagged where 2645198 is, at its first instruction.
first_insn() {
  aarch64-linux-gnu-objdump -d --no-show-raw-insn "$1" |
    awk -v f="<$2>:" '$2 == f { getline; sub(/^[^\t]*\t/, ""); split($0, w, "\t"); print w[1]; exit }'
}
if [ "$kernel_version" != 6.1 ]; then
  for o in mmu:ptep_modify_prot_start hugetlbpage:huge_ptep_modify_prot_start; do
    fn=${o#*:}
    o=${o%:*}
    check "the shipped $o.o has one site of the 2645198 workaround" 1 "$(sites "$src/mm/$o.o" ARM64_WORKAROUND_2645198)"
    check_mutant a715-2645198 "$m/a715-2645198/$o.o" el2 1 "$(first_insn "$m/a715-2645198/$o.o" "$fn")"
  done
fi

echo "# $failures failed; total $(( $(date +%s) - start )) s"
[ "$failures" -eq 0 ]
