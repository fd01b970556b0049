#!/usr/bin/env bash
# Audits what arch/arm64/{kernel,mm,kvm}/ of Debian's linux-source-6.1 (or VERSION: 6.12) put into vmlinux (arm64-built-in.o,
# built by build-arm64.sh, KVM included): a correct kernel, so on ThunderX2 and Vulcan, booted at EL2 with
# VHE and with kvm-arm.mode=nvhe, no hazard, no window left open, and every TTBR write classified, KVM's
# writes of the guest's registers as such; the TTBR writes are counted against objdump; and every
# erratum's rule on every model, clean.
#   builtin-audit.sh ERRATA_HARNESS WORKDIR [VERSION]
set -euo pipefail

harness=${1:?usage: builtin-audit.sh ERRATA_HARNESS WORKDIR [VERSION]}
work=${2:?usage: builtin-audit.sh ERRATA_HARNESS WORKDIR [VERSION]}
kernel_version=${3:-6.1}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/check.sh"

kernel_objects "$here" "$work"
# The numbering the tree generated is the built-in one of its version (harness/src/image/cpucaps.c): entry.o's sites
# (no capability tables of its own) name the same capabilities, applied alike, with either.
sites_with() { "$harness" audit --width 0 "$out/entry.o" --list-alternatives --model thunderx2 "$@" | tail -n +3; }
check "entry.o's sites as the tree's cpucaps.h and the built-in $kernel_version numbering name them" "" \
  "$(diff <(sites_with "${inputs[@]}") <(sites_with --kernel "$kernel_version" --config "$out/config"))"

# What GNU objdump sees: the EL1 encodings of the TTBR writes (the EL12 ones also sit in replacement code).
objdump_el1=$(aarch64-linux-gnu-objdump -d "$obj" | grep -cE $'\tmsr\tttbr[01]_el1, ' || true)
echo "# objdump: $objdump_el1 writes of TTBR0/1_EL1"
[ "$objdump_el1" -gt 0 ] || { echo "not ok - objdump found no TTBR write"; exit 1; }

