/* The kernel's answer to an EL0 read of ID_AA64ZFR0_EL1 (emulate_mrs over ftr_id_aa64zfr0), before and after ec52c7134b1f. */
#ifndef EH_CASE_ZFR0_RAZ_H
#define EH_CASE_ZFR0_RAZ_H

#include <stdint.h>

#include "eh/elf.h"
#include "eh/kconfig.h"

/* One field of a sanitised ID register as an ARM64_FTR_BITS entry of cpufeature.c describes it to EL0. */
struct eh_ftr_field {
	unsigned shift, width;
	const char *visible_if;   /* NULL: FTR_VISIBLE; else FTR_VISIBLE_IF_IS_ENABLED(this symbol) */
	bool hidden;              /* FTR_HIDDEN */
};

#define EH_ZFR0_FIELDS_MAX 16

/*
 * Read the field table at symbol sym of the snippet (cases/zfr0-raz/ftr_zfr0.c, laid out as
 * ftr_abi.h says) into out, which ends with width 0.
 */
int eh_zfr0_read_table(const struct eh_elf *elf, const char *sym, struct eh_ftr_field out[EH_ZFR0_FIELDS_MAX],
		       struct eh_error *err);

/* SVEver 3:0, AES 7:4, BitPerm 19:16, SHA3 35:32, SM4 43:40: the fields a 5.4 kernel knows. */
#define EH_ZFR0_KNOWN_FIELDS 0x00000f0f000f00ffull

/* What EL0 reads: the fields of hw that table makes visible under config; the rest read as zero. */
uint64_t eh_zfr0_user_value(const struct eh_ftr_field *table, uint64_t hw, const struct eh_kconfig *config);

/*
 * What EL0 must read: with the kernel's SVE support off, SVE is not implemented
 * as far as EL0 can tell, and the architecture makes ID_AA64ZFR0_EL1 RAZ then;
 * with it on, the known fields of the hardware value.
 */
uint64_t eh_zfr0_required(uint64_t hw, const struct eh_kconfig *config);

#endif
