/* The seed series: the arm64 fixes of Linux 5.4-rc the cases verify, in the order they were applied. */
#include "eh/run.h"

/* Numbered as the patches in the seed material are (001 .. 011). */
const struct eh_commit eh_series[] = {
	{ "d3ec3a08fa70", "arm64: KVM: Trap VM ops when ARM64_WORKAROUND_CAVIUM_TX2_219_TVM is set" },
	{ "9405447ef79b", "arm64: Avoid Cavium TX2 erratum 219 when switching TTBR" },
	{ "93916beb7014", "arm64: Enable workaround for Cavium TX2 erratum 219 when running SMT" },
	{ "603afdc9438a", "arm64: Allow CAVIUM_TX2_ERRATUM_219 to be selected" },
	{ "86109a691a45", "arm64: Fix kcore macros after 52-bit virtual addressing fallout" },
	{ "ec52c7134b1f", "arm64: cpufeature: Treat ID_AA64ZFR0_EL1 as RAZ when SVE is not enabled" },
	{ "8c551f919a73", "arm64: hibernate: check pgd table allocation" },
	{ "19c95f261c65", "arm64: entry.S: Do not preempt from IRQ before all cpufeatures are enabled" },
	{ "29a0f5ad87e6", "arm64: sysreg: fix incorrect definition of SYS_PAR_EL1_F" },
	{ "3813733595c0", "arm64: mm: fix inverted PAR_EL1.F check" },
	{ "597399d0cb91", "arm64: tags: Preserve tags for addresses translated via TTBR1" },
	{ 0 },
};
