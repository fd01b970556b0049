/* Capability numbers of Linux 6.12 (include/generated/asm/cpucap-defs.h of 6.12.118) used by the snippets of cases whose
 * .kernel is "6.12"; tests/test_cpucaps.c checks them against the harness's built-in table. */
#ifndef EH_CPUCAPS_6_12_SNIPPET_H
#define EH_CPUCAPS_6_12_SNIPPET_H

#define ARM64_WORKAROUND_2645198		82

#endif
