/* The SVG timeline of a run: threads as lanes, instructions as columns in bands a screen wide, and what happened on top. */
#include "eh/svg.h"

#include <inttypes.h>
#include <string.h>

#include "eh/disasm.h"
#include "eh/elf.h"
#include "eh/erratum.h"
#include "eh/escape.h"
#include "eh/insn.h"
#include "eh/machine.h"

#define LEFT 110            /* x of column 0: lane names to its left */
#define RIGHT 100           /* room for the last column's rotated label */
#define CELL_W 18           /* a column */
#define BAND_COLS 80        /* columns in a band: LEFT + 80 x 18 + RIGHT = 1650 px, a screen wide */
#define MAX_COLS (16 * BAND_COLS)  /* columns drawn at most; the text trace has the rest */
#define MIN_PLOT_W 760
#define LABELS_H 170        /* rotated "+offset: instruction" labels above a band's lanes */
#define LABEL_CHARS 30
#define STEP_H 16           /* the row of step separators' labels */
#define SYM_H 18            /* the row of symbol names */
#define BAND_GAP 24
#define LANE_H 84
#define LINE_H 16
#define CHAR_W 7            /* advance of the 11px monospace font, rounded up */
#define SMALL_W 6           /* ... of the 9px and 10px fonts */
#define LEGEND_ROW 24
#define MAX_STEPS 64

/* Rows of a lane, from its top: labels above, markers above the cells, the cells, labels and markers below. */
enum row { ROW_TOP, ROW_MARK, ROW_SYNC, ROW_EXC, NROWS };
static const unsigned row_y[NROWS] = { 13, 22, 62, 74 };  /* text baseline (markers: their bottom) */
#define CELL_Y 28
#define CELL_H 24

/* Where everything goes: computed once, so every element agrees on it. */
struct layout {
	struct eh_machine *m;
	const struct eh_trace *tr;
	long *col;                  /* the column of each event (a folded pass: its first pass's) */
	bool *folded;               /* the event is in a loop's later pass: not drawn */
	size_t *insn_of;            /* the INSN event of each column */
	size_t ncols;               /* columns: instructions not folded */
	size_t drawn;               /* columns drawn: the first MAX_COLS */
	size_t screened;            /* words replaced by UDF #0 as the image was mapped */
	struct eh_trace_loop *loops;
	size_t nloops;
	int lane[EH_MAX_THREADS];   /* each thread's lane, -1: not drawn (it never ran, nor was a victim) */
	bool ran[EH_MAX_THREADS];
	unsigned nlanes;
	unsigned cols_per_band, nbands;
	unsigned header_h, band_h, legend_h;
	unsigned width, height;
	uint8_t *taken;             /* per band, lane and row, the pixels a label or marker covers */
};

static bool shown(const struct layout *l, long col)
{
	return col >= 0 && col < (long)l->drawn;
}

static long band_of(const struct layout *l, long col)
{
	return col / (long)l->cols_per_band;
}

static unsigned col_x(const struct layout *l, long col)
{
	return LEFT + (unsigned)(col % (long)l->cols_per_band) * CELL_W;
}

static unsigned band_top(const struct layout *l, long band)
{
	return l->header_h + (unsigned)band * l->band_h;
}

static unsigned lanes_top(const struct layout *l, long band)
{
	return band_top(l, band) + LABELS_H + STEP_H + SYM_H;
}

/* The top of thread t's lane in the band of col. */
static unsigned lane_y(const struct layout *l, unsigned t, long col)
{
	return lanes_top(l, band_of(l, col)) + (unsigned)l->lane[t] * LANE_H;
}

static unsigned cell_mid_x(const struct layout *l, long col)
{
	return col_x(l, col) + CELL_W / 2;
}

