/* Case untagged-addr: untagged_addr in assembly and in C over edge and random addresses, before and after 597399d0cb91. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eh/case.h"
#include "untagged_addr.h"

#define UNTAG_RANDOM 100000u
#define BIT55 (1ull << 55)
#define TOP_BYTE (0xffull << 56)

static const struct eh_commit commits[] = {
	{ "597399d0cb91", "arm64: tags: Preserve tags for addresses translated via TTBR1" },
	{ 0 },
};

static const struct eh_variant variants[] = {
	{ "before", "clear_address_tag (tst/bic/csel) and the C macro sign_extend64(addr, 55)",
	  "untagged_before" },
	{ "after", "untagged_addr (sbfx/and) and the C macro addr & sign_extend64(addr, 55)",
	  "untagged_after" },
	{ 0 },
};

static const struct eh_expect expect[] = {
	{ "before", { .model = "cortex-a72" }, EH_VERDICT_BUG },
	{ "before", { .model = "thunderx2" }, EH_VERDICT_BUG },
	{ "after", { .model = "cortex-a72" }, EH_VERDICT_FIXED },
	{ "after", { .model = "thunderx2" }, EH_VERDICT_FIXED },
	{ 0 },
};

static const struct eh_mutant mutants[] = {
	{ "no-and", "EH_MUTANT_NO_AND",
	  "the assembly untagged_addr without its AND: it sign-extends TTBR1 addresses as the old C did",
	  (const struct eh_row[]){ { "after" }, { 0 } } },
	{ "nop", "EH_MUTANT_NOP", "a NOP in the assembly loop: nothing changes" },
	{ 0 },
};

/* Bit 55 clear or set, with top bytes 0x00, 0xff and others. */
static const uint64_t edges[] = {
	0x0000000000000000,  /* NULL */
	0x2a00000012345000,  /* a user pointer with tag 0x2a */
	0xff00000012345000,  /* tag 0xff, bit 55 clear: still a user address */
	0x807fffffffffffff,  /* tag 0x80 over the highest address with bit 55 clear */
	0x0000ffffffffffff,  /* the top of a 48-bit user space, untagged */
	0x7fff800008000000,  /* a TTBR1 address with top byte 0x7f: the commit's example */
	0x0080000000000000,  /* bit 55 set, top byte 0x00 */
	0x5aff000000001000,  /* bit 55 set, top byte 0x5a */
	0xff80000000000000,  /* the lowest address with bit 55 set and top byte 0xff */
	0xffff800008000000,  /* an untagged kernel address */
	0xffffffffffffffff,
};
#define EDGE_USER_TAGGED 1
#define EDGE_TTBR1_TAGGED 5
#define NEDGES (sizeof(edges) / sizeof(edges[0]))

uint64_t eh_untag_expected(uint64_t addr)
{
	return addr & BIT55 ? addr : addr & ~TOP_BYTE;
}

void eh_untag_tally(struct eh_untag_tally *t, const uint64_t *in, const uint64_t *out_asm,
		    const uint64_t *out_c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t want = eh_untag_expected(in[i]);
		bool disagree = out_asm[i] != out_c[i];
		bool asm_wrong = out_asm[i] != want, c_wrong = out_c[i] != want;

		t->inputs++;
		t->disagree += disagree;
		t->asm_wrong += asm_wrong;
		t->c_wrong += c_wrong;
		if ((disagree || asm_wrong || c_wrong) && !t->have_first) {
			t->have_first = true;
			t->first_in = in[i];
			t->first_asm = out_asm[i];
			t->first_c = out_c[i];
		}
	}
}

/* The snippet's buffer: inputs, assembly results, C results, cap addresses each. */
struct untag_io {
	uint64_t addr;
	size_t cap;
	uint64_t *host;  /* the same three parts on the host */
};

/* One call of the variant's entry over n addresses already in io->host, tallied into t. */
static int run_batch(struct eh_case_run *r, const struct untag_io *io, size_t n,
		     struct eh_untag_tally *t, struct eh_error *err)
{
	uint64_t part = io->cap * 8;
	uint64_t args[4] = { io->addr, io->addr + part, io->addr + 2 * part, n };
	int rc;

	rc = eh_machine_write(r->machine, io->addr, io->host, n * 8, err);
	if (!rc)
		rc = eh_case_call(r, r->v->entry, args, 4, NULL, err);
	if (!rc)
		rc = eh_machine_read(r->machine, args[1], io->host + io->cap, n * 8, err);
	if (!rc)
		rc = eh_machine_read(r->machine, args[2], io->host + 2 * io->cap, n * 8, err);
	if (!rc)
		eh_untag_tally(t, io->host, io->host + io->cap, io->host + 2 * io->cap, n);
	return rc;
}

