/* The SVG timeline of a replay: threads as lanes, instructions as columns, windows, aborts and exceptions on top. */
#include "eh/svg.h"

#include <inttypes.h>
#include <string.h>

#include "eh/escape.h"
#include "eh/insn.h"
#include "eh/machine.h"

#define LANE_H 60
#define CELL_Y 18           /* the cell's top within its lane */
#define CELL_H 24
#define LEFT 110            /* x of column 0: lane names to its left */
#define LABELS_H 200        /* rotated disassembly above the lanes */
#define LABEL_CHARS 36
#define LINE_H 16
#define CHAR_W 7            /* advance of the 11px monospace font, rounded up */
#define MIN_PLOT_W 760
#define MAX_PLOT_W 2400     /* also the most columns drawn: one pixel each */
#define WIDE_CELL 18
#define LEGEND_H 90

/* Where everything goes: computed once, so every element agrees on it. */
struct layout {
	struct eh_machine *m;
	const struct eh_trace *tr;
	long *col;                  /* the column of each event */
	size_t ncols;
	size_t drawn;               /* columns drawn: the first MAX_PLOT_W */
	size_t screened;            /* words replaced by UDF #0 as the image was mapped */
	unsigned w;                 /* column width */
	unsigned top;               /* y of lane 0 */
	unsigned width, height;
	unsigned nthreads;
	bool labels;                /* columns wide enough for disassembly labels */
};

static bool shown(const struct layout *l, long col)
{
	return col < (long)l->drawn;
}

static unsigned col_x(const struct layout *l, long col)
{
	return LEFT + (unsigned)col * l->w;
}

static unsigned lane_y(const struct layout *l, unsigned t)
{
	return l->top + t * LANE_H;
}

static unsigned cell_mid_x(const struct layout *l, long col)
{
	return col_x(l, col) + l->w / 2;
}

static unsigned cell_mid_y(const struct layout *l, unsigned t)
{
	return lane_y(l, t) + CELL_Y + CELL_H / 2;
}

/* The colour of an instruction, by what matters for the errata: the same key is drawn in the legend. */
static const struct kind_style {
	const char *name;
	const char *fill;
	uint32_t flags;             /* the first row whose flags the instruction has wins */
} kind_styles[] = {
	{ .name = "TTBR write", .fill = "#d62728", .flags = EH_INSN_TTBR_WRITE },
	{ .name = "ISB / ERET", .fill = "#2ca02c", .flags = EH_INSN_ISB | EH_INSN_ERET },
	{ .name = "SVC/HVC/BRK", .fill = "#8c564b", .flags = EH_INSN_EXC_GEN },
	{ .name = "prefetch", .fill = "#9467bd", .flags = EH_INSN_PREFETCH },
	{ .name = "store", .fill = "#ff7f0e", .flags = EH_INSN_STORE },
	{ .name = "load", .fill = "#1f77b4", .flags = EH_INSN_LOAD },
	{ .name = "MSR / MRS", .fill = "#7f7f7f", .flags = EH_INSN_MSR | EH_INSN_MRS },
	{ .name = "other", .fill = "#c7c7c7", .flags = ~0u },
};

static const char *insn_fill(uint32_t flags)
{
	size_t i;

	for (i = 0; i + 1 < sizeof(kind_styles) / sizeof(kind_styles[0]); i++)
		if (flags & kind_styles[i].flags)
			return kind_styles[i].fill;
	return kind_styles[i].fill;
}

static void put_title(FILE *f, const char *text)
{
	fputs("<title>", f);
	eh_xml_puts(f, text);
	fputs("</title>", f);
}

static void put_text(FILE *f, unsigned x, unsigned y, const char *attrs, const char *text)
{
	fprintf(f, "<text x=\"%u\" y=\"%u\" %s>", x, y, attrs);
	eh_xml_puts(f, text);
	fputs("</text>\n", f);
}

