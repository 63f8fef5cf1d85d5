// SPDX-License-Identifier: GPL-2.0
/*
 * The CSV export: one file per table of the run, a header row first, the files a table of
 * {name, writer} (render_csv_files).  The record and cell columns are the run file's members,
 * walked from the same schema tables (run_schema.c), so their names carry their units
 * (`age_ns`) exactly as docs/run-file.md documents them; a value the run file writes as null
 * is an empty field.  The sweep's CSV writes its members with the same cells (csv_cells).
 * Quoting is RFC 4180's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_export.h"
#include "run_schema.h"

char *fmt_shortest(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
		return buf;
	}
	if (v == trunc(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, len, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/*
 * A string field: quoted when it holds a comma, a quote or a line break.  One a spreadsheet
 * would take for a formula (a workload named =1+2, a comm, a path) starts with a quote
 * instead, as OWASP's CSV injection advice says: = + - @, a tab or a carriage return first
 * (README.md, "Exports").
 */
static void csv_string(FILE *f, const char *s, size_t n)
{
	const char *neutral = n && s[0] && strchr("=+-@\t\r", s[0]) ? "'" : "";

	if (!memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\n', n) &&
	    !memchr(s, '\r', n)) {
		fputs(neutral, f);
		fwrite(s, 1, n, f);
		return;
	}
	fprintf(f, "\"%s", neutral);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', f);
		fputc(s[i], f);
	}
	fputc('"', f);
}

void csv_names(FILE *f, const struct rs_field *fl)
{
	fputs(fl->name, f);
	for (int i = 0; fl->type == RS_U64_NAMED && i < fl->nnames; i++)
		fprintf(f, ",%s_%s", fl->name, fl->names[i]);
}

static int csv_width(const struct rs_field *fl)
{
	return fl->type == RS_U64_NAMED ? 1 + fl->nnames : 1;
}

void csv_empty(FILE *f, const struct rs_field *fl)
{
	for (int i = 1; i < csv_width(fl); i++)
		fputc(',', f);
}

void csv_cells(FILE *f, const void *base, const struct rs_field *fl, bool nonfinite)
{
	const char *p = (const char *)base + fl->off;
	const uint64_t *counts = (const uint64_t *)p;
	uint64_t total = 0;
	char b[40];
	int64_t e;

	if (rs_is_null(base, fl)) {
		csv_empty(f, fl);
		return;
	}
	switch (fl->type) {
	case RS_U64:
		fprintf(f, "%llu", (unsigned long long)*(const uint64_t *)p);
		break;
	case RS_SIZE:
		fprintf(f, "%zu", *(const size_t *)p);
		break;
	case RS_DBL:
		if (nonfinite || isfinite(*(const double *)p))
			fputs(fmt_shortest(b, sizeof(b), *(const double *)p), f);
		break;
	case RS_BOOL:
		fputs(*(const bool *)p ? "true" : "false", f);
		break;
	case RS_STR:
	case RS_BYTES:
		csv_string(f, p, strnlen(p, fl->size));
		break;
	case RS_CSTR:
		p = *(const char *const *)p;
		csv_string(f, p ? p : "", p ? strlen(p) : 0);
		break;
	case RS_HEX32:
		fprintf(f, "0x%x", *(const uint32_t *)p);
		break;
	case RS_ENUM:
	case RS_ENUM_U8:
		e = rs_int(base, fl);
		if (e >= 0 && e < fl->nnames)
			fputs(fl->names[e], f);
		else
			fprintf(f, "%lld", (long long)e);
		break;
	case RS_U64_NAMED:
		for (int i = 0; i < fl->nnames; i++)
			total += counts[i];
		fprintf(f, "%llu", (unsigned long long)total);
		for (int i = 0; i < fl->nnames; i++)
			fprintf(f, ",%llu", (unsigned long long)counts[i]);
		break;
	case RS_ARGV:
		break;	/* a command line is a header's, never a row's */
	default:
		fprintf(f, "%lld", (long long)rs_int(base, fl));
	}
}

static void csv_header(FILE *f, const struct rs_table *t, const char *first)
{
	if (first)
		fprintf(f, "%s,", first);
	for (int i = 0; i < t->n; i++) {
		csv_names(f, &t->f[i]);
		fputc(i + 1 < t->n ? ',' : '\n', f);
	}
}

