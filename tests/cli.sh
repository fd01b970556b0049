#!/usr/bin/env bash
# The command line as a user meets it: exit statuses, messages, and byte-identical replays.
set -u
eh=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
. "$(dirname "$0")/expect.sh"

# Counts come from the tables: the scenarios list --matrix selects.
prfm_n=$("$eh" list --matrix --case tx2-219-prfm | wc -l)
par_n=$("$eh" list --matrix --case par-el1 | wc -l)
expect "run exits 0 with every verdict as expected" 0 "^$prfm_n passed, 0 failed\$" "$eh" run --case tx2-219-prfm
expect "run --model nosuchcpu is bad usage" 2 "unknown model 'nosuchcpu'.*" "$eh" run --model nosuchcpu
expect "... and lists the known models" 2 'known models: cortex-a72 thunderx2 thunderx2-nosmt vulcan' "$eh" run --model nosuchcpu
expect "unknown case" 2 "unknown case 'nope'" "$eh" run --case nope
expect "bad seed" 2 "--seed: 'x' is not" "$eh" run --seed x
expect "unknown command" 2 "unknown command" "$eh" frobnicate
expect "unknown option" 2 "run: unknown option '--frob'" "$eh" run --frob
expect "replay needs a model and a variant" 2 "exactly one --model" "$eh" replay tx2-219-prfm
expect "replay of a missing snippet names the file" 2 "/nonexistent/tx2-219-prfm.elf: cannot open" \
  "$eh" replay tx2-219-prfm --model thunderx2 --variant before --cases-dir /nonexistent
expect "help lists the models from the table" 0 'known models: +cortex-a72' "$eh" --help
expect "version" 0 '^errata-harness [0-9]' "$eh" --version

# models: ID registers, and each capability with the rule that detected it.
expect "models: thunderx2's ID registers" 0 'ID_AA64ISAR0_EL1 +0x0000000010211120' "$eh" models --model thunderx2
expect "models: thunderx2 at EL2 detects VHE by the boot rule" 0 \
  'ARM64_HAS_VIRT_HOST_EXTN.{0,3}      booted at EL2' tr '\n' '~' < <("$eh" models --model thunderx2)
expect "models: LSE atomics by the ISAR0 field, with the value read" 0 \
  'ARM64_HAS_LSE_ATOMICS~ +ID_AA64ISAR0_EL1.Atomic \[23:20\] >= 2 \(is 2\)' \
  tr '\n' '~' < <("$eh" models --model thunderx2)
nvhe=$("$eh" models --model thunderx2 --boot nvhe)
if grep -q ARM64_HAS_VIRT_HOST_EXTN <<<"$nvhe"; then echo "not ok - models --boot nvhe detects VHE";
  failures=$((failures + 1)); else echo "ok - models --boot nvhe: no VHE"; fi
expect "models --boot: a bad mode" 2 "--boot: 'vhe' is not el2, nvhe or el1" "$eh" models --boot vhe
expect "models --kernel: no rules" 2 "no capability rules for '4.19'" "$eh" models --kernel 4.19
expect "models --rules: every 6.1 capability, one JSON document" 0 '"kernel": "6.1"' "$eh" models --rules --format json
# models of a system: its cores (MIDR_EL1 from the Cortex-A55 r2p0 and A76 r4p0 TRMs), the errata of any
# core, the ID registers sanitised (ID_AA64PFR1_EL1.SSBS is 1 on the A76 alone: the lower value, 0), a
# system feature one core lacks off, a local-CPU erratum of one core on.
sys=$("$eh" models --model system-a55-a76 | tr '\n' '~')
expect "models --model system-a55-a76: the system alone" 0 '^system-a55-a76$' "$eh" models --model system-a55-a76
expect "... its cores, the boot CPU first" 0 \
  'cores \(boot CPU first, 2 threads\): cortex-a55-r2p0 \(MIDR_EL1 0x412fd050,[ ~]+REVIDR_EL1 0x00000000\), cortex-a76-r4p0 \(MIDR_EL1[ ~]+0x414fd0b0' \
  printf '%s' "$sys"
