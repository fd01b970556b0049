/*
 * The errata capabilities Linux 6.1 detects on every CPU model, against sets worked out by hand
 * from the MIDR ranges of arch/arm64/kernel/cpu_errata.c (6.1.192), so that a wrong MIDR, REVIDR
 * or range in a model or a rule table fails a row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "eh/cap.h"
#include "eh/kconfig.h"
#include "eh/model.h"
#include "reports/rows.h"

/* Every capability of arm64_errata[] that a MIDR range decides (Spectre's are left to test_capabilities). */
static const char *const checked[] = {
	"ARM64_WORKAROUND_CLEAN_CACHE",           /* A53 r0p0-r0p2 */
	"ARM64_WORKAROUND_DEVICE_LOAD_ACQUIRE",   /* 832075: A57 r0p0-r1p2 */
	"ARM64_WORKAROUND_834220",                /* A57 r0p0-r1p2 */
	"ARM64_WORKAROUND_843419",                /* A53 r0p0-r0p4 (r0p4 with REVIDR bit 8 fixed), B53 r0p0 */
	"ARM64_WORKAROUND_845719",                /* A53 r0p0-r0p4, B53 r0p0, Kryo 2XX Silver rAp4 */
	"ARM64_WORKAROUND_CAVIUM_23154",          /* every ThunderX and OcteonTX2 */
	"ARM64_WORKAROUND_CAVIUM_27456",          /* T88 r0p0-r1p1, T81 r0p0 */
	"ARM64_WORKAROUND_CAVIUM_30115",          /* T88 r0p0-r1p2, T81 r0p0-r0p2, T83 r0p0 */
	"ARM64_WORKAROUND_QCOM_FALKOR_E1003",     /* Falkor v1 r0p0, a Qualcomm part 0x2XX */
	"ARM64_WORKAROUND_REPEAT_TLBI",           /* Falkor v1 r0p0, 0x2XX, A76 r0p0-r3p0, Kryo 4XX Gold rcpe-rfpe,
						     every A55, A510 r0p0-r1p1, the 4118414 list */
	"ARM64_WORKAROUND_858921",                /* every A73 */
	"ARM64_WORKAROUND_1418040",               /* A76 and N1 r0p0-r3p1, Kryo 4XX Gold rcpe-rfpf */
	"ARM64_WORKAROUND_SPECULATIVE_AT",        /* A76 r0p0-r2p0, every A57 and A72, A55 r0p0-r2p0,
						     Kryo 4XX Silver rdpe */
	"ARM64_WORKAROUND_1463225",               /* A76 r0p0-r3p1, Kryo 4XX Gold rcpe-rfpf, under VHE */
	"ARM64_WORKAROUND_CAVIUM_TX2_219_TVM",    /* ThunderX2 family, hyp mode, SMT */
	"ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM",   /* ThunderX2 family */
	"ARM64_WORKAROUND_1542419",               /* N1 with CTR_EL0.DIC */
	"ARM64_WORKAROUND_1508412",               /* A77 r0p0-r1p0 */
	"ARM64_WORKAROUND_TRBE_OVERWRITE_FILL_MODE", /* every N2, Cobalt 100 and A710, X2 r0p0-r2p0 */
	"ARM64_WORKAROUND_TSB_FLUSH_FAILURE",     /* every N2, Cobalt 100 and A710 */
	"ARM64_WORKAROUND_TRBE_WRITE_OUT_OF_RANGE", /* every N2, Cobalt 100 and A710, X2 r0p0-r2p0 */
	"ARM64_WORKAROUND_2077057",               /* A510 r0p0-r0p2 */
	"ARM64_WORKAROUND_2064142",               /* A510 r0p0-r0p2 */
	"ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT",   /* A510 r0p0-r1p1, A725 r0p0-r0p2 */
	"ARM64_WORKAROUND_2038923",               /* A510 r0p0-r0p2 */
	"ARM64_WORKAROUND_1902691",               /* A510 r0p0-r0p1 */
	"ARM64_WORKAROUND_1742098",               /* A57 r0p1 on, every A72 */
	"ARM64_WORKAROUND_2658417",               /* A510 r0p0-r1p1 (r1p1 with REVIDR bit 25 fixed) */
	"ARM64_WORKAROUND_SPECULATIVE_SSBS",      /* 3194386: every A76, A77, A710, N1, N2, ... */
	"ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD", /* 2966298: A520 r0p0-r0p1 */
	NULL,
};