/* text on lines of at most cols characters, broken at spaces; with f NULL, only count the lines. */
static unsigned put_wrapped(FILE *f, unsigned x, unsigned y, const char *attrs, const char *text,
			    unsigned cols)
{
	char line[1200];
	size_t len = strlen(text);
	unsigned n = 0;

	while (len) {
		size_t take = len;

		if (take > cols) {
			for (take = cols; take > cols / 2 && text[take] != ' '; take--)
				;
			if (text[take] != ' ')
				take = cols;
		}
		if (f) {
			snprintf(line, sizeof(line), "%.*s", (int)take, text);
			put_text(f, x, y + n * LINE_H, attrs, line);
		}
		n++;
		text += take;
		len -= take;
		for (; *text == ' '; text++)
			len--;
	}
	return n;
}

/*
 * The header: what ran and the seed to replay it, the verdict, and each
 * clause of the evidence on its own lines. With f NULL it only counts lines.
 */
static unsigned put_header(FILE *f, const struct layout *l, const struct eh_svg_header *h)
{
	unsigned cols = (l->width - 40) / CHAR_W, n = 0;
	const char *p = h->evidence ? h->evidence : "";
	char line[1200];

	n += put_wrapped(f, 10, 20 + n * LINE_H, "class=\"h1\"", h->heading, cols);
	n += put_wrapped(f, 10, 20 + n * LINE_H, "", h->desc, cols);
	n += put_wrapped(f, 10, 20 + n * LINE_H, h->bad ? "class=\"b bad\"" : "class=\"b\"", h->status, cols);
	if (l->drawn < l->ncols) {
		snprintf(line, sizeof(line), "the first %zu of %zu instructions are drawn; the text trace has "
			 "them all", l->drawn, l->ncols);
		n += put_wrapped(f, 10, 20 + n * LINE_H, "class=\"bad\"", line, cols);
	}
	if (l->tr->dropped) {
		snprintf(line, sizeof(line), "the trace was cut: %zu later events were not recorded",
			 l->tr->dropped);
		n += put_wrapped(f, 10, 20 + n * LINE_H, "class=\"bad\"", line, cols);
	}
	/* They happen as the image is mapped, before any instruction: a note, not a column. */
	if (l->screened) {
		snprintf(line, sizeof(line), "%zu instruction word%s Unicorn 2.0.1 cannot run became UDF #0 "
			 "(the text trace says where)", l->screened, l->screened == 1 ? "" : "s");
		n += put_wrapped(f, 10, 20 + n * LINE_H, "class=\"bad\"", line, cols);
	}
	while (*p) {
		const char *end = strstr(p, "; ");
		size_t len = end ? (size_t)(end - p) : strlen(p);

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		n += put_wrapped(f, 24, 20 + n * LINE_H, "", line, cols - 2);
		p += len + (end ? 2 : 0);
	}
	return n;
}

/*
 * One column per executed instruction, in trace order, so that the columns
 * show how the threads interleaved; every other event sits in the column of
 * the instruction its thread is executing (a START in the next column).
 */
static int lay_out(struct layout *l, struct eh_machine *m, const struct eh_svg_header *h,
		   struct eh_error *err)
{
	long cur[EH_MAX_THREADS];
	size_t i, insns = 0;
	unsigned plot;

	l->m = m;
	l->tr = eh_machine_trace(m);
	l->nthreads = eh_machine_threads(m);
	for (i = 0; i < l->tr->n; i++) {
		insns += l->tr->events[i].kind == EH_EV_INSN;
		l->screened += l->tr->events[i].kind == EH_EV_SCREENED;
	}
	if (!insns)
		return eh_error_set(err, EH_EINVAL, "%s: the trace holds no instructions (run it "
				    "with instruction tracing, as replay does)", h->heading);
	l->col = eh_alloc(l->tr->n * sizeof(*l->col));
	if (!l->col)
		return eh_error_set(err, EH_ENOMEM, "out of memory for %zu events", l->tr->n);
	for (i = 0; i < EH_MAX_THREADS; i++)
		cur[i] = -1;
	for (i = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];
		unsigned t = ev->thread < EH_MAX_THREADS ? ev->thread : 0;