static unsigned cell_mid_y(const struct layout *l, unsigned t, long col)
{
	return lane_y(l, t, col) + CELL_Y + CELL_H / 2;
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

/*
 * Reserve w pixels from x in a row of thread t's lane in col's band, so that no
 * label or marker is drawn over another: the x where the item goes, moved right
 * to the first place free for it (left where it was when the row is full).
 */
static unsigned reserve(struct layout *l, unsigned t, enum row row, long col, unsigned x, unsigned w)
{
	uint8_t *px = l->taken + (((size_t)band_of(l, col) * l->nlanes + (unsigned)l->lane[t]) * NROWS + row) *
				 l->width;
	unsigned at, k;

	w += 2;
	for (at = x; at + w <= l->width; at++) {
		for (k = 0; k < w && !px[at + k]; k++)
			;
		if (k == w)
			break;
		at += k;
	}
	if (at + w > l->width)
		return x;
	memset(px + at, 1, w);
	return at;
}

/* A small label in a row of a lane, centred on x (or starting at it), never over another. */
static void put_row_label(FILE *f, struct layout *l, unsigned t, enum row row, long col, unsigned x,
			  bool centred, const char *cls, const char *text)
{
	unsigned w = SMALL_W * (unsigned)strlen(text);
	char attrs[64];

	x = reserve(l, t, row, col, centred && x > w / 2 ? x - w / 2 : x, w);
	snprintf(attrs, sizeof(attrs), "class=\"small%s%s\"", *cls ? " " : "", cls);
	put_text(f, x, lane_y(l, t, col) + row_y[row], attrs, text);
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
			 "(the text trace names those the run reached)", l->screened, l->screened == 1 ? "" : "s");
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

/* Lanes: the threads that ran, and those an injected abort was aimed at (idle victims), in thread order. */
static void lay_out_lanes(struct layout *l)
{
	bool want[EH_MAX_THREADS] = { false };
	unsigned t, nthreads = eh_machine_threads(l->m);
	size_t i;

	for (i = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];

		if (ev->kind == EH_EV_START && ev->thread < EH_MAX_THREADS)
			want[ev->thread] = l->ran[ev->thread] = true;
		if (ev->kind == EH_EV_INJECT && ev->victim < EH_MAX_THREADS)
			want[ev->victim] = true;
	}
	for (t = 0; t < EH_MAX_THREADS; t++)
		l->lane[t] = t < nthreads && want[t] ? (int)l->nlanes++ : -1;
}

static bool drawn_event(const struct layout *l, size_t i)
{
	unsigned t = l->tr->events[i].thread;

	return t < EH_MAX_THREADS && l->lane[t] >= 0 && !l->folded[i] && shown(l, l->col[i]);
}

/*
 * The legend's keys flow in rows as wide as the picture: one key, its symbol
 * drawn by draw at (x, y) within sym_w pixels and its text after it; with f
 * NULL only the rows are counted.
 */
struct legend {
	FILE *f;
	unsigned x, y, width, rows;
};

static bool legend_key(struct legend *g, unsigned sym_w, const char *text)
{
	unsigned w = sym_w + 6 + CHAR_W * (unsigned)strlen(text) + 18;

	if (g->x > 10 && g->x + w > g->width) {
		g->x = 10;
		g->y += LEGEND_ROW;
		g->rows++;
	}
	if (g->f)
		put_text(g->f, g->x + sym_w + 6, g->y, "", text);
	return g->f != NULL;
}

static void legend_next(struct legend *g, unsigned sym_w, const char *text)
{
	g->x += sym_w + 6 + CHAR_W * (unsigned)strlen(text) + 18;
}

static unsigned put_legend(FILE *f, const struct layout *l)
{
	struct legend g = { .f = f, .x = 10, .y = l->header_h + l->nbands * l->band_h + 24, .width = l->width,
			    .rows = 1 };
	size_t i;
	unsigned x, y;
	const char *text;

	for (i = 0; i < sizeof(kind_styles) / sizeof(kind_styles[0]); i++) {
		if (legend_key(&g, 12, kind_styles[i].name))
			fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"12\" height=\"12\" fill=\"%s\" class=\"cell\"/>\n",
				g.x, g.y - 10, kind_styles[i].fill);
		legend_next(&g, 12, kind_styles[i].name);
	}
	text = "trapped to EL2, not performed";
	if (legend_key(&g, 12, text))
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"12\" height=\"12\" fill=\"#ffffff\" class=\"cell trapped\"/>\n",
			g.x, g.y - 10);
	legend_next(&g, 12, text);
	text = "an erratum's window (from what opens it to what closes it)";
	if (legend_key(&g, 24, text))
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"24\" height=\"12\" class=\"window\"/>\n", g.x, g.y - 10);
	legend_next(&g, 24, text);
	text = "code at the virtual EL2";
	if (legend_key(&g, 24, text)) {
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"24\" height=\"14\" class=\"el2\"/>\n", g.x, g.y - 11);
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"12\" height=\"12\" fill=\"#c7c7c7\" class=\"cell el2c\"/>\n",
			g.x + 6, g.y - 10);
	}
	legend_next(&g, 24, text);
	text = "trap to the EL2 handler";
	if (legend_key(&g, 56, text)) {
		x = g.x + 5;
		y = g.y;
		fprintf(f, "<polygon points=\"%u,%u %u,%u %u,%u %u,%u\" class=\"trap\"/>\n", x, y - 11, x + 5, y - 5,
			x, y + 1, x - 5, y - 5);
		fprintf(f, "<path d=\"M%u,%u C%u,%u %u,%u %u,%u\" class=\"trap\" marker-end=\"url(#arrow-trap)\"/>\n",
			x + 11, y, x + 21, y - 12, x + 41, y - 12, x + 51, y);
	}
	legend_next(&g, 56, text);
	text = "return to the guest";
	if (legend_key(&g, 40, text))
		fprintf(f, "<path d=\"M%u,%u C%u,%u %u,%u %u,%u\" class=\"back\" marker-end=\"url(#arrow-back)\"/>\n",
			g.x, g.y, g.x + 10, g.y - 12, g.x + 30, g.y - 12, g.x + 40, g.y);
	legend_next(&g, 40, text);
	text = "injected abort (dashed: victim idle)";
	if (legend_key(&g, 40, text))
		fprintf(f, "<path d=\"M%u,%u L%u,%u\" class=\"inject\" marker-end=\"url(#arrow)\"/>\n", g.x, g.y - 4,
			g.x + 40, g.y - 4);
	legend_next(&g, 40, text);
	text = "exception entry";
	if (legend_key(&g, 12, text))
		fprintf(f, "<polygon points=\"%u,%u %u,%u %u,%u\" class=\"exc\"/>\n", g.x + 6, g.y - 10, g.x + 12,
			g.y, g.x, g.y);
	legend_next(&g, 12, text);
	text = "loop: its first pass drawn, xN passes";
	if (legend_key(&g, 30, text))
		fprintf(f, "<path d=\"M%u,%u L%u,%u L%u,%u L%u,%u\" class=\"loop\"/>\n", g.x, g.y - 2, g.x, g.y - 6,
			g.x + 30, g.y - 6, g.x + 30, g.y - 2);
	legend_next(&g, 30, text);
	text = "step: the case's next call";
	if (legend_key(&g, 10, text))
		fprintf(f, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" class=\"step\"/>\n", g.x + 5, g.y - 12,
			g.x + 5, g.y + 2);
	legend_next(&g, 10, text);
	g.y += LEGEND_ROW;
	g.rows++;
	return g.rows + put_wrapped(f, 10, g.y, "", "time: one column per instruction, threads interleaved, left "
				    "to right, band after band; above each column its offset in the symbol named "
				    "below it", (l->width - 20) / CHAR_W);
}

