#!/usr/bin/env bash
# Debian's arm64 cloud kernel of the current 6.1 ABI (or of SERIES 6.12), as Debian ships it (the vmlinux of its -dbg
# package and the /boot/config of its image package, fetched once into WORKDIR/debian): audited with
# no numbering option, the capabilities of its alternatives are named as its source names them
# (the numbering read from its own arm64_features[] and arm64_errata[]), no hazard is left on
# ThunderX2 and Vulcan, every model is clean for every erratum with a static rule but Cortex-A53
# erratum 835769, found on exactly the models it affects (compiled without the compiler's workaround),
# and a numbering that disagrees is refused. Skipped, saying why,
# when the arm64 archive cannot be reached.
#   debian-vmlinux.sh ERRATA_HARNESS WORKDIR [SERIES]
set -uo pipefail

harness=${1:?usage: debian-vmlinux.sh ERRATA_HARNESS WORKDIR [SERIES]}
work=${2:?usage: debian-vmlinux.sh ERRATA_HARNESS WORKDIR [SERIES]}
series=${3:-6.1}
here=$(cd "$(dirname "$0")" && pwd)
failures=0

. "$here/debian-kernel.sh"
"$here/../../harness/install-packages" binutils-aarch64-linux-gnu python3 >&2 || exit 1
if ! debian_kernel "$work" "$series"; then
  echo "SKIP: Debian's arm64 kernel cannot be fetched: $skip_reason"
  exit 77
fi
echo "# $vmlinux"

. "$here/check.sh"

# The trampoline's text (tramp_vectors and friends, between the linker script's markers), and what
# GNU objdump sees there.
lo=$(aarch64-linux-gnu-nm "$vmlinux" | awk '$3 == "__entry_tramp_text_start" { print $1 }')
hi=$(aarch64-linux-gnu-nm "$vmlinux" | awk '$3 == "__entry_tramp_text_end" { print $1 }')
[ -n "$lo" ] && [ -n "$hi" ] || { echo "not ok - $vmlinux has no __entry_tramp_text_start/_end"; exit 1; }
prfms=$(aarch64-linux-gnu-objdump -d --start-address="0x$lo" --stop-address="0x$hi" "$vmlinux" |
  grep -c $'\tprfm\tplil1strm')
check "objdump finds PRFMs in the trampoline" 1 "$((prfms > 0))"

rc=0
"$harness" audit --width 0 "$vmlinux" --model thunderx2 --config "$config" --list-alternatives --format json \
  > "$work/debian-list.json" || rc=$?
check "audit --list-alternatives with no numbering option: exit status" 0 "$rc"
# In the trampoline: each site's capability, by what its original instruction is.
python3 - "$work/debian-list.json" "$lo" "$hi" > "$work/debian-tramp.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
lo, hi = int(sys.argv[2], 16), int(sys.argv[3], 16)
print("numbering", doc["cpucaps"])
for s in doc["sites"]:
    if lo <= int(s["address"], 16) < hi:
        print(s["original"].split()[0], s["capability"])
PY
# The release its linux_banner names is the package's ABI (UTS_RELEASE): its rules decide.
check "numbered by the image's own tables, the rules of the release its banner names" \
  "numbering $vmlinux (its arm64_features[] and arm64_errata[]; Linux $abi by its linux_banner)" \
  "$(head -1 "$work/debian-tramp.txt")"
check "PRFM sites in the trampoline, all ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM (objdump counts the PRFMs)" \
  "$prfms" "$(grep -c '^prfm ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM$' "$work/debian-tramp.txt")"
check "... and no PRFM site named otherwise" 0 "$(grep '^prfm ' "$work/debian-tramp.txt" | grep -vc 'TX2_219_PRFM$')"
check "the ISB after each tramp_map_kernel: ARM64_WORKAROUND_QCOM_FALKOR_E1003" \
  "$prfms" "$(grep -c '^isb ARM64_WORKAROUND_QCOM_FALKOR_E1003$' "$work/debian-tramp.txt")"

# The audit itself, numbered by the image and configured by its own .config: no hazard and no window
# left open on ThunderX2 and Vulcan, booted as a VHE host and with kvm-arm.mode=nvhe.
for boot in el2 nvhe; do
  rc=0
  "$harness" audit --width 0 "$vmlinux" --model thunderx2,vulcan --config "$config" --boot "$boot" --format json \
    > "$work/debian-audit-$boot.json" || rc=$?
  check "audit on thunderx2 and vulcan booted at $boot: exit status" 0 "$rc"
  check "... erratum 219's findings, hazards and open windows, by model" \
    "tx2-219 thunderx2 clean 0 0 0 tx2-219 vulcan clean 0 0 0" \
    "$(python3 -c 'import json, sys
