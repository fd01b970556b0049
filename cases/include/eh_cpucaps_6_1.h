/* Capability numbers of Linux 6.1 (the generated asm/cpucaps.h of 6.1.192) used by the snippets of cases whose
 * .kernel is "6.1"; tests/test_cpucaps.c checks them against the harness's built-in table. */
#ifndef EH_CPUCAPS_6_1_SNIPPET_H
#define EH_CPUCAPS_6_1_SNIPPET_H

#define ARM64_WORKAROUND_845719		55
#define ARM64_WORKAROUND_1508412		59
#define ARM64_WORKAROUND_TSB_FLUSH_FAILURE	69
#define ARM64_WORKAROUND_CLEAN_CACHE		76
#define ARM64_WORKAROUND_QCOM_FALKOR_E1003	79
#define ARM64_WORKAROUND_REPEAT_TLBI		80
#define ARM64_WORKAROUND_SPECULATIVE_AT		81
#define ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD	83

#endif