		if (ev->kind == EH_EV_INSN)
			cur[t] = (long)l->ncols++;
		l->col[i] = cur[t] >= 0 ? cur[t] : (long)l->ncols;
	}
	/*
	 * Wide cells while the whole run fits; past that the columns narrow and
	 * lose their labels, down to a pixel; a longer run is cut (the text trace
	 * of replay has all of it).
	 */
	l->drawn = l->ncols < MAX_PLOT_W ? l->ncols : MAX_PLOT_W;
	l->w = l->drawn * WIDE_CELL <= MAX_PLOT_W ? WIDE_CELL : MAX_PLOT_W / (unsigned)l->drawn;
	l->labels = l->w >= 12;
	plot = (unsigned)l->drawn * l->w;
	l->width = LEFT + (plot < MIN_PLOT_W ? MIN_PLOT_W : plot) + 160;
	l->top = 20 + put_header(NULL, l, h) * LINE_H + (l->labels ? LABELS_H : 20);
	l->height = l->top + l->nthreads * LANE_H + LEGEND_H;
	return 0;
}

static void put_lanes(FILE *f, const struct layout *l)
{
	bool started[EH_MAX_THREADS] = { false };
	unsigned t, right = col_x(l, (long)l->drawn);
	size_t i;

	for (i = 0; i < l->tr->n; i++)
		if (l->tr->events[i].kind == EH_EV_START && l->tr->events[i].thread < EH_MAX_THREADS)
			started[l->tr->events[i].thread] = true;
	for (t = 0; t < l->nthreads; t++) {
		char name[32];
		unsigned y = lane_y(l, t);

		fprintf(f, "<rect x=\"0\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\"/>\n", y, l->width,
			LANE_H, t % 2 ? "#ffffff" : "#f3f3f3");
		fprintf(f, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" class=\"%s\"/>\n", LEFT,
			cell_mid_y(l, t), right, cell_mid_y(l, t), started[t] ? "lane" : "lane idle");
		snprintf(name, sizeof(name), "thread %u", t);
		put_text(f, 8, cell_mid_y(l, t) - 2, "class=\"b\"", name);
		put_text(f, 8, cell_mid_y(l, t) + 12, "class=\"small\"", started[t] ? "runs" : "idle");
	}
}

static void put_window(FILE *f, const struct layout *l, unsigned t, long from, long to, const char *why)
{
	if (!shown(l, from))
		return;
	if (!shown(l, to))
		to = (long)l->drawn - 1;
	fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" class=\"window\">", col_x(l, from),
		lane_y(l, t) + 3, (unsigned)(to - from + 1) * l->w, LANE_H - 6);
	put_title(f, why);
	fputs("</rect>\n", f);
	put_text(f, col_x(l, from) + 2, lane_y(l, t) + 13, "class=\"small\"", "TTBR window");
}

/* Erratum 219's window: from the TTBR write to the context synchronisation (or exception) that ends it. */
static void put_windows(FILE *f, const struct layout *l)
{
	long open[EH_MAX_THREADS];
	char text[1024];
	unsigned t;
	size_t i;

	for (t = 0; t < EH_MAX_THREADS; t++)
		open[t] = -1;
	for (i = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];

		t = ev->thread;
		if (t >= l->nthreads)
			continue;
		if (ev->kind == EH_EV_WINDOW_OPEN) {
			open[t] = l->col[i];
		} else if (ev->kind == EH_EV_WINDOW_CLOSE && open[t] >= 0) {
			put_window(f, l, t, open[t], l->col[i], eh_event_format(l->m, ev, text, sizeof(text)));
			open[t] = -1;
		}
	}
	for (t = 0; t < l->nthreads; t++)
		if (open[t] >= 0)
			put_window(f, l, t, open[t], (long)l->ncols - 1, "TTBR window still open when the run ended");
}

