/*
 * The hypervisor's vectors and capability check (KVM's hyp/entry.S and hyp-entry.S in spirit),
 * and the guests the scenarios of d3ec3a08fa70 run at EL1.
 */
#include "eh_alternative.h"
#include "eh_cpucaps_5_4.h"

	.section .hyp.text, "ax"

	/* cpus_have_const_cap(ARM64_WORKAROUND_CAVIUM_TX2_219_TVM), patched at boot. */
	.globl	has_tx2_219_tvm
has_tx2_219_tvm:
#ifdef EH_MUTANT_BRK_IN_SETUP
	brk	#1				// mutant: the capability check never returns
#endif
alternative_insn "mov x0, #0", "mov x0, #1", ARM64_WORKAROUND_CAVIUM_TX2_219_TVM
	ret

	/*
	 * VBAR_EL2. Only the entry for a synchronous exception from a lower EL in
	 * AArch64 is reachable: the harness enters it with x0 = the guest's saved
	 * registers and x30 = the way back to the host (eh/machine.h).
	 */
	.align	11
	.globl	__kvm_hyp_vector
__kvm_hyp_vector:
	.space	0x400
el1_sync:
	mov	x19, x30
	bl	fixup_guest_exit
	cbz	w0, 1f
	eret				// handled: back to the guest at ELR_EL2
1:	ret	x19			// not handled: exit to the host
	.align	11

	.text

	/*
	 * A guest switching address space: TTBR0_EL1, then a load before any ISB.
	 * guest_ttbr0 holds the value it writes, for the judge to find in TTBR0_EL1.
	 */
	.globl	guest_switch_ttbr0
guest_switch_ttbr0:
	ldr	x0, guest_ttbr0
	adrp	x1, guest_data
	add	x1, x1, :lo12:guest_data
	msr	ttbr0_el1, x0
#ifdef EH_MUTANT_NOP
	nop					// mutant: neutral, the judge must not care
#endif
	ldr	x2, [x1]
	isb
	ret

	/* A guest that unmasks SErrors with a virtual one pending, and takes it. */
	.globl	guest_take_serror
guest_take_serror:
	adrp	x1, guest_vectors
	add	x1, x1, :lo12:guest_vectors
	msr	vbar_el1, x1
	isb
	msr	daifclr, #4
	isb
	ret

	.align	11
guest_vectors:
	.space	0x380
guest_serror:				// current EL with SP_ELx, SError: nothing to recover
	eret
	.align	11

	.data
	.align	12
guest_pgd:
	.space	4096
guest_data:
	.quad	0x2019
	.globl	guest_ttbr0
guest_ttbr0:
	.quad	guest_pgd + (1 << 48)	// the guest's tables, ASID 1
