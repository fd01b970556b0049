#!/usr/bin/env bash
# Audits a real kernel object: Debian's linux-source-6.1 arch/arm64/kernel/entry.o (arm64 defconfig,
# KPTI, erratum 219 workaround), a copy built without the ISB after the trampoline's TTBR1_EL1 write,
# that copy with CONFIG_CAVIUM_TX2_ERRATUM_219 off, and a copy whose trampoline PRFM left its
# alternative with the ISB moved after it; every count is checked against objdump.
#   entry-audit.sh ERRATA_HARNESS WORKDIR
set -euo pipefail

harness=${1:?usage: entry-audit.sh ERRATA_HARNESS WORKDIR}
work=${2:?usage: entry-audit.sh ERRATA_HARNESS WORKDIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/check.sh"

start=$(date +%s)
"$here/build-entry.sh" "$work"
echo "# kernel objects ready in $(( $(date +%s) - start )) s"
out=$(cd "$work/out" && pwd)
caps=(--cpucaps "$out/cpucaps.h")

# audit OUTFILE ARGS...: run the audit, keep its JSON, return its exit status.
audit() {
  local file=$1 rc=0
  shift
  "$harness" audit --width 0 "$@" --format json > "$file" || rc=$?
  return $rc
}
# jq definitions over an audit's JSON: e219, what erratum 219's rule found; tramp(k; t), the trampoline
# windows (their TTBR writes) that hold a finding of kind k whose text starts with t.
defs='def e219: .errata[] | select(.erratum == "tx2-219");
      def tramp(k; t): [e219.findings[] | select((.anchor // "" | startswith("tramp_vectors+")) and .kind == k
                                                  and (.text | startswith(t))) | .anchor] | unique;'

# What objdump sees in the same objects (GNU binutils, not our decoder).
dis=$work/entry.dis
aarch64-linux-gnu-objdump -d -r "$out/entry.o" > "$dis"
objdump_ttbr=$(grep -cE $'\tmsr\tttbr[01]_el1, x' "$dis" || true)
in_tramp() { awk '/^[0-9a-f]+ <tramp_vectors>:/{f=1;next} /^[0-9a-f]+ </{f=0} f' "$dis"; }
objdump_tramp_ttbr=$(in_tramp | grep -cE $'\tmsr\tttbr1_el1, x30' || true)
objdump_tramp_prfm=$(in_tramp | grep -cE $'\tprfm\tplil1strm' || true)
echo "# objdump: $objdump_ttbr TTBR writes, $objdump_tramp_ttbr in tramp_vectors, $objdump_tramp_prfm trampoline PRFMs"
[ "$objdump_tramp_ttbr" -gt 0 ] || { echo "not ok - objdump found no trampoline"; exit 1; }

# 1. The object as built, on ThunderX2: every TTBR write found, every trampoline window closed by an ISB.
rc=0; audit "$work/tx2.json" "$out/entry.o" --model thunderx2 "${caps[@]}" || rc=$?
check "entry.o on thunderx2 exits 0" 0 "$rc"
j=$work/tx2.json
check "TTBR writes found, as objdump counts" "$objdump_ttbr" "$(jq "$defs"'[e219.windows[]] | length' "$j")"
check "trampoline TTBR1 writes" "$objdump_tramp_ttbr" \
  "$(jq "$defs"'[e219.windows[] | select(.where | startswith("tramp_vectors+"))] | length' "$j")"
check "trampoline windows closed by an ISB on every path, nothing inside" "$objdump_tramp_ttbr" \
  "$(jq "$defs"'[e219.windows[] | select((.where | startswith("tramp_vectors+")) and .findings == 0
          and (.ends | length) > 0 and (.ends | all(.kind == "closed" and (.text | startswith("isb")))))] | length' "$j")"
check "no finding in entry.o on thunderx2" 0 "$(jq "$defs"'[e219.findings[]] | length' "$j")"
check "hazards in entry.o on thunderx2" 0 "$(jq "$defs"'e219.hazards' "$j")"
check "windows left open in entry.o" 0 "$(jq "$defs"'e219.open' "$j")"

# 2. The alternatives: each trampoline PRFM is a site on ..._TX2_219_PRFM, NOPed on thunderx2 only.
prfm='select(.capability == "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM" and (.where | startswith("tramp_vectors+"))
        and (.original | startswith("prfm plil1strm")))'
for model in thunderx2 cortex-a72; do
  audit "$work/list-$model.json" "$out/entry.o" --model "$model" "${caps[@]}" --list-alternatives
