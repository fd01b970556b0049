/*
 * The identification registers of QEMU's CPU as NAME=VALUE lines (errata-harness models --from),
 * read at the EL QEMU enters the image at (EL1, or EL2 with -M virt,virtualization=on), so every
 * field is the CPU's own, unlike the EL0 view (id-regs.c).
 */
#include "semihost.h"

#define READ(enc, name) do { uint64_t v; __asm__ volatile("mrs %0, " enc : "=r"(v)); put_reg(name, v); } while (0)

int probe_main(void)
{
	uint64_t el;

	__asm__ volatile("mrs %0, CurrentEL" : "=r"(el));
	put((el >> 2) == 2 ? "# id-regs-bare: read at EL2\n" : "# id-regs-bare: read at EL1\n");
	READ("s3_0_c0_c0_0", "MIDR_EL1");
	READ("s3_0_c0_c0_6", "REVIDR_EL1");
	READ("s3_0_c0_c4_0", "ID_AA64PFR0_EL1");
	READ("s3_0_c0_c4_1", "ID_AA64PFR1_EL1");
	READ("s3_0_c0_c4_4", "ID_AA64ZFR0_EL1");
	READ("s3_0_c0_c4_5", "ID_AA64SMFR0_EL1");
	READ("s3_0_c0_c5_0", "ID_AA64DFR0_EL1");
	READ("s3_0_c0_c6_0", "ID_AA64ISAR0_EL1");
	READ("s3_0_c0_c6_1", "ID_AA64ISAR1_EL1");
	READ("s3_0_c0_c6_2", "ID_AA64ISAR2_EL1");
	READ("s3_0_c0_c7_0", "ID_AA64MMFR0_EL1");
	READ("s3_0_c0_c7_1", "ID_AA64MMFR1_EL1");
	READ("s3_0_c0_c7_2", "ID_AA64MMFR2_EL1");
	READ("s3_3_c0_c0_1", "CTR_EL0");
	READ("s3_3_c0_c0_7", "DCZID_EL0");
	/*
	 * Not an ID register models list, so a comment for models --from: the kernel sets CTR_EL0.IDC
	 * itself when CLIDR_EL1 has LoC 0 or LoUIS and LoUU both 0 (read_cpuid_effective_cachetype(),
	 * arch/arm64/include/asm/cache.h).
	 */
	READ("s3_1_c0_c0_1", "# CLIDR_EL1");
	return 0;
}