/*
 * One column per executed instruction, in trace order, so that the columns
 * show how the threads interleaved, a loop's later passes folded into its
 * first; every other event sits in the column of the instruction its thread is
 * executing (a START in the next column). The columns run in bands a screen wide.
 */
static int lay_out(struct layout *l, struct eh_machine *m, const struct eh_svg_header *h,
		   struct eh_error *err)
{
	long cur[EH_MAX_THREADS];
	size_t i, k, insns = 0;
	unsigned plot;
	int rc;

	l->m = m;
	l->tr = eh_machine_trace(m);
	for (i = 0; i < l->tr->n; i++) {
		insns += l->tr->events[i].kind == EH_EV_INSN;
		l->screened += l->tr->events[i].kind == EH_EV_SCREENED;
	}
	if (!insns)
		return eh_error_set(err, EH_EINVAL, "%s: the trace holds no instructions (run it "
				    "with instruction tracing, as replay does)", h->heading);
	l->col = eh_alloc(l->tr->n * sizeof(*l->col));
	l->folded = eh_alloc(l->tr->n * sizeof(*l->folded));
	l->insn_of = eh_alloc(insns * sizeof(*l->insn_of));
	if (!l->col || !l->folded || !l->insn_of)
		return eh_error_set(err, EH_ENOMEM, "out of memory for %zu events", l->tr->n);
	/* A picture of where the run went: a loop over a table folds too (the text trace has the values). */
	rc = eh_trace_loops(l->tr, EH_LOOP_SAME_PLACES, &l->loops, &l->nloops, err);
	if (rc)
		return rc;
	for (k = 0; k < l->nloops; k++)
		for (i = l->loops[k].start + l->loops[k].period;
		     i < l->loops[k].start + l->loops[k].passes * l->loops[k].period; i++)
			l->folded[i] = true;
	lay_out_lanes(l);
	for (i = 0; i < EH_MAX_THREADS; i++)
		cur[i] = -1;
	for (i = 0, k = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];
		unsigned t = ev->thread < EH_MAX_THREADS ? ev->thread : 0;

		if (l->folded[i]) {
			while (i >= l->loops[k].start + l->loops[k].passes * l->loops[k].period)
				k++;
			l->col[i] = l->col[l->loops[k].start + (i - l->loops[k].start) % l->loops[k].period];
			continue;
		}
		if (ev->kind == EH_EV_INSN) {
			l->insn_of[l->ncols] = i;
			cur[t] = (long)l->ncols++;
		}
		l->col[i] = cur[t] >= 0 ? cur[t] : (long)l->ncols;
	}
	l->drawn = l->ncols < MAX_COLS ? l->ncols : MAX_COLS;
	l->cols_per_band = l->drawn < BAND_COLS ? (unsigned)l->drawn : BAND_COLS;
	l->nbands = (unsigned)((l->drawn + l->cols_per_band - 1) / l->cols_per_band);
	plot = l->cols_per_band * CELL_W;
	l->width = LEFT + (plot < MIN_PLOT_W ? MIN_PLOT_W : plot) + RIGHT;
	l->header_h = 20 + put_header(NULL, l, h) * LINE_H;
	l->band_h = BAND_GAP + LABELS_H + STEP_H + SYM_H + l->nlanes * LANE_H;
	l->legend_h = 24 + put_legend(NULL, l) * LEGEND_ROW;
	l->height = l->header_h + l->nbands * l->band_h + l->legend_h;
	l->taken = eh_alloc((size_t)l->nbands * l->nlanes * NROWS * l->width);
	if (!l->taken)
		return eh_error_set(err, EH_ENOMEM, "out of memory for the timeline's lanes");
	return 0;
}

