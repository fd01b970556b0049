#!/usr/bin/env bash
# The capability rules cannot drift from the kernel they restate: errata-harness models --rules for
# Linux 6.1, compared entry by entry with Debian's linux-source-6.1 arch/arm64/kernel/cpufeature.c
# and cpu_errata.c (tests/kernel/caps-source.py says what is compared).
#   caps-source.sh ERRATA_HARNESS WORKDIR
set -euo pipefail

harness=${1:?usage: caps-source.sh ERRATA_HARNESS WORKDIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/kernel-tree.sh"
kernel_tree "${2:?usage: caps-source.sh ERRATA_HARNESS WORKDIR}" caps-source python3
"$harness" models --rules --kernel 6.1 --format json > "$work/rules-6.1.json"
python3 "$here/caps-source.py" "$src" "$work/rules-6.1.json"
