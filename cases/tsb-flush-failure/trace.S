/*
 * The end of KVM's trace save before guest entry (kvm/hyp/nvhe/debug-sr.c __debug_save_trace()): trace
 * generation prohibited, an ISB, the trace buffer drained with TSB CSYNC and the drain completed with
 * DSB NSH. Before fa82d0b4b833 one TSB CSYNC; Linux 6.1's tsb_csync() (asm/barrier.h) issues a second
 * one first where ARM64_WORKAROUND_TSB_FLUSH_FAILURE is detected, through cpus_have_final_cap(): a NOP
 * that the alternative makes a branch to the out-of-line TSB CSYNC, which branches back, as the
 * compiler lays out debug-sr.nvhe.o. The writes of TRFCR_EL1 are left out: Unicorn 2.0.1 has no trace
 * filter registers, and the erratum is about the TSB CSYNCs. TSB CSYNC is written as HINT #18, its
 * encoding, which assemblers without FEAT_TRF accept.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_6_1.h"

	.text
	.globl	save_trace_before
save_trace_before:
	isb
#ifndef EH_MUTANT_NO_TSB
	hint	#18				// tsb csync
#endif
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
#ifndef EH_MUTANT_NO_DSB
	dsb	nsh
#endif
	ret

	.globl	save_trace_6_1
save_trace_6_1:
	isb
#if defined(EH_MUTANT_WRONG_CAP)
	alternative_insn nop, "b 2f", ARM64_WORKAROUND_1508412	// mutant: keyed on a capability A710 lacks
#elif defined(EH_MUTANT_NO_BRANCH)
	alternative_insn nop, nop, ARM64_WORKAROUND_TSB_FLUSH_FAILURE	// mutant: the second TSB CSYNC never reached
#else
	alternative_insn nop, "b 2f", ARM64_WORKAROUND_TSB_FLUSH_FAILURE
#endif
1:
#ifndef EH_MUTANT_NO_TSB
	hint	#18				// tsb csync
#endif
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral
#endif
#ifndef EH_MUTANT_NO_DSB
	dsb	nsh
#endif
	ret
2:
	hint	#18				// the workaround's TSB CSYNC
	b	1b
