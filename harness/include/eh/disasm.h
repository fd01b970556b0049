/* An instruction's text as the Arm ARM writes it, where Capstone 4 has no name for a hint, barrier or register. */
#ifndef EH_DISASM_H
#define EH_DISASM_H

#include <stddef.h>

#include "eh/insn.h"

/*
 * in->text (Capstone's), except that a hint Capstone 4 prints as "hint #0x19"
 * is named ("paciasp", "bti c"), so are SB, SSBB and PSSBB, and a system
 * register it spells generically ("msr s3_3_c4_c2_1, x0") gets the name the
 * harness's sysreg table gives it ("msr daif, x0"). Returns in->text itself
 * when nothing is renamed, else buf.
 */
const char *eh_disasm_text(const struct eh_insn *in, char *buf, size_t len);

/* The Arm ARM's name of HINT #imm (CRm:op2), "bti jc"; NULL for one without a name here. */
const char *eh_disasm_hint(unsigned imm);

#endif