print(" ".join("%s %s %s %d %d %d" % (m["erratum"], m["model"], m["status"], m["flagged"], m["hazards"], m["open"])
               for m in json.load(open(sys.argv[1]))["matrix"] if m["erratum"] == "tx2-219"))' \
      "$work/debian-audit-$boot.json")"
done

# Every model of the registry, for every erratum with a static rule, one matrix row per erratum and
# model. Debian's kernel is correct for every erratum the kernel works around itself; Cortex-A53
# erratum 835769 it leaves to the compiler, and gcc 12 does not apply -mfix-cortex-a53-835769 by default
# nor does 6.1 or 6.12 ask for it: the kernel Debian ships has 64-bit multiply-accumulates right after a load,
# store or prefetch, so the only findings are a53-835769's, on exactly the models that erratum affects
# (as `models` lists them), exit 1. It is linked with GNU ld's --fix-cortex-a53-843419
# (CONFIG_ARM64_ERRATUM_843419), so a53-843419 is clean like the rest.
registry_counts "$harness"
a53_835769=$("$harness" models | awk '/^[a-z0-9]/ { m = $1 } /^  errata:/ { for (i = 2; i <= NF; i++)
  if ($i == "a53-835769") print m }' | sort | paste -sd' ')
# In 6.12, KVM's AT emulation restores VTTBR_EL2 with TGE set, which the rule cannot see: suppressed with
# its reason (tests/kernel/kvm-at-restore.suppress, docs/capabilities.md, "Kernel versions").
kvm_at_suppress "$series"
rc=0
"$harness" audit --width 0 "$vmlinux" --model all --config "$config" "${at_sup[@]}" --format json \
  > "$work/debian-audit-all.json" || rc=$?
check "audit on every model: exit status (erratum 835769's findings)" 1 "$rc"
python3 - "$work/debian-audit-all.json" > "$work/debian-audit-all.txt" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["matrix"]
print(len(m))
# Rows with a hazard, a window left open where the erratum affects the model, or a status other than
# clean / not affected / not exposed (on a model an erratum does not affect, its workaround is not
# patched in, and what the rule sees there is no hazard), but for a53-835769, whose rows are read by
# status: the models it shows on, and those with findings.
print(sum(1 for r in m if r["erratum"] != "a53-835769" and not r["configured_out"] and
          (r["hazards"] or (r["affected"] and r["open"]) or
           r["status"] not in ("clean", "not affected", "not exposed", "not in kernel"))))
print(" ".join(sorted(r["model"] for r in m if r["erratum"] == "a53-835769" and r["shows"])))
print(" ".join(sorted(r["model"] for r in m if r["erratum"] == "a53-835769" and r["status"] == "findings")))
print(min([r["flagged"] for r in m if r["erratum"] == "a53-835769" and r["status"] == "findings"] or [0]))
# The other findings: each on a model whose line of its capability's list the config leaves out.
print(" ".join(sorted(r["erratum"] + ":" + r["model"] for r in m
                      if r["erratum"] != "a53-835769" and r["configured_out"] and r["hazards"])))
PY
check "... one matrix row per erratum and model" "$((nmodels * nerrata))" "$(sed -n 1p "$work/debian-audit-all.txt")"
check "... every erratum but a53-835769: no finding on any model" 0 "$(sed -n 2p "$work/debian-audit-all.txt")"
check "... a53-835769 shows on the models that have it" "$a53_835769" "$(sed -n 3p "$work/debian-audit-all.txt")"
check "... findings on exactly those models" "$a53_835769" "$(sed -n 4p "$work/debian-audit-all.txt")"
# 6.1's config builds every line of arm64_repeat_tlbi_list[]. 6.12's Kconfig says "If unsure, say N" for
# ARM64_ERRATUM_2441007 (Cortex-A55), 2441009 (Cortex-A510 r0p0-r1p1) and 1286807 (Cortex-A76 r0p0-r3p0 and
# Kryo 4xx Gold rcpe to rfpe), and Debian's config leaves them off: the
# kernel does not repeat TLBIs there (docs/audit.md, "On real kernels", kernel-debian-vmlinux-6.12).
if [ "$series" = 6.1 ]; then
  configured_out=""
else
  configured_out="repeat-tlbi:cortex-a510-r1p1 repeat-tlbi:cortex-a55-r2p0 repeat-tlbi:kryo4xx-gold-rcpe repeat-tlbi:kryo4xx-gold-rfpe"
  check "Debian's $series config leaves the three rare TLBI errata out" "3" \
    "$(grep -cE '^# CONFIG_ARM64_ERRATUM_(2441007|2441009|1286807) is not set' "$config")"
