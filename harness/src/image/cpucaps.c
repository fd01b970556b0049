/* Capability numbering of arm64 kernels: built-in tables of known versions, and a parser for a tree's cpucaps.h. */
#include "eh/cpucaps.h"
#include "eh/kimage.h"
#include "eh/cap.h"
#include "eh/file.h"
#include "eh/ktype.h"
#include "eh/kversion.h"
#include "image/cap_image.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Linux 5.4, arch/arm64/include/asm/cpucaps.h (hand-written, after 9405447ef79b). */
static const struct eh_cpucap linux_5_4[] = {
	{ "ARM64_WORKAROUND_CLEAN_CACHE", 0 },
	{ "ARM64_WORKAROUND_DEVICE_LOAD_ACQUIRE", 1 },
	{ "ARM64_WORKAROUND_845719", 2 },
	{ "ARM64_HAS_SYSREG_GIC_CPUIF", 3 },
	{ "ARM64_HAS_PAN", 4 },
	{ "ARM64_HAS_LSE_ATOMICS", 5 },
	{ "ARM64_WORKAROUND_CAVIUM_23154", 6 },
	{ "ARM64_WORKAROUND_834220", 7 },
	{ "ARM64_HAS_NO_HW_PREFETCH", 8 },
	{ "ARM64_HAS_UAO", 9 },
	{ "ARM64_ALT_PAN_NOT_UAO", 10 },
	{ "ARM64_HAS_VIRT_HOST_EXTN", 11 },
	{ "ARM64_WORKAROUND_CAVIUM_27456", 12 },
	{ "ARM64_HAS_32BIT_EL0", 13 },
	{ "ARM64_HARDEN_EL2_VECTORS", 14 },
	{ "ARM64_HAS_CNP", 15 },
	{ "ARM64_HAS_NO_FPSIMD", 16 },
	{ "ARM64_WORKAROUND_REPEAT_TLBI", 17 },
	{ "ARM64_WORKAROUND_QCOM_FALKOR_E1003", 18 },
	{ "ARM64_WORKAROUND_858921", 19 },
	{ "ARM64_WORKAROUND_CAVIUM_30115", 20 },
	{ "ARM64_HAS_DCPOP", 21 },
	{ "ARM64_SVE", 22 },
	{ "ARM64_UNMAP_KERNEL_AT_EL0", 23 },
	{ "ARM64_HARDEN_BRANCH_PREDICTOR", 24 },
	{ "ARM64_HAS_RAS_EXTN", 25 },
	{ "ARM64_WORKAROUND_843419", 26 },
	{ "ARM64_HAS_CACHE_IDC", 27 },
	{ "ARM64_HAS_CACHE_DIC", 28 },
	{ "ARM64_HW_DBM", 29 },
	{ "ARM64_SSBD", 30 },
	{ "ARM64_MISMATCHED_CACHE_TYPE", 31 },
	{ "ARM64_HAS_STAGE2_FWB", 32 },
	{ "ARM64_HAS_CRC32", 33 },
	{ "ARM64_SSBS", 34 },
	{ "ARM64_WORKAROUND_1418040", 35 },
	{ "ARM64_HAS_SB", 36 },
	{ "ARM64_WORKAROUND_1165522", 37 },
	{ "ARM64_HAS_ADDRESS_AUTH_ARCH", 38 },
	{ "ARM64_HAS_ADDRESS_AUTH_IMP_DEF", 39 },
	{ "ARM64_HAS_GENERIC_AUTH_ARCH", 40 },
	{ "ARM64_HAS_GENERIC_AUTH_IMP_DEF", 41 },
	{ "ARM64_HAS_IRQ_PRIO_MASKING", 42 },
	{ "ARM64_HAS_DCPODP", 43 },
	{ "ARM64_WORKAROUND_1463225", 44 },
	{ "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM", 45 },
	{ "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", 46 },
};

/*
 * Linux 6.1 (Debian's linux-source-6.1, 6.1.192): include/generated/asm/cpucaps.h as
 * arch/arm64/tools/gen-cpucaps.awk numbers arch/arm64/tools/cpucaps, one line each
 * in file order, comments and blank lines skipped.
 */