static void put_lanes(FILE *f, const struct layout *l)
{
	unsigned t, b;

	for (b = 0; b < l->nbands; b++) {
		long first = (long)b * l->cols_per_band;
		long last = first + (long)l->cols_per_band - 1 < (long)l->drawn - 1
				? first + (long)l->cols_per_band - 1 : (long)l->drawn - 1;

		for (t = 0; t < EH_MAX_THREADS; t++) {
			char name[32];
			unsigned y;

			if (l->lane[t] < 0)
				continue;
			y = lane_y(l, t, first);
			fprintf(f, "<rect x=\"0\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\"/>\n", y, l->width,
				LANE_H, l->lane[t] % 2 ? "#ffffff" : "#f3f3f3");
			fprintf(f, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" class=\"%s\"/>\n", LEFT,
				cell_mid_y(l, t, first), col_x(l, last) + CELL_W, cell_mid_y(l, t, first),
				l->ran[t] ? "lane" : "lane idle");
			snprintf(name, sizeof(name), "thread %u", t);
			put_text(f, 8, cell_mid_y(l, t, first) - 2, "class=\"b\"", name);
			put_text(f, 8, cell_mid_y(l, t, first) + 12, "class=\"small\"",
				 l->ran[t] ? "runs" : "idle: a victim");
		}
	}
}

/* A shaded span of one lane from column from to column to, split at the bands' ends, each piece labelled. */
static void put_span(FILE *f, struct layout *l, unsigned t, long from, long to, const char *cls,
		     const char *title, const char *label, const char *label_cls)
{
	while (from <= to) {
		long end = (band_of(l, from) + 1) * (long)l->cols_per_band - 1;

		if (end > to)
			end = to;
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" class=\"%s\">", col_x(l, from),
			lane_y(l, t, from) + 3, (unsigned)(end - from + 1) * CELL_W, LANE_H - 6, cls);
		put_title(f, title);
		fputs("</rect>\n", f);
		put_row_label(f, l, t, ROW_TOP, from, col_x(l, from) + 2, false, label_cls, label);
		from = end + 1;
	}
}

/* The window an erratum's behaviour opened at event opened, labelled with the erratum's id. */
static void put_window(FILE *f, struct layout *l, const struct eh_event *opened, long from, long to,
		       const char *why)
{
	const struct eh_erratum *e = eh_event_erratum(opened);
	char label[64];

	if (!shown(l, from))
		return;
	if (!shown(l, to))
		to = (long)l->drawn - 1;
	snprintf(label, sizeof(label), "%s window", e ? e->id : "erratum");
	put_span(f, l, opened->thread, from, to, "window", why, label, "");
}

/* Each erratum window: from the event that opened it to the one that closed it (or the end of the run). */
static void put_windows(FILE *f, struct layout *l)
{
	long open[EH_MAX_THREADS];
	const struct eh_event *opened[EH_MAX_THREADS];
	char text[1024];
	unsigned t;
	size_t i;

	for (t = 0; t < EH_MAX_THREADS; t++)
		open[t] = -1;
	for (i = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];

		t = ev->thread;
		if (t >= EH_MAX_THREADS || l->lane[t] < 0 || l->folded[i])
			continue;
		if (ev->kind == EH_EV_WINDOW_OPEN) {
			open[t] = l->col[i];
			opened[t] = ev;
		} else if (ev->kind == EH_EV_WINDOW_CLOSE && open[t] >= 0) {
			put_window(f, l, opened[t], open[t], l->col[i], eh_event_format(l->m, ev, text, sizeof(text)));
			open[t] = -1;
		}
	}
	for (t = 0; t < EH_MAX_THREADS; t++)
		if (open[t] >= 0)
			put_window(f, l, opened[t], open[t], (long)l->ncols - 1, "window still open when the run ended");
}