expect "... repeat-tlbi, which both cores have, and the A55 r2p0's speculative-at (1530923)" 0 \
  '~  errata: repeat-tlbi speculative-at~    repeat-tlbi on cortex-a55-r2p0, cortex-a76-r4p0~    speculative-at on cortex-a55-r2p0~' \
  printf '%s' "$sys"
expect "... ID_AA64PFR1_EL1 sanitised: no SSBS" 0 '^    ID_AA64PFR1_EL1 +0x0000000000000000$' "$eh" models --model system-a55-a76
expect "... the A76's ID_AA64PFR1_EL1 has SSBS" 0 '^    ID_AA64PFR1_EL1 +0x0000000000000010$' "$eh" models --model cortex-a76-r4p0
expect "... the A76's erratum 3194386, patched in system-wide" 0 \
  '^    ARM64_WORKAROUND_SPECULATIVE_SSBS \(cortex-a76-r4p0\)$' "$eh" models --model system-a55-a76
expect "... LSE atomics on the sanitised ISAR0" 0 \
  'ARM64_HAS_LSE_ATOMICS \(system-wide: sanitised\)~ +ID_AA64ISAR0_EL1.Atomic \[23:20\] >= 2 \(is 2\)' printf '%s' "$sys"
if grep -q 'ARM64_SSBS' <<<"${sys//ARM64_WORKAROUND_SPECULATIVE_SSBS/}"; then
  echo "not ok - models --model system-a55-a76 detects ARM64_SSBS, which the A55 lacks"; failures=$((failures + 1))
else echo "ok - models --model system-a55-a76: no ARM64_SSBS, which the A55 lacks"; fi
# A case on a system runs on the core its row selects: tsb-flush-failure's on the A710 (erratum 2054223),
# thread 0, the boot A510 (which has no such erratum) after it.
expect "replay on a system: each thread's core, the A710 first" 0 '^threads: t0 on cortex-a710-r0p0, t1 on cortex-a510-r1p1$' \
  "$eh" replay tsb-flush-failure --model system-a510-a710 --variant before
# exec on a system runs on thread 0, its boot CPU: a hazard of an erratum only another core has does not
# show there (the A510 has no erratum 2054223, the A710 has).
tsb_elf=$(dirname "$eh")/cases/tsb-flush-failure.elf
expect "exec on system-a510-a710: on the boot A510, tsb-flush-failure does not show, exit 0" 0 \
  'errata marking: tsb-flush-failure \(does not show here\)' \
  "$eh" exec "$tsb_elf" --kernel 6.1 --symbol save_trace_before --model system-a510-a710
expect "... on the A710 alone it shows, exit 1" 1 'errata marking: tsb-flush-failure;' \
  "$eh" exec "$tsb_elf" --kernel 6.1 --symbol save_trace_before --model cortex-a710-r0p0
if "$eh" models --model cortex-a76-r4p0 | grep -q '^    ARM64_SSBS$'; then
  echo "ok - ... which the A76 alone detects"
else echo "not ok - models --model cortex-a76-r4p0 does not detect ARM64_SSBS"; failures=$((failures + 1)); fi

before=$("$eh" replay tx2-219-prfm --model thunderx2 --variant before)
expect "replay before: the TTBR1_EL1 write opens the window" 0 'window +opened by the write to TTBR1_EL1' echo "$before"
expect "replay before: the literal load inside" 0 '\| tramp_entry_before\+0x1c: ldr x30' echo "$before"
expect "replay before: the PRFM inside" 0 '\| tramp_entry_before\+0x20: prfm plil1strm' echo "$before"
expect "replay before: the abort goes to a named thread" 0 'INJECT .* victim thread [0-3]' echo "$before"
after=$("$eh" replay tx2-219-prfm --model thunderx2 --variant after)
expect "replay after: NOP where the PRFM was" 0 '\| tramp_entry_after\+0x20: nop' echo "$after"
expect "replay after: the residual load" 0 'load .*INSIDE THE WINDOW' echo "$after"
kaslr=$("$eh" replay tx2-219-prfm --model thunderx2 --variant after-kaslr)
expect "replay after-kaslr: the ISB closes the window" 0 'window +closed by ISB, 0 accesses inside' echo "$kaslr"
if grep -q INJECT <<<"$kaslr"; then echo "not ok - after-kaslr injects"; failures=$((failures + 1));
else echo "ok - after-kaslr injects nothing"; fi

