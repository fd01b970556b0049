/*
 * The static rules of the errata through the audit, over small objects under tests/objects/
 * (errata61.S for repeat-tlbi, a520-2966298 and a77-1508412, one object of its own for each
 * later erratum), on models either side of each erratum's range and in each boot mode that
 * decides whether KVM's nVHE code runs: the exact findings, worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "eh/audit.h"
#include "eh/cpucaps.h"
#include "eh/elf.h"
#include "eh/erratum.h"
#include "eh/image.h"
#include "eh/model.h"
#include "test_objects.h"
#include "reports/rows.h"

#define MAXF 6
#define MAXE 3

/*
 * One object (tests/objects/NAME.S), model and boot mode; the errata audited and, for
 * each, its findings as "where kind anchor", in address order.
 */
struct row {
	const char *name;
	const char *object;
	const char *model;
	enum eh_boot boot;
	const char *errata[MAXE];
	const char *findings[MAXE][MAXF];
};

/* On every model: the unrepeated DSB, the TLBI with no DSB before its ERET, the plain PAR_EL1 read. */
#define UNREPEATED "tlbi_unrepeated+0x8 dsb tlbi_unrepeated+0x4"
#define NO_DSB "eret_no_dsb+0x8 eret eret_no_dsb+0x0"
#define PLAIN "par_plain+0x4 mrs par_el1 par_plain+0x0"
/* Where an alternative's workaround is not patched in. */
#define UNPATCHED_REPEATS UNREPEATED, "tlbi_repeated+0x8 dsb tlbi_repeated+0x4", \
	"tlbi_loop+0x10 dsb tlbi_loop+0x0", "tlbi_ipa+0xc dsb tlbi_ipa+0x8"
#define UNPATCHED_PAR "par_bracketed+0x4 mrs par_el1 par_bracketed+0x0", PLAIN
/* KVM's nVHE code, where it runs. */
#define NVHE_REPEAT "__kvm_nvhe_tlbi+0x4 dsb __kvm_nvhe_tlbi+0x0"
#define NVHE_PAR "__kvm_nvhe_par_vector+0x8 mrs par_el1 __kvm_nvhe_par_vector+0x4"
#define ERRATA61 "repeat-tlbi", "a520-2966298", "a77-1508412"
/* clean-cache.S: the cleans left where the alternatives are not patched in, and the plain one everywhere. */
#define PLAIN_CVAC "clean_plain+0x4 dc cvac -"
#define UNPATCHED_CLEANS "clean_pou+0x0 dc cvau -", "clean_poc+0x4 dc cvac -", PLAIN_CVAC
#define NVHE_CVAU "__kvm_nvhe_clean+0x0 dc cvau -"

/* a53-845719.S: the AArch32 checks with no write on their AArch32 side, and the one an alternative fixes. */
#define EXIT_PLAIN "exit_plain+0x4 aarch32 return exit_plain+0xc"
#define EXIT_FORK "exit_fork+0x4 aarch32 return exit_fork+0x10"
#define EXIT_UNPATCHED "exit_alternative+0x4 aarch32 return exit_alternative+0xc"

/* falkor-e1003.S: the trampoline's TTBR1_EL1 writes not followed by ISB; TLBI VAE1; DSB on every model. */
#define TRAMP_FINDINGS "tramp_plain+0x0 msr ttbr1_el1 tramp_plain+0x0", \
	"tramp_order+0x0 msr ttbr1_el1 tramp_order+0x0", "tramp_last_level+0x0 msr ttbr1_el1 tramp_last_level+0x0"

/* cavium-27456.S: the switches of the user's address space with no IC IALLU; DSB; ISB on every model. */
#define SWITCH_FINDINGS "switch_plain+0x8 msr ttbr0_el1 switch_plain+0x8", \
	"switch_no_dsb+0x8 msr ttbr0_el1 switch_no_dsb+0x8"