#define NEXPECT 8

/* A model, the identity the row pins, how the kernel was built and booted, and what it detects. */
struct errata_row {
	const char *name;
	const char *model;
	uint32_t midr, revidr;
	unsigned threads;
	const char *config;  /* NULL: every option on */
	enum eh_boot boot;
	const char *detected[NEXPECT];  /* the checked capabilities detected, short names; the rest are not */
};

#define A53(rev) EH_MIDR(0x41, 0, 0xd03, (rev))
#define A57(var, rev) EH_MIDR(0x41, (var), 0xd07, (rev))
#define A76(var, rev) EH_MIDR(0x41, (var), 0xd0b, (rev))
#define KRYO4_GOLD(var, rev) EH_MIDR(0x51, (var), 0x804, (rev))

/* The least .config under which REPEAT_TLBI is decided by one of its list's lines alone. */
#define REPEAT_TLBI_ONLY(line) "CONFIG_ARM64_WORKAROUND_REPEAT_TLBI=y\nCONFIG_ARM64_ERRATUM_" line "=y\n"

static const struct errata_row rows[] = {
	/* Cortex-A53 and the parts built on it. */
	{ "cortex-a53-r0p2: clean cache, 843419, 845719", "cortex-a53-r0p2", A53(2), 0, 1, NULL, EH_BOOT_EL2,
	  { "CLEAN_CACHE", "843419", "845719" } },
	{ "cortex-a53-r0p3: past clean cache", "cortex-a53-r0p3", A53(3), 0, 1, NULL, EH_BOOT_EL2,
	  { "843419", "845719" } },
	{ "cortex-a53-r0p4: 843419 not fixed", "cortex-a53-r0p4", A53(4), 0, 1, NULL, EH_BOOT_EL2,
	  { "843419", "845719" } },
	{ "cortex-a53-r0p4-fixed: REVIDR bit 8 fixes 843419, not 845719", "cortex-a53-r0p4-fixed", A53(4), 1u << 8, 1,
	  NULL, EH_BOOT_EL2, { "845719" } },
	{ "brahma-b53-r0p0: 843419, 845719", "brahma-b53-r0p0", EH_MIDR(0x42, 0, 0x100, 0), 0, 1, NULL, EH_BOOT_EL2,
	  { "843419", "845719" } },
	{ "kryo2xx-silver-rap4: 845719 only", "kryo2xx-silver-rap4", EH_MIDR(0x51, 0xa, 0x801, 4), 0, 1, NULL,
	  EH_BOOT_EL2, { "845719" } },
	/* Qualcomm part 0x800: Falkor v1 at r0p0, Kryo 2XX Gold elsewhere. */
	{ "falkor-v1-r0p0: E1003 and E1009", "falkor-v1-r0p0", EH_MIDR(0x51, 0, 0x800, 0), 0, 1, NULL, EH_BOOT_EL2,
	  { "QCOM_FALKOR_E1003", "REPEAT_TLBI" } },
	{ "kryo2xx-gold-rap1: part 0x800 outside Falkor's r0p0", "kryo2xx-gold-rap1", EH_MIDR(0x51, 0xa, 0x800, 1), 0,
	  1, NULL, EH_BOOT_EL2, { NULL } },
	/* Cortex-A55 and Kryo 4XX Silver. */
	{ "cortex-a55-r2p0: 2441007, 1530923", "cortex-a55-r2p0", EH_MIDR(0x41, 2, 0xd05, 0), 0, 1, NULL, EH_BOOT_EL2,
	  { "REPEAT_TLBI", "SPECULATIVE_AT" } },
	{ "kryo4xx-silver-rdpe: 1530923 only", "kryo4xx-silver-rdpe", EH_MIDR(0x51, 0xd, 0x805, 0xe), 0, 1, NULL,
	  EH_BOOT_EL2, { "SPECULATIVE_AT" } },
	/* Cortex-A57 and A72. */
	{ "cortex-a57-r1p2: 832075, 834220, 1319367, 1742098", "cortex-a57-r1p2", A57(1, 2), 0, 1, NULL, EH_BOOT_EL2,
	  { "DEVICE_LOAD_ACQUIRE", "834220", "SPECULATIVE_AT", "1742098" } },
	{ "cortex-a57-r1p3: past 832075 and 834220", "cortex-a57-r1p3", A57(1, 3), 0, 1, NULL, EH_BOOT_EL2,
	  { "SPECULATIVE_AT", "1742098" } },
	{ "cortex-a72: 1319367, 1742098", "cortex-a72", EH_MIDR(0x41, 0, 0xd08, 3), 0, 1, NULL, EH_BOOT_EL2,
	  { "SPECULATIVE_AT", "1742098" } },
	/* Cortex-A76 and Kryo 4XX Gold. */
	{ "cortex-a76-r2p0: 1165522 too", "cortex-a76-r2p0", A76(2, 0), 0, 1, NULL, EH_BOOT_EL2,
	  { "REPEAT_TLBI", "1418040", "SPECULATIVE_AT", "1463225", "SPECULATIVE_SSBS" } },
	{ "cortex-a76-r3p0: past 1165522", "cortex-a76-r3p0", A76(3, 0), 0, 1, NULL, EH_BOOT_EL2,
	  { "REPEAT_TLBI", "1418040", "1463225", "SPECULATIVE_SSBS" } },
	{ "cortex-a76-r3p0 nvhe: no 1463225 without VHE", "cortex-a76-r3p0", A76(3, 0), 0, 1, NULL, EH_BOOT_NVHE,
	  { "REPEAT_TLBI", "1418040", "SPECULATIVE_SSBS" } },
	{ "cortex-a76-r3p0 with 1286807 alone: REPEAT_TLBI", "cortex-a76-r3p0", A76(3, 0), 0, 1,
	  REPEAT_TLBI_ONLY("1286807"), EH_BOOT_EL2, { "REPEAT_TLBI" } },
	{ "cortex-a76-r3p1: REPEAT_TLBI through 4118414", "cortex-a76-r3p1", A76(3, 1), 0, 1, NULL, EH_BOOT_EL2,
	  { "REPEAT_TLBI", "1418040", "1463225", "SPECULATIVE_SSBS" } },
	{ "cortex-a76-r3p1 with 1286807 alone: past its range", "cortex-a76-r3p1", A76(3, 1), 0, 1,
	  REPEAT_TLBI_ONLY("1286807"), EH_BOOT_EL2, { NULL } },
	{ "cortex-a76-r4p0: past 1418040 and 1463225", "cortex-a76-r4p0", A76(4, 0), 0, 1, NULL, EH_BOOT_EL2,
	  { "REPEAT_TLBI", "SPECULATIVE_SSBS" } },
	{ "cortex-a76-r4p0 with 4118414 alone: every A76", "cortex-a76-r4p0", A76(4, 0), 0, 1,
	  REPEAT_TLBI_ONLY("4118414"), EH_BOOT_EL2, { "REPEAT_TLBI" } },
	{ "kryo4xx-gold-rcpe: 1286807, 1418040, 1463225", "kryo4xx-gold-rcpe", KRYO4_GOLD(0xc, 0xe), 0, 1, NULL,
	  EH_BOOT_EL2, { "REPEAT_TLBI", "1418040", "1463225" } },
	{ "kryo4xx-gold-rfpe: the end of 1286807", "kryo4xx-gold-rfpe", KRYO4_GOLD(0xf, 0xe), 0, 1, NULL, EH_BOOT_EL2,
	  { "REPEAT_TLBI", "1418040", "1463225" } },
	{ "kryo4xx-gold-rfpf: past 1286807, not in the 4118414 list", "kryo4xx-gold-rfpf", KRYO4_GOLD(0xf, 0xf), 0, 1,
	  NULL, EH_BOOT_EL2, { "1418040", "1463225" } },
	/* Neoverse N1, Cortex-A77. */
	{ "neoverse-n1-r3p1: 1418040, 1542419 (DIC)", "neoverse-n1-r3p1", EH_MIDR(0x41, 3, 0xd0c, 1), 0, 1, NULL,
	  EH_BOOT_EL2, { "REPEAT_TLBI", "1418040", "1542419", "SPECULATIVE_SSBS" } },
	{ "neoverse-n1-r4p0: past 1418040", "neoverse-n1-r4p0", EH_MIDR(0x41, 4, 0xd0c, 0), 0, 1, NULL, EH_BOOT_EL2,
	  { "REPEAT_TLBI", "1542419", "SPECULATIVE_SSBS" } },
	{ "cortex-a77-r1p0: 1508412", "cortex-a77-r1p0", EH_MIDR(0x41, 1, 0xd0d, 0), 0, 1, NULL, EH_BOOT_EL2,
	  { "REPEAT_TLBI", "1508412", "SPECULATIVE_SSBS" } },
	{ "cortex-a77-r1p1: past 1508412", "cortex-a77-r1p1", EH_MIDR(0x41, 1, 0xd0d, 1), 0, 1, NULL, EH_BOOT_EL2,
	  { "REPEAT_TLBI", "SPECULATIVE_SSBS" } },
	/* Armv9 cores. */
	{ "cortex-a510-r1p1: 2441009, 2457168, 2658417", "cortex-a510-r1p1", EH_MIDR(0x41, 1, 0xd46, 1), 0, 1, NULL,
	  EH_BOOT_EL2, { "REPEAT_TLBI", "BROKEN_AMU_CONSTCNT", "2658417" } },
	{ "cortex-a510-r1p2: past them all", "cortex-a510-r1p2", EH_MIDR(0x41, 1, 0xd46, 2), 0, 1, NULL, EH_BOOT_EL2,
	  { NULL } },
	{ "cortex-a520-r0p1: 2966298", "cortex-a520-r0p1", EH_MIDR(0x41, 0, 0xd80, 1), 0, 1, NULL, EH_BOOT_EL2,
	  { "SPECULATIVE_UNPRIV_LOAD" } },
	{ "cortex-a520-r0p2: past 2966298", "cortex-a520-r0p2", EH_MIDR(0x41, 0, 0xd80, 2), 0, 1, NULL, EH_BOOT_EL2,
	  { NULL } },
	{ "cortex-a710-r0p0: TSB, TRBE, 4118414, 3194386", "cortex-a710-r0p0", EH_MIDR(0x41, 0, 0xd47, 0), 0, 1, NULL,
	  EH_BOOT_EL2,
	  { "REPEAT_TLBI", "TRBE_OVERWRITE_FILL_MODE", "TSB_FLUSH_FAILURE", "TRBE_WRITE_OUT_OF_RANGE",
	    "SPECULATIVE_SSBS" } },
	/* Linux 6.1 has no 2645198 workaround (6.12's, tests/test_errata.c): 3194386 alone. */
	{ "cortex-a715-r0p0: 3194386", "cortex-a715-r0p0", EH_MIDR(0x41, 0, 0xd4d, 0), 0, 1, NULL, EH_BOOT_EL2,
	  { "SPECULATIVE_SSBS" } },
	{ "sve2-capable (Neoverse N2): TSB, TRBE, 4118414, 3194386", "sve2-capable", EH_MIDR(0x41, 0, 0xd49, 0), 0, 1,
	  NULL, EH_BOOT_EL2,
	  { "REPEAT_TLBI", "TRBE_OVERWRITE_FILL_MODE", "TSB_FLUSH_FAILURE", "TRBE_WRITE_OUT_OF_RANGE",
	    "SPECULATIVE_SSBS" } },
	/* Cavium. */
	{ "thunderx-t88-r1p1: 27456", "thunderx-t88-r1p1", EH_MIDR(0x43, 1, 0x0a1, 1), 0, 1, NULL, EH_BOOT_EL2,
	  { "CAVIUM_23154", "CAVIUM_27456", "CAVIUM_30115" } },
	{ "thunderx-t88-r1p2: past 27456", "thunderx-t88-r1p2", EH_MIDR(0x43, 1, 0x0a1, 2), 0, 1, NULL, EH_BOOT_EL2,
	  { "CAVIUM_23154", "CAVIUM_30115" } },
	{ "thunderx-t81-r0p0: 27456", "thunderx-t81-r0p0", EH_MIDR(0x43, 0, 0x0a2, 0), 0, 1, NULL, EH_BOOT_EL2,
	  { "CAVIUM_23154", "CAVIUM_27456", "CAVIUM_30115" } },
	{ "thunderx-t81-r0p1: past 27456", "thunderx-t81-r0p1", EH_MIDR(0x43, 0, 0x0a2, 1), 0, 1, NULL, EH_BOOT_EL2,
	  { "CAVIUM_23154", "CAVIUM_30115" } },
	{ "thunderx2: 219 PRFM and TVM", "thunderx2", EH_MIDR(0x43, 1, 0x0af, 1), 0, 4, NULL, EH_BOOT_EL2,
	  { "CAVIUM_TX2_219_TVM", "CAVIUM_TX2_219_PRFM" } },
	{ "thunderx2 el1: no hyp mode, no TVM", "thunderx2", EH_MIDR(0x43, 1, 0x0af, 1), 0, 4, NULL, EH_BOOT_EL1,
	  { "CAVIUM_TX2_219_PRFM" } },
	{ "thunderx2-nosmt: no TVM without SMT", "thunderx2-nosmt", EH_MIDR(0x43, 1, 0x0af, 1), 0, 1, NULL,
	  EH_BOOT_EL2, { "CAVIUM_TX2_219_PRFM" } },
	{ "vulcan: 219 PRFM and TVM", "vulcan", EH_MIDR(0x42, 0, 0x516, 0), 0, 4, NULL, EH_BOOT_EL2,
	  { "CAVIUM_TX2_219_TVM", "CAVIUM_TX2_219_PRFM" } },
	/* Systems (models/systems.c): the boot CPU's identity, the threads of every core, the union of the cores' rows. */
	{ "system-a53-a72: the A53 r0p4's and the A72's", "system-a53-a72", A53(4), 0, 2, NULL, EH_BOOT_EL2,
	  { "843419", "845719", "SPECULATIVE_AT", "1742098" } },
	{ "system-a55-a76: the A55 r2p0's and the A76 r4p0's", "system-a55-a76", EH_MIDR(0x41, 2, 0xd05, 0), 0, 2, NULL,
	  EH_BOOT_EL2, { "REPEAT_TLBI", "SPECULATIVE_AT", "SPECULATIVE_SSBS" } },
	{ "system-a510-a710: the A510 r1p1's and the A710's", "system-a510-a710", EH_MIDR(0x41, 1, 0xd46, 1), 0, 2, NULL,
	  EH_BOOT_EL2,
	  { "REPEAT_TLBI", "BROKEN_AMU_CONSTCNT", "2658417", "TRBE_OVERWRITE_FILL_MODE", "TSB_FLUSH_FAILURE",
	    "TRBE_WRITE_OUT_OF_RANGE", "SPECULATIVE_SSBS" } },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* Whether the row expects cap ("ARM64_WORKAROUND_" + a short name) detected. */
static bool row_expects(const struct errata_row *r, const char *cap)
{
	static const char prefix[] = "ARM64_WORKAROUND_";
	size_t i;

	for (i = 0; i < NEXPECT && r->detected[i]; i++)
		if (!strncmp(cap, prefix, sizeof(prefix) - 1) && !strcmp(cap + sizeof(prefix) - 1, r->detected[i]))
			return true;
	return false;
}

/* A short name the row expects that names no checked capability (a typo would make a row pass silently). */
static const char *row_unchecked(const struct errata_row *r)
{
	size_t i;
	const char *const *c;

	for (i = 0; i < NEXPECT && r->detected[i]; i++) {
		for (c = checked; *c; c++)
			if (!strcmp(*c + strlen("ARM64_WORKAROUND_"), r->detected[i]))
				break;
		if (!*c)
			return r->detected[i];
	}
	return NULL;
}

static void run_row(void **state)
{
	const struct errata_row *r = *state;
	const struct eh_model *m = eh_model_find(r->model);
	struct eh_target t = { .model = m, .boot = r->boot };
	struct eh_kconfig *cfg = NULL;
	const char *const *c;
	const char *typo = row_unchecked(r);
	char wrong[1024] = "";
	size_t used = 0;

	if (typo)
		fail_msg("%s: the row expects %s, which is not a checked capability", r->name, typo);
	if (!m)
		fail_msg("%s: no model called %s", r->name, r->model);
	if (eh_model_boot_core(m)->midr != r->midr || eh_model_boot_core(m)->revidr != r->revidr ||
	    eh_model_threads(m) != r->threads)
		fail_msg("%s: MIDR_EL1 0x%08x, REVIDR_EL1 0x%x, %u threads; expected 0x%08x, 0x%x, %u", r->name,
			 eh_model_boot_core(m)->midr, eh_model_boot_core(m)->revidr, eh_model_threads(m), r->midr,
			 r->revidr, r->threads);
	if (r->config && eh_kconfig_parse(&cfg, r->name, r->config, strlen(r->config), NULL))
		fail_msg("%s: bad config in the row", r->name);
	t.config = cfg;
	for (c = checked; *c; c++) {
		bool got = eh_cap_detected(eh_cap_rules_find("6.1"), &t, *c);

		if (got != row_expects(r, *c) && used < sizeof(wrong))
			used += (size_t)snprintf(wrong + used, sizeof(wrong) - used, " %s %s;", *c,
						 got ? "detected" : "not detected");
	}
	eh_kconfig_free(cfg);
	if (used)
		fail_msg("%s: Linux 6.1 on MIDR_EL1 0x%08x REVIDR_EL1 0x%x:%s", r->name, eh_model_boot_core(m)->midr,
			 eh_model_boot_core(m)->revidr, wrong);
}

/* Every model has a row, so a new model cannot join without its errata worked out here. */
static void test_every_model_has_a_row(void **state)
{
	const struct eh_model *const *m;
	size_t i;

	(void)state;
	for (m = eh_models; *m; m++) {
		for (i = 0; i < NROWS && strcmp(rows[i].model, (*m)->name); i++)
			;
		if (i == NROWS)
			fail_msg("model %s has no row in tests/test_model_errata.c", (*m)->name);
	}
}

int main(void)
{
	struct CMUnitTest tests[NROWS + 1];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	EH_ADD_TEST(tests, n, test_every_model_has_a_row);
	return EH_RUN_TESTS("model_errata", tests, n);
}