# replay --format json: the inputs (the snippet with its SHA-256), the outcome and its events.
"$eh" replay tx2-219-prfm --model thunderx2 --variant before --seed 6 --format json > "$tmp/replay.json"
"$eh" replay tx2-219-tvm --model thunderx2 --variant after --format json > "$tmp/replay-tvm.json"
expect "replay JSON documents as replay-v2.json says" 0 "^2 documents conform" \
  "$(dirname "$0")/check-schema.py" "$(dirname "$0")/../harness/schema/replay-v2.json" "$tmp"/replay*.json
expect "replay JSON: the snippet with its SHA-256" 0 \
  "^tx2-219-prfm.elf $(sha256sum < "$("$eh" replay tx2-219-prfm --model thunderx2 --variant before --format json |
    jq -r .inputs.snippet.path)" | cut -d' ' -f1)$" \
  jq -r '"\(.inputs.snippet.path | split("/") | last) \(.inputs.snippet.sha256)"' "$tmp/replay.json"
expect "replay JSON: the abort's FAR is the culprit load's data address" 0 "^true$" \
  jq '[.result.events[] | select(.kind == "inject")][0].address as $a |
      [.result.events[] | select(.kind == "exception")][0].far == $a' "$tmp/replay.json"
expect "replay --format tap: refused by name" 2 "replay: --format: 'tap' is neither text nor json" \
  "$eh" replay tx2-219-prfm --model thunderx2 --variant before --format tap
a=$("$eh" replay tx2-219-prfm --model thunderx2 --variant before --seed 5)
b=$("$eh" replay tx2-219-prfm --model thunderx2 --variant before --seed 5)
if [ "$a" = "$b" ]; then echo "ok - same seed, identical replay";
else echo "not ok - same seed, different replay"; failures=$((failures + 1)); fi

tvm=$("$eh" replay tx2-219-tvm --model thunderx2 --variant after)
expect "replay tvm after: the guest's MSR traps" 0 'EL2 trap +the write of TTBR0_EL1 traps to EL2 \(HCR_EL2.TVM\)' echo "$tvm"
expect "replay tvm after: ESR_EL2 decoded into its fields" 0 'ESR_EL2 0x62300800: EC 0x18 .*Op0 3, Op2 0, Op1 0, CRn 2, Rt 0, CRm 0, direction 0 \(write\)' echo "$tvm"
expect "replay tvm after: the handler's write at EL2" 0 'EL2 handle_tx2_tvm\+0x[0-9a-f]+: msr ttbr0_el1' echo "$tvm"
if grep -q 'window +opened' <<<"$tvm"; then echo "not ok - replay tvm after: the write at EL2 opened a window"; failures=$((failures + 1));
else echo "ok - replay tvm after: the write of the guest's TTBR0_EL1 at EL2 opens no window"; fi
expect "replay tvm after: back in the guest" 0 "the hypervisor's ERET returns to guest_switch_ttbr0" echo "$tvm"
tvmb=$("$eh" replay tx2-219-tvm --model thunderx2 --variant before)
expect "replay tvm before: the guest's load draws the abort" 0 'INJECT .*guest_switch_ttbr0.* victim thread [0-3]' echo "$tvmb"
vse=$("$eh" replay kvm-hcr-vse --model thunderx2 --variant before)
expect "replay vse before: the guest takes the virtual SError" 0 'vSError +the virtual SError pending in HCR_EL2.VSE' echo "$vse"
expect "replay vse before: the trap reaches the slow path" 0 'SLOW PATH +the hypervisor declined the trap of guest_switch_ttbr0' echo "$vse"
vsea=$("$eh" replay kvm-hcr-vse --model thunderx2 --variant after)
expect "replay vse after: the trap stays in the fast path" 0 "the hypervisor's ERET returns to guest_switch_ttbr0" echo "$vsea"
if grep -q 'SLOW PATH' <<<"$vsea"; then echo "not ok - vse after reaches the slow path"; failures=$((failures + 1));
else echo "ok - vse after never reaches the slow path"; fi

