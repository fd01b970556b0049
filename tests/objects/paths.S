/*
 * A relocatable object for tests/test_rules.c's straight-path rule (eh_rule_next, eh_rule_runs):
 * each MRS of TPIDRRO_EL0 starts a path; one lies in KVM's nVHE hyp code, known by its symbol.
 */
	.text
	/* Through an unconditional branch (the UDF it jumps over is never on the path), to a CBZ. */
	.globl	path_straight
path_straight:
	mrs	x0, tpidrro_el0
	b	1f
	udf	#0
1:	dmb	sy
	cbz	x0, 2f
2:	ret

	/* A call ends the straight path: the callee's return is not followed. */
	.globl	path_call
path_call:
	mrs	x0, tpidrro_el0
	bl	path_straight
	ret

	/* The last instruction of its section: nothing follows it. */
	.globl	__kvm_nvhe_path_end
__kvm_nvhe_path_end:
	isb
	mrs	x0, tpidrro_el0
