/* Case zfr0-raz: how the snippet lays out the kernel's ID register field table (shared by the snippet and the case table). */
#ifndef EH_CASE_FTR_ABI_H
#define EH_CASE_FTR_ABI_H

/* One ARM64_FTR_BITS entry as EL0 sees it: 4 bytes, a table ends with width 0. */
struct eh_ftr_bits {
	unsigned char visibility;  /* EH_FTR_* */
	unsigned char shift;
	unsigned char width;
	unsigned char pad;
};

#define EH_FTR_HIDDEN 0
#define EH_FTR_VISIBLE 1
#define EH_FTR_VISIBLE_IF_SVE 2  /* FTR_VISIBLE_IF_IS_ENABLED(CONFIG_ARM64_SVE) */

#endif