static void put_cells(FILE *f, const struct layout *l)
{
	char where[300], title[400];
	size_t i;

	for (i = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];
		const struct eh_insn *in;
		unsigned x;

		if (ev->kind != EH_EV_INSN || ev->thread >= l->nthreads || !shown(l, l->col[i]))
			continue;
		x = col_x(l, l->col[i]);
		snprintf(title, sizeof(title), "thread %u, instruction %ld: %s%s", ev->thread, l->col[i],
			 eh_machine_where(l->m, ev->pc, where, sizeof(where)),
			 ev->in_window ? " (inside the TTBR window)" : "");
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\" class=\"cell\">",
			x + (l->w > 2), lane_y(l, ev->thread) + CELL_Y, l->w > 2 ? l->w - 2 : l->w, CELL_H,
			insn_fill(ev->flags));
		put_title(f, title);
		fputs("</rect>\n", f);
		in = eh_machine_insn(l->m, ev->pc);
		if (l->labels && in) {
			unsigned lx = cell_mid_x(l, l->col[i]) + 3, ly = l->top - 6;

			fprintf(f, "<text x=\"%u\" y=\"%u\" transform=\"rotate(-60 %u %u)\" class=\"lbl\">", lx, ly,
				lx, ly);
			snprintf(title, sizeof(title), "%.*s", LABEL_CHARS, in->text);
			eh_xml_puts(f, title);
			fputs("</text>\n", f);
		}
	}
}

/* Context synchronisation, traps to the virtual EL2, exception entries, stub calls, zero pages, starts and stops. */
static void put_marks(FILE *f, const struct layout *l)
{
	char text[1024];
	size_t i;

	for (i = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];
		unsigned x = cell_mid_x(l, l->col[i]), y = lane_y(l, ev->thread);
		const char *tag;

		if (ev->thread >= l->nthreads || !shown(l, l->col[i]))
			continue;
		eh_event_format(l->m, ev, text, sizeof(text));
		switch (ev->kind) {
		case EH_EV_START:
			tag = "circle";
			fprintf(f, "<circle cx=\"%u\" cy=\"%u\" r=\"4\" class=\"start\">", col_x(l, l->col[i]),
				cell_mid_y(l, ev->thread));
			break;
		case EH_EV_CTX_SYNC:
			tag = "text";
			fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small mid\">%s", x, y + CELL_Y + CELL_H + 10,
				ev->flags & EH_INSN_ISB ? "isb" : "eret");
			break;
		case EH_EV_STUB_CALL:
		case EH_EV_PAGE:
			/* exec: a call to an undefined symbol's stub, or a zero page mapped for an access. */
			tag = "text";
			fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small mid\">%s", x, y + CELL_Y - 3,
				ev->kind == EH_EV_STUB_CALL ? "call" : "page");
			break;
		case EH_EV_EL2_ACCESS:
			tag = "polygon";
			fprintf(f, "<polygon points=\"%u,%u %u,%u %u,%u %u,%u\" class=\"trap\">", x, y + CELL_Y - 12,
				x + 5, y + CELL_Y - 6, x, y + CELL_Y, x - 5, y + CELL_Y - 6);
			break;
		case EH_EV_EXCEPTION:
			tag = "polygon";
			fprintf(f, "<polygon points=\"%u,%u %u,%u %u,%u\" class=\"exc\">", x, y + CELL_Y + CELL_H,
				x + 6, y + CELL_Y + CELL_H + 10, x - 6, y + CELL_Y + CELL_H + 10);
			break;
		case EH_EV_STOP:
			tag = "rect";
			fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"3\" height=\"%u\" class=\"stop\">",
				col_x(l, l->col[i]) + l->w + 1, y + CELL_Y - 4, CELL_H + 8);
			break;
		default:
			continue;
		}
		put_title(f, text);
		fprintf(f, "</%s>\n", tag);
	}
}

