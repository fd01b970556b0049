#!/usr/bin/env bash
# Builds the errata mutants of the kernel test: for each patch under tests/kernel/mutants/ (a 6.1 source
# without an erratum's workaround; ERRATUM-VERSION.patch where VERSION's source needs a port of its own,
# and only that for an erratum whose workaround came later), the few objects it touches, as sibling sources next to the shipped
# ones, so the tree and its objects stay as shipped. The patch is applied to copies of the files it
# touches; a source the patch changes is built as a sibling copy, any other (C or assembly) as a sibling
# that includes the patched copies of the headers first (their include guards keep the tree's out) and
# then the original.
# Cached by the patch's content and the tree's stamp (its compiler flags): a rerun costs nothing.
#   build-mutants.sh WORKDIR [VERSION]    leaves WORKDIR/out/mutants/ERRATUM/*.o (KVM's nVHE objects as
#                                         *.nvhe.o), one folder per erratum with a patch for VERSION
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/kernel-tree.sh"
kernel_version=${2:-6.1}
kernel_tree "${1:?usage: build-mutants.sh WORKDIR [VERSION]}" build-mutants patch

# erratum: the objects its patch reaches, relative to arch/arm64 (":nvhe" for KVM's nVHE hyp objects).
declare -A objects=(
  [repeat-tlbi]="kernel/sys_compat.c kvm/hyp/pgtable.c kvm/hyp/vhe/tlb.c kvm/hyp/nvhe/tlb.c:nvhe"
  [a520-2966298]="kernel/entry.S"
  [a77-1508412]="mm/fault.c kvm/hyp/vhe/switch.c kvm/hyp/nvhe/switch.c:nvhe"
  [clean-cache]="mm/cache.S kernel/hibernate-asm.S"
  [tsb-flush-failure]="kvm/hyp/nvhe/debug-sr.c:nvhe"
  [speculative-at]="kvm/hyp/vhe/tlb.c kvm/hyp/vhe/switch.c kvm/hyp/nvhe/switch.c:nvhe"
  [a53-845719]="kernel/entry.S"
  [falkor-e1003]="kernel/entry.S"
  [cavium-27456]="mm/context.c"
  [a715-2645198]="mm/mmu.c mm/hugetlbpage.c"
)

for erratum in "${!objects[@]}"; do
  patchfile=$here/mutants/$erratum-$kernel_version.patch
  [ -f "$patchfile" ] || patchfile=$here/mutants/$erratum.patch
  [ -f "$patchfile" ] || continue  # a workaround VERSION does not carry (a715-2645198 before 6.12)
  dest=$out/mutants/$erratum
  stamp=$(cat "$patchfile"; echo "${objects[$erratum]}"; echo "$tree_key")
  [ "$(cat "$dest/.built" 2>/dev/null)" = "$stamp" ] && continue
  copy=$work/mutants/$erratum
  rm -rf "$copy" "$dest"
  mkdir -p "$copy" "$dest"
  touched=$(sed -n 's|^+++ b/||p' "$patchfile")
  for f in $touched; do
    mkdir -p "$copy/$(dirname "$f")"
    cp "$src/$f" "$copy/$f"
  done
  patch -s -p1 -d "$copy" < "$patchfile"
  targets=()
  for spec in ${objects[$erratum]}; do
    path=arch/arm64/${spec%:nvhe}
    dir=$(dirname "$path")
    base=$(basename "${path%.*}")
    sibling=$dir/$base-$erratum.${path##*.}
    if [ -f "$copy/$path" ]; then
      cp "$copy/$path" "$src/$sibling"
    else
      {
        echo "/* $(basename "$path") with the headers tests/kernel/mutants/$erratum.patch changes as it leaves them. */"
        for f in $touched; do
          case $f in *.h) echo "#include \"$copy/$f\"" ;; esac
        done
        echo "#include \"$(basename "$path")\""
      } > "$src/$sibling"
    fi
    if [ "$spec" != "${spec%:nvhe}" ]; then
      targets+=("$dir/$base-$erratum.nvhe.o")
    else
      targets+=("$dir/$base-$erratum.o")
    fi
  done
  log "building ${targets[*]}"
  "${kmake[@]}" "${targets[@]}"
  for t in "${targets[@]}"; do
    name=$(basename "$t")
    cp "$src/$t" "$dest/${name/-$erratum/}"
  done
  echo "$stamp" > "$dest/.built"
done