# Text for terminals and CI logs: every line of run, --by-commit and --mutants within 80 columns by
# default, whatever the evidence; -v puts the evidence under each line; --width changes the limit.
fits() {  # fits WHAT COLUMNS CMD...: every line of CMD's output within COLUMNS
	local what=$1 cols=$2 long
	shift 2
	long=$("$@" | awk -v c="$cols" 'length($0) > c' | head -3)
	if [ -z "$long" ]; then echo "ok - $what"; else echo "not ok - $what: $long"; failures=$((failures + 1)); fi
}
fits "run fits 80 columns" 80 "$eh" run
fits "run -v fits 80 columns" 80 "$eh" run -v --case tx2-219-prfm
fits "run --by-commit fits 80 columns" 80 "$eh" run --by-commit
fits "run --mutants fits 80 columns" 80 "$eh" run --mutants --case tx2-219-prfm
fits "--width 60 is kept" 60 "$eh" run --width 60 --case par-el1
expect "-v: the evidence under each line" 0 '^     window opened at tramp_entry_after_kaslr\+0x18' \
  "$eh" run -v --case tx2-219-prfm --variant after-kaslr --model thunderx2
expect "--width 0: no limit, the evidence of a failure whole" 1 'did not complete: instruction budget exhausted at tramp_entry_after_kaslr\+0x10: add x30, x30, #2, lsl #12$' \
  "$eh" run --width 0 --case tx2-219-prfm --variant after-kaslr --model thunderx2 --budget 3
expect "--width x is bad usage" 2 "--width: 'x' is not" "$eh" run --width x

# One parser for every command: each has its own --help, and nothing is silently ignored.
for c in list models run replay; do
	expect "$c --help is its own" 0 "^usage: errata-harness $c" "$eh" "$c" --help
	fits "$c --help fits 80 columns" 80 "$eh" "$c" --help
done
fits "--help fits 80 columns" 80 "$eh" --help
expect "models takes no argument" 2 "models: unexpected argument 'extra'" "$eh" models extra
expect "models --model shows only that model" 0 '^vulcan$' "$eh" models --model vulcan
if "$eh" models --model vulcan | grep -q '^thunderx2$'; then
	echo "not ok - models --model vulcan shows thunderx2 too"; failures=$((failures + 1))
else echo "ok - models --model vulcan shows no other model"; fi
expect "replay takes one case" 2 "replay: unexpected argument 'tx2-219-tvm'" \
  "$eh" replay tx2-219-prfm tx2-219-tvm --model thunderx2 --variant before
expect "replay refuses --shard, naming who takes it" 2 "replay: --shard is not an option of replay, but of list, run" \
  "$eh" replay tx2-219-prfm --model thunderx2 --variant before --shard 1/2
expect "replay refuses --commit" 2 "replay: --commit is not an option of replay" \
  "$eh" replay tx2-219-prfm --model thunderx2 --variant before --commit 9405447
expect "replay: --model once" 2 "replay: --model given twice" \
  "$eh" replay tx2-219-prfm --model thunderx2 --model vulcan --variant before
expect "run: --seed once" 2 "run: --seed given twice" "$eh" run --seed 1 --seed 2
expect "run: a value for a flag" 2 "run: --by-commit takes no value" "$eh" run --by-commit=yes
expect "run: a missing value" 2 "run: --seed needs N" "$eh" run --seed
expect "--budget 0 is refused" 2 "--budget: at least one instruction" "$eh" run --budget 0
expect "a seed too large says so" 2 "--seed: '99999999999999999999' is too large" "$eh" run --seed 99999999999999999999
expect "--opt=value works" 0 "^$par_n passed, 0 failed\$" "$eh" run --case=par-el1

expect "list --errata names each erratum with its CPUs" 0 '^  CPUs +Broadcom Vulcan, Cavium ThunderX2' "$eh" list --errata
expect "list --errata --format markdown is a table" 0 '^\| tx2-219 \| ' "$eh" list --errata --format markdown
expect "list --format alone is refused" 2 "list: --matrix or --errata, and --format only with --errata" "$eh" list --format markdown
expect "list --errata --format json is refused" 2 "neither text nor markdown" "$eh" list --errata --format json
fits "list --errata fits 80 columns" 80 "$eh" list --errata
fits "models fits 80 columns, systems included" 80 "$eh" models

echo "# $failures failed"
[ "$failures" -eq 0 ]