/* One row of t's members of base: as the run file writes them, null as empty. */
static void csv_row(FILE *f, const void *base, const struct rs_table *t)
{
	for (int i = 0; i < t->n; i++) {
		const struct rs_field *fl = &t->f[i];

		if (i)
			fputc(',', f);
		if (rs_is_absent(base, fl))
			csv_empty(f, fl);
		else
			csv_cells(f, base, fl, false);
	}
	fputc('\n', f);
}

static void csv_migrations(FILE *f, const struct run *r, const struct whatif *w)
{
	(void)w;
	csv_header(f, &rs_migration, NULL);
	for (size_t i = 0; i < r->nrecs; i++)
		csv_row(f, &r->recs[i], &rs_migration);
}

static void csv_units(FILE *f, const struct run *r, const struct whatif *w)
{
	(void)w;
	csv_header(f, &rs_unit, NULL);
	for (size_t i = 0; i < r->nunits; i++)
		csv_row(f, &r->units[i], &rs_unit);
}

/* The cells of the correlation, with the mode they were made in (empty: no correlation). */
static void csv_correlation(FILE *f, const struct run *r, const struct whatif *w)
{
	(void)w;
	csv_header(f, &rs_cell, "mode");
	for (int i = 0; r->has_corr && i < r->corr.ncells; i++) {
		fprintf(f, "%s,", r->corr.mode == CORR_CONTROLLED ? "controlled" : "natural");
		csv_row(f, &r->corr.cells[i], &rs_cell);
	}
}

/*
 * The in-kernel log2 histograms, one row per slot: slot k holds [2^k, 2^(k+1)) µs, slot 0
 * [0, 2) µs, the last slot open (hi_us empty).  One column per histogram: the age by cause,
 * the kernel's age of load-balancer pulls, run slices, wakeup latency, then the kernel's age
 * of the pulls by topology level (empty for a run without levels).
 */
static void csv_histograms(FILE *f, const struct run *r, const struct whatif *w)
{
	(void)w;
	fprintf(f, "slot,lo_us,hi_us");
	for (int c = 0; c < MT_NR_CAUSES; c++)
		fprintf(f, ",age_%s", mt_cause_names[c]);
	fprintf(f, ",kernel_age_lb_pull,run_slice,wakeup_latency");
	for (int l = 0; l < MT_NR_LEVELS; l++)
		fprintf(f, ",kernel_age_lb_pull_%s", mt_level_names[l]);
	fputc('\n', f);
	for (int k = 0; k < MT_HIST_SLOTS; k++) {
		fprintf(f, "%d,%llu,", k, k ? 1ULL << k : 0ULL);
		if (k + 1 < MT_HIST_SLOTS)
			fprintf(f, "%llu", 1ULL << (k + 1));
		for (int c = 0; c < MT_NR_CAUSES; c++)
			fprintf(f, ",%llu", (unsigned long long)r->hists.age[c][k]);
		fprintf(f, ",%llu,%llu,%llu", (unsigned long long)r->hists.kernel_age[k],
			(unsigned long long)r->hists.slice[k],
			(unsigned long long)r->hists.wakelat[k]);
		for (int l = 0; l < MT_NR_LEVELS; l++) {
			const __u64 *h = r->hists.kernel_age_level[l];

			if (r->has_levels)
				fprintf(f, ",%llu", (unsigned long long)h[k]);
			else
				fputc(',', f);
		}
		fputc('\n', f);
	}
}

/*
 * One row per topology level (none for a run without levels): its migrations by cause, its
 * judged pulls and those hot at meta.hot_ns by the kernel's rule, then the refill cost and
 * verdict of its pulls (the run file's levels.cost members; empty without them).
 */