fi
check "... findings of other errata only where the config leaves the model out of the workaround" \
  "$configured_out" "$(sed -n 6p "$work/debian-audit-all.txt")"
pairs=$(sed -n 5p "$work/debian-audit-all.txt")
check "... each of them with findings" true "$([ "$pairs" -gt 0 ] && echo true || echo false)"
echo "# Debian's vmlinux: at least $pairs multiply-accumulates right after a load, store or prefetch"

# The report's text: a summary of at most 60 lines (12 errata x 40 models, 835769's pairs on five of
# them: a few sites shown), every cell with --all. 6.12's second erratum with hazards, repeat-tlbi where
# the config leaves the CPUs out, adds its paragraph: 80 lines.
lines=60 hazards=a53-835769
[ "$series" = 6.1 ] || { lines=80; hazards="repeat-tlbi a53-835769"; }
rc=0; "$harness" report "$vmlinux" --config "$config" "${at_sup[@]}" > "$work/debian-report.txt" || rc=$?
check "report: exit status 1 (erratum 835769's findings), at most $lines lines of 80 columns" "1 0 0" \
  "$rc $([ "$(wc -l < "$work/debian-report.txt")" -le $lines ]; echo $?) $(awk 'length > 80' "$work/debian-report.txt" | wc -l)"
check "... a53-835769's hazards on the models that have it, and no other erratum's but those configured out" "$hazards" \
  "$(awk '/^erratum +on the models it affects$/ { f = 1; next } f && /^$/ { exit } f && /^[^ ]/ && / hazards / { print $1 }' \
     "$work/debian-report.txt" | paste -sd' ')"
"$harness" report "$vmlinux" --config "$config" --all --width 0 > "$work/debian-report-all.txt" || true
check "report --all: a line per erratum and model" "$((nmodels * nerrata))" \
  "$(grep -cE '^[a-z0-9-]+ +[a-z0-9-]+ +[0-9]+  ' "$work/debian-report-all.txt")"

check "the audit's JSON reports conform to its schema" ok \
  "$("$here/../check-schema.py" "$here/../../harness/schema/audit-v1.json" "$work"/debian-{list,audit-*}.json \
     > "$work/schema.txt" && echo ok || cat "$work/schema.txt")"

# A numbering that disagrees with the image: the tree's own numbering with PRFM and TVM swapped,
# as a stable release adding a capability before them would shift them, is refused by name.
. "$here/kernel-tree.sh"
kernel_version=$series
kernel_tree "$work" debian-vmlinux >/dev/null
awk -f "$src/arch/arm64/tools/gen-cpucaps.awk" "$src/arch/arm64/tools/cpucaps" > "$work/cpucaps-tree.h"
prfm=$(awk '$2 == "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM" { print $3 }' "$work/cpucaps-tree.h")
tvm=$(awk '$2 == "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM" { print $3 }' "$work/cpucaps-tree.h")
sed -e "s/\\(ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM\\s\\+\\)$prfm\$/\\1$tvm/" \
    -e "s/\\(ARM64_WORKAROUND_CAVIUM_TX2_219_TVM\\s\\+\\)$tvm\$/\\1$prfm/" "$work/cpucaps-tree.h" > "$work/cpucaps-swapped.h"
rc=0
"$harness" audit --width 0 "$vmlinux" --model thunderx2 --config "$config" --cpucaps "$work/cpucaps-swapped.h" \
  > /dev/null 2> "$work/debian-refused.txt" || rc=$?
check "a numbering with PRFM and TVM swapped: exit status" 2 "$rc"
check "... refused naming the first capability that disagrees" \
  "errata-harness audit: ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM is capability $prfm in $vmlinux (its arm64_features[] and arm64_errata[]; Linux $abi by its linux_banner), but $tvm in $work/cpucaps-swapped.h" \
  "$(cat "$work/debian-refused.txt")"
# The built-in 6.1 numbering is 6.1.192's, 6.12's 6.12.118's: accepted when Debian ships that release,
# refused otherwise.
case $series in 6.1) builtin_release=6.1.192 ;; 6.12) builtin_release=6.12.118 ;; esac
rc=0
"$harness" audit --width 0 "$vmlinux" --model thunderx2 --config "$config" --kernel "$series" > /dev/null \
  2> "$work/debian-kernel-builtin.txt" || rc=$?
case $version in
  "$builtin_release"-*) check "--kernel $series on $builtin_release ($version): accepted" 0 "$rc" ;;
  *) check "--kernel $series on $version: refused" 2 "$rc"
     check "... naming a capability" 1 "$(grep -c 'is capability [0-9]* in .*, but' "$work/debian-kernel-builtin.txt")" ;;
esac

[ "$failures" = 0 ] || { echo "# $failures failed"; exit 1; }
