#!/usr/bin/env bash
# Cortex-A53 erratum 843419 on the real kernel: arch/arm64/{kernel,mm,kvm} as the kernel test builds
# them (arm64-built-in.o, build-arm64.sh) linked into an image without and with the linker's workaround
# (arch/arm64/Makefile links vmlinux with --fix-cortex-a53-843419), by ld.lld and by GNU ld (which
# Debian's kernel is linked with). What the rest of the kernel would define is a stub: a RET of its
# own (code and data referenced by address alike), or 0 for the few sizes used as absolute values.
# Whether a sequence falls at page offset 0xff8/0xffc depends on the layout, which any change to the
# kernel moves (the reason the workaround is the linker's): a small linker script puts the sections of
# small alignment (.noinstr.text, .text.unlikely, .init.text) after a pad, the first pad from 0 up at
# which ld.lld finds a sequence to patch (cached). The object itself is left to its final link (no
# finding on any model); linked without the workaround, the audit finds on exactly the models the
# erratum affects the sequences lld patches, at the loads and stores it moves, and GNU ld's link has the
# same; linked with it, by either linker, nothing is found on any model.
#   a53-843419.sh ERRATA_HARNESS WORKDIR
set -euo pipefail

harness=${1:?usage: a53-843419.sh ERRATA_HARNESS WORKDIR}
work=${2:?usage: a53-843419.sh ERRATA_HARNESS WORKDIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/check.sh"

"$here/build-arm64.sh" "$work"
out=$(cd "$work/out" && pwd)
obj=$out/arm64-built-in.o
inputs=(--cpucaps "$out/cpucaps.h" --config "$out/config")
dir=$work/a53-843419
mkdir -p "$dir"
key=$(cksum < "$obj")

# The stubs of the symbols the object uses but does not define.
if [ "$(cat "$dir/stubs.key" 2>/dev/null)" != "$key" ]; then
  aarch64-linux-gnu-readelf -rW "$obj" | awk '$3 ~ /^R_AARCH64_(ABS32|ABS16|MOVW_UABS)/ { print $5 }' |
    sort -u > "$dir/absolute.txt"
  { echo $'\t.section .text.stubs, "ax"'
    aarch64-linux-gnu-nm -u "$obj" | awk '{ print $2 }' | sort -u |
      awk 'NR == FNR { abs[$1] = 1; next }
           $1 in abs { printf "\t.globl %s\n\t.set %s, 0\n", $1, $1; next }
           { printf "\t.globl %s\n\t.balign 16\n%s:\tret\n", $1, $1 }' "$dir/absolute.txt" -
  } > "$dir/stubs.S"
  clang --target=aarch64-linux-gnu -c "$dir/stubs.S" -o "$dir/stubs.o"
  echo "$key" > "$dir/stubs.key"
fi

# layout PAD: the linker script, with PAD bytes before the sections of small alignment.
layout() {
  cat > "$dir/layout.ld" <<EOF
SECTIONS
{
	. = 0xffff800008000000;
	.head.text : { *(.head.text) }
	.text : { *(.text) *(.sched.text) *(.entry.text) *(.idmap.text) *(.hyp.idmap.text) *(.hyp.text)
		  *(.entry.tramp.text) *(.hibernate_exit.text) *(.kexec_relocate.text) *(.meminit.text) }
	. = ALIGN(4096) + $1;
	.text.moved : { *(.noinstr.text) *(.text.unlikely .text.unlikely.*) *(.init.text) }
	.text.stubs : { *(.text.stubs) }
}
EOF
}
# link LINKER OUT [FLAGS...]: the object and the stubs, linked by LINKER into OUT with the layout.
link() {
  local linker=$1 dest=$2
  shift 2
  "$linker" -static -nostdlib --no-dynamic-linker --entry=0 "$@" -T "$dir/layout.ld" -o "$dest" "$obj" \
    "$dir/stubs.o" 2>&1 | { grep -v 'warning: ' || true; }
}
# The sequences ld.lld patches at the current layout: the addresses of the loads and stores it moves.
lld_patched() {
  llvm-nm "$1" | awk '$3 ~ /^__CortexA53843419_/ { print tolower(substr($3, 19)) }' | sort
}

if [ "$(sed -n 1p "$dir/pad" 2>/dev/null)" != "$key" ]; then
  pad=0
  while :; do
    layout "$pad"
    link ld.lld "$dir/search.elf" --fix-cortex-a53-843419
    [ -z "$(lld_patched "$dir/search.elf")" ] || break
    pad=$((pad + 4))
    [ "$pad" -lt 4096 ] || { echo "not ok - ld.lld finds no sequence to patch at any pad"; exit 1; }
  done
  printf '%s\n%s\n' "$key" "$pad" > "$dir/pad"
fi
pad=$(sed -n 2p "$dir/pad")
echo "# the sections of small alignment $pad bytes into a page: ld.lld has sequences to patch"
layout "$pad"
link ld.lld "$dir/lld.elf"
link ld.lld "$dir/lld-fix.elf" --fix-cortex-a53-843419
link aarch64-linux-gnu-ld "$dir/bfd.elf"
link aarch64-linux-gnu-ld "$dir/bfd-fix.elf" --fix-cortex-a53-843419

# audit FILE NAME: a53-843419's rule over FILE on every model, into NAME.json; prints its exit status.
audit() {
  local rc=0
  "$harness" audit --width 0 "$1" --model all --erratum a53-843419 "${inputs[@]}" --format json > "$dir/$2.json" || rc=$?
  echo "$rc"
}
# The models of an audit where a53-843419 has status STATUS ("affected": the ones it affects).
models_where() {
  if [ "$2" = affected ]; then
    jq -r '.matrix[] | select(.erratum == "a53-843419" and .affected) | .model' "$dir/$1.json" | sort | xargs
  else
    jq -r --arg s "$2" '.matrix[] | select(.erratum == "a53-843419" and .status == $s) | .model' \
      "$dir/$1.json" | sort | xargs
  fi
}
# The findings of an audit: "address" or "where" (symbol+offset) of each, once, sorted.
findings() {
  jq -r --arg k "$2" '[.images[].errata[] | select(.erratum == "a53-843419") | .findings[] |
    if $k == "address" then (.address | ltrimstr("0x")) else .where end] | unique[]' \
    "$dir/$1.json"
}

rc=$(audit "$obj" object)
affected=$(models_where object affected)
check "arm64-built-in.o (relocatable, left to its final link): exit 0" 0 "$rc"
check "arm64-built-in.o: clean on every model the erratum affects" "$affected" "$(models_where object clean)"
check "some models are affected" true "$([ -n "$affected" ] && echo true || echo false)"

rc=$(audit "$dir/lld.elf" lld)
check "linked by ld.lld without the workaround: exit 1" 1 "$rc"
check "without the workaround: findings on exactly the affected models" "$affected" "$(models_where lld findings)"
check "the findings are the loads and stores ld.lld moves with the workaround" \
  "$(lld_patched "$dir/lld-fix.elf" | xargs)" "$(findings lld address | xargs)"
rc=$(audit "$dir/bfd.elf" bfd)
check "linked by GNU ld without the workaround: exit 1, the same places" "1 $(findings lld where | xargs)" \
  "$rc $(findings bfd where | xargs)"
for linked in lld-fix bfd-fix; do
  rc=$(audit "$dir/$linked.elf" "$linked")
  check "$linked.elf: exit 0, clean on every model the erratum affects" "0 $affected" \
    "$rc $(models_where "$linked" clean)"
done
exit $((failures > 0))