/* Code run at the virtual EL2: each run of EL2 columns of a lane shaded behind its cells and labelled. */
static void put_el2(FILE *f, struct layout *l)
{
	size_t c = 0;

	while (c < l->drawn) {
		const struct eh_event *ev = &l->tr->events[l->insn_of[c]];
		size_t end = c + 1;

		if (!ev->el2) {
			c++;
			continue;
		}
		while (end < l->drawn && l->tr->events[l->insn_of[end]].el2 &&
		       l->tr->events[l->insn_of[end]].thread == ev->thread)
			end++;
		put_span(f, l, ev->thread, (long)c, (long)end - 1, "el2", "code run at the virtual EL2", "EL2", "el2t");
		c = end;
	}
}

/* The symbol pc is in and the offset in it, for the axis; NULL (and off = pc) outside every symbol. */
static const char *symbol_of(const struct layout *l, uint64_t pc, uint64_t *off)
{
	const struct eh_elf_symbol *s = eh_elf_symbol_at(eh_machine_image(l->m)->elf, pc, off);

	if (!s) {
		*off = pc;
		return NULL;
	}
	return s->name;
}

/* Each run of columns (run..c) in one symbol: a bracket under the labels, with the name as it fits. */
static void put_symbol(FILE *f, const struct layout *l, size_t run, size_t c, const char *sym)
{
	unsigned x1 = col_x(l, (long)run), x2 = col_x(l, (long)c) + CELL_W;
	unsigned y = lanes_top(l, band_of(l, (long)c)) - 5;
	size_t fit = (x2 - x1) / SMALL_W;
	char text[128];

	fprintf(f, "<path d=\"M%u,%u L%u,%u L%u,%u L%u,%u\" class=\"sym\">", x1 + 1, y - 12, x1 + 1, y, x2 - 1,
		y, x2 - 1, y - 12);
	put_title(f, sym);
	fputs("</path>\n", f);
	if (fit < 2)
		return;
	if (strlen(sym) < fit)
		snprintf(text, sizeof(text), "%s", sym);
	else
		snprintf(text, sizeof(text), "%.*s~", (int)(fit - 2), sym);
	put_text(f, x1 + 3, y - 3, "class=\"small\"", text);
}

/*
 * The axis of each band: every column's "+offset: instruction" rotated above
 * it, and under those each run of columns in one symbol with the symbol's name.
 */
static void put_axis(FILE *f, const struct layout *l)
{
	char text[128], insn[96], label[64];
	size_t c, run = 0;

	for (c = 0; c < l->drawn; c++) {
		const struct eh_event *ev = &l->tr->events[l->insn_of[c]];
		const struct eh_insn *in = eh_machine_insn(l->m, ev->pc);
		unsigned lx = cell_mid_x(l, (long)c) + 3, ly = lanes_top(l, band_of(l, (long)c)) - STEP_H - SYM_H - 4;
		uint64_t off, noff;
		const char *sym = symbol_of(l, ev->pc, &off), *next = NULL;

		snprintf(text, sizeof(text), "%s0x%" PRIx64 ": %s", sym ? "+" : "", off,
			 in ? eh_disasm_text(in, insn, sizeof(insn)) : "?");
		snprintf(label, sizeof(label), "%.*s", LABEL_CHARS, text);
		fprintf(f, "<text x=\"%u\" y=\"%u\" transform=\"rotate(-60 %u %u)\" class=\"lbl\">", lx, ly, lx, ly);
		eh_xml_puts(f, label);
		fputs("</text>\n", f);
		if (c + 1 < l->drawn && band_of(l, (long)c + 1) == band_of(l, (long)c))
			next = symbol_of(l, l->tr->events[l->insn_of[c + 1]].pc, &noff);
		if (sym && next && !strcmp(sym, next))
			continue;
		if (sym)
			put_symbol(f, l, run, c, sym);
		run = c + 1;
	}
}

/*
 * The steps of a run: a case's set-up calls and its entry, each started when no
 * thread runs. Their first events, in order, into starts (at most n); their number.
 */
static size_t find_steps(const struct layout *l, size_t *starts, size_t n)
{
	size_t i, steps = 0;
	unsigned running = 0;

	for (i = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];

		if (l->folded[i])
			continue;
		if (ev->kind == EH_EV_START) {
			if (!running++ && steps < n)
				starts[steps++] = i;
		} else if (ev->kind == EH_EV_STOP && running) {
			running--;
		}
	}
	return steps;
}

