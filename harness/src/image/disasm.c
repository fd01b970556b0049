/* Names the hints, barriers and system registers Capstone 4 leaves unnamed, from the harness's own tables. */
#include "eh/disasm.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "eh/sysreg.h"

/* HINT #imm: 1101 0101 0000 0011 0010 CRm op2 11111, imm = CRm:op2 (Arm ARM C6.2, HINT). */
#define HINT_WORD 0xd503201fu
#define HINT_MASK 0xfffff01fu

static const char *const hint_names[] = {
	[0x00] = "nop", [0x01] = "yield", [0x02] = "wfe", [0x03] = "wfi", [0x04] = "sev",
	[0x05] = "sevl", [0x06] = "dgh", [0x07] = "xpaclri",
	[0x08] = "pacia1716", [0x0a] = "pacib1716", [0x0c] = "autia1716", [0x0e] = "autib1716",
	[0x10] = "esb", [0x11] = "psb csync", [0x12] = "tsb csync", [0x14] = "csdb",
	[0x16] = "clrbhb",
	[0x18] = "paciaz", [0x19] = "paciasp", [0x1a] = "pacibz", [0x1b] = "pacibsp",
	[0x1c] = "autiaz", [0x1d] = "autiasp", [0x1e] = "autibz", [0x1f] = "autibsp",
	[0x20] = "bti", [0x22] = "bti c", [0x24] = "bti j", [0x26] = "bti jc",
};

/* Barriers in the DSB/ISB encoding space that Capstone 4 prints as "dsb #0" or as an MSR. */
static const struct {
	uint32_t word;
	const char *name;
} barriers[] = {
	{ 0xd503309f, "ssbb" },   /* DSB #0 */
	{ 0xd503349f, "pssbb" },  /* DSB #4 */
	{ 0xd50330ff, "sb" },
};

const char *eh_disasm_hint(unsigned imm)
{
	return imm < sizeof(hint_names) / sizeof(hint_names[0]) ? hint_names[imm] : NULL;
}

/* Replace the generic spelling of in's system register ("s3_3_c4_c2_1") in its text by the table's name. */
static const char *name_sysreg(const struct eh_insn *in, char *buf, size_t len)
{
	const char *name = eh_sysreg_known(in->sysreg);
	char generic[32];
	const char *at;
	size_t i, pre;

	if (!name)
		return in->text;
	snprintf(generic, sizeof(generic), "s%u_%u_c%u_c%u_%u", EH_SYSREG_OP0(in->sysreg),
		 EH_SYSREG_OP1(in->sysreg), EH_SYSREG_CRN(in->sysreg), EH_SYSREG_CRM(in->sysreg),
		 EH_SYSREG_OP2(in->sysreg));
	at = strstr(in->text, generic);
	if (!at)
		return in->text;
	pre = (size_t)(at - in->text);
	snprintf(buf, len, "%.*s%s%s", (int)pre, in->text, name, at + strlen(generic));
	/* Capstone writes register names in lower case. */
	for (i = pre; i < pre + strlen(name) && i < len; i++)
		buf[i] = (char)tolower((unsigned char)buf[i]);
	return buf;
}

const char *eh_disasm_text(const struct eh_insn *in, char *buf, size_t len)
{
	size_t i;

	if ((in->word & HINT_MASK) == HINT_WORD && !strncmp(in->text, "hint ", 5)) {
		const char *name = eh_disasm_hint((in->word >> 5) & 0x7f);

		return name ? name : in->text;
	}
	for (i = 0; i < sizeof(barriers) / sizeof(barriers[0]); i++)
		if (in->word == barriers[i].word)
			return barriers[i].name;
	if (in->flags & (EH_INSN_MSR | EH_INSN_MRS))
		return name_sysreg(in, buf, len);
	return in->text;
}