/* The instruction column of an injection's culprit: its last execution on its thread before the injection. */
static long culprit_col(const struct layout *l, size_t inject)
{
	const struct eh_event *ev = &l->tr->events[inject];
	size_t i;

	for (i = inject; i-- > 0;)
		if (l->tr->events[i].kind == EH_EV_INSN && l->tr->events[i].thread == ev->thread &&
		    l->tr->events[i].pc == ev->pc)
			return l->col[i];
	return l->col[inject];
}

/* Erratum 219 injections, drawn last so that they stay on top: culprit cell to victim lane. */
static void put_injections(FILE *f, const struct layout *l)
{
	char text[1024], label[128];
	size_t i;

	for (i = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];
		unsigned x1, y1, x2, y2;

		if (ev->kind != EH_EV_INJECT || ev->thread >= l->nthreads || ev->victim >= l->nthreads ||
		    !shown(l, l->col[i]))
			continue;
		x1 = cell_mid_x(l, culprit_col(l, i));
		y1 = cell_mid_y(l, ev->thread);
		x2 = cell_mid_x(l, l->col[i]);
		y2 = cell_mid_y(l, ev->victim);
		fprintf(f, "<g class=\"inject%s\">", ev->taken ? "" : " idle");
		put_title(f, eh_event_format(l->m, ev, text, sizeof(text)));
		if (ev->victim == ev->thread)
			/* The culprit is its own victim: loop below its cells. */
			fprintf(f, "<path d=\"M%u,%u C%u,%u %u,%u %u,%u\" marker-end=\"url(#arrow)\"/>", x1,
				y1 + CELL_H / 2, x1, y1 + LANE_H / 2 + 6, x2, y2 + LANE_H / 2 + 6, x2, y2 + CELL_H / 2);
		else
			fprintf(f, "<path d=\"M%u,%u C%u,%u %u,%u %u,%u\" marker-end=\"url(#arrow)\"/>", x1, y1, x1,
				(y1 + y2) / 2, x2, (y1 + y2) / 2, x2, y2);
		fprintf(f, "<circle cx=\"%u\" cy=\"%u\" r=\"3\" class=\"culprit\"/>", x1, y1);
		fputs("</g>\n", f);
		put_text(f, x1 - 4, lane_y(l, ev->thread) + CELL_Y + CELL_H + 10, "class=\"small bad end\"",
			 "culprit");
		snprintf(label, sizeof(label), "spurious Data Abort -> thread %u%s", ev->victim,
			 ev->taken ? "" : " (idle: not taken)");
		put_text(f, x2 + 8, y2 + (ev->victim == ev->thread ? LANE_H / 2 : 4), "class=\"b bad\"", label);
	}
}

static void put_legend(FILE *f, const struct layout *l)
{
	unsigned x = 10, y = l->top + l->nthreads * LANE_H + 24;
	size_t i;

	for (i = 0; i < sizeof(kind_styles) / sizeof(kind_styles[0]); i++) {
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"12\" height=\"12\" fill=\"%s\" class=\"cell\"/>\n", x,
			y - 10, kind_styles[i].fill);
		put_text(f, x + 16, y, "", kind_styles[i].name);
		x += 16 + 7 * (unsigned)strlen(kind_styles[i].name) + 14;
	}
	y += 24;
	fprintf(f, "<rect x=\"10\" y=\"%u\" width=\"24\" height=\"12\" class=\"window\"/>\n", y - 10);
	put_text(f, 40, y, "", "TTBR window (write to context synchronisation)");
	fprintf(f, "<polygon points=\"380,%u 385,%u 380,%u 375,%u\" class=\"trap\"/>\n", y - 11, y - 5, y + 1,
		y - 5);
	put_text(f, 392, y, "", "trap to EL2");
	fprintf(f, "<polygon points=\"490,%u 496,%u 484,%u\" class=\"exc\"/>\n", y - 10, y, y);
	put_text(f, 502, y, "", "exception entry");
	y += 24;
	fprintf(f, "<path d=\"M10,%u L50,%u\" class=\"inject\" marker-end=\"url(#arrow)\"/>\n", y - 4, y - 4);
	put_text(f, 58, y, "", "injected abort (dashed: victim idle)");
	put_text(f, 380, y, "", "time: one column per instruction, threads interleaved ->");
}

