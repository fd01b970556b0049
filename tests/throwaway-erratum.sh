#!/bin/sh
# Adding an erratum is adding folders: a copy of the source tree gets a throwaway erratum
# (harness/errata/kit-throwaway/), a CPU model it affects (models/kit-throwaway/) and a case
# (cases/kit-throwaway/), and with no other file edited it builds, passes the registries' self-tests,
# runs the case and its mutant, lists the erratum and audits the case's snippet, linked and as an object.
#   throwaway-erratum.sh SOURCE_DIR WORK_DIR
# WORK_DIR keeps the copy and its build between runs, so that a second run rebuilds only what changed.
set -eu
src=$1
work=$2
tree=$work/src
build=$work/build

fail() {
	echo "throwaway-erratum: $*" >&2
	exit 1
}

if ! git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "throwaway-erratum: $src is not a git work tree: nothing to copy the tree's files from" >&2
	exit 77
fi

# The tree as it is (tracked files and new ones not ignored), mtimes kept for the incremental build.
rm -rf "$tree"
mkdir -p "$tree" "$build"
git -C "$src" ls-files --cached --others --exclude-standard | while read -r f; do
	[ -f "$src/$f" ] && printf '%s\n' "$f"
done | tar -C "$src" -cf - -T - | tar -C "$tree" -xf -
git -C "$tree" init -q
git -C "$tree" add -A
git -C "$tree" -c user.name=throwaway -c user.email=throwaway@localhost commit -qm "the tree as copied"

mkdir -p "$tree/harness/errata/kit-throwaway" "$tree/cases/kit-throwaway"

cat >"$tree/harness/errata/kit-throwaway/kit_throwaway.c" <<'EOF'
/* A made-up erratum of a made-up core, the plug-in kit's own test: a load or store between a write of CONTEXTIDR_EL1 and the next ISB. */
#include "eh/sys/behaviour.h"
#include "eh/sys/erratum.h"
#include "eh/sys/rule.h"
#include "eh/sys/seq.h"

extern const struct eh_erratum eh_erratum_kit_throwaway;

/* Implementer 0x00 is reserved for software use (Arm ARM D17.2, MIDR_EL1): no real part has it. */
static const struct eh_midr_range cpus[] = {
	EH_MIDR_ALL_VERSIONS("kit throwaway core", EH_CPU(0x00, 0x123)),
	{ 0 },
};

/* The workaround: an ISB after the write, before anything reaches memory. */
static const struct eh_seq workaround = {
	.steps = (const struct eh_seq_step[]){ { EH_SEQ_ISB, NULL, "an ISB" }, { 0 } },
};

static void on_event(struct eh_machine *m, void *state, const struct eh_event *ev)
{
	struct eh_seq_state *s = state;

	if (eh_seq_event(&workaround, s, ev))
		return;
	if (ev->kind == EH_EV_SYSREG_WRITE && ev->sysreg == EH_CONTEXTIDR_EL1)
		eh_seq_open(s, ev->pc);
	else if (ev->kind == EH_EV_ACCESS && s->due && ev->flags & (EH_INSN_LOAD | EH_INSN_STORE)) {
		eh_machine_hazard(m, &eh_erratum_kit_throwaway, ev, s->anchor);
		s->due = false;
	}
}

static const struct eh_behaviour behaviour = {
	.summary = "a load or store after a write of CONTEXTIDR_EL1 before an ISB; recorded as a hazard",
	.thread_state = sizeof(struct eh_seq_state),
	.on_event = on_event,
};

/* MSR CONTEXTIDR_EL1, Xt: op0 3, op1 0, CRn 13, CRm 0, op2 1; every bit but Rt (4:0). */
static const struct eh_rule_trigger contextidr_write[] = { { 0xffffffe0, 0xd518d020 }, { 0 } };

/* On the straight path from the write: an ISB before any load or store, within 8 instructions. */
static int visit(struct eh_rule_ctx *ctx, const struct eh_insn *in)
{
	struct eh_insn cur = *in, next;
	unsigned n;

	for (n = 0; n < 8 && !eh_rule_next(ctx, &cur, &next); n++) {
		cur = next;
		if (cur.flags & EH_INSN_ISB)
			return 0;
		if (cur.flags & (EH_INSN_LOAD | EH_INSN_STORE))
			return eh_rule_report(ctx, &cur, in->addr, "access",
					      "%s between a write of CONTEXTIDR_EL1 and its ISB", cur.text);
	}
	return 0;
}

static const struct eh_rule rule = {
	.summary = "a load or store between a write of CONTEXTIDR_EL1 and the next ISB on its straight path",
	.triggers = contextidr_write,
	.scan = &(const struct eh_scan_rule){ .visit = visit },
};

static const char *const citations[] = { "tests/throwaway-erratum.sh: made up for the test", NULL };

const struct eh_erratum eh_erratum_kit_throwaway = {
	.id = "kit-throwaway",
	.title = "A made-up erratum: a load or store between a write of CONTEXTIDR_EL1 and the ISB after it",
	.cpus = cpus,
	.citations = citations,
	.rule = &rule,
	.behaviour = &behaviour,
};
EOF

mkdir -p "$tree/models/kit-throwaway"
cat >"$tree/models/kit-throwaway/kit_throwaway.c" <<'EOF'
/* A made-up core for the plug-in kit's test (tests/throwaway-erratum.sh): Cortex-A72's ID registers under a software MIDR. */
#include "cores.h"

const struct eh_model eh_model_kit_throwaway =
	EH_CORE_MODEL("kit-throwaway-core", "a made-up core with erratum kit-throwaway, 1 thread per core",
		      EH_MIDR(0x00, 0, 0x123, 0), 0, eh_cortex_a72_id_regs, "Cortex-A72's (made-up core)");