static const struct eh_cpucap linux_6_1[] = {
	{ "ARM64_ALWAYS_BOOT", 0 },
	{ "ARM64_ALWAYS_SYSTEM", 1 },
	{ "ARM64_BTI", 2 },
	{ "ARM64_HAS_32BIT_EL0_DO_NOT_USE", 3 },
	{ "ARM64_HAS_32BIT_EL1", 4 },
	{ "ARM64_HAS_ADDRESS_AUTH", 5 },
	{ "ARM64_HAS_ADDRESS_AUTH_ARCH_QARMA3", 6 },
	{ "ARM64_HAS_ADDRESS_AUTH_ARCH_QARMA5", 7 },
	{ "ARM64_HAS_ADDRESS_AUTH_IMP_DEF", 8 },
	{ "ARM64_HAS_AMU_EXTN", 9 },
	{ "ARM64_HAS_ARMv8_4_TTL", 10 },
	{ "ARM64_HAS_CACHE_DIC", 11 },
	{ "ARM64_HAS_CACHE_IDC", 12 },
	{ "ARM64_HAS_CNP", 13 },
	{ "ARM64_HAS_CRC32", 14 },
	{ "ARM64_HAS_DCPODP", 15 },
	{ "ARM64_HAS_DCPOP", 16 },
	{ "ARM64_HAS_E0PD", 17 },
	{ "ARM64_HAS_ECV", 18 },
	{ "ARM64_HAS_EPAN", 19 },
	{ "ARM64_HAS_GENERIC_AUTH", 20 },
	{ "ARM64_HAS_GENERIC_AUTH_ARCH_QARMA3", 21 },
	{ "ARM64_HAS_GENERIC_AUTH_ARCH_QARMA5", 22 },
	{ "ARM64_HAS_GENERIC_AUTH_IMP_DEF", 23 },
	{ "ARM64_HAS_IRQ_PRIO_MASKING", 24 },
	{ "ARM64_HAS_LDAPR", 25 },
	{ "ARM64_HAS_LSE_ATOMICS", 26 },
	{ "ARM64_HAS_NO_FPSIMD", 27 },
	{ "ARM64_HAS_NO_HW_PREFETCH", 28 },
	{ "ARM64_HAS_PAN", 29 },
	{ "ARM64_HAS_RAS_EXTN", 30 },
	{ "ARM64_HAS_RNG", 31 },
	{ "ARM64_HAS_SB", 32 },
	{ "ARM64_HAS_STAGE2_FWB", 33 },
	{ "ARM64_HAS_SYSREG_GIC_CPUIF", 34 },
	{ "ARM64_HAS_TIDCP1", 35 },
	{ "ARM64_HAS_TLB_RANGE", 36 },
	{ "ARM64_HAS_VIRT_HOST_EXTN", 37 },
	{ "ARM64_HAS_WFXT", 38 },
	{ "ARM64_HW_DBM", 39 },
	{ "ARM64_KVM_PROTECTED_MODE", 40 },
	{ "ARM64_MISMATCHED_CACHE_TYPE", 41 },
	{ "ARM64_MTE", 42 },
	{ "ARM64_MTE_ASYMM", 43 },
	{ "ARM64_SME", 44 },
	{ "ARM64_SME_FA64", 45 },
	{ "ARM64_SPECTRE_V2", 46 },
	{ "ARM64_SPECTRE_V3A", 47 },
	{ "ARM64_SPECTRE_V4", 48 },
	{ "ARM64_SPECTRE_BHB", 49 },
	{ "ARM64_SSBS", 50 },
	{ "ARM64_SVE", 51 },
	{ "ARM64_UNMAP_KERNEL_AT_EL0", 52 },
	{ "ARM64_WORKAROUND_834220", 53 },
	{ "ARM64_WORKAROUND_843419", 54 },
	{ "ARM64_WORKAROUND_845719", 55 },
	{ "ARM64_WORKAROUND_858921", 56 },
	{ "ARM64_WORKAROUND_1418040", 57 },
	{ "ARM64_WORKAROUND_1463225", 58 },
	{ "ARM64_WORKAROUND_1508412", 59 },
	{ "ARM64_WORKAROUND_1542419", 60 },
	{ "ARM64_WORKAROUND_1742098", 61 },
	{ "ARM64_WORKAROUND_1902691", 62 },
	{ "ARM64_WORKAROUND_2038923", 63 },
	{ "ARM64_WORKAROUND_2064142", 64 },
	{ "ARM64_WORKAROUND_2077057", 65 },
	{ "ARM64_WORKAROUND_2658417", 66 },
	{ "ARM64_WORKAROUND_AMPERE_AC03_CPU_38", 67 },
	{ "ARM64_WORKAROUND_TRBE_OVERWRITE_FILL_MODE", 68 },
	{ "ARM64_WORKAROUND_TSB_FLUSH_FAILURE", 69 },
	{ "ARM64_WORKAROUND_TRBE_WRITE_OUT_OF_RANGE", 70 },
	{ "ARM64_WORKAROUND_CAVIUM_23154", 71 },
	{ "ARM64_WORKAROUND_CAVIUM_27456", 72 },
	{ "ARM64_WORKAROUND_CAVIUM_30115", 73 },
	{ "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", 74 },
	{ "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM", 75 },
	{ "ARM64_WORKAROUND_CLEAN_CACHE", 76 },
	{ "ARM64_WORKAROUND_DEVICE_LOAD_ACQUIRE", 77 },
	{ "ARM64_WORKAROUND_NVIDIA_CARMEL_CNP", 78 },
	{ "ARM64_WORKAROUND_QCOM_FALKOR_E1003", 79 },
	{ "ARM64_WORKAROUND_REPEAT_TLBI", 80 },
	{ "ARM64_WORKAROUND_SPECULATIVE_AT", 81 },
	{ "ARM64_WORKAROUND_SPECULATIVE_SSBS", 82 },
	{ "ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD", 83 },
	{ "ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT", 84 },
};