/* Step separators, each labelled "step N" in the room up to the next one (where it starts in the title). */
static void put_steps(FILE *f, const struct layout *l)
{
	size_t starts[MAX_STEPS], n = find_steps(l, starts, MAX_STEPS), s;
	char label[240], where[160], text[32];

	for (s = 0; s < n; s++) {
		const struct eh_event *ev = &l->tr->events[starts[s]];
		long c = l->col[starts[s]], b = band_of(l, c), next = (b + 1) * (long)l->cols_per_band;
		unsigned x = col_x(l, c), y = lanes_top(l, b);
		size_t fit;

		if (!shown(l, c))
			break;
		if (s + 1 < n && l->col[starts[s + 1]] < next)
			next = l->col[starts[s + 1]];
		if (s)
			fprintf(f, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" class=\"step\"/>\n", x,
				y - STEP_H - SYM_H, x, y + l->nlanes * LANE_H);
		snprintf(label, sizeof(label), "step %zu of %zu: starts at %s", s + 1, n,
			 eh_elf_describe(eh_machine_image(l->m)->elf, ev->pc, where, sizeof(where)));
		fit = (size_t)(next - c) * CELL_W / SMALL_W;
		if (fit > 7)
			snprintf(text, sizeof(text), "step %zu", s + 1);
		else
			snprintf(text, sizeof(text), "%zu", s + 1);
		if (strlen(text) >= fit)
			continue;
		fprintf(f, "<text x=\"%u\" y=\"%u\" class=\"small step\">", x + 3, y - SYM_H - 5);
		put_title(f, label);
		eh_xml_puts(f, text);
		fputs("</text>\n", f);
	}
}

/* Whether column c's instruction was a guest access that trapped to EL2 (and so was not performed). */
static bool trapped_col(const struct layout *l, size_t c)
{
	unsigned t = l->tr->events[l->insn_of[c]].thread;
	size_t i;

	for (i = l->insn_of[c] + 1; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];

		if (ev->thread != t)
			continue;
		if (ev->kind == EH_EV_INSN)
			return false;
		if (ev->kind == EH_EV_EL2_ENTRY)
			return true;
	}
	return false;
}

static void put_cells(FILE *f, const struct layout *l)
{
	char where[300], title[400];
	size_t c;

	for (c = 0; c < l->drawn; c++) {
		const struct eh_event *ev = &l->tr->events[l->insn_of[c]];
		bool trapped = trapped_col(l, c);

		snprintf(title, sizeof(title), "thread %u, instruction %zu%s: %s%s%s", ev->thread, c,
			 ev->el2 ? " at EL2" : "", eh_machine_where(l->m, ev->pc, where, sizeof(where)),
			 ev->in_window ? " (inside an erratum's window)" : "",
			 trapped ? " (trapped to EL2, not performed here)" : "");
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\" class=\"cell%s\">",
			col_x(l, (long)c) + 1, lane_y(l, ev->thread, (long)c) + CELL_Y, CELL_W - 2, CELL_H,
			trapped ? "#ffffff" : insn_fill(ev->flags), trapped ? " trapped" : ev->el2 ? " el2c" : "");
		put_title(f, title);
		fputs("</rect>\n", f);
	}
}

/* Each folded loop: a bracket over its first pass and how many passes it made. */
static void put_loops(FILE *f, struct layout *l)
{
	char label[64], title[200];
	size_t k;

	for (k = 0; k < l->nloops; k++) {
		const struct eh_trace_loop *lp = &l->loops[k];
		long first = -1, last = -1;
		unsigned t = l->tr->events[lp->start].thread, y;
		size_t i;

		for (i = lp->start; i < lp->start + lp->period; i++)
			if (l->tr->events[i].kind == EH_EV_INSN) {
				if (first < 0)
					first = l->col[i];
				last = l->col[i];
			}
		if (first < 0 || !shown(l, first) || l->lane[t] < 0)
			continue;
		if (!shown(l, last) || band_of(l, last) != band_of(l, first))
			last = (band_of(l, first) + 1) * (long)l->cols_per_band - 1;
		y = lane_y(l, t, first) + CELL_Y - 2;
		snprintf(label, sizeof(label), "x%zu", lp->passes);
		snprintf(title, sizeof(title), "a loop: these %zu events ran %zu times in all (the text trace has "
			 "every pass)", lp->period, lp->passes);
		fprintf(f, "<path d=\"M%u,%u L%u,%u L%u,%u L%u,%u\" class=\"loop\">", col_x(l, first) + 1, y,
			col_x(l, first) + 1, y - 4, col_x(l, last) + CELL_W - 1, y - 4, col_x(l, last) + CELL_W - 1, y);
		put_title(f, title);
		fputs("</path>\n", f);
		put_row_label(f, l, t, ROW_TOP, first, col_x(l, first) + 2, false, "loopt", label);
	}
}

/* The first instruction column of thread t after event i (the handler a trap entered, the guest's next). */
static long next_col(const struct layout *l, size_t i, unsigned t)
{
	for (i++; i < l->tr->n; i++)
		if (l->tr->events[i].kind == EH_EV_INSN && l->tr->events[i].thread == t && !l->folded[i])
			return l->col[i];
	return -1;
}