classes='"live EL1&0", "live EL2&0 (VHE)", "guest EL1&0 from EL2"'
# What erratum 219's rule found, in an audit's JSON.
e219='(.errata[] | select(.erratum == "tx2-219"))'
for boot in el2 nvhe; do
  for model in thunderx2 vulcan; do
    j=$work/builtin-$model-$boot.json
    rc=0; "$harness" audit --width 0 "$obj" --model "$model" --boot "$boot" "${inputs[@]}" --format json > "$j" || rc=$?
    check "$model booted $boot: exit 0" 0 "$rc"
    check "$model booted $boot: findings, hazards, windows left open" "0 0 0" \
      "$(jq -r "$e219"' | "\(.findings | length) \(.hazards) \(.open)"' "$j")"
    check "$model booted $boot: every TTBR write classified" "$(jq "$e219"'.windows | length' "$j")" \
      "$(jq "[$e219.windows[] | select(.class | IN($classes)) | select(.why != null and .why != \"\")] | length" "$j")"
    check "$model booted $boot: KVM's writes are the guest's" \
      "$(jq "[$e219"'.windows[] | select(.where | test("kvm"))] | length' "$j")" \
      "$(jq "[$e219"'.windows[] | select((.where | test("kvm")) and .class == "guest EL1&0 from EL2")] | length' "$j")"
    check "$model booted $boot: the hyp stub's switch to VHE is live" "2" \
      "$(jq "[$e219"'.windows[] | select((.where | startswith("__finalise_el2+")) and .class == "live EL2&0 (VHE)")] | length' "$j")"
  done
done
check "KVM writes some guest TTBRs (the classification is exercised)" true \
  "$(jq "[$e219"'.windows[] | select(.class == "guest EL1&0 from EL2")] | length > 0' "$work/builtin-thunderx2-el2.json")"
check "kernel code at EL2&0 under VHE" "live EL2&0 (VHE)" \
  "$(jq -r "[$e219"'.windows[] | select(.where | startswith("cpu_do_switch_mm+"))][0].class' "$work/builtin-thunderx2-el2.json")"
check "kernel code at EL1&0 with kvm-arm.mode=nvhe" "live EL1&0" \
  "$(jq -r "[$e219"'.windows[] | select(.where | startswith("cpu_do_switch_mm+"))][0].class' "$work/builtin-thunderx2-nvhe.json")"

# Where nothing is patched to the EL12 encodings (no VHE), the EL1 writes are objdump's.
"$harness" audit --width 0 "$obj" --model cortex-a72 --boot el1 "${inputs[@]}" --format json > "$work/builtin-a72-el1.json" || true
check "TTBR0/1_EL1 writes found, as objdump counts them" "$objdump_el1" \
  "$(jq "[$e219"'.windows[] | select(.text | test("^msr ttbr[01]_el1, "))] | length' "$work/builtin-a72-el1.json")"

# Several models in one call: one line each in the matrix, exit 0.
# In 6.12, Cortex-A72 has speculative-at's window of KVM's AT emulation (tests/kernel/kvm-at-restore.suppress).
kvm_at_suppress "$kernel_version"
rc=0; "$harness" audit --width 0 "$obj" --model thunderx2,vulcan,cortex-a72 "${inputs[@]}" "${at_sup[@]}" \
  > "$work/builtin-all.txt" || rc=$?
check "thunderx2, vulcan and cortex-a72 in one call: exit 0" 0 "$rc"
check "one matrix line each for erratum 219" 3 "$(grep -cE '^tx2-219 +(thunderx2|vulcan|cortex-a72) ' "$work/builtin-all.txt" || true)"
check "... clean where it shows, not affected elsewhere" "clean clean not affected" \
  "$(grep -E '^tx2-219 +(thunderx2|vulcan|cortex-a72) ' "$work/builtin-all.txt" | sed -E 's/^([^ ]+ +){5} //' | paste -sd' ')"

# Every model of the registry, every erratum with a static rule, each boot mode: the unmodified kernel
# is clean for every erratum on every model it affects (a finding here is the harness's bug), exit 0;
# on a model an erratum does not affect its workaround is not patched in, and what the rule sees there
# counts as no hazard.
registry_counts "$harness"
for boot in el2 nvhe el1; do
  j=$work/builtin-all-$boot.json
  # Booted nvhe, the nVHE host vector's unbracketed PAR_EL1 reads are suppressed with their reason; in
  # 6.12, KVM's AT emulation's restore of VTTBR_EL2 too (tests/kernel/kvm-at-restore.suppress says why).
  files=()
  [ "$boot" != nvhe ] || files+=("$here/nvhe-host-vector.suppress")
  [ -z "$at_sup_file" ] || files+=("$at_sup_file")
  sup=()
  [ ${#files[@]} = 0 ] || { cat "${files[@]}" > "$work/builtin-$boot.suppress"; sup=(--suppress "$work/builtin-$boot.suppress"); }
  rc=0; "$harness" audit --width 0 "$obj" --model all --boot "$boot" "${inputs[@]}" "${sup[@]}" --format json > "$j" || rc=$?
  check "every model booted $boot: exit 0" 0 "$rc"
  check "every model booted $boot: one matrix row per erratum and model" "$((nmodels * nerrata))" \
    "$(jq '.matrix | length' "$j")"
  check "every model booted $boot: no finding for any erratum on any model" 0 \
    "$(jq '[.matrix[] | select(.hazards > 0 or (.affected and .open > 0) or (.status | IN("clean", "not affected", "not exposed", "not in kernel") | not))]
           | length' "$j")"
  # Systems of cores (models/systems.c) are among them: repeat-tlbi affects a core of system-a55-a76 (both)
  # and of system-a510-a710 (both), the A53 errata the A53 r0p4 of system-a53-a72.
  check "every model booted $boot: the systems' rows where a core has repeat-tlbi or an A53 erratum" \
    "a53-835769 system-a53-a72 clean,a53-843419 system-a53-a72 clean,repeat-tlbi system-a510-a710 clean,repeat-tlbi system-a55-a76 clean" \
    "$(jq -r '.matrix[] | select((.model | startswith("system-")) and .affected and
                                 (.erratum | IN("repeat-tlbi", "a53-843419", "a53-835769")))
              | "\(.erratum) \(.model) \(.status)"' "$j" | sort | paste -sd,)"
done

# Every report above as harness/schema/audit-v1.json says.
# One object of the tree alone: cpu_errata.o's Spectre-v2 entry names has_spectre_v2, which
# proton-pack.o defines (a relocation against an undefined symbol still names the function).
rc=0
"$harness" audit "$work/linux-source-$kernel_version/arch/arm64/kernel/cpu_errata.o" --model thunderx2 \
  --cpucaps "$out/cpucaps.h" > "$work/cpu-errata-audit.txt" 2>&1 || rc=$?
check "cpu_errata.o alone on thunderx2: exit 0" 0 "$rc"

check "the audit's JSON reports conform to its schema" ok \
  "$("$here/../check-schema.py" "$here/../../harness/schema/audit-v1.json" "$work"/builtin-*.json \
     > "$work/schema.txt" && echo ok || cat "$work/schema.txt")"

echo "# $failures failed; total $(( $(date +%s) - start )) s"
[ "$failures" -eq 0 ]