static const struct row rows[] = {
	{ "cortex-a55-r2p0 at EL2 with VHE: repeats patched in, nVHE code idle", "errata61", "cortex-a55-r2p0", EH_BOOT_EL2,
	  { ERRATA61 }, { { UNREPEATED }, { NO_DSB }, { UNPATCHED_PAR } } },
	{ "cortex-a55-r2p0 with kvm-arm.mode=nvhe: nVHE code runs", "errata61", "cortex-a55-r2p0", EH_BOOT_NVHE,
	  { ERRATA61 }, { { UNREPEATED, NVHE_REPEAT }, { NO_DSB }, { UNPATCHED_PAR, NVHE_PAR } } },
	{ "falkor-v1-r0p0 at EL2, no VHE: nVHE code runs", "errata61", "falkor-v1-r0p0", EH_BOOT_EL2,
	  { ERRATA61 }, { { UNREPEATED, NVHE_REPEAT }, { NO_DSB }, { UNPATCHED_PAR, NVHE_PAR } } },
	{ "cortex-a510-r1p2, past 2441009: no repeat patched in", "errata61", "cortex-a510-r1p2", EH_BOOT_EL2,
	  { ERRATA61 }, { { UNPATCHED_REPEATS }, { NO_DSB }, { UNPATCHED_PAR } } },
	{ "cortex-a510-r1p2 booted at EL1: no hypervisor", "errata61", "cortex-a510-r1p2", EH_BOOT_EL1,
	  { ERRATA61 }, { { UNPATCHED_REPEATS }, { NO_DSB }, { UNPATCHED_PAR } } },
	{ "cortex-a520-r0p1: the TLBI patched in, the load after it found", "errata61", "cortex-a520-r0p1", EH_BOOT_EL2,
	  { ERRATA61 }, { { UNPATCHED_REPEATS }, { "eret_cve+0x8 load eret_cve+0x0", NO_DSB }, { UNPATCHED_PAR } } },
	{ "cortex-a77-r1p0 at EL2 with VHE: the read bracketed", "errata61", "cortex-a77-r1p0", EH_BOOT_EL2,
	  { ERRATA61 }, { { UNREPEATED }, { NO_DSB }, { PLAIN } } },
	{ "cortex-a77-r1p0 with kvm-arm.mode=nvhe: the nVHE read found", "errata61", "cortex-a77-r1p0", EH_BOOT_NVHE,
	  { ERRATA61 }, { { UNREPEATED, NVHE_REPEAT }, { NO_DSB }, { PLAIN, NVHE_PAR } } },
	{ "cortex-a77-r1p1, past 1508412", "errata61", "cortex-a77-r1p1", EH_BOOT_EL2,
	  { ERRATA61 }, { { UNREPEATED }, { NO_DSB }, { UNPATCHED_PAR } } },
	{ "cortex-a53-r0p2 at EL2, no VHE: every clean patched to DC CIVAC but the plain one and nVHE code's",
	  "clean-cache", "cortex-a53-r0p2", EH_BOOT_EL2, { "clean-cache" }, { { PLAIN_CVAC, NVHE_CVAU } } },
	{ "cortex-a53-r0p3, past CLEAN_CACHE: every clean left", "clean-cache", "cortex-a53-r0p3", EH_BOOT_EL2,
	  { "clean-cache" }, { { UNPATCHED_CLEANS, NVHE_CVAU } } },
	{ "cortex-a53-r0p2 booted at EL1: the nVHE clean does not run", "clean-cache", "cortex-a53-r0p2",
	  EH_BOOT_EL1, { "clean-cache" }, { { PLAIN_CVAC } } },
	{ "cortex-a53-r0p2 at EL2: kernel_exit's write patched in, the plain and the forking side left",
	  "a53-845719", "cortex-a53-r0p2", EH_BOOT_EL2, { "a53-845719" }, { { EXIT_PLAIN, EXIT_FORK } } },
	{ "cortex-a53-r0p2 booted nvhe: KVM's nVHE return into a guest is not checked", "a53-845719",
	  "cortex-a53-r0p2", EH_BOOT_NVHE, { "a53-845719" }, { { EXIT_PLAIN, EXIT_FORK } } },
	{ "cortex-a72, past 845719: kernel_exit's write left out", "a53-845719", "cortex-a72", EH_BOOT_EL2,
	  { "a53-845719" }, { { EXIT_UNPATCHED, EXIT_PLAIN, EXIT_FORK } } },
	{ "falkor-v1-r0p0: the trampoline's invalidation patched in, the plain, misordered and last-level ones "
	  "left", "falkor-e1003", "falkor-v1-r0p0", EH_BOOT_EL1, { "falkor-e1003" }, { { TRAMP_FINDINGS } } },
	{ "kryo2xx-gold-rap1, not Falkor v1 r0p0: the invalidation left out", "falkor-e1003", "kryo2xx-gold-rap1",
	  EH_BOOT_EL1, { "falkor-e1003" }, { { "tramp_alternative+0x0 msr ttbr1_el1 tramp_alternative+0x0",
					       TRAMP_FINDINGS } } },
	{ "thunderx-t88-r1p1: the invalidation patched in, the plain switch and the one without a DSB left",
	  "cavium-27456", "thunderx-t88-r1p1", EH_BOOT_EL1, { "cavium-27456" }, { { SWITCH_FINDINGS } } },
	{ "thunderx-t88-r1p1 booted nvhe: KVM's writes of a guest's TTBRs are no switch", "cavium-27456",
	  "thunderx-t88-r1p1", EH_BOOT_NVHE, { "cavium-27456" }, { { SWITCH_FINDINGS } } },
	{ "thunderx-t88-r1p2, past 27456: the invalidation left out", "cavium-27456", "thunderx-t88-r1p2",
	  EH_BOOT_EL1, { "cavium-27456" }, { { "switch_alternative+0x8 msr ttbr0_el1 switch_alternative+0x8",
					       SWITCH_FINDINGS } } },
	{ 0 },
};

