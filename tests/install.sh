#!/usr/bin/env bash
# `cmake --install` into a temporary prefix gives a working tool: run from another directory, it finds
# the snippets installed under its own prefix (moved or not), passes every scenario and kills every
# mutant; --cases-dir and EH_CASES_DIR still win; the man page is there and names the commands.
#   install.sh CMAKE BUILD_DIR MAN_PAGE(ON|OFF)
set -uo pipefail

cmake=${1:?usage: install.sh CMAKE BUILD_DIR ON|OFF}
build=${2:?usage: install.sh CMAKE BUILD_DIR ON|OFF}
man_page=${3:?usage: install.sh CMAKE BUILD_DIR ON|OFF}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

. "$(dirname "$0")/expect.sh"

prefix=$tmp/prefix
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
unset EH_CASES_DIR
expect "cmake --install into a temporary prefix" 0 "Installing: .*/bin/errata-harness" \
  "$cmake" --install "$build" --prefix "$prefix"
eh=$prefix/bin/errata-harness
scenarios=$("$eh" list --matrix | wc -l)
expect "installed run from another directory: all $scenarios scenarios pass" 0 "^$scenarios passed, 0 failed$" \
  "$eh" run
expect "installed run --mutants: every mutant as it must be" 0 "0 not$" "$eh" run --mutants

# Relocated: the tool finds its snippets from where it is, not from where it was installed to.
mv "$prefix" "$tmp/moved"
eh=$tmp/moved/bin/errata-harness
expect "moved prefix still runs" 0 "passed, 0 failed" "$eh" run --case tx2-219-prfm
rm "$tmp/moved/share/errata-harness/cases/tx2-219-prfm.elf"
expect "the snippets read are the prefix's (one removed: named)" 1 \
  "$tmp/moved/bin/../share/errata-harness/cases/tx2-219-prfm.elf: cannot open" "$eh" run --case tx2-219-prfm -v --width 0
expect "--cases-dir wins over the prefix" 0 "passed, 0 failed" \
  "$eh" run --case tx2-219-prfm --cases-dir "$build/cases"
expect "EH_CASES_DIR wins over the prefix" 0 "passed, 0 failed" \
  env EH_CASES_DIR="$build/cases" "$eh" run --case tx2-219-prfm

page=$tmp/moved/share/man/man1/errata-harness.1
if [ "$man_page" = ON ]; then
  render=(cat "$page")
  command -v man >/dev/null && render=(env MANWIDTH=80 man -l "$page")
  for cmd in list models run replay audit exec; do
    expect "man page names the command $cmd" 0 "^ +$cmd( |$)" "${render[@]}"
  done
  for cmd in LIST MODELS RUN REPLAY AUDIT EXEC; do
    expect "man page has a section of $cmd's options" 0 "^$cmd COMMAND" "${render[@]}"
  done
else
  echo "# help2man was missing at configure time: no man page is built"
  expect "no man page installed without help2man" 0 "^absent$" sh -c 'test -e "$1" || echo absent' - "$page"
fi

echo "# $failures failed"
[ "$failures" -eq 0 ]