/*
 * Linux 6.12 (Debian's linux-source-6.12, 6.12.118): arch/arm64/tools/cpucaps numbered
 * as gen-cpucaps.awk does, as for 6.1 (tests/kernel/builtin-audit.sh compares it with the
 * tree's generated header). Its first lines are 6.1's: each table is one kernel's numbering
 * whole, read against that kernel's file, not a difference from another version.
 */
static const struct eh_cpucap linux_6_12[] = {
	{ "ARM64_ALWAYS_BOOT", 0 },
	{ "ARM64_ALWAYS_SYSTEM", 1 },
	{ "ARM64_BTI", 2 },
	{ "ARM64_HAS_32BIT_EL0_DO_NOT_USE", 3 },
	{ "ARM64_HAS_32BIT_EL1", 4 },
	{ "ARM64_HAS_ADDRESS_AUTH", 5 },
	{ "ARM64_HAS_ADDRESS_AUTH_ARCH_QARMA3", 6 },
	{ "ARM64_HAS_ADDRESS_AUTH_ARCH_QARMA5", 7 },
	{ "ARM64_HAS_ADDRESS_AUTH_IMP_DEF", 8 },
	{ "ARM64_HAS_AMU_EXTN", 9 },
	{ "ARM64_HAS_ARMv8_4_TTL", 10 },
	{ "ARM64_HAS_CACHE_DIC", 11 },
	{ "ARM64_HAS_CACHE_IDC", 12 },
	{ "ARM64_HAS_CNP", 13 },
	{ "ARM64_HAS_CRC32", 14 },
	{ "ARM64_HAS_DCPODP", 15 },
	{ "ARM64_HAS_DCPOP", 16 },
	{ "ARM64_HAS_DIT", 17 },
	{ "ARM64_HAS_E0PD", 18 },
	{ "ARM64_HAS_ECV", 19 },
	{ "ARM64_HAS_ECV_CNTPOFF", 20 },
	{ "ARM64_HAS_EPAN", 21 },
	{ "ARM64_HAS_EVT", 22 },
	{ "ARM64_HAS_FPMR", 23 },
	{ "ARM64_HAS_FGT", 24 },
	{ "ARM64_HAS_FPSIMD", 25 },
	{ "ARM64_HAS_GENERIC_AUTH", 26 },
	{ "ARM64_HAS_GENERIC_AUTH_ARCH_QARMA3", 27 },
	{ "ARM64_HAS_GENERIC_AUTH_ARCH_QARMA5", 28 },
	{ "ARM64_HAS_GENERIC_AUTH_IMP_DEF", 29 },
	{ "ARM64_HAS_GIC_CPUIF_SYSREGS", 30 },
	{ "ARM64_HAS_GIC_PRIO_MASKING", 31 },
	{ "ARM64_HAS_GIC_PRIO_RELAXED_SYNC", 32 },
	{ "ARM64_HAS_HCR_NV1", 33 },
	{ "ARM64_HAS_HCX", 34 },
	{ "ARM64_HAS_LDAPR", 35 },
	{ "ARM64_HAS_LPA2", 36 },
	{ "ARM64_HAS_LSE_ATOMICS", 37 },
	{ "ARM64_HAS_MOPS", 38 },
	{ "ARM64_HAS_NESTED_VIRT", 39 },
	{ "ARM64_HAS_PAN", 40 },
	{ "ARM64_HAS_S1PIE", 41 },
	{ "ARM64_HAS_S1POE", 42 },
	{ "ARM64_HAS_RAS_EXTN", 43 },
	{ "ARM64_HAS_RNG", 44 },
	{ "ARM64_HAS_SB", 45 },
	{ "ARM64_HAS_STAGE2_FWB", 46 },
	{ "ARM64_HAS_TCR2", 47 },
	{ "ARM64_HAS_TIDCP1", 48 },
	{ "ARM64_HAS_TLB_RANGE", 49 },
	{ "ARM64_HAS_VA52", 50 },
	{ "ARM64_HAS_VIRT_HOST_EXTN", 51 },
	{ "ARM64_HAS_WFXT", 52 },
	{ "ARM64_HW_DBM", 53 },
	{ "ARM64_KVM_HVHE", 54 },
	{ "ARM64_KVM_PROTECTED_MODE", 55 },
	{ "ARM64_MISMATCHED_CACHE_TYPE", 56 },
	{ "ARM64_MTE", 57 },
	{ "ARM64_MTE_ASYMM", 58 },
	{ "ARM64_SME", 59 },
	{ "ARM64_SME_FA64", 60 },
	{ "ARM64_SME2", 61 },
	{ "ARM64_SPECTRE_V2", 62 },
	{ "ARM64_SPECTRE_V3A", 63 },
	{ "ARM64_SPECTRE_V4", 64 },
	{ "ARM64_SPECTRE_BHB", 65 },
	{ "ARM64_SSBS", 66 },
	{ "ARM64_SVE", 67 },
	{ "ARM64_UNMAP_KERNEL_AT_EL0", 68 },
	{ "ARM64_WORKAROUND_834220", 69 },
	{ "ARM64_WORKAROUND_843419", 70 },
	{ "ARM64_WORKAROUND_845719", 71 },
	{ "ARM64_WORKAROUND_858921", 72 },
	{ "ARM64_WORKAROUND_1418040", 73 },
	{ "ARM64_WORKAROUND_1463225", 74 },
	{ "ARM64_WORKAROUND_1508412", 75 },
	{ "ARM64_WORKAROUND_1542419", 76 },
	{ "ARM64_WORKAROUND_1742098", 77 },
	{ "ARM64_WORKAROUND_1902691", 78 },
	{ "ARM64_WORKAROUND_2038923", 79 },
	{ "ARM64_WORKAROUND_2064142", 80 },
	{ "ARM64_WORKAROUND_2077057", 81 },
	{ "ARM64_WORKAROUND_2645198", 82 },
	{ "ARM64_WORKAROUND_2658417", 83 },
	{ "ARM64_WORKAROUND_AMPERE_AC03_CPU_38", 84 },
	{ "ARM64_WORKAROUND_TRBE_OVERWRITE_FILL_MODE", 85 },
	{ "ARM64_WORKAROUND_TSB_FLUSH_FAILURE", 86 },
	{ "ARM64_WORKAROUND_TRBE_WRITE_OUT_OF_RANGE", 87 },
	{ "ARM64_WORKAROUND_CAVIUM_23154", 88 },
	{ "ARM64_WORKAROUND_CAVIUM_27456", 89 },
	{ "ARM64_WORKAROUND_CAVIUM_30115", 90 },
	{ "ARM64_WORKAROUND_CAVIUM_TX2_219_PRFM", 91 },
	{ "ARM64_WORKAROUND_CAVIUM_TX2_219_TVM", 92 },
	{ "ARM64_WORKAROUND_CLEAN_CACHE", 93 },
	{ "ARM64_WORKAROUND_DEVICE_LOAD_ACQUIRE", 94 },
	{ "ARM64_WORKAROUND_NVIDIA_CARMEL_CNP", 95 },
	{ "ARM64_WORKAROUND_QCOM_FALKOR_E1003", 96 },
	{ "ARM64_WORKAROUND_REPEAT_TLBI", 97 },
	{ "ARM64_WORKAROUND_SPECULATIVE_AT", 98 },
	{ "ARM64_WORKAROUND_SPECULATIVE_SSBS", 99 },
	{ "ARM64_WORKAROUND_SPECULATIVE_UNPRIV_LOAD", 100 },
	{ "ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT", 101 },
};

