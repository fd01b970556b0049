/*
 * One site of each kernel callback the harness emulates (Linux 6.1 numbering,
 * ARM64_CB_BIT), each with the original code the kernel's own site has, and a
 * callback the harness does not know. tests/test_alt.c says what each becomes.
 */
#include "eh_alternative.h"

#define ARM64_ALWAYS_SYSTEM	1
#define ARM64_HAS_PAN		29
#define ARM64_CB_BIT		(1 << 15)
#define CB(cap)			(ARM64_CB_BIT | (cap))

	.text
	/* alternative_has_feature_likely(): a branch every booted kernel has made a NOP. */
	.globl	nops_always
nops_always:
alternative_cb CB(ARM64_ALWAYS_SYSTEM), alt_cb_patch_nops
	b	1f
alternative_cb_end
1:	ret

	/* The same on a capability only some models have: not called where it is not detected. */
	.globl	nops_pan
nops_pan:
alternative_cb CB(ARM64_HAS_PAN), alt_cb_patch_nops
	b	1f
alternative_cb_end
1:	ret

	/* kern_hyp_va (asm/kvm_mmu.h). */
	.globl	va_mask
va_mask:
alternative_cb CB(ARM64_ALWAYS_SYSTEM), kvm_update_va_mask
	and	x3, x3, #1
	ror	x3, x3, #1
	add	x3, x3, #0
	add	x3, x3, #0, lsl #12
	ror	x3, x3, #63
alternative_cb_end
	ret

	/* hyp_kimg_va (asm/kvm_mmu.h). */
	.globl	kimage_voffset
kimage_voffset:
alternative_cb CB(ARM64_ALWAYS_SYSTEM), kvm_get_kimage_voffset
	movz	x4, #0
	movk	x4, #0, lsl #16
	movk	x4, #0, lsl #32
	movk	x4, #0, lsl #48
alternative_cb_end
	ret

	/* read_ctr (asm/assembler.h), as KVM's hyp code has it. */
	.globl	final_ctr
final_ctr:
alternative_cb CB(ARM64_ALWAYS_SYSTEM), kvm_compute_final_ctr_el0
	movz	x5, #0
	movk	x5, #0, lsl #16
	movk	x5, #0, lsl #32
	movk	x5, #0, lsl #48
alternative_cb_end
	ret

	/* hyp-entry.S's vector preamble. */
	.globl	vector_branch
vector_branch:
alternative_cb CB(ARM64_ALWAYS_SYSTEM), kvm_patch_vector_branch
	b	1f
	nop
	nop
	nop
alternative_cb_end
1:	ret

	/* apply_ssbd (kernel/entry.S). */
	.globl	ssbd
ssbd:
alternative_cb CB(ARM64_ALWAYS_SYSTEM), spectre_v4_patch_fw_mitigation_enable
	b	1f
alternative_cb_end
	mov	w0, #0x7fff
alternative_cb CB(ARM64_ALWAYS_SYSTEM), smccc_patch_fw_mitigation_conduit
	nop
alternative_cb_end
1:	ret

	/* __mitigate_spectre_bhb_loop and friends (asm/assembler.h). */
	.globl	bhb
bhb:
alternative_cb CB(ARM64_ALWAYS_SYSTEM), spectre_bhb_patch_loop_mitigation_enable
	b	1f
alternative_cb_end
alternative_cb CB(ARM64_ALWAYS_SYSTEM), spectre_bhb_patch_loop_iter
	mov	x2, #0
alternative_cb_end
alternative_cb CB(ARM64_ALWAYS_SYSTEM), spectre_bhb_patch_wa3
	mov	w0, #0x8000
alternative_cb_end
alternative_cb CB(ARM64_ALWAYS_SYSTEM), spectre_bhb_patch_clearbhb
	hint	#22			// clearbhb
	isb
alternative_cb_end
1:	ret

	/* A callback the harness does not emulate. */
	.globl	unknown_cb
unknown_cb:
alternative_cb CB(ARM64_ALWAYS_SYSTEM), kasan_hw_tags_enable
	b	1f
alternative_cb_end
1:	ret
