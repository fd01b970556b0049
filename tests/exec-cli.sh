#!/usr/bin/env bash
# The exec command's contract: exit 0 a run that stopped, 1 an erratum fault or a run out of budget,
# 2 bad usage or input with a message that says what is wrong; on tests/objects/exec.o.
#   exec-cli.sh ERRATA_HARNESS TEST_OBJ_DIR
set -uo pipefail

eh=${1:?usage: exec-cli.sh ERRATA_HARNESS TEST_OBJ_DIR}
objs=${2:?usage: exec-cli.sh ERRATA_HARNESS TEST_OBJ_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
. "$(dirname "$0")/expect.sh"

obj=$objs/exec.o
run=("$eh" exec "$obj" --kernel 6.1)
printf '\x10\x32\x54\x76\x98\xba\xdc\xfe' > "$tmp/quad.bin"

expect "help" 0 "--mem ADDR=FILE" "$eh" exec --help
expect "listed in the tool's help" 0 '^  exec  *run code straight out of a kernel ELF' "$eh" --help
expect "stub call with its arguments" 0 "call +ext_fn\+0x0 \(stub\)\(x0 0x1, x1 0x2, x2 0x3, x3 0x4, x4 0x5, x5 0x6, x6 0x7, x7 0x8\)" \
  "${run[@]}" --symbol call_ext --model cortex-a72
expect "symbol+offset on every instruction" 0 "^ +[0-9]+  t0      call_ext\+0x24: bl " \
  "${run[@]}" --symbol call_ext --model cortex-a72
expect "zero page for an access outside the image" 0 "zero page  0x0000000512340000 mapped for the load at touch_far\+0x8" \
  "${run[@]}" --symbol touch_far --model cortex-a72
expect "booted with kvm-arm.mode=nvhe: said in the header" 0 "booted at nvhe" \
  "${run[@]}" --symbol eret_stop --model thunderx2 --boot nvhe
expect "bad boot mode: exit 2" 2 "--boot: 'hyp' is none of el2, nvhe, el1" \
  "${run[@]}" --symbol eret_stop --model thunderx2 --boot hyp
expect "stops at ERET" 0 "stopped: exception return at eret_stop\+0x4" "${run[@]}" --symbol eret_stop --model cortex-a72
expect "stops on leaving the section" 0 "stopped: left the code at far_code\+0x0" "${run[@]}" --symbol leave --model cortex-a72
expect "stops at --until" 0 "stopped: reached the stop address at call_ext\+0x24" \
  "${run[@]}" --symbol call_ext --until call_ext+0x24 --model cortex-a72
expect "out of budget: exit 1" 1 "stopped: instruction budget exhausted at spin\+0x0 after 50 instructions" \
  "${run[@]}" --symbol spin --budget 50 --model cortex-a72
expect "erratum 219 injects at the load: exit 1" 1 "INJECT +spurious Data Abort \(erratum tx2-219\), culprit thread 0 ttbr_load\+0x4" \
  "${run[@]}" --symbol ttbr_load --reg x2=0x700000000 --model thunderx2
"${run[@]}" --symbol relocs_run --range 0xffff000000000000:0xffffffff00000000 --mem "data_quad=$tmp/quad.bin" \
  --model cortex-a72 --format json > "$tmp/mem.json"
expect "--mem reaches the run (LDST64 of data_quad into x5)" 0 "^returned 0xfedcba9876543210$" \
  jq -r '"\(.stop.reason) \(.stop.registers.x5)"' "$tmp/mem.json"
expect "--mem named in the inputs with its SHA-256" 0 "^data_quad $(sha256sum < "$tmp/quad.bin" | cut -d' ' -f1)$" \
  jq -r '.inputs.mem[0] | "\(.at) \(.file.sha256)"' "$tmp/mem.json"
expect "FILE named in the inputs with its SHA-256" 0 "^$(sha256sum < "$obj" | cut -d' ' -f1)$" \
  jq -r '.inputs.file.sha256' "$tmp/mem.json"
"${run[@]}" --symbol ttbr_load --reg x2=0x700000000 --model thunderx2 --format json > "$tmp/inject.json"
expect "erratum 219 in the JSON summary: its window, the load inside, the fault" 0 \
  '^\[\{"id":"tx2-219","shows":true\}\] 1 1 1$' \
  jq -c -r '.summary | "\(.errata) \(.windows) \(.loads) \(.injected)"' "$tmp/inject.json"
expect "--reg reaches the run (x2 is where ttbr_load loads from)" 0 "load +0x0000000700000008 \(8 bytes\)  INSIDE" \
  "${run[@]}" --symbol ttbr_load --reg x2=0x700000008 --model cortex-a72
# Traces name what Capstone 4 leaves unnamed, say once what was screened, fold loops; --summary drops them.
expect "hint #25 named paciasp" 0 "named_loop\+0x0: paciasp$" "${run[@]}" --symbol named_loop --model cortex-a72
expect "hint #34 named bti c" 0 "named_loop\+0x4: bti c$" "${run[@]}" --symbol named_loop --model cortex-a72
expect "hint #29 named autiasp" 0 "named_loop\+0x18: autiasp$" "${run[@]}" --symbol named_loop --model cortex-a72
expect "write of DAIF named" 0 "msr        DAIF <- 0x" "${run[@]}" --symbol named_loop --model cortex-a72
expect "the loop's 8 passes folded" 0 "loop x8 +the 2 events above, 8 passes in all" \
  "${run[@]}" --symbol named_loop --model cortex-a72
expect "the loop's first pass shown" 0 "named_loop\+0x14: b.ne " "${run[@]}" --symbol named_loop --model cortex-a72
expect "screened word off the path: one header line" 0 "^screened: 1 word .*; 0 of them reached" \
  "${run[@]}" --symbol named_loop --model cortex-a72
expect "screened word off the path: not in the trace" 0 "^absent$" \
  absent "screened   0x" "${run[@]}" --symbol named_loop --model cortex-a72
expect "runaway loop: one line and its count" 1 "loop x50 +the 1 event above, 50 passes in all" \
  "${run[@]}" --symbol spin --budget 50 --model cortex-a72
expect "--summary: how it stopped" 1 "stopped: instruction budget exhausted at spin\+0x0 after 50 instructions" \
  "${run[@]}" --symbol spin --budget 50 --model cortex-a72 --summary
expect "--summary: no trace" 0 "^absent$" absent "^trace |spin\+0x0: b " \
  "${run[@]}" --symbol spin --budget 50 --model cortex-a72 --summary
expect "--summary with json: exit 2" 2 "--summary is a text report" \
  "${run[@]}" --symbol spin --model cortex-a72 --summary --format json
expect "svg timeline" 0 "stopped: returned" "${run[@]}" --symbol call_ext --model cortex-a72 --svg "$tmp/run.svg"
expect "svg is a drawing of the run" 0 "<title>errata-harness exec .*--symbol call_ext" cat "$tmp/run.svg"

expect "no symbol: exit 2" 2 "--symbol is required" "${run[@]}" --model cortex-a72
expect "unknown symbol: exit 2 naming it" 2 "exec.o: no symbol 'nothere'" "${run[@]}" --symbol nothere --model cortex-a72
expect "symbol in data: exit 2" 2 "--symbol data_quad .* is not in executable code: it is in .data" \
  "${run[@]}" --symbol data_quad --model cortex-a72
expect "bad register: exit 2 naming it" 2 "--reg 'x32=1': no register 'x32'" "${run[@]}" --symbol spin --reg x32=1 --model cortex-a72
expect "bad register value: exit 2" 2 "--reg 'x1=banana': 'banana' is not a 64-bit value" \
  "${run[@]}" --symbol spin --reg x1=banana --model cortex-a72
expect "--mem without =: exit 2" 2 "--mem 'data_quad': expected ADDR=FILE" "${run[@]}" --symbol spin --mem data_quad --model cortex-a72
expect "--mem missing file: exit 2 naming it" 2 "--mem: $tmp/none.bin: cannot open" \
  "${run[@]}" --symbol spin --mem "data_quad=$tmp/none.bin" --model cortex-a72
expect "--mem /dev/zero: exit 2 naming it, before reading" 2 "--mem: /dev/zero: a character device, not a regular file" \
  timeout 60 "${run[@]}" --symbol spin --mem "data_quad=/dev/zero" --model cortex-a72
truncate -s $(((16 << 20) + 1)) "$tmp/big.bin"
expect "--mem over its limit: exit 2 naming it" 2 "--mem: .*big.bin: 16777217 bytes, more than the 16777216" \
  "${run[@]}" --symbol spin --mem "data_quad=$tmp/big.bin" --model cortex-a72
expect "--mem limit in the help" 0 "16 MiB \(--mem\)" "$eh" exec --help
expect "--mem unknown symbol: exit 2" 2 "--mem 'nowhere=.*': .*no symbol 'nowhere'" \
  "${run[@]}" --symbol spin --mem "nowhere=$tmp/quad.bin" --model cortex-a72
expect "unsupported relocation: exit 2 naming type, section and offset" 2 \
  "bad-reloc.o: .text\+0x4: relocation type 549 is not supported" \
  "$eh" exec "$objs/bad-reloc.o" --kernel 6.1 --symbol tls_user --model cortex-a72
expect "unknown model: exit 2" 2 "unknown model 'z80'" "${run[@]}" --symbol spin --model z80
expect "no numbering: exit 2" 2 "exec.o has no capability tables .*: give its capability numbering" \
  "$eh" exec "$obj" --symbol spin --model cortex-a72
expect "an image numbered by its own tables: the renumbered PRFM alternative NOPed on thunderx2" 0 \
  "prfm_site\+0x4: nop" "$eh" exec "$objs/captables.elf" --symbol prfm_site --model thunderx2
expect "bad budget: exit 2" 2 "--budget: 'lots' is not a non-negative integer" "${run[@]}" --symbol spin --budget lots --model cortex-a72
expect "svg to stdout: exit 2" 2 "--svg needs a file name" "${run[@]}" --symbol spin --svg - --model cortex-a72

"${run[@]}" --symbol eret_stop --model cortex-a520-r0p1 --format json > "$tmp/hazard.json"
"${run[@]}" --symbol eret_stop --model cortex-a72 --format json > "$tmp/benign.json"
expect "every exec JSON document as exec-v2.json says" 0 "^4 documents conform" \
  "$(dirname "$0")/check-schema.py" "$(dirname "$0")/../harness/schema/exec-v2.json" "$tmp"/*.json
expect "A520 2966298: an ERET to EL0 with no TLBI after the last access is its hazard: exit 1" 1 \
  "^summary: +errata marking: a520-2966298;" "${run[@]}" --symbol eret_stop --model cortex-a520-r0p1 --summary
expect "... one hazard, where the erratum shows" 0 '^1 1 \[\{"id":"a520-2966298","shows":true\}\]$' \
  jq -c -r '.summary | "\(.hazards) \(.hazards_shown) \(.errata)"' "$tmp/hazard.json"
expect "... the same hazard marked on cortex-a72, where it does not show: exit 0" 0 \
  "errata marking: a520-2966298 \(does not show" "${run[@]}" --symbol eret_stop --model cortex-a72 --summary
expect "... none there where the erratum shows" 0 '^1 0$' \
  jq -r '.summary | "\(.hazards) \(.hazards_shown)"' "$tmp/benign.json"
expect "--summary fits 80 columns" 0 "^absent$" absent '^.{81}' \
  "${run[@]}" --symbol ttbr_load --reg x2=0x700000000 --model thunderx2 --summary
expect "a single-valued option twice: exit 2 naming it" 2 "exec: --symbol given twice" \
  "${run[@]}" --symbol spin --symbol ttbr_load --model cortex-a72
expect "an option of another command: exit 2 naming it" 2 "exec: --erratum is not an option of exec, but of audit" \
  "${run[@]}" --symbol spin --model cortex-a72 --erratum tx2-219

echo "# $failures failed"
[ "$failures" -eq 0 ]