static const struct eh_cpucaps builtin[] = {
	{ "linux-5.4", "5.4", linux_5_4, sizeof(linux_5_4) / sizeof(linux_5_4[0]), 47, EH_ALT_CB_NCAPS },
	/* 6.1 marks callbacks with ARM64_CB_BIT (asm/alternative-macros.h: ARM64_CB_SHIFT 15). */
	{ "linux-6.1", "6.1", linux_6_1, sizeof(linux_6_1) / sizeof(linux_6_1[0]), 85, EH_ALT_CB_BIT15 },
	{ "linux-6.12", "6.12", linux_6_12, sizeof(linux_6_12) / sizeof(linux_6_12[0]), 102, EH_ALT_CB_BIT15 },
};

const char *const eh_cpucaps_builtin_versions[] = { "5.4", "6.1", "6.12", NULL };

const struct eh_cpucaps *eh_cpucaps_builtin(const char *version)
{
	size_t i;

	for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		if (!strcmp(builtin[i].kernel, version))
			return &builtin[i];
	return NULL;
}

const char *eh_cpucaps_name(const struct eh_cpucaps *t, unsigned n)
{
	size_t i;

	for (i = 0; i < t->ncap_entries; i++)
		if (t->caps[i].number == n)
			return t->caps[i].name;
	return NULL;
}

int eh_cpucaps_number(const struct eh_cpucaps *t, const char *name, unsigned *n)
{
	size_t i;

	for (i = 0; i < t->ncap_entries; i++)
		if (!strcmp(t->caps[i].name, name)) {
			*n = t->caps[i].number;
			return 0;
		}
	return EH_ENOENT;
}