static void report(struct eh_outcome *out, const struct eh_untag_tally *edge,
		   const struct eh_untag_tally *rnd, const struct untag_io *io, uint64_t seed)
{
	const struct eh_untag_tally *first = edge->have_first ? edge : rnd;
	size_t disagree = edge->disagree + rnd->disagree;
	size_t c_wrong = edge->c_wrong + rnd->c_wrong, asm_wrong = edge->asm_wrong + rnd->asm_wrong;

	out->verdict = first->have_first ? EH_VERDICT_BUG : EH_VERDICT_FIXED;
	eh_outcome_append(out, "%zu addresses (%zu edge, %zu random, seed %" PRIu64 "): ",
			  edge->inputs + rnd->inputs, edge->inputs, rnd->inputs, seed);
	if (!first->have_first) {
		/* The edge batch ran last: its results are still in io->host. */
		eh_outcome_append(out, "assembly and C agree on every one and follow the rule: a user "
				  "address loses its tag (0x%016" PRIx64 " -> 0x%016" PRIx64 "), a TTBR1 "
				  "address keeps its top byte (0x%016" PRIx64 " -> 0x%016" PRIx64 ")",
				  edges[EDGE_USER_TAGGED], io->host[2 * io->cap + EDGE_USER_TAGGED],
				  edges[EDGE_TTBR1_TAGGED], io->host[2 * io->cap + EDGE_TTBR1_TAGGED]);
		return;
	}
	eh_outcome_append(out, "assembly and C disagree on %zu; first %s input 0x%016" PRIx64
			  " (bit 55 %s, top byte 0x%02x): assembly 0x%016" PRIx64 ", C 0x%016" PRIx64
			  ", rule 0x%016" PRIx64 "; the C breaks the rule on %zu, the assembly on %zu",
			  disagree, first->first_asm != first->first_c ? "disagreeing" : "wrong",
			  first->first_in, first->first_in & BIT55 ? "set" : "clear",
			  (unsigned)(first->first_in >> 56), first->first_asm, first->first_c,
			  eh_untag_expected(first->first_in), c_wrong, asm_wrong);
}

/*
 * The random addresses go first, a buffer at a time, with no trace kept; the edge addresses go
 * last, so that the trace left for replay shows each of them and its results. A batch is one
 * uc_emu_start for up to a buffer's worth of addresses.
 */
static int untag_run(struct eh_case_run *r, const struct eh_run_opts *opts, struct eh_error *err)
{
	struct eh_untag_tally edge = { 0 }, rnd = { 0 };
	struct untag_io io;
	uint64_t size;
	size_t done, n, i;
	int rc;

	rc = eh_case_symbol(r, "untagged_buf", &io.addr, &size, err);
	if (rc)
		return rc;
	io.cap = size / 24;
	if (io.cap < NEDGES)
		return eh_error_set(err, EH_EINPUT, "%s: untagged_buf holds %zu addresses, %zu needed",
				    r->elf->path, io.cap, NEDGES);
	io.host = eh_alloc(io.cap * 24);
	if (!io.host)
		return eh_error_set(err, EH_ENOMEM, "out of memory for %zu addresses", io.cap);
	eh_machine_trace_keep(r->machine, false);
	for (done = 0; done < UNTAG_RANDOM; done += n) {
		n = UNTAG_RANDOM - done < io.cap ? UNTAG_RANDOM - done : io.cap;
		for (i = 0; i < n; i++)
			io.host[i] = eh_machine_random(r->machine);
		rc = run_batch(r, &io, n, &rnd, err);
		if (rc)
			goto out;
	}
	eh_machine_trace_keep(r->machine, true);
	memcpy(io.host, edges, sizeof(edges));
	rc = run_batch(r, &io, NEDGES, &edge, err);
	if (!rc)
		report(&r->outcome, &edge, &rnd, &io, opts->seed);
out:
	eh_free(io.host);
	return rc;
}

const struct eh_case eh_case_untagged_addr = {
	.id = "untagged-addr",
	.commits = commits,
	.shows = "untagged_addr: before, the C macro rewrites the top byte of TTBR1 addresses and disagrees "
		 "with the assembly; after, both clear only user tags and agree on every address",
	.object = "untagged-addr.elf",
	.variants = variants,
	.expect = expect,
	.ends = EH_END_RETURN,
	.mutants = mutants,
	.run = untag_run,
};
