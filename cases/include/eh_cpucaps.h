/* Capability numbers of Linux 5.4 (arch/arm64/include/asm/cpucaps.h) used by snippets; tests check them
 * against the harness's built-in table. */
#ifndef EH_CPUCAPS_SNIPPET_H
#define EH_CPUCAPS_SNIPPET_H

#define ARM64_HAS_PAN				4
#define ARM64_WORKAROUND_QCOM_FALKOR_E1003	18
#define ARM64_WORKAROUND_CAVIUM_TX2_219_TVM	45
#define ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM	46

#endif