/* The parsed header: one allocation owns the table, its entries and their names. */
struct cpucaps_owned {
	struct eh_cpucaps t;
	struct eh_cpucap *caps;
	unsigned *lines;  /* where each was defined, for messages */
	size_t cap;
	char *source;
	char *release;
	struct eh_cap_rules *rules;  /* eh_cpucaps_from_image: the rules its entries state */
	bool borrowed;               /* caps are another table's (eh_cpucaps_for_elf with a numbering given) */
};

static int add_cap(struct cpucaps_owned *o, const char *name, size_t len, unsigned number,
		   unsigned line)
{
	char *copy;

	if (o->t.ncap_entries == o->cap) {
		size_t n = o->cap ? o->cap * 2 : 64;
		struct eh_cpucap *p = eh_realloc(o->caps, n * sizeof(*p));
		unsigned *l;

		if (!p)
			return EH_ENOMEM;
		o->caps = p;
		o->t.caps = p;
		l = eh_realloc(o->lines, n * sizeof(*l));
		if (!l)
			return EH_ENOMEM;
		o->lines = l;
		o->cap = n;
	}
	o->lines[o->t.ncap_entries] = line;
	copy = eh_alloc(len + 1);
	if (!copy)
		return EH_ENOMEM;
	memcpy(copy, name, len);
	o->caps[o->t.ncap_entries].name = copy;
	o->caps[o->t.ncap_entries].number = number;
	o->t.ncap_entries++;
	return 0;
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Strip C comments (which may span lines) from one line; *in_comment carries across lines. */
static size_t strip_comments(const char *l, size_t n, char *buf, size_t cap, int *in_comment)
{
	size_t i, o = 0;

	for (i = 0; i < n && o + 1 < cap; i++) {
		if (*in_comment) {
			if (l[i] == '*' && i + 1 < n && l[i + 1] == '/')
				*in_comment = 0, i++;
			continue;
		}
		if (l[i] == '/' && i + 1 < n && l[i + 1] == '*') {
			*in_comment = 1;
			i++;
			buf[o++] = ' ';
			continue;
		}
		if (l[i] == '/' && i + 1 < n && l[i + 1] == '/')
			break;
		buf[o++] = l[i];
	}
	buf[o] = 0;
	return o;
}

static int line_error(struct cpucaps_owned *o, struct eh_error *err, const char *name,
		      unsigned line, const char *what, const char *text)
{
	eh_cpucaps_free(&o->t);
	return eh_error_set(err, EH_EINPUT, "%s:%u: %s: '%.60s'", name, line, what, text);
}

/*
 * The built-in version whose numbering names the most of t's capabilities (the first on a
 * tie): a 5.x header is decided by the 5.4 rules, a 6.1 one by 6.1's, a 6.12 one (ARM64_HAS_FPSIMD,
 * ARM64_HAS_GIC_PRIO_MASKING, ...) by 6.12's.
 */
static const char *nearest_builtin(const struct eh_cpucaps *t)
{
	size_t best = 0, i, j, shared, most = 0;
	unsigned n;

	for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
		for (shared = 0, j = 0; j < t->ncap_entries; j++)
			shared += !eh_cpucaps_number(&builtin[i], t->caps[j].name, &n);
		if (shared > most)
			most = shared, best = i;
	}
	return builtin[best].kernel;
}

int eh_cpucaps_parse(struct eh_cpucaps **out, const char *name, const char *text, size_t len,
		     struct eh_error *err)
{
	struct cpucaps_owned *o;
	size_t pos = 0, i, j;
	unsigned line = 0, ncaps_line = 0;
	int in_comment = 0, have_ncaps = 0, always_boot = 0;
	long ncaps = 0;

