#!/usr/bin/env bash
# The command line as a user meets it: exit statuses, messages, and byte-identical replays.
set -u
eh=$1
fails=0 passes=0

check() {  # check NAME EXPECTED_STATUS PATTERN -- COMMAND...
  local name=$1 want=$2 pattern=$3 out status
  shift 4
  out=$("$@" 2>&1)
  status=$?
  if [ "$status" -ne "$want" ] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "not ok - $name: exit $status (want $want), output:"; echo "$out" | head -20
    fails=$((fails + 1))
  else
    echo "ok - $name"; passes=$((passes + 1))
  fi
}

check "run exits 0 with every verdict as expected" 0 '^12 passed, 0 failed$' -- "$eh" run --case tx2-219-prfm
check "run --model nosuchcpu is bad usage" 2 "unknown model 'nosuchcpu'.*" -- "$eh" run --model nosuchcpu
check "... and lists the known models" 2 'known models: cortex-a72 thunderx2 thunderx2-nosmt vulcan' -- "$eh" run --model nosuchcpu
check "unknown case" 2 "unknown case 'nope'" -- "$eh" run --case nope
check "bad seed" 2 "--seed: 'x' is not" -- "$eh" run --seed x
check "unknown command" 2 "unknown command" -- "$eh" frobnicate
check "unknown option" 2 "unknown option" -- "$eh" run --frob
check "replay needs a model and a variant" 2 "exactly one --model" -- "$eh" replay tx2-219-prfm
check "replay of a missing snippet names the file" 2 "/nonexistent/tx2-219-prfm.elf: cannot open" -- \
  "$eh" replay tx2-219-prfm --model thunderx2 --variant before --cases-dir /nonexistent
check "help lists the models from the table" 0 'known models: cortex-a72' -- "$eh" --help
check "version" 0 '^errata-harness [0-9]' -- "$eh" --version

before=$("$eh" replay tx2-219-prfm --model thunderx2 --variant before)
check "replay before: the TTBR1_EL1 write opens the window" 0 'window +opened by the write to TTBR1_EL1' -- echo "$before"
check "replay before: the literal load inside" 0 '\| tramp_entry_before\+0x1c: ldr x30' -- echo "$before"
check "replay before: the PRFM inside" 0 '\| tramp_entry_before\+0x20: prfm plil1strm' -- echo "$before"
check "replay before: the abort goes to a named thread" 0 'INJECT .* victim thread [0-3]' -- echo "$before"
after=$("$eh" replay tx2-219-prfm --model thunderx2 --variant after)
check "replay after: NOP where the PRFM was" 0 '\| tramp_entry_after\+0x20: nop' -- echo "$after"
check "replay after: the residual load" 0 'load .*INSIDE THE TTBR WINDOW' -- echo "$after"
kaslr=$("$eh" replay tx2-219-prfm --model thunderx2 --variant after-kaslr)
check "replay after-kaslr: the ISB closes the window" 0 'window +closed by ISB, 0 accesses inside' -- echo "$kaslr"
if grep -q INJECT <<<"$kaslr"; then echo "not ok - after-kaslr injects"; fails=$((fails + 1)); else passes=$((passes + 1)); fi

a=$("$eh" replay tx2-219-prfm --model thunderx2 --variant before --seed 5)
b=$("$eh" replay tx2-219-prfm --model thunderx2 --variant before --seed 5)
if [ "$a" = "$b" ]; then echo "ok - same seed, identical replay"; passes=$((passes + 1));
else echo "not ok - same seed, different replay"; fails=$((fails + 1)); fi

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