EOF

cat >"$tree/cases/kit-throwaway/context.S" <<'EOF'
/* A write of CONTEXTIDR_EL1 and a load, without (ctx_before) and with (ctx_after) the ISB between them. */
	.text
	.globl	ctx_before
ctx_before:
	adrp	x2, value
	add	x2, x2, :lo12:value
	msr	contextidr_el1, x0
	ldr	x1, [x2]
	isb
#ifdef EH_MUTANT_NOP
	nop					// mutant: nothing the judge looks at
#endif
	ret

	.globl	ctx_after
ctx_after:
	adrp	x2, value
	add	x2, x2, :lo12:value
	msr	contextidr_el1, x0
#ifdef EH_MUTANT_LOAD_FIRST
	ldr	x1, [x2]			// mutant: the load before the ISB
	isb
#else
	isb
	ldr	x1, [x2]
#endif
#ifdef EH_MUTANT_NOP
	nop
#endif
	ret

	.data
	.balign	8
value:	.quad	0x1234
EOF

cat >"$tree/cases/kit-throwaway/case.c" <<'EOF'
/* Case kit-throwaway: the made-up erratum of the plug-in kit's test, with and without its ISB. */
#include "eh/case.h"

static const struct eh_commit commits[] = {
	{ "000000000000", "kit: a throwaway erratum (tests/throwaway-erratum.sh)" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "the load before the ISB", "ctx_before" },
	{ "after", "the ISB first", "ctx_after" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .erratum = "kit-throwaway" }, EH_VERDICT_BUG },
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BENIGN },
	{ "after", { .erratum = "kit-throwaway" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "load-first", "EH_MUTANT_LOAD_FIRST", "the load moved before the ISB",
	  (const struct eh_row[]){ { "after", { .erratum = "kit-throwaway" } }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP before each return: nothing changes" },
	{ 0 },
};

static void judge(struct eh_machine *m, const struct eh_variant *v, struct eh_outcome *out)
{
	(void)v;
	eh_case_judge_hazards_after(m, "kit-throwaway", EH_EV_ACCESS, EH_INSN_LOAD, "no load ran", out);
}

const struct eh_case eh_case_kit_throwaway = {
	.id = "kit-throwaway",
	.commits = commits,
	.shows = "the made-up erratum kit-throwaway: a load between a write of CONTEXTIDR_EL1 and its ISB",
	.object = "kit-throwaway.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.judge = judge,
};
EOF

# Only new files, all in the new places: no file of the tree was edited.
changes=$(git -C "$tree" status --porcelain --untracked-files=all)
echo "$changes"
echo "$changes" | grep -v '^?? harness/errata/kit-throwaway/' | grep -v '^?? cases/kit-throwaway/' |
	grep -v '^?? models/kit-throwaway/' | grep . && fail "the change is more than the new folders"
[ "$(echo "$changes" | wc -l)" -eq 4 ] || fail "expected 4 new files"

# The library, the tool, the snippets and the registries' self-tests only, unoptimised: the test is
# about what gets built, not how fast.
cmake -S "$tree" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O0 -DBUILD_TESTING=ON >"$work/configure.log" 2>&1 ||
	{ cat "$work/configure.log" >&2; fail "configure failed"; }
cmake --build "$build" -j2 --target errata-harness test_cases test_errata >"$work/build.log" 2>&1 ||
	{ tail -40 "$work/build.log" >&2; fail "build failed"; }
tool=$build/errata-harness

# The registries hold the new erratum, model and case as they hold the others (test_cases runs every
# row of every case, the new one's included). Not test_model_errata: it wants every model's errata
# worked out by hand in its own table, so that a new model cannot join without that check.
for t in test_cases test_errata; do
	"$build/tests/$t" >"$work/$t.log" 2>&1 || { tail -20 "$work/$t.log" >&2; fail "$t fails with the new folders"; }
done

"$tool" list --errata | grep -q '^kit-throwaway' || fail "list --errata does not name kit-throwaway"
"$tool" models | grep -q 'kit-throwaway-core' || fail "models does not name kit-throwaway-core"
out=$("$tool" run --case kit-throwaway) || { echo "$out"; fail "run --case kit-throwaway: not as expected"; }
echo "$out"
echo "$out" | grep -q 'before.*kit-throwaway-core' || fail "before did not run on kit-throwaway-core"
out=$("$tool" run --case kit-throwaway --mutants) || { echo "$out"; fail "its mutant was not killed"; }
echo "$out"
echo "$out" | grep -q 'load-first.*killed' || fail "run --mutants does not report load-first killed"
echo "$out" | grep -q 'nop.*survived' || fail "run --mutants does not report the neutral nop survived"

# The audit finds the load of ctx_before on the affected core, and nothing in ctx_after: in the
# linked snippet and in its object (ET_REL) alike.
for elf in "$build/cases/kit-throwaway.elf" "$build/cases/kit-throwaway/context.o"; do
	set +e
	out=$("$tool" audit "$elf" --model kit-throwaway-core --kernel 6.1 --erratum kit-throwaway)
	rc=$?
	set -e
	echo "$out"
	[ $rc -eq 1 ] || fail "audit $elf: exit $rc, not 1 (a finding on an affected model)"
	echo "$out" | grep -q 'ctx_before+0xc' || fail "audit $elf: no finding at ctx_before+0xc (the load)"
	echo "$out" | grep -q 'ctx_after' && fail "audit $elf: a finding in ctx_after, which has its ISB first"
done
echo "throwaway-erratum: built, run and audited with only new folders"