	*out = NULL;
	o = eh_alloc(sizeof(*o));
	if (!o)
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
	o->source = eh_strdup(name);
	if (!o->source) {
		eh_free(o);
		return eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
	}
	o->t.source = o->source;
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos), *p, *end, *id;
		size_t n = nl ? (size_t)(nl - l) : len - pos;
		char buf[512], *num_end;
		long v;

		pos += n + 1;
		line++;
		if (n >= sizeof(buf))
			return line_error(o, err, name, line, "line too long for a cpucaps header", l);
		n = strip_comments(l, n, buf, sizeof(buf), &in_comment);
		p = skip_space(buf, buf + n);
		end = buf + n;
		while (end > p && isspace((unsigned char)end[-1]))
			end--;
		if (p == end)
			continue;
		if (*p != '#')
			return line_error(o, err, name, line, "expected a preprocessor line or a comment", buf);
		p = skip_space(p + 1, end);
		/* #ifndef / #endif / #include guards and defines of other names carry no capability. */
		if ((size_t)(end - p) < 7 || strncmp(p, "define", 6) || !isspace((unsigned char)p[6]))
			continue;
		p = skip_space(p + 7, end);
		if ((size_t)(end - p) < 6 || strncmp(p, "ARM64_", 6))
			continue;
		for (id = p; p < end && (isalnum((unsigned char)*p) || *p == '_'); p++)
			;
		if (p == end || !isspace((unsigned char)*p))
			return line_error(o, err, name, line, "expected '#define ARM64_NAME NUMBER'", buf);
		{
			const char *num = skip_space(p, end);

			errno = 0;
			v = strtol(num, &num_end, 10);
			if (num == end || !isdigit((unsigned char)*num) || num_end != end || errno ||
			    v > 0x7fff)
				return line_error(o, err, name, line,
						  "capability number is not a decimal number below 32768", buf);
		}
		if ((size_t)(p - id) == strlen("ARM64_NCAPS") && !strncmp(id, "ARM64_NCAPS", (size_t)(p - id))) {
			if (have_ncaps)
				return line_error(o, err, name, line, "ARM64_NCAPS defined twice", buf);
			have_ncaps = 1;
			ncaps = v;
			ncaps_line = line;
			continue;
		}
		for (i = 0; i < o->t.ncap_entries; i++) {
			const struct eh_cpucap *c = &o->caps[i];

			if (strlen(c->name) == (size_t)(p - id) && !strncmp(c->name, id, (size_t)(p - id)))
				return line_error(o, err, name, line, "capability defined twice", buf);
			if (c->number == (unsigned)v)
				return line_error(o, err, name, line, "capability number already used", buf);
		}
		always_boot |= (size_t)(p - id) == strlen("ARM64_ALWAYS_BOOT") &&
			       !strncmp(id, "ARM64_ALWAYS_BOOT", (size_t)(p - id));
		if (add_cap(o, id, (size_t)(p - id), (unsigned)v, line)) {
			eh_cpucaps_free(&o->t);
			return eh_error_set(err, EH_ENOMEM, "%s: out of memory", name);
		}
	}
	if (in_comment)
		return line_error(o, err, name, line, "unterminated comment", "");
	if (!have_ncaps || !o->t.ncap_entries) {
		eh_cpucaps_free(&o->t);
		return eh_error_set(err, EH_EINPUT, "%s: no '#define ARM64_NCAPS N' with capabilities: not a cpucaps.h",
				    name);
	}
	for (j = 0; j < o->t.ncap_entries; j++)
		if (o->caps[j].number >= ncaps) {
			char what[160];

			unsigned at = o->lines[j];

			snprintf(what, sizeof(what), "%s = %u is out of range (ARM64_NCAPS = %ld on line %u)",
				 o->caps[j].name, o->caps[j].number, ncaps, ncaps_line);
			eh_cpucaps_free(&o->t);
			return eh_error_set(err, EH_EINPUT, "%s:%u: %s", name, at, what);
		}
	o->t.ncaps = (unsigned)ncaps;
	/*
	 * ARM64_ALWAYS_BOOT came in with ARM64_CB_BIT (6.1, "arm64: alternatives: have
	 * callbacks take a cap"); before it a callback carried ARM64_NCAPS.
	 */
	o->t.cb_style = always_boot ? EH_ALT_CB_BIT15 : EH_ALT_CB_NCAPS;
	o->t.kernel = nearest_builtin(&o->t);
	*out = &o->t;
	return 0;
}

int eh_cpucaps_open(struct eh_cpucaps **out, const char *path, struct eh_error *err)
{
	char *buf;
	size_t len;
	int rc;

	*out = NULL;
	rc = eh_file_read(path, EH_FILE_MAX_CPUCAPS, "cpucaps.h", &buf, &len, err);
	if (rc)
		return rc;
	rc = eh_cpucaps_parse(out, path, buf, len, err);
	eh_free(buf);
	return rc;
}

void eh_cpucaps_free(struct eh_cpucaps *t)
{
	struct cpucaps_owned *o = (struct cpucaps_owned *)t;
	size_t i;

	if (!t)
		return;
	for (i = 0; !o->borrowed && i < t->ncap_entries; i++)
		eh_free((char *)o->caps[i].name);
	if (!o->borrowed)
		eh_free(o->caps);
	eh_free(o->release);
	eh_cap_rules_free(o->rules);
	eh_free(o->lines);
	eh_free(o->source);
	eh_free(o);
}

/* struct alt_instr as the harness reads it (alt.c: EH_ALT_ENTRY_SIZE): the same in 5.4, 6.1 and 6.12. */
static int check_alt_layout(const struct eh_elf *elf, const struct eh_ktypes *k, struct eh_error *err)
{
	const struct eh_ktypes *fixed = eh_ktype_builtin("6.1");
	char from[64];

	if (k->alt_size == fixed->alt_size && k->alt_orig == fixed->alt_orig && k->alt_repl == fixed->alt_repl &&
	    k->alt_cap == fixed->alt_cap && k->alt_orig_len == fixed->alt_orig_len &&
	    k->alt_alt_len == fixed->alt_alt_len)
		return 0;
	return eh_error_set(err, EH_EINPUT, "%s: its %s lays out a %u-byte struct alt_instr (cpucap at %u, lengths at "
			    "%u and %u), not the %u-byte one the harness reads", elf->path,
			    eh_ktype_source_name(k, from, sizeof(from)), k->alt_size, k->alt_cap, k->alt_orig_len,
			    k->alt_alt_len, fixed->alt_size);
}