static void check(const char *row, const struct eh_audit_result *res, const char *const *expect)
{
	size_t i, n;
	char buf[300];

	for (n = 0; n < MAXF && expect[n]; n++)
		;
	for (i = 0; i < res->nfindings && i < n; i++) {
		const struct eh_finding *f = &res->findings[i];

		snprintf(buf, sizeof(buf), "%s %s %s", f->where, f->kind, f->anchor ? f->anchor_where : "-");
		if (strcmp(buf, expect[i]))
			fail_msg("%s: %s: finding %zu is '%s' (%s), expected '%s'", row, res->erratum->id, i, buf, f->explain,
				 expect[i]);
	}
	if (res->nfindings != n)
		fail_msg("%s: %s: %zu findings, expected %zu (the next: %s)", row, res->erratum->id, res->nfindings, n,
			 res->nfindings > n ? res->findings[n].where : expect[res->nfindings]);
}

static void run_row(void **state)
{
	const struct row *r = *state;
	const struct eh_erratum *errata[MAXE + 1] = { 0 };
	struct eh_elf *elf = NULL;
	struct eh_image *img = NULL;
	struct eh_audit *audit = NULL;
	struct eh_error err = { 0 };
	char path[4096];
	size_t len, i, n;
	unsigned char *buf = test_object_load(r->object, &len, path, sizeof(path));

	assert_non_null(buf);
	for (n = 0; n < MAXE && r->errata[n]; n++)
		if (!(errata[n] = eh_erratum_find(r->errata[n])))
			fail_msg("%s: no erratum %s", r->name, r->errata[n]);
	if (eh_elf_parse(&elf, path, buf, len, &err) ||
	    eh_image_new(&img, elf, eh_cpucaps_builtin("6.1"),
			 &(struct eh_target){ .model = eh_model_find(r->model), .boot = r->boot }, &err) ||
	    eh_audit_run(&audit, img, errata, &err))
		fail_msg("%s: %s", r->name, err.msg);
	assert_int_equal(audit->nresults, n);
	for (i = 0; i < n; i++)
		check(r->name, &audit->results[i], r->findings[i]);
	eh_audit_free(audit);
	eh_image_free(img);
	eh_elf_free(elf);
	free(buf);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows) - 1];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	return EH_RUN_TESTS("errata_rules", tests, n);
}