static const char svg_style[] =
	"<style>\n"
	"text { font-family: DejaVu Sans Mono, monospace; font-size: 11px; fill: #222; }\n"
	".h1 { font-size: 14px; font-weight: bold; }\n"
	".b { font-weight: bold; }\n"
	".bad { fill: #c00000; }\n"
	".small { font-size: 9px; fill: #555; }\n"
	".lbl { font-size: 10px; }\n"
	".mid { text-anchor: middle; }\n"
	".end { text-anchor: end; }\n"
	".lane { stroke: #999; stroke-width: 1; }\n"
	".idle { stroke-dasharray: 5 4; }\n"
	".window { fill: #ffd54f; fill-opacity: 0.5; stroke: #d9a400; }\n"
	".cell { stroke: #333; stroke-width: 0.5; }\n"
	".trap { fill: #ff7f0e; stroke: #333; }\n"
	".exc { fill: #d62728; stroke: #333; }\n"
	".start { fill: #fff; stroke: #333; }\n"
	".stop { fill: #333; }\n"
	".inject path { fill: none; stroke: #c00000; stroke-width: 2; }\n"
	"path.inject { fill: none; stroke: #c00000; stroke-width: 2; }\n"
	".culprit { fill: #c00000; }\n"
	"</style>\n"
	"<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
	"orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c00000\"/></marker>\n";

int eh_svg_timeline(FILE *f, struct eh_case_run *r, uint64_t seed, struct eh_error *err)
{
	char title[300], heading[300], desc[600], status[200];
	struct eh_svg_header h = {
		.title = title, .heading = heading, .desc = desc, .status = status, .bad = !r->pass,
		.evidence = r->outcome.evidence,
	};

	snprintf(title, sizeof(title), "errata-harness replay %s --variant %s --model %s --seed %" PRIu64,
		 r->c->id, r->v->name, r->model->name, seed);
	snprintf(heading, sizeof(heading), "%s, variant %s on %s, seed %" PRIu64, r->c->id, r->v->name,
		 r->model->name, seed);
	snprintf(desc, sizeof(desc), "%s. Model: %s.", r->v->desc, r->model->desc);
	snprintf(status, sizeof(status), "%s %s (expected %s)%s", r->outcome.verdict == EH_VERDICT_INCOMPLETE ? "outcome" : "verdict", eh_verdict_name(r->outcome.verdict),
		 eh_verdict_name(r->expected), r->pass ? "" : ": UNEXPECTED");
	return eh_svg_draw(f, r->machine, &h, err);
}

int eh_svg_draw(FILE *f, struct eh_machine *m, const struct eh_svg_header *h, struct eh_error *err)
{
	struct layout l = { 0 };
	int rc;

	rc = lay_out(&l, m, h, err);
	if (rc)
		return rc;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n",
		l.width, l.height, l.width, l.height);
	put_title(f, h->title);
	fputs("\n<defs>\n", f);
	fputs(svg_style, f);
	fputs("</defs>\n", f);
	fprintf(f, "<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", l.width, l.height);
	put_header(f, &l, h);
	put_lanes(f, &l);
	put_windows(f, &l);
	put_cells(f, &l);
	put_marks(f, &l);
	put_injections(f, &l);
	put_legend(f, &l);
	fputs("</svg>\n", f);
	eh_free(l.col);
	if (fflush(f) || ferror(f))
		return eh_error_set(err, EH_EIO, "writing the SVG timeline failed");
	return 0;
}