/*
 * The rule that names entry x under rules, or NULL: by its desc, else by its .matches, type and,
 * for a rule reading an ID field, the field (6.12's HAS_FPSIMD and HAS_TCR2 differ only there).
 */
static const struct eh_capability *name_entry(const struct eh_cap_rules *rules, const struct eh_cap_image_entry *x)
{
	const struct eh_capability *c;

	for (c = rules->caps; c->name; c++) {
		if (x->desc ? c->desc && !strcmp(c->desc, x->desc)
			    : !c->desc && x->matches && !strcmp(c->kernel_matches, x->matches) && c->type == x->type &&
				      (!c->field.reg || (c->field.reg == x->field_reg && c->field.shift == x->field_shift)))
			return c;
	}
	return NULL;
}

static bool is_named(const char *name)
{
	return !strncmp(name, "ARM64_", 6);
}

/*
 * eh_cpucaps_from_image, with kernel (may be NULL) the version of a numbering the caller gives: it
 * chooses the fixed layouts of an object that names no release and whose type information lacks a
 * struct (a defconfig object's reduced DWARF declares struct arm64_cpu_capabilities only in cpufeature.o).
 */
static int from_image(struct eh_cpucaps **out, const struct eh_elf *elf, const char *kernel, struct eh_error *err)
{
	const struct eh_cap_rules *const *r, *best = NULL;
	const struct eh_elf_symbol *ptrs;
	struct eh_cap_image_entry *v = NULL;
	const char **names = NULL;
	struct cpucaps_owned *o = NULL;
	size_t n = 0, i, j, named = 0;
	struct eh_ktypes k;
	char buf[300], release[128] = "", version[16] = "";
	unsigned max = 0;
	int rc;

	*out = NULL;
	/* The release the image's linux_banner names decides the rules, where the harness has them. */
	if (eh_kimage_release(elf, release, sizeof(release), NULL))
		release[0] = 0;
	else if (eh_kversion_of_release(release, version, sizeof(version), NULL))
		version[0] = 0;
	if (!eh_elf_symbol_by_name(elf, "arm64_features") && !eh_elf_symbol_by_name(elf, "arm64_errata"))
		return eh_error_set(err, EH_ENOENT, "%s has no capability tables (arm64_features[], arm64_errata[])",
				    elf->path);
	rc = eh_ktype_read(&k, elf, version[0] ? version : kernel, err);
	if (!rc)
		rc = check_alt_layout(elf, &k, err);
	if (!rc)
		rc = eh_cap_image_read_table(&v, &n, elf, &k, "arm64_features", err);
	if (!rc)
		rc = eh_cap_image_read_table(&v, &n, elf, &k, "arm64_errata", err);
	if (!rc && !n)
		rc = eh_error_set(err, EH_ENOENT, "%s has no capability tables (arm64_features[], arm64_errata[])",
				  elf->path);
	for (r = eh_cap_rules_all; !rc && *r; r++) {
		size_t known = 0;

		for (i = 0; i < n; i++)
			known += name_entry(*r, &v[i]) != NULL;
		if (known > named)
			named = known, best = *r;
	}
	/* Tables no rule table names (a kernel newer than any here): the newest rules decide what is code. */
	for (r = eh_cap_rules_all; !rc && !best && *r; r++)
		if (!r[1])
			best = *r;
	if (!rc && release[0] && version[0] && eh_cap_rules_find(version))
		best = eh_cap_rules_find(version);
	if (!rc) {
		o = eh_alloc(sizeof(*o));
		if (release[0])
			snprintf(buf, sizeof(buf), "%s (its arm64_features[] and arm64_errata[]; Linux %s by its "
				 "linux_banner)", elf->path, release);
		else
			snprintf(buf, sizeof(buf), "%s (its arm64_features[] and arm64_errata[])", elf->path);
		if (!o || !(o->source = eh_strdup(buf))) {
			eh_free(o);
			o = NULL;
			rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
		}
	}
	if (o) {
		o->t.source = o->source;
		o->t.kernel = best->kernel;
		names = eh_alloc(n * sizeof(*names));
		if (!names || (release[0] && !(o->release = eh_strdup(release))))
			rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
		o->t.release = o->release;
	}
	for (i = 0; !rc && i < n; i++) {
		const struct eh_capability *c = name_entry(best, &v[i]);
		const char *name = buf;

		if (c)
			name = c->name;
		else if (v[i].desc)
			snprintf(buf, sizeof(buf), "\"%s\"", v[i].desc);
		else
			/* Entries without a desc share their matches function: the number keeps them apart. */
			snprintf(buf, sizeof(buf), "\"%s\" (no desc, capability %u)", v[i].matches ? v[i].matches : "?",
				 v[i].cap);
		for (j = 0; j < o->t.ncap_entries; j++) {
			const struct eh_cpucap *p = &o->caps[j];

			if (!strcmp(p->name, name) != (p->number == v[i].cap))
				rc = eh_error_set(err, EH_EINPUT, "%s: %s[%zu] numbers %s %u, another entry %s %u",
						  elf->path, v[i].table, v[i].index, name, v[i].cap, p->name, p->number);
			if (p->number == v[i].cap)
				break;
		}
		if (!rc && j == o->t.ncap_entries && add_cap(o, name, strlen(name), v[i].cap, (unsigned)i))
			rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory", elf->path);
		if (!rc)
			names[i] = o->caps[j].name;
		if (v[i].cap > max)
			max = v[i].cap;
	}
	if (!rc) {
		/* const struct arm64_cpu_capabilities *cpu_hwcaps_ptrs[ARM64_NCAPS] */
		ptrs = eh_elf_symbol_by_name(elf, "cpu_hwcaps_ptrs");
		o->t.ncaps = ptrs && ptrs->size && !(ptrs->size % 8) ? (unsigned)(ptrs->size / 8) : max + 1;
		if (max >= o->t.ncaps)
			rc = eh_error_set(err, EH_EINPUT, "%s: capability %u is beyond ARM64_NCAPS = %u (cpu_hwcaps_ptrs[])",
					  elf->path, max, o->t.ncaps);
		o->t.cb_style = eh_cpucaps_number(&o->t, "ARM64_ALWAYS_BOOT", &max) ? EH_ALT_CB_NCAPS : EH_ALT_CB_BIT15;
	}
	if (!rc)
		rc = eh_cap_rules_from_image(&o->rules, elf, &k, v, names, n, best, err);
	if (!rc)
		o->t.rules = o->rules;
	eh_free(names);
	eh_free(v);
	if (rc) {
		if (o)
			eh_cpucaps_free(&o->t);
		return rc;
	}
	*out = &o->t;
	return 0;
}

