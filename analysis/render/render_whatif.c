// SPDX-License-Identifier: GPL-2.0
/* The what-if table as the text prints it (judge/whatif.c computes it). */
#include <stdio.h>

#include "render_export.h"
#include "units.h"

/* s right-aligned in width columns: counted in characters, so "500 µs" lines up. */
static void right(FILE *f, const char *s, int width)
{
	int chars = utf8_columns(s);

	fprintf(f, "%*s%s", width > chars ? width - chars : 0, "", s);
}

/* The judged pulls a test before the age decides: the same at every threshold. */
static void render_whatif_rules(FILE *f, const struct whatif *w)
{
	uint64_t cold = 0, hot = 0;

	for (int i = 0; i < MT_NR_RULES; i++) {
		if (i == MT_RULE_AGE)
			continue;
		if (MT_RULE_HOT(i, 0, 0))
			hot += w->lb_rule[i];
		else
			cold += w->lb_rule[i];
	}
	if (cold || hot)
		fprintf(f, "  (%llu of the judged pulls are decided before their age, at every "
			"threshold: %llu cold, %llu hot; the text's \"what decided each judged "
			"pull\" says by what)\n", (unsigned long long)(cold + hot),
			(unsigned long long)cold, (unsigned long long)hot);
}

void render_whatif_text(FILE *f, const struct whatif *w)
{
	char a[32], b[32], c[48];

	fprintf(f, "\nwhat if (an estimate from this run: its own moves judged again at each "
		"threshold, not a run at it%s):\n", w->records_complete ? "" :
		"; counts are of the records kept");
	fprintf(f, "  %10s  %-24s  %-24s  %s\n", "threshold", "load-balance pulls hot",
		"wakeups younger", "refill cost of migrations younger");
	for (int i = 0; i < w->n; i++) {
		const struct whatif_row *row = &w->row[i];
		char lb[40], wk[40];

		if (w->pulls_not_read)
			snprintf(lb, sizeof(lb), "not read");
		else
			snprintf(lb, sizeof(lb), "%llu of %llu (%.1f %%)",
				 (unsigned long long)row->lb_hot,
				 (unsigned long long)row->lb_judged,
				 pct(row->lb_hot, row->lb_judged));
		snprintf(wk, sizeof(wk), "%llu of %llu (%.1f %%)",
			 (unsigned long long)row->wakeup_hot, (unsigned long long)row->wakeups,
			 pct(row->wakeup_hot, row->wakeups));
		if (row->has_cost)
			snprintf(c, sizeof(c), "%s over %zu units (%d age%s)",
				 fmt_ns(b, sizeof(b), row->cost_ns), row->cost_units,
				 row->cost_cells, row->cost_cells == 1 ? "" : "s");
		else
			snprintf(c, sizeof(c), "- (no units timed)");
		fputs("  ", f);
		right(f, fmt_ns(a, sizeof(a), (double)row->threshold_ns), 10);
		fprintf(f, "  %-24s  %-24s  %s\n", lb, wk, c);
	}
	fprintf(f, "  (hot: the kernel's rule, the kernel's age for pulls, migtrace's for wakeups; "
		"cost: each migrated unit at the migration cost of its age, as measured here)\n");
	if (w->pulls_not_read)
		fprintf(f, "  (pulls not read: replayed events carry no kernel age, "
			"rq_clock_task(src) - se.exec_start)\n");
	render_whatif_rules(f, w);
}