/* An arc above the cells from column a to column b of thread t (across bands: from one to the other). */
static void put_arc(FILE *f, const struct layout *l, unsigned t, long a, long b, const char *cls,
		    const char *title)
{
	unsigned x1 = cell_mid_x(l, a), y1 = lane_y(l, t, a) + CELL_Y;
	unsigned x2 = cell_mid_x(l, b), y2 = lane_y(l, t, b) + CELL_Y;

	fprintf(f, "<path d=\"M%u,%u C%u,%u %u,%u %u,%u\" class=\"%s\" marker-end=\"url(#arrow-%s)\">", x1, y1,
		x1, y1 - 22, x2, y2 - 22, x2, y2, cls, cls);
	put_title(f, title);
	fputs("</path>\n", f);
}

/*
 * Context synchronisation, traps to the virtual EL2 (on the trapping instruction,
 * with an arrow to the handler, and the return), exception entries, stub calls,
 * zero pages, starts and stops; each label in its row of the lane.
 */
static void put_marks(FILE *f, struct layout *l)
{
	char text[1024];
	size_t i;

	for (i = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];
		long c = l->col[i], to;
		unsigned x, y;

		if (!drawn_event(l, i))
			continue;
		x = cell_mid_x(l, c);
		y = lane_y(l, ev->thread, c);
		eh_event_format(l->m, ev, text, sizeof(text));
		switch (ev->kind) {
		case EH_EV_START:
			fprintf(f, "<circle cx=\"%u\" cy=\"%u\" r=\"4\" class=\"start\">", col_x(l, c),
				cell_mid_y(l, ev->thread, c));
			put_title(f, text);
			fputs("</circle>\n", f);
			break;
		case EH_EV_CTX_SYNC:
			put_row_label(f, l, ev->thread, ROW_SYNC, c, x, true, "", ev->flags & EH_INSN_ISB ? "isb" : "eret");
			break;
		case EH_EV_STUB_CALL:
		case EH_EV_PAGE:
			/* exec: a call to an undefined symbol's stub, or a zero page mapped for an access. */
			put_row_label(f, l, ev->thread, ROW_SYNC, c, x, true, "",
				      ev->kind == EH_EV_STUB_CALL ? "call" : "page");
			break;
		case EH_EV_EL2_ENTRY:
			x = reserve(l, ev->thread, ROW_MARK, c, x - 5, 10) + 5;
			fprintf(f, "<polygon points=\"%u,%u %u,%u %u,%u %u,%u\" class=\"trap\">", x,
				y + row_y[ROW_MARK] - 10, x + 5, y + row_y[ROW_MARK] - 5, x, y + row_y[ROW_MARK],
				x - 5, y + row_y[ROW_MARK] - 5);
			put_title(f, text);
			fputs("</polygon>\n", f);
			to = next_col(l, i, ev->thread);
			if (shown(l, to))
				put_arc(f, l, ev->thread, c, to, "trap", text);
			break;
		case EH_EV_EL2_RETURN:
			to = next_col(l, i, ev->thread);
			if (shown(l, to))
				put_arc(f, l, ev->thread, c, to, "back", text);
			break;
		case EH_EV_EXCEPTION:
			x = reserve(l, ev->thread, ROW_EXC, c, x - 6, 12) + 6;
			fprintf(f, "<polygon points=\"%u,%u %u,%u %u,%u\" class=\"exc\">", x, y + row_y[ROW_EXC] - 10,
				x + 6, y + row_y[ROW_EXC], x - 6, y + row_y[ROW_EXC]);
			put_title(f, text);
			fputs("</polygon>\n", f);
			break;
		case EH_EV_STOP:
			fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"3\" height=\"%u\" class=\"stop\">",
				col_x(l, c) + CELL_W - 1, y + CELL_Y - 4, CELL_H + 8);
			put_title(f, text);
			fputs("</rect>\n", f);
			break;
		default:
			break;
		}
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

