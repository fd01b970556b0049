/*
 * Assembler macros that emit alternatives in the layout of the arm64 kernel's
 * asm/alternative.h, so snippets carry a real .altinstructions table.
 */
#ifndef EH_ALTERNATIVE_H
#define EH_ALTERNATIVE_H

#ifdef __ASSEMBLER__

/* struct alt_instr: s32 orig_offset, s32 alt_offset, u16 cpufeature, u8 orig_len, u8 alt_len. */
.macro eh_altinstruction_entry orig, alt, feature, orig_len, alt_len
	.word	\orig - .
	.word	\alt - .
	.hword	\feature
	.byte	\orig_len
	.byte	\alt_len
.endm

/* One instruction, replaced by another when the CPU has capability cap. */
.macro alternative_insn insn1, insn2, cap
661:	\insn1
662:	.pushsection .altinstructions, "a"
	eh_altinstruction_entry 661b, 663f, \cap, 662b-661b, 664f-663f
	.popsection
	.pushsection .altinstr_replacement, "ax"
663:	\insn2
664:	.popsection
.endm

/* Code kept unless the CPU has cap, in which case it becomes NOPs. */
.macro alternative_if_not cap
	.set	.Leh_alt_if, 0
	.pushsection .altinstructions, "a"
	eh_altinstruction_entry 661f, 663f, \cap, 662f-661f, 664f-663f
	.popsection
661:
.endm

/* Code that runs only when the CPU has cap: NOPs in place, the code itself the replacement. */
.macro alternative_if cap
	.set	.Leh_alt_if, 1
	.pushsection .altinstructions, "a"
	eh_altinstruction_entry 661f, 663f, \cap, 662f-661f, 664f-663f
	.popsection
	.pushsection .altinstr_replacement, "ax"
663:
.endm

/* Ends either block, with NOPs on the side that has no code (the kernel's alternative_else_nop_endif). */
.macro alternative_else_nop_endif
	.if .Leh_alt_if
664:	.popsection
661:	.rept	(664b - 663b) / 4
	nop
	.endr
662:
	.else
662:	.pushsection .altinstr_replacement, "ax"
663:	.rept	(662b - 661b) / 4
	nop
	.endr
664:	.popsection
	.endif
.endm

/*
 * Code a kernel function rewrites at boot (a callback), once cap is detected:
 * cap carries ARM64_CB_BIT (6.x), the replacement field names the function.
 */
.macro alternative_cb cap, cb
	.pushsection .altinstructions, "a"
	eh_altinstruction_entry 661f, \cb, \cap, 662f-661f, 0
	.popsection
661:
.endm

.macro alternative_cb_end
662:
.endm

#endif
#endif
