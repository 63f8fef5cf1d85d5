// SPDX-License-Identifier: GPL-2.0
/*
 * validate's footprint curve in text (render_footprint.h).  The curve is a small table, one
 * column a footprint; the levels and the hints are a line each; the polluter's line names
 * the level that bounded it, or the fallback and why, and what sysfs or CPUID says beside.
 */
#include <math.h>
#include <string.h>

#include "printable.h"
#include "render_footprint.h"
#include "units.h"

/* A footprint in a column: "16K", "512K", "64M". */
static char *short_size(char *buf, int len, uint64_t bytes)
{
	if (bytes >= (1ULL << 30) && !(bytes % (1ULL << 30)))
		snprintf(buf, (size_t)len, "%lluG", (unsigned long long)(bytes >> 30));
	else if (bytes >= (1ULL << 20) && !(bytes % (1ULL << 20)))
		snprintf(buf, (size_t)len, "%lluM", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, (size_t)len, "%lluK", (unsigned long long)(bytes >> 10));
	return buf;
}

/* A ratio: "18x", "1.1x". */
static char *factor(char *buf, int len, double x)
{
	snprintf(buf, (size_t)len, x >= 9.95 ? "%.0fx" : "%.1fx", x);
	return buf;
}

/* "L3 Unified 508 MiB (CPUID)" */
static char *hint_name(char *buf, size_t len, const struct fp_hint *h)
{
	char type[PRINTABLE_SIZE(sizeof(h->type))], src[PRINTABLE_SIZE(sizeof(h->source))];
	char b[32];

	snprintf(buf, len, "L%d %s %s (%s)", h->level, printable(type, sizeof(type), h->type),
		 fmt_bytes(b, sizeof(b), h->size_bytes), printable(src, sizeof(src), h->source));
	return buf;
}

void render_footprint_intro(FILE *f, const struct footprint *fp)
{
	char lo[32], hi[32];

	if (!fp->npoints)
		return;
	fprintf(f, "then the footprint curve: the latency a line of dependent loads over a random "
		"cycle of 64-byte lines, footprints %s to %s doubling, on CPU %d, and on CPU %d "
		"just after CPU %d walked them (median of %d trials); its levels size the polluter\n",
		fmt_bytes(lo, sizeof(lo), fp->points[0].footprint_bytes),
		fmt_bytes(hi, sizeof(hi), fp->bound_bytes), fp->cpu_a, fp->cpu_b, fp->cpu_a,
		fp->reps);
}

static void print_curve(FILE *f, const struct footprint *fp)
{
	char b[32], why[PRINTABLE_SIZE(sizeof(fp->bound_why))];

	fprintf(f, "footprint curve: %d footprints in %.2f s, to %s\n", fp->npoints, fp->wall_s,
		printable(why, sizeof(why), fp->bound_why));
	fprintf(f, "  footprint      ");
	for (int i = 0; i < fp->npoints; i++)
		fprintf(f, " %5s", short_size(b, sizeof(b), fp->points[i].footprint_bytes));
	fprintf(f, "\n  on A, ns a line");
	for (int i = 0; i < fp->npoints; i++)
		fprintf(f, " %5.3g", fp->points[i].a_ns);
	fprintf(f, "\n  B after A      ");
	for (int i = 0; i < fp->npoints; i++)
		fprintf(f, " %5.3g", fp->points[i].b_after_a_ns);
	fprintf(f, "\n");
	if (fp->trials_switched)
		fprintf(f, "  %d trials were switched out twice and kept\n", fp->trials_switched);
	if (fp->points_remeasured)
		fprintf(f, "  %d footprints measured again: A's latency there was more than %.1fx "
			"the next one's\n", fp->points_remeasured, FP_RISE_OCTAVE);
}