int eh_cpucaps_check(const struct eh_cpucaps *given, const struct eh_cpucaps *image, struct eh_error *err)
{
	const struct eh_cpucap *first = NULL;
	unsigned number = 0, n;
	size_t i;

	for (i = 0; i < image->ncap_entries; i++) {
		const struct eh_cpucap *c = &image->caps[i];

		if (!is_named(c->name) || (!eh_cpucaps_number(given, c->name, &n) && n == c->number))
			continue;
		if (!first || c->number < first->number)
			first = c;
	}
	if (!first)
		return 0;
	if (eh_cpucaps_number(given, first->name, &number))
		return eh_error_set(err, EH_EINPUT, "%s is capability %u in %s, but %s does not number it",
				    first->name, first->number, image->source, given->source);
	return eh_error_set(err, EH_EINPUT, "%s is capability %u in %s, but %u in %s", first->name, first->number,
			    image->source, number, given->source);
}

int eh_cpucaps_from_image(struct eh_cpucaps **out, const struct eh_elf *elf, struct eh_error *err)
{
	return from_image(out, elf, NULL, err);
}

int eh_cpucaps_for_elf(struct eh_cpucaps **owned, const struct eh_cpucaps **out, const struct eh_elf *elf,
		       const struct eh_cpucaps *given, struct eh_error *err)
{
	struct eh_cpucaps *img;
	int rc;

	*owned = NULL;
	*out = NULL;
	rc = from_image(&img, elf, given ? given->kernel : NULL, err);
	if (rc == EH_ENOENT) {
		if (!given)
			return eh_error_set(err, EH_EINVAL, "%s has no capability tables (arm64_features[], "
					    "arm64_errata[]): give its capability numbering (a cpucaps.h or a kernel version)",
					    elf->path);
		/* Not an error with a numbering given: forget the message. */
		if (err)
			*err = (struct eh_error){ 0 };
		*out = given;
		return 0;
	}
	if (rc)
		return rc;
	if (given) {
		rc = eh_cpucaps_check(given, img, err);
		if (rc) {
			eh_cpucaps_free(img);
			return rc;
		}
		/* given's numbering (it also names what the build configured out), with the image's rules. */
		{
			struct cpucaps_owned *o = (struct cpucaps_owned *)img;
			size_t i;

			for (i = 0; i < img->ncap_entries; i++)
				eh_free((char *)o->caps[i].name);
			eh_free(o->caps);
			o->caps = NULL;
			o->t.caps = given->caps;
			o->t.ncap_entries = given->ncap_entries;
			o->t.ncaps = given->ncaps;
			o->t.cb_style = given->cb_style;
			o->t.kernel = given->kernel;
			o->t.source = given->source;
			o->borrowed = true;
		}
		*owned = img;
		*out = img;
		return 0;
	}
	*owned = img;
	*out = img;
	return 0;
}