static void csv_levels(FILE *f, const struct run *r, const struct whatif *w)
{
	(void)w;
	fprintf(f, "level,migrations");
	for (int c = 0; c < MT_NR_CAUSES; c++)
		fprintf(f, ",migrations_%s", mt_cause_names[c]);
	fprintf(f, ",lb_judged,lb_hot,");
	csv_header(f, &rs_level_cost, NULL);
	for (int l = 0; r->has_levels && l < MT_NR_LEVELS; l++) {
		uint64_t n = 0;

		for (int c = 0; c < MT_NR_CAUSES; c++)
			n += r->stats.level_migrations[l][c];
		fprintf(f, "%s,%llu", mt_level_names[l], (unsigned long long)n);
		for (int c = 0; c < MT_NR_CAUSES; c++)
			fprintf(f, ",%llu", (unsigned long long)r->stats.level_migrations[l][c]);
		fprintf(f, ",%llu,%llu,", (unsigned long long)r->stats.level_lb_judged[l],
			(unsigned long long)r->stats.level_lb_hot[l]);
		if (r->has_level_cost) {
			csv_row(f, &r->level_cost[l], &rs_level_cost);
			continue;
		}
		for (int i = 1; i < rs_level_cost.n; i++)
			fputc(',', f);
		fputc('\n', f);
	}
}

/* The judged pulls by the rule that decided them (none for a run without levels). */
static void csv_rules(FILE *f, const struct run *r, const struct whatif *w)
{
	(void)w;
	fprintf(f, "rule,lb_judged\n");
	for (int i = 0; r->has_levels && i < MT_NR_RULES; i++)
		fprintf(f, "%s,%llu\n", mt_rule_names[i], (unsigned long long)r->stats.lb_rule[i]);
}

/* The what-if rows (an estimate from this run: the header's last column says so). */
static void csv_whatif(FILE *f, const struct run *r, const struct whatif *w)
{
	char b[40];

	(void)r;
	fprintf(f, "threshold_ns,lb_pulls_judged,lb_pulls_hot,wakeups,wakeups_younger,"
		"cost_cells,cost_units,refill_cost_ns,records_complete,estimate\n");
	for (int i = 0; w && i < w->n; i++) {
		const struct whatif_row *row = &w->row[i];

		fprintf(f, "%lld,", (long long)row->threshold_ns);
		/* replayed events carry no kernel age: the pulls' cells are empty, not 0 */
		if (w->pulls_not_read)
			fprintf(f, ",,");
		else
			fprintf(f, "%llu,%llu,", (unsigned long long)row->lb_judged,
				(unsigned long long)row->lb_hot);
		fprintf(f, "%llu,%llu,", (unsigned long long)row->wakeups,
			(unsigned long long)row->wakeup_hot);
		if (row->has_cost)
			fprintf(f, "%d,%zu,%s", row->cost_cells, row->cost_units,
				fmt_shortest(b, sizeof(b), row->cost_ns));
		else
			fprintf(f, ",,");
		fprintf(f, ",%s,this run's moves judged again at the threshold\n",
			w->records_complete ? "true" : "false");
	}
}

/* run --probe-moves: every moment, as the run file's probes.moments[]. */
static void csv_probe_moments(FILE *f, const struct run *r, const struct whatif *w)
{
	(void)w;
	csv_header(f, &rs_probe_moment, NULL);
	for (size_t i = 0; i < r->nmoments; i++)
		csv_row(f, &r->moments[i], &rs_probe_moment);
}

/* run --probe-moves: the cost of a move by age, as probes.result.cells[]. */
static void csv_probe_cells(FILE *f, const struct run *r, const struct whatif *w)
{
	(void)w;
	csv_header(f, &rs_cell, NULL);
	for (int i = 0; r->has_probe_result && i < r->probe_result.corr.ncells; i++)
		csv_row(f, &r->probe_result.corr.cells[i], &rs_cell);
}

const struct render_csv_file render_csv_files[] = {
	{ "migrations.csv", csv_migrations, false, false },
	{ "units.csv", csv_units, false, false },
	{ "correlation.csv", csv_correlation, false, false },
	{ "histograms.csv", csv_histograms, false, false },
	{ "levels.csv", csv_levels, false, false },
	{ "rules.csv", csv_rules, false, false },
	{ "whatif.csv", csv_whatif, true, false },
	{ "probe_moments.csv", csv_probe_moments, false, true },
	{ "probe_cells.csv", csv_probe_cells, false, true },
};
const int render_csv_nfiles = (int)(sizeof(render_csv_files) / sizeof(render_csv_files[0]));