static void print_levels(FILE *f, const struct footprint *fp)
{
	char b[32], x[16], name[128];

	if (!fp->readable) {
		fprintf(f, "  levels: none read: A's latency rises by less than %.1fx over every run "
			"of doublings\n", FP_STEP_FACTOR);
	} else {
		fprintf(f, "  levels (A's latency steps up):");
		for (int i = 0; i < fp->nlevels; i++) {
			const struct fp_level *l = &fp->levels[i];

			fprintf(f, "%s %s (%.3g -> %.3g ns a line; B after A %s: %s)", i ? "," : "",
				fmt_bytes(b, sizeof(b), l->capacity_bytes), l->below_ns, l->above_ns,
				factor(x, sizeof(x), l->b_over_a),
				l->shared ? "shared" : "not shared");
		}
		fprintf(f, "\n");
	}
	if (!fp->nhints)
		return;
	fprintf(f, "  listed:");
	for (int h = 0; h < fp->nhints; h++) {
		const struct fp_hint *k = &fp->hints[h];
		uint64_t last = fp->npoints ? fp->points[fp->npoints - 1].footprint_bytes : 0;

		fprintf(f, "%s %s ", h ? ";" : "", hint_name(name, sizeof(name), k));
		if (k->state == FP_HINT_SEEN)
			fprintf(f, "seen, the %s level",
				fmt_bytes(b, sizeof(b), fp->levels[k->matched].capacity_bytes));
		else if (k->state == FP_HINT_NOT_SEEN)
			fprintf(f, "not seen: no step near it");
		else if (2 * k->size_bytes <= last)
			fprintf(f, "not tested: a latency of the curve is missing");
		else
			fprintf(f, "not tested: the curve stops at %s", fmt_bytes(b, sizeof(b), last));
	}
	fprintf(f, "\n");
}

/* What sysfs or CPUID says beside the measured level: its own hint, or the largest. */
static void print_beside(FILE *f, const struct footprint *fp, const struct fp_level *l)
{
	const struct fp_hint *h = l && l->hint >= 0 ? &fp->hints[l->hint] : NULL;
	char name[128];

	for (int i = 0; !(l && l->hint >= 0) && i < fp->nhints; i++)
		if (!h || fp->hints[i].size_bytes > h->size_bytes)
			h = &fp->hints[i];
	if (!h)
		fprintf(f, "; no cache is listed");
	else if (l && l->hint >= 0)
		fprintf(f, "; listed as %s", hint_name(name, sizeof(name), h));
	else
		fprintf(f, "; the largest listed: %s", hint_name(name, sizeof(name), h));
}

/* How the measurement sized the polluter, without the line's head. */
static void print_sizing(FILE *f, const struct footprint *fp)
{
	const struct fp_level *l = fp->polluter_level >= 0 ? &fp->levels[fp->polluter_level] :
				   NULL;
	char b[32], c[32];

	if (l && fp->sized_bytes == FP_POLLUTER_TIMES * l->capacity_bytes)
		fprintf(f, "%dx the %s level B does not share", FP_POLLUTER_TIMES,
			fmt_bytes(b, sizeof(b), l->capacity_bytes));
	else if (l)
		fprintf(f, "the least it may be (%dx the %s level B does not share is less)",
			FP_POLLUTER_TIMES, fmt_bytes(b, sizeof(b), l->capacity_bytes));
	else
		fprintf(f, "%dx the %s per-core cache the calibration is sized against, rounded up "
			"to a power of two, %s at least", FP_POLLUTER_TIMES,
			fmt_bytes(b, sizeof(b), fp->private_bytes),
			fmt_bytes(c, sizeof(c), FP_POLLUTER_MIN_BYTES));
}

void render_footprint_result(FILE *f, const struct footprint *fp)
{
	const struct fp_level *l = fp->polluter_level >= 0 ? &fp->levels[fp->polluter_level] :
				   NULL;
	char b[32], c[32], why[PRINTABLE_SIZE(sizeof(fp->capped_why))];

	if (fp->npoints)
		print_curve(f, fp);
	print_levels(f, fp);
	fprintf(f, "polluter: %s, ", fmt_bytes(b, sizeof(b), fp->polluter_bytes));
	switch (fp->polluter_source) {
	case FP_POLLUTER_GIVEN:
		fprintf(f, "as --polluter-size gave it (measured: %s, ",
			fmt_bytes(c, sizeof(c), fp->sized_bytes));
		print_sizing(f, fp);
		fprintf(f, ")");
		break;
	case FP_POLLUTER_MEASURED:
		print_sizing(f, fp);
		fprintf(f, " (measured");
		print_beside(f, fp, l);
		fprintf(f, ")");
		break;
	case FP_POLLUTER_ALL_SHARED:
		print_sizing(f, fp);
		fprintf(f, " (every level measured is shared with B)");
		break;
	default:
		print_sizing(f, fp);
		fprintf(f, " (no level read from the curve)");
	}
	if (fp->capped_why[0])
		fprintf(f, "; %s", printable(why, sizeof(why), fp->capped_why));
	fprintf(f, "\n");
}
