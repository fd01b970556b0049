/*
 * Prints the identification registers of the CPU it runs on as NAME=VALUE lines for
 * `errata-harness models --from`, read from EL0 through the kernel's emulation of MRS
 * (Documentation/arm64/cpu-feature-registers.rst: HWCAP_CPUID). Build on the machine with
 * `gcc -O2 -o id-regs id-regs.c` and run `./id-regs > regs.txt`.
 *
 * Only the registers whose capability fields the kernel shows to EL0 are printed: it serves
 * the fields it hides (the EL, GIC, RAS and CSV fields of ID_AA64PFR0_EL1, every field of
 * ID_AA64MMFR0/1_EL1 and ID_AA64DFR0_EL1) as their safe values, not the CPU's, so those are
 * left to the known model of the same part. MIDR_EL1 and REVIDR_EL1 are the CPU's own.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <termios.h>
#include <unistd.h>

#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1 << 11)   /* arch/arm64/include/uapi/asm/hwcap.h */
#endif

/* The generic spelling, so that an assembler that lacks a register's name still takes it. */
#define READ(enc, name) do { uint64_t v; __asm__ volatile("mrs %0, " enc : "=r"(v)); \
	printf("%s=0x%016llx\n", name, (unsigned long long)v); } while (0)

int main(void)
{
	if (!(getauxval(AT_HWCAP) & HWCAP_CPUID)) {
		fprintf(stderr, "id-regs: the kernel does not emulate MRS of ID registers (no HWCAP_CPUID)\n");
		return 2;
	}
	printf("# id-regs: EL0 view through the kernel's MRS emulation\n");
	READ("s3_0_c0_c0_0", "MIDR_EL1");
	READ("s3_0_c0_c0_6", "REVIDR_EL1");
	READ("s3_0_c0_c6_0", "ID_AA64ISAR0_EL1");
	READ("s3_0_c0_c6_1", "ID_AA64ISAR1_EL1");
	READ("s3_0_c0_c6_2", "ID_AA64ISAR2_EL1");
	READ("s3_0_c0_c4_1", "ID_AA64PFR1_EL1");
	READ("s3_0_c0_c4_4", "ID_AA64ZFR0_EL1");
	/*
	 * As /init (tests/qemu/kernel-caps.sh) its exit panics the kernel, which then sends no more
	 * of what the console's tty still queues: wait until the lines have left.
	 */
	fflush(stdout);
	if (getpid() == 1)
		tcdrain(STDOUT_FILENO);
	return 0;
}