/* Faults the errata injected, drawn last so that they stay on top: culprit cell to victim lane. */
static void put_injections(FILE *f, struct layout *l)
{
	char text[1024], label[128];
	size_t i;

	for (i = 0; i < l->tr->n; i++) {
		const struct eh_event *ev = &l->tr->events[i];
		long c1, c2 = l->col[i];
		unsigned x1, y1, x2, y2;

		if (ev->kind != EH_EV_INJECT || !drawn_event(l, i) || ev->victim >= EH_MAX_THREADS ||
		    l->lane[ev->victim] < 0)
			continue;
		c1 = culprit_col(l, i);
		x1 = cell_mid_x(l, c1);
		y1 = cell_mid_y(l, ev->thread, c1);
		x2 = cell_mid_x(l, c2);
		y2 = cell_mid_y(l, ev->victim, c2);
		put_row_label(f, l, ev->thread, ROW_EXC, c1, x1, true, "bad", "culprit");
		fprintf(f, "<g class=\"inject%s\">", ev->taken ? "" : " idle");
		put_title(f, eh_event_format(l->m, ev, text, sizeof(text)));
		if (ev->victim == ev->thread) {
			/* The culprit is its own victim: down into the row below its cells, clear of their labels. */
			unsigned ye = lane_y(l, ev->thread, c2) + row_y[ROW_EXC] - 2;

			x2 = reserve(l, ev->thread, ROW_EXC, c2, x2 - 5, 10) + 5;
			fprintf(f, "<path d=\"M%u,%u C%u,%u %u,%u %u,%u\" marker-end=\"url(#arrow)\"/>", x1,
				y1 + CELL_H / 2, x1, ye, x2, ye - 16, x2, ye);
		} else {
			fprintf(f, "<path d=\"M%u,%u C%u,%u %u,%u %u,%u\" marker-end=\"url(#arrow)\"/>", x1, y1, x1,
				(y1 + y2) / 2, x2, (y1 + y2) / 2, x2, y2);
		}
		fprintf(f, "<circle cx=\"%u\" cy=\"%u\" r=\"3\" class=\"culprit\"/>", x1, y1);
		fputs("</g>\n", f);
		snprintf(label, sizeof(label), "spurious Data Abort -> thread %u%s", ev->victim,
			 ev->taken ? "" : " (idle: not taken)");
		put_row_label(f, l, ev->victim, ev->victim == ev->thread ? ROW_EXC : ROW_SYNC, c2, x2, false,
			      "bad b", label);
	}
}

static const char svg_style[] =
	"<style>\n"
	"text { font-family: DejaVu Sans Mono, monospace; font-size: 11px; fill: #222; }\n"
	".h1 { font-size: 14px; font-weight: bold; }\n"
	".b { font-weight: bold; }\n"
	".bad { fill: #c00000; }\n"
	".small { font-size: 9px; fill: #555; }\n"
	".lbl { font-size: 10px; }\n"
	".lane { stroke: #999; stroke-width: 1; }\n"
	".idle { stroke-dasharray: 5 4; }\n"
	".window { fill: #ffd54f; fill-opacity: 0.5; stroke: #d9a400; }\n"
	".el2 { fill: #d9c8f0; fill-opacity: 0.6; stroke: none; }\n"
	".el2t { fill: #4b2a7b; font-weight: bold; }\n"
	".cell { stroke: #333; stroke-width: 0.5; }\n"
	".el2c { stroke: #4b2a7b; stroke-width: 2; }\n"
	".trapped { stroke: #e0600b; stroke-width: 2; stroke-dasharray: 3 2; }\n"
	".trap { fill: #ff7f0e; stroke: #333; }\n"
	"path.trap { fill: none; stroke: #e0600b; stroke-width: 1.5; }\n"
	"path.back { fill: none; stroke: #2ca02c; stroke-width: 1.5; stroke-dasharray: 4 3; }\n"
	".exc { fill: #d62728; stroke: #333; }\n"
	".start { fill: #fff; stroke: #333; }\n"
	".stop { fill: #333; }\n"
	".sym { fill: none; stroke: #777; }\n"
	".loop { fill: none; stroke: #1a6e8e; stroke-width: 1.5; }\n"
	".loopt { fill: #1a6e8e; font-weight: bold; }\n"
	"line.step { stroke: #555; stroke-width: 1; stroke-dasharray: 6 3; }\n"
	"text.step { fill: #222; font-weight: bold; }\n"
	".inject path { fill: none; stroke: #c00000; stroke-width: 2; }\n"
	"path.inject { fill: none; stroke: #c00000; stroke-width: 2; }\n"
	".culprit { fill: #c00000; }\n"
	"</style>\n"
	"<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
	"orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c00000\"/></marker>\n"
	"<marker id=\"arrow-trap\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
	"orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#e0600b\"/></marker>\n"
	"<marker id=\"arrow-back\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
	"orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#2ca02c\"/></marker>\n";

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

static void layout_free(struct layout *l)
{
	eh_free(l->col);
	eh_free(l->folded);
	eh_free(l->insn_of);
	eh_free(l->loops);
	eh_free(l->taken);
}

int eh_svg_draw(FILE *f, struct eh_machine *m, const struct eh_svg_header *h, struct eh_error *err)
{
	struct layout l = { 0 };
	int rc;

	rc = lay_out(&l, m, h, err);
	if (rc) {
		layout_free(&l);
		return rc;
	}
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
	put_el2(f, &l);
	put_windows(f, &l);
	put_axis(f, &l);
	put_steps(f, &l);
	put_cells(f, &l);
	put_loops(f, &l);
	put_marks(f, &l);
	put_injections(f, &l);
	put_legend(f, &l);
	fputs("</svg>\n", f);
	layout_free(&l);
	if (fflush(f) || ferror(f))
		return eh_error_set(err, EH_EIO, "writing the SVG timeline failed");
	return 0;
}
