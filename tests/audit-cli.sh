#!/usr/bin/env bash
# The audit command's contract: exit 0 clean, 1 hazard on an affected model, 2 bad usage or input
# with a message that names the file; run on the test objects of tests/objects/.
#   audit-cli.sh ERRATA_HARNESS TEST_OBJ_DIR
set -uo pipefail

eh=${1:?usage: audit-cli.sh ERRATA_HARNESS TEST_OBJ_DIR}
objs=${2:?usage: audit-cli.sh ERRATA_HARNESS TEST_OBJ_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

. "$(dirname "$0")/expect.sh"

rel=$objs/rel61.o
head -c 100 "$rel" > "$tmp/truncated.o"
printf '#define ARM64_A 0\n#define ARM64_A 1\n#define ARM64_NCAPS 2\n' > "$tmp/dup-cpucaps.h"
printf 'CONFIG_X=y\nthis is not a config line\n' > "$tmp/bad.config"

expect "help explains the inputs" 0 "--cpucaps H.*" "$eh" audit --width 0 --help
expect "help names ET_REL" 0 "ET_REL" "$eh" audit --width 0 --help
expect "hazards on thunderx2: exit 1" 1 "HAZARD load +win_prfm\+0x4" "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1
expect "clean object on thunderx2: exit 0" 0 "2 TTBR writes, 0 hazards, 0 windows not closed" \
  "$eh" audit --width 0 "$objs/clean.o" --model thunderx2 --kernel 6.1
expect "window left by an indirect branch on thunderx2: exit 1" 1 "OPEN at switch_and_jump\+0x4: indirect branch, br x1" \
  "$eh" audit --width 0 "$objs/open.o" --model thunderx2 --kernel 6.1
expect "same object on cortex-a72 (no erratum 219): exit 0" 0 "erratum tx2-219 does not affect cortex-a72" \
  "$eh" audit --width 0 "$rel" --model cortex-a72 --kernel 6.1
expect "json output" 1 '^\{"format": "errata-harness-audit", "schema_version": 1, .*"file": .*"errata": \[\{"erratum": "tx2-219", .*"flagged": 7, "hazards": 5, "open": 2, "suppressed": 0,' "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --format json
expect "each finding in JSON names its erratum, anchor and explanation" 1 \
  '\{"erratum": "tx2-219", "kind": "load", "address": "0x[0-9a-f]{16}", "where": "win_prfm\+0x4", "anchor": "win_prfm\+0x0", "anchor_address": "0x[0-9a-f]{16}", "text": "ldr x30, [^"]*", "explanation": "an access between a write of the live TTBR' \
  "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --format json
expect "--erratum names the rules to run" 1 "HAZARD load +win_prfm\+0x4" \
  "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --erratum tx2-219
expect "--erratum with an unknown id: exit 2" 2 "unknown erratum 'tx2-218'" \
  "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --erratum tx2-219,tx2-218
expect "--erratum with an empty name: exit 2" 2 "--erratum: 'tx2-219,' is not a list of names" \
  "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --erratum tx2-219,
expect "--erratum with --list-alternatives: exit 2" 2 "--list-alternatives runs no erratum's rule" \
  "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --erratum tx2-219 --list-alternatives
expect "help lists the errata with a static rule" 0 "^  tx2-219 +Cavium ThunderX2 erratum 219" "$eh" audit --width 0 --help
expect "alternatives listed with callback names" 0 "callback my_patch_cb" \
  "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --list-alternatives
expect "PRFM site applied on thunderx2" 0 "prfm_site\+0x0 +ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM +applied: prfm plil1strm, \[x30, #0x400\] -> nop" \
  "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --list-alternatives
expect "the PRFM site's capability with the rule that decided it" 0 \
  "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM: 2 sites, detected \(hand rule\)~ +MIDR_EL1 in Broadcom Vulcan, Cavium ThunderX2 \(MIDR_EL1 0x431f0af1\)" \
  tr '\n' '~' < <("$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --list-alternatives)
expect "... and not on cortex-a72" 0 "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM: 2 sites, not detected" \
  "$eh" audit --width 0 "$rel" --model cortex-a72 --kernel 6.1 --list-alternatives
expect "truncated file: exit 2 naming it" 2 "truncated.o: " "$eh" audit --width 0 "$tmp/truncated.o" --model thunderx2 --kernel 6.1
expect "x86-64 ELF: exit 2 naming it" 2 "errata-harness: ELF machine 62, expected AArch64" \
  "$eh" audit --width 0 "$eh" --model thunderx2 --kernel 6.1
expect "missing file: exit 2" 2 "nonexistent.o: cannot open" "$eh" audit --width 0 "$tmp/nonexistent.o" --model thunderx2 --kernel 6.1
expect "cpucaps with a duplicate: exit 2 naming file and line" 2 "dup-cpucaps.h:2: capability defined twice" \
  "$eh" audit --width 0 "$rel" --model thunderx2 --cpucaps "$tmp/dup-cpucaps.h"
expect "bad .config: exit 2 naming file and line" 2 "bad.config:2:" \
  "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --config "$tmp/bad.config"
expect "unknown model: exit 2" 2 "unknown model 'z80'" "$eh" audit --width 0 "$rel" --model z80 --kernel 6.1
expect "unknown kernel: exit 2" 2 "no built-in capability table for '3.0'" "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 3.0
expect "an object without capability tables needs a numbering: exit 2" 2 \
  "rel61.o has no capability tables \(arm64_features\[\], arm64_errata\[\]\): give its capability numbering" \
  "$eh" audit --width 0 "$rel" --model thunderx2
expect "both --cpucaps and --kernel: exit 2" 2 "--cpucaps and --kernel both give the capability numbering" \
  "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --cpucaps "$tmp/dup-cpucaps.h"
# An image carrying its own tables (tests/objects/captables.S): numbered by them, and a numbering
# given that differs is refused at the first capability that disagrees.
expect "numbering read from the image: the renumbered PRFM site applied on thunderx2" 0 \
  "prfm_site\+0x4 +ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM +applied" \
  "$eh" audit --width 0 "$objs/captables.elf" --model thunderx2 --list-alternatives
expect "... numbered as in the image's own tables" 0 "numbered as in .*captables.elf \(its arm64_features\[\] and arm64_errata\[\]\)" \
  "$eh" audit --width 0 "$objs/captables.elf" --model thunderx2 --list-alternatives
# Its entry's is_affected_midr_range_list has no list (the test table holds none): uncertain, and why.
expect "... a capability no rule names listed as uncertain, with the value assumed" 0 \
  "\"Frobnicator erratum 42\": 1 site, not detected \(uncertain\)~ +is_affected_midr_range_list\(\) over data the image does not hold; assumed:[~ ]+not detected" \
  tr '\n' '~' < <("$eh" audit --width 0 "$objs/captables.elf" --model thunderx2 --list-alternatives)
expect "... and in JSON each site with the rule that decided it" 0 \
  '"decided_by": "MIDR_EL1 in Broadcom Vulcan, Cavium ThunderX2 \(MIDR_EL1 0x431f0af1\)"' \
  "$eh" audit --width 0 "$objs/captables.elf" --model thunderx2 --list-alternatives --format json
expect "a wrong --kernel 6.1 on that image: exit 2 naming the first that disagrees" 2 \
  "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM is capability 75 in .*captables.elf \(its arm64_features\[\] and arm64_errata\[\]\), but 74 in linux-6.1" \
  "$eh" audit --width 0 "$objs/captables.elf" --model thunderx2 --kernel 6.1
expect "no model: exit 2" 2 "--model is required" "$eh" audit --width 0 "$rel" --kernel 6.1
expect "bad format: exit 2" 2 "neither text nor json" "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --format xml
expect "overlapping alternatives: exit 2" 2 "overlap.o: alternative sites overlap" \
  "$eh" audit --width 0 "$objs/overlap.o" --model thunderx2 --kernel 6.1

# Two builds compared: the baseline should be what the change goes into (docs/audit.md, "Comparing builds").
expect "baseline: hazards introduced, exit 1" 1 "INTRODUCED tx2-219 load +win_prfm\+0x4 \(anchor win_prfm\+0x0\): ldr x30" \
  "$eh" audit --width 0 "$rel" --baseline "$objs/clean.o" --model thunderx2 --kernel 6.1
expect "baseline: report names both builds" 1 "audit of .*rel61.o against the baseline .*clean.o" \
  "$eh" audit --width 0 "$rel" --baseline "$objs/clean.o" --model thunderx2 --kernel 6.1
expect "baseline swapped: hazards removed, exit 0" 0 "summary: 0 introduced, 7 removed, 0 unchanged" \
  "$eh" audit --width 0 "$objs/clean.o" --baseline "$rel" --model thunderx2 --kernel 6.1
expect "baseline against itself: all unchanged, exit 0" 0 "summary: 0 introduced, 0 removed, 7 unchanged" \
  "$eh" audit --width 0 "$rel" --baseline "$rel" --model thunderx2 --kernel 6.1
# Text for terminals and CI logs: every line within 80 columns by default (each item wrapped under
# itself), the whole line with --width 0 (which the checks above use to match a line whole).
long_lines() { { "$@" || true; } | awk 'length > 80' | wc -l; }
expect "audit fits 80 columns" 0 "^0$" long_lines "$eh" audit "$rel" --model thunderx2,cortex-a76-r3p0 --kernel 6.1
expect "audit --list-alternatives fits 80 columns" 0 "^0$" long_lines "$eh" audit "$rel" --model thunderx2 \
  --kernel 6.1 --list-alternatives
expect "audit --baseline fits 80 columns" 0 "^0$" long_lines "$eh" audit "$rel" --baseline "$objs/clean.o" \
  --model thunderx2 --kernel 6.1
expect "--width 0: a finding on one line" 1 "^    HAZARD load win_prfm\+0x4 \(0x[0-9a-f]{16}\): ldr x30, #0x[0-9a-f]+$" \
  "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1

# A kernel built with CONFIG_IKCONFIG carries its .config: used when --config is not given.
expect "the image's own .config, said in the header" 0 "config .*kimage.o's own \(CONFIG_IKCONFIG\)" \
  "$eh" audit --width 0 "$objs/kimage.o" --kernel 6.1 --model thunderx2
expect "... and applied: erratum 219's workaround is configured out there" 0 \
  "^tx2-219 +thunderx2 .*workaround configured out" "$eh" audit --width 0 "$objs/kimage.o" --kernel 6.1 --model thunderx2,vulcan
echo "CONFIG_CAVIUM_TX2_ERRATUM_219=y" > "$tmp/tx2.config"
expect "... an explicit --config wins" 0 "config $tmp/tx2.config;" \
  "$eh" audit --width 0 "$objs/kimage.o" --kernel 6.1 --model thunderx2 --config "$tmp/tx2.config"
expect "baseline sharing no function with FILE: a warning names both" 0 \
  "warning: .*errata61.o and .*exec.o define no function of the same name" \
  "$eh" audit --width 0 "$objs/errata61.o" --baseline "$objs/exec.o" --model thunderx2 --kernel 6.1
expect "... and none when they share one" 0 "^absent$" absent "warning:" \
  "$eh" audit --width 0 "$rel" --baseline "$rel" --model thunderx2 --kernel 6.1
expect "baseline json" 1 '^\{"format": "errata-harness-audit-baseline", .*"baseline": ".*clean.o", "file": ".*rel61.o",.*"introduced": 7, "removed": 0, "unchanged": 0,.*\{"change": "introduced", "erratum": "tx2-219", "kind": "load", "anchor": "win_prfm\+0x0", "where": "win_prfm\+0x4"' \
  "$eh" audit --width 0 "$rel" --baseline "$objs/clean.o" --model thunderx2 --kernel 6.1 --format json
expect "baseline on cortex-a72 (no erratum 219, PRFM kept): exit 0" 0 "8 introduced.*does not affect" \
  "$eh" audit --width 0 "$rel" --baseline "$objs/clean.o" --model cortex-a72 --kernel 6.1
expect "baseline missing: exit 2 naming it" 2 "nonexistent.o: cannot open" \
  "$eh" audit --width 0 "$rel" --baseline "$tmp/nonexistent.o" --model thunderx2 --kernel 6.1
expect "baseline with --list-alternatives: exit 2" 2 "--baseline compares findings" \
  "$eh" audit --width 0 "$rel" --baseline "$rel" --model thunderx2 --kernel 6.1 --list-alternatives

# Inputs that are not regular files, or are larger than their limit, are refused before they are
# read (a read of /dev/zero would never end); `timeout` turns a hang into a failure.
mkdir "$tmp/dir.o"
mkfifo "$tmp/fifo.o"
truncate -s $(((2 << 30) + 1)) "$tmp/huge.o"
expect "help states the input limits" 0 "2 GiB \(FILE\), 64 MiB \(--config\)" "$eh" audit --width 0 --help
expect "/dev/zero: exit 2 naming it" 2 "/dev/zero: a character device, not a regular file" \
  timeout 60 "$eh" audit --width 0 /dev/zero --model thunderx2 --kernel 6.1
expect "directory: exit 2 naming it" 2 "dir.o: a directory, not a regular file" \
  timeout 60 "$eh" audit --width 0 "$tmp/dir.o" --model thunderx2 --kernel 6.1
expect "FIFO with no writer: exit 2 naming it" 2 "fifo.o: a FIFO, not a regular file" \
  timeout 60 "$eh" audit --width 0 "$tmp/fifo.o" --model thunderx2 --kernel 6.1
expect "file over the ELF limit (sparse): exit 2 naming it" 2 "huge.o: 2147483649 bytes, more than the 2147483648" \
  timeout 60 "$eh" audit --width 0 "$tmp/huge.o" --model thunderx2 --kernel 6.1
expect "baseline FIFO: exit 2 naming it" 2 "fifo.o: a FIFO" \
  timeout 60 "$eh" audit --width 0 "$rel" --baseline "$tmp/fifo.o" --model thunderx2 --kernel 6.1
expect "--config /dev/zero: exit 2 naming it" 2 "/dev/zero: a character device, not a regular file: cannot read it as a .config" \
  timeout 60 "$eh" audit --width 0 "$rel" --model thunderx2 --kernel 6.1 --config /dev/zero
expect "--cpucaps directory: exit 2 naming it" 2 "dir.o: a directory, not a regular file: cannot read it as a cpucaps.h" \
  timeout 60 "$eh" audit --width 0 "$rel" --model thunderx2 --cpucaps "$tmp/dir.o"

# The boot mode: KVM's nVHE hyp code writes the guest's TTBR, kernel code the regime it runs in.
reg=$objs/regimes.o
expect "boot el2 on a VHE CPU: kernel code at EL2&0" 1 "kernel_switch\+0x0 .*\[live EL2&0 \(VHE\): kernel code, booted at EL2 with VHE\]" \
  "$eh" audit --width 0 "$reg" --model thunderx2 --kernel 6.1 --boot el2
expect "boot nvhe: kernel code at EL1&0" 1 "kernel_switch\+0x0 .*\[live EL1&0: kernel code at EL1\]" \
  "$eh" audit --width 0 "$reg" --model thunderx2 --kernel 6.1 --boot nvhe
expect "the guest's TTBR from nVHE hyp code: listed with -v, no window" 1 \
  "__kvm_nvhe_restore\+0x0 .*\[guest EL1&0 from EL2: nVHE hyp code \(a __kvm_nvhe_ symbol\)\]" \
  "$eh" audit --width 0 "$reg" --model thunderx2 --kernel 6.1 --boot nvhe -v
absent "... without -v, an anchor without a finding is only counted" "__kvm_nvhe_restore" \
  "$eh" audit --width 0 "$reg" --model thunderx2 --kernel 6.1 --boot nvhe
anchors() { "$eh" audit --width 0 "$reg" --model thunderx2 --kernel 6.1 --boot nvhe --erratum tx2-219 "$@" |
  grep -c '^  [A-Za-z0-9_.$]*+0x[0-9a-f]* (0x'; }
expect "... counted: what -v lists and the default does not" 1 \
  "^  $(( $(anchors -v) - $(anchors) )) without a finding \(-v lists them\)$" \
  "$eh" audit --width 0 "$reg" --model thunderx2 --kernel 6.1 --boot nvhe --erratum tx2-219
expect "every class with its rule" 1 "guest EL1&0 from EL2 +[0-9]+ +EL2's own accesses" \
  "$eh" audit --width 0 "$reg" --model thunderx2 --kernel 6.1 --boot nvhe
expect "bad boot mode: exit 2" 2 "--boot: 'el3' is none of el2, nvhe, el1" \
  "$eh" audit --width 0 "$reg" --model thunderx2 --kernel 6.1 --boot el3

# Recall (tests/objects/recall.S): flagged with symbol+offset where erratum 219 shows, not elsewhere.
rec=$objs/recall.o
for hazard in "load\+store lse_in_window\+0x4 .*ldadd x1, x2, \[x3\]" "load +lse_in_window\+0x8" \
    "load +ldapr_in_window\+0x4 .*ldapr x1, \[x2\]" "store +dc_zva_in_window\+0x4 .*dc zva, x1" \
    "load +behind_nops\+0x8 " "load +level2\+0x0 " "store +switch_then_return\+0x4 "; do
  expect "recall on thunderx2: HAZARD $hazard" 1 "HAZARD $hazard" "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1
done
expect "recall: a callback not emulated leaves the window uncertain" 1 \
  "OPEN at behind_unknown_cb\+0x4: uncertain, callback some_boot_patcher not emulated" \
  "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1
expect "recall on cortex-a72: no hazard, exit 0" 0 "summary: 7 TTBR writes, 0 hazards \(10 benign\), 1 windows not closed" \
  "$eh" audit --width 0 "$rec" --model cortex-a72 --kernel 6.1
if "$eh" audit --width 0 "$rec" --model cortex-a72 --kernel 6.1 | grep -q HAZARD; then
  echo "not ok - recall on cortex-a72 names a HAZARD"; failures=$((failures + 1))
else echo "ok - recall on cortex-a72 names no HAZARD"; fi

# Several models in one call: one image per distinct capability set, a matrix, exit 1 if any affected model has a hazard.
expect "models in a comma list share images" 1 "^== image 2 ==" \
  "$eh" audit --width 0 "$rec" --model thunderx2,vulcan,cortex-a72 --kernel 6.1
expect "matrix row for an affected model" 1 "^tx2-219 +thunderx2 +1 +11 +0  11 findings$" \
  "$eh" audit --width 0 "$rec" --model thunderx2,vulcan --model cortex-a72 --kernel 6.1
expect "matrix row for an unaffected model" 1 "^tx2-219 +cortex-a72 +2 +11 +0  not affected$" \
  "$eh" audit --width 0 "$rec" --model thunderx2,vulcan --model cortex-a72 --kernel 6.1
expect "one image, the erratum on some of its models" 1 \
  "erratum tx2-219 affects thunderx2, vulcan, does not affect thunderx2-nosmt$" \
  "$eh" audit --width 0 "$rec" --model thunderx2,thunderx2-nosmt,vulcan --kernel 6.1
expect "--model all" 1 "^tx2-219 +thunderx2-nosmt +[0-9]+ +11 +0  not exposed$" "$eh" audit --width 0 "$rec" --model all --kernel 6.1
expect "only unaffected models: exit 0" 0 "^tx2-219 +cortex-a72 " "$eh" audit --width 0 "$rec" --model cortex-a72,thunderx2-nosmt --kernel 6.1
expect "several models as JSON" 1 '^\{"format": "errata-harness-audit", .*"file": .*"matrix": \[\{"erratum": "tx2-219", "model": "thunderx2", "image": 0, "affected": true, "shows": true, "configured_out": false, "status": "findings", "flagged": 11, "hazards": 10, "open": 1, "suppressed": 0\}' \
  "$eh" audit --width 0 "$rec" --model thunderx2,cortex-a72 --kernel 6.1 --format json
printf '# CONFIG_CAVIUM_TX2_ERRATUM_219 is not set\n' > "$tmp/no219.config"
expect "matrix: an affected model whose workaround is configured out" 1 \
  "^tx2-219 +thunderx2 +1 +11 +0  11 findings, workaround configured out$" \
  "$eh" audit --width 0 "$rec" --model thunderx2,cortex-a72 --kernel 6.1 --config "$tmp/no219.config"
expect "... and an unaffected one" 1 "^tx2-219 +cortex-a72 +[0-9]+ +11 +0  not affected$" \
  "$eh" audit --width 0 "$rec" --model thunderx2,cortex-a72 --kernel 6.1 --config "$tmp/no219.config"
expect "unknown model in a list: exit 2" 2 "unknown model 'z80'" "$eh" audit --width 0 "$rec" --model thunderx2,z80 --kernel 6.1
expect "baseline with several models: exit 2" 2 "one model at a time" \
  "$eh" audit --width 0 "$rec" --baseline "$rec" --model thunderx2,vulcan --kernel 6.1

# Suppressions: justified, listed and counted; stale entries reported; bad files are input errors.
cat > "$tmp/recall.supp" <<'SUPP'
# a comment, then a blank line

tx2-219 lse_in_window+0x4    the atomic is on a per-CPU page mapped in both tables
tx2-219 ldapr_in_window      this whole window runs with the same tables before and after
tx2-219 dc_zva_in_window+0x4 a whole-window justification by its access
tx2-219 behind_nops          the load reads the idmap, identical in both tables
tx2-219 two_deep+0x0         the window of two_deep: level2 reads the idmap
tx2-219 switch_then_return   the store is to the idmap
tx2-219 behind_unknown_cb    the callback is KASAN's and never touches this site
tx2-219 no_such_function     left over from an older kernel
SUPP
expect "suppressions: findings listed with their justification" 1 \
  "SUPPRESSED load\+store lse_in_window\+0x4 .*\[.*recall.supp:3: the atomic is on a per-CPU page mapped in both tables\]" \
  "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/recall.supp"
expect "suppressions: a finding left unsuppressed is still a hazard" 1 \
  "HAZARD load +lse_in_window\+0x8" "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/recall.supp"
expect "suppressions: counted in the summary" 1 "1 hazards, 0 windows not closed on every path, 10 findings suppressed" \
  "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/recall.supp"
expect "suppressions: a stale entry reported" 1 "stale suppression .*recall.supp:10: tx2-219 no_such_function matches no finding" \
  "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/recall.supp"
grep -v 'lse_in_window+0x4\|no_such' "$tmp/recall.supp" > "$tmp/all.supp"
echo 'tx2-219 lse_in_window the atomic and the load after it are on the per-CPU page' >> "$tmp/all.supp"
expect "everything suppressed: exit 0" 0 "0 hazards, 0 windows not closed on every path, 11 findings suppressed" \
  "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/all.supp"
expect "suppressions in JSON" 0 '"suppressed": "the atomic and the load after it are on the per-CPU page"' \
  "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/all.supp" --format json
printf 'tx2-219 lse_in_window+0x4\n' > "$tmp/nowhy.supp"
expect "suppression without a justification: exit 2 naming file and line" 2 "nowhy.supp:1: no justification" \
  "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/nowhy.supp"
printf '# ok\nerratum-0 lse_in_window because\n' > "$tmp/unknown.supp"
expect "suppression of an unknown erratum: exit 2" 2 "unknown.supp:2: unknown erratum" \
  "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/unknown.supp"
printf 'tx2-219 lse_in_window+0xzz why\n' > "$tmp/badoff.supp"
expect "suppression with a bad offset: exit 2" 2 "badoff.supp:1: bad offset" \
  "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/badoff.supp"
expect "suppression file missing: exit 2" 2 "nonexistent.supp" \
  "$eh" audit --width 0 "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/nonexistent.supp"

# Every shape of JSON document the audit writes, against harness/schema/audit-v1.json.
schema=$(dirname "$0")/../harness/schema/audit-v1.json
json() { local out=$1; shift; "$eh" audit --width 0 "$@" --format json > "$tmp/$out.json"; }
json one "$rel" --model thunderx2 --kernel 6.1
json many "$rec" --model all --kernel 6.1 --suppress "$tmp/recall.supp"
json suppressed "$rec" --model thunderx2 --kernel 6.1 --suppress "$tmp/recall.supp"
json sites "$rel" --model thunderx2 --kernel 6.1 --list-alternatives
json many-sites "$rel" --model thunderx2,cortex-a72 --kernel 6.1 --list-alternatives
json baseline "$rel" --baseline "$objs/clean.o" --model thunderx2 --kernel 6.1
json image-tables "$objs/captables.elf" --model thunderx2
expect "every JSON document as audit-v1.json says" 0 "^7 documents conform" "$(dirname "$0")/check-schema.py" "$schema" "$tmp"/*.json
expect "... and the schema is not satisfied by anything" 1 "at /errata/0/findings/0: 'erratum' is a required property" \
  "$(dirname "$0")/check-schema.py" "$schema" <(jq 'del(.errata[0].findings[0].erratum)' "$tmp/one.json")

echo "# $failures failed"
[ "$failures" -eq 0 ]
