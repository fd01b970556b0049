#!/usr/bin/env bash
# The capability rules cannot drift from the kernel they restate: errata-harness models --rules for
# Linux 6.1 (or VERSION, e.g. 6.12), compared entry by entry with Debian's linux-source-VERSION
# arch/arm64/kernel/cpufeature.c and cpu_errata.c (tests/kernel/caps-source.py says what is compared).
#   caps-source.sh ERRATA_HARNESS WORKDIR [VERSION]
set -euo pipefail

harness=${1:?usage: caps-source.sh ERRATA_HARNESS WORKDIR [VERSION]}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/kernel-tree.sh"
kernel_version=${3:-6.1}
kernel_tree "${2:?usage: caps-source.sh ERRATA_HARNESS WORKDIR [VERSION]}" caps-source python3
"$harness" models --rules --kernel "$kernel_version" --format json > "$work/rules-$kernel_version.json"
python3 "$here/caps-source.py" "$src" "$work/rules-$kernel_version.json"