done
check "PRFM sites on thunderx2, as objdump counts" "$objdump_tramp_prfm" \
  "$(jq "[.sites[] | $prfm] | length" "$work/list-thunderx2.json")"
check "PRFM sites applied (NOP) on thunderx2" "$objdump_tramp_prfm" \
  "$(jq "[.sites[] | $prfm | select(.applied and .patched == \"nop\")] | length" "$work/list-thunderx2.json")"
check "PRFM sites not applied on cortex-a72" "$objdump_tramp_prfm" \
  "$(jq "[.sites[] | $prfm | select((.applied | not) and (.patched | startswith(\"prfm\")))] | length" \
     "$work/list-cortex-a72.json")"
check "callbacks named by their function" 0 \
  "$(jq '[.sites[] | select(.callback != null and (.callback | test("^[A-Za-z_][A-Za-z0-9_]*$") | not))] | length' \
     "$work/list-thunderx2.json")"

# 3. Without the ISB after tramp_map_kernel: the vectors load sits in every trampoline window.
tramp_loads=$defs'tramp("load"; "ldr x30") | length'
tramp_prfms=$defs'tramp("prefetch"; "prfm plil1strm") | length'
rc=0; audit "$work/noisb-tx2.json" "$out/entry-noisb.o" --model thunderx2 "${caps[@]}" || rc=$?
check "entry.o without the ISB on thunderx2 exits 1" 1 "$rc"
check "vectors load reported in every trampoline window" "$objdump_tramp_ttbr" "$(jq "$tramp_loads" "$work/noisb-tx2.json")"
check "no PRFM left in a window on thunderx2 (patched away)" 0 "$(jq "$tramp_prfms" "$work/noisb-tx2.json")"

rc=0; audit "$work/noisb-no219.json" "$out/entry-noisb.o" --model thunderx2 "${caps[@]}" \
  --config "$out/config-no219" || rc=$?
check "without the ISB, erratum 219 configured out: exit 1" 1 "$rc"
check "... and the workaround reported configured out" true "$(jq "$defs"'e219.configured_out' "$work/noisb-no219.json")"
check "vectors load still reported" "$objdump_tramp_ttbr" "$(jq "$tramp_loads" "$work/noisb-no219.json")"
check "PRFM reported in every trampoline window" "$objdump_tramp_ttbr" "$(jq "$tramp_prfms" "$work/noisb-no219.json")"

rc=0; audit "$work/noisb-a72.json" "$out/entry-noisb.o" --model cortex-a72 "${caps[@]}" || rc=$?
check "without the ISB on cortex-a72 (no erratum 219): exit 0" 0 "$rc"

# 4. The PRFM out of its alternative and the ISB after it: the vectors load and the PRFM sit in every
#    trampoline window, on every model; they are hazards where erratum 219 shows, and only there.
both=$defs'tramp("load"; "ldr x30") as $l | $l - ($l - tramp("prefetch"; "prfm plil1strm")) | length'
rc=0; audit "$work/prfm-isb-tx2.json" "$out/entry-prfm-isb.o" --model thunderx2 "${caps[@]}" || rc=$?
check "PRFM moved before the ISB on thunderx2: exit 1" 1 "$rc"
check "its load and PRFM in every trampoline window, as objdump counts them" "$objdump_tramp_ttbr" \
  "$(jq "$both" "$work/prfm-isb-tx2.json")"
check "two hazards in each trampoline window on thunderx2" "$((2 * objdump_tramp_ttbr))" \
  "$(jq "$defs"'e219.hazards' "$work/prfm-isb-tx2.json")"
rc=0; audit "$work/prfm-isb-a72.json" "$out/entry-prfm-isb.o" --model cortex-a72 "${caps[@]}" || rc=$?
check "PRFM moved before the ISB on cortex-a72 (no erratum 219): exit 0" 0 "$rc"
check "no hazard on cortex-a72, the same accesses in the windows" "0 $((2 * objdump_tramp_ttbr))" \
  "$(jq -r "$defs"'e219 | "\(.hazards) \(.flagged)"' "$work/prfm-isb-a72.json")"

# Every report above as harness/schema/audit-v1.json says.
check "the audit's JSON reports conform to its schema" ok \
  "$("$here/../check-schema.py" "$here/../../harness/schema/audit-v1.json" "$work"/{tx2,list-*,noisb-*,prfm-isb-*}.json \
     > "$work/schema.txt" && echo ok || cat "$work/schema.txt")"

echo "# $failures failed; total $(( $(date +%s) - start )) s"
[ "$failures" -eq 0 ]
