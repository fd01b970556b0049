# Sourced by the kernel test scripts: check NAME EXPECTED ACTUAL prints a TAP-like line and counts a
# failure in $failures when ACTUAL is not EXPECTED; registry_counts HARNESS sets nmodels and nerrata,
# the models and the errata with a static rule that `audit --model all` covers (its --help lists both).
failures=0
check() {
  if [ "$2" = "$3" ]; then
    echo "ok - $1: $3"
  else
    echo "not ok - $1: expected $2, got $3"
    failures=$((failures + 1))
  fi
}
registry_counts() {
  nmodels=$("$1" audit --help | awk '/^models:/{print NF - 1}')
  nerrata=$("$1" audit --help | awk '/^errata with a static rule:/{f=1;next} /^$/{f=0} f' | grep -c .)
}
