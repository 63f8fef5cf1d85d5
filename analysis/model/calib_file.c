// SPDX-License-Identifier: GPL-2.0
/*
 * The calibration file (calib_file.h, docs/calibration-file.md): the calibration model
 * streamed through json_writer.c and read back through json_reader.c with the tables of
 * run_schema.c, which the run file's calibration.measured uses too.  Read strictly: the
 * schema first, then the method (the cells' members depend on it), every other member once
 * and only the members of the schema, each value in its range, and the parts consistent
 * with each other (a matrix of cpus x cpus, groups of the CPUs calibrated).  Nothing
 * half-read is kept.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calib_file.h"
#include "run_schema.h"

/* Bounds of the arrays a reader takes: what calibrate can make, with room to spare. */
#define MAX_DISTANCES 64	/* scheduler-domain distances (topology_distance()) */
#define MAX_STEPS 256		/* sizes one 2005 search tries */
#define MAX_SIZES 64		/* --sweep-size's sizes */
#define MAX_SIZE_FACTOR 64	/* of the cache, at one of them */
#define MAX_CACHE_BYTES (1ULL << 40)	/* bytes: above any cache */
#define MAX_WALL_S 1e9		/* s: about 32 years */

/* ---- writing ---- */

static void write_ints(struct json_writer *w, const char *name, const int *v, int n)
{
	jw_name(w, name);
	jw_start_array(w);
	for (int i = 0; i < n; i++)
		jw_s64(w, v[i]);
	jw_end_array(w);
}

void calib_write_measured(struct json_writer *w, const struct calibration *c)
{
	rs_write(w, c, &rs_calibration_measured);
	write_ints(w, "cpus", c->cpus.cpu, c->cpus.n);
}

void calib_write_cells(struct json_writer *w, const struct calibration *c, bool file)
{
	int n = c->cells ? c->cpus.n * c->cpus.n : 0;

	jw_name(w, "cells");
	jw_start_array_lines(w);
	for (int i = 0; i < n && !jw_error(w); i++) {
		jw_start_object(w);
		if (file && c->method == CALIB_2005) {
			rs_write(w, &c->cells[i], &rs_calib_cell_2005);
		} else {
			rs_write(w, &c->cells[i], &rs_calib_cell);
			if (file)
				rs_write(w, &c->cells[i], &rs_calib_cell_2004);
		}
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* name: an object of t's members from base, or null when !there. */
static void write_object(struct json_writer *w, const char *name, bool there, const void *base,
			 const struct rs_table *t)
{
	if (name)
		jw_name(w, name);
	if (!there) {
		jw_null(w);
		return;
	}
	jw_start_object(w);
	rs_write(w, base, t);
	jw_end_object(w);
}

static void write_llc(struct json_writer *w, const struct calibration *c)
{
	jw_name(w, "llc");
	jw_start_object(w);
	rs_write(w, &c->llc, &rs_calib_llc);
	if (c->llc.known)
		write_ints(w, "group_of_cpu", c->llc.group_of, c->cpus.n);
	else
		jw_field_null(w, "group_of_cpu");
	jw_end_object(w);
}

static void write_groups(struct json_writer *w, const struct calibration *c)
{
	jw_name(w, "groups");
	if (!c->groups.valid) {
		jw_null(w);
		return;
	}
	jw_start_object(w);
	write_ints(w, "group_of_cpu", c->groups.group_of, c->cpus.n);
	rs_write(w, &c->groups, &rs_calib_groups);
	jw_end_object(w);
}

static void write_search(struct json_writer *w, const struct calibration *c)
{
	jw_name(w, "size_search");
	if (c->method != CALIB_2005) {
		jw_null(w);
		return;
	}
	jw_start_object(w);
	rs_write(w, c, &rs_calib_search);
	jw_name(w, "distances");
	jw_start_array_lines(w);
	for (int d = 0; d < c->ndist; d++) {
		jw_start_object(w);
		rs_write(w, &c->dist[d], &rs_calib_distance);
		jw_name(w, "steps");
		jw_start_array(w);
		for (int s = 0; s < c->dist[d].nsteps; s++)
			write_object(w, NULL, true, &c->dist[d].steps[s], &rs_calib_step);
		jw_end_array(w);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
}

static void write_sizes(struct json_writer *w, const struct calibration *c)
{
	jw_name(w, "size_sweep");
	if (!c->sizes) {
		jw_null(w);
		return;
	}
	jw_start_array_lines(w);
	for (int i = 0; i < c->nsizes; i++)
		write_object(w, NULL, true, &c->sizes[i], &rs_calib_size);
	jw_end_array(w);
}

void calib_write_chase(struct json_writer *w, const struct calibration *c)
{
	const struct calib_chase *ch = c->chase;

	jw_name(w, "chase");
	if (!ch) {
		jw_null(w);
		return;
	}
	jw_start_object(w);
	rs_write(w, ch, &rs_calib_chase);
	jw_name(w, "curves");
	jw_start_array_lines(w);
	for (int i = 0; i < ch->ncurves; i++) {
		const struct chase_curve *x = &ch->curves[i];

		jw_start_object(w);
		rs_write(w, x, &rs_calib_chase_curve);
		jw_name(w, "points");
		jw_start_array(w);
		for (int p = 0; p < x->npoints; p++)
			write_object(w, NULL, true, &x->points[p], &rs_calib_chase_point);
		jw_end_array(w);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
}

int calib_file_write(FILE *f, const struct calibration *c)
{
	struct json_writer w;

	jw_init(&w, f);
	jw_start_object_lines(&w);
	jw_field_string(&w, "schema", CALIB_SCHEMA);
	calib_write_measured(&w, c);
	rs_write(&w, c, &rs_calib_file);
	write_object(&w, "tunable", true, &c->tunable, &rs_tunable);
	write_llc(&w, c);
	write_object(&w, "fill_statistics", c->method == CALIB_2004, c, &rs_calib_fills);
	write_groups(&w, c);
	write_search(&w, c);
	write_sizes(&w, c);
	calib_write_chase(&w, c);
	calib_write_cells(&w, c, true);
	jw_end_object(&w);
	return jw_finish(&w);
}

/* ---- reading ---- */

struct reader {
	struct json_reader *jr;
	struct calibration *c;
	bool oom;
	struct calib_seen seen;		/* the top level's shared members */
	int llc_n, groups_n;		/* entries of the group_of_cpu arrays; -1: null */
	bool fills, search;		/* fill_statistics and size_search are objects */
	int version;			/* the file's schema: 3 or 2 (a run file's: 3) */
};

/*
 * An object's members: its flat ones from up to two tables, others read by read_extra
 * (all of them required), and those hook reads itself (1 read, 0 not its, -1 error).  Any
 * other member is refused, as the calibration file's schema says (the run file's skipped).
 */
struct object_spec {
	const struct rs_table *t[2];
	const char *const *extra;
	int nextra;
	int (*read_extra)(struct reader *rd, void *base, int which, const char *where);
	int (*hook)(struct reader *rd, void *base, const char *key);
	bool skip_unknown;	/* a run file's: members this reader does not know are skipped */
};

/* How messages name an object: where, or the top level. */
static const char *said(const char *where)
{
	return *where ? where : "the calibration";
}

/* where.name, or name at the top level. */
static const char *member_path(char *buf, size_t len, const char *where, const char *name)
{
	snprintf(buf, len, "%s%s%s", where, *where ? "." : "", name);
	return buf;
}

static int twice(struct json_reader *jr, const char *key, const char *where)
{
	jr_fail(jr, "\"%s\" appears twice", key);
	jr_context(jr, said(where));
	return -1;
}

/* A member of t (named where in messages) into base, once: 1 read, 0 not t's, -1 error. */
static int table_member(struct json_reader *jr, void *base, const struct rs_table *t,
			const char *key, uint64_t *seen, const char *where)
{
	struct rs_table named = *t;
	uint64_t before = *seen;
	int rc;

	named.object = where;
	rc = rs_read(jr, base, &named, key, seen);
	return rc > 0 && *seen == before ? twice(jr, key, where) : rc;
}

/* The members of an object already begun, to its end.  0 or -1. */
static int read_members(struct reader *rd, void *base, const struct object_spec *s,
			const char *where)
{
	struct json_reader *jr = rd->jr;
	uint64_t seen[2] = { 0 }, extra_seen = 0;
	char key[64];
	int more, rc, i;

	while ((more = jr_object_next(jr, key, sizeof(key))) > 0) {
		rc = s->hook ? s->hook(rd, base, key) : 0;
		for (int k = 0; k < 2 && !rc && s->t[k]; k++)
			rc = table_member(jr, base, s->t[k], key, &seen[k], where);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		for (i = 0; i < s->nextra && strcmp(key, s->extra[i]); i++)
			;
		if (i == s->nextra && s->skip_unknown) {
			if (jr_skip(jr))
				return -1;
			continue;
		}
		if (i == s->nextra) {
			jr_fail(jr, "\"%s\" is not a member (%s, docs/calibration-file.md)", key,
				rd->version == 2 ? CALIB_SCHEMA_V2 : CALIB_SCHEMA);
			jr_context(jr, said(where));
			return -1;
		}
		if (extra_seen & (1ULL << i))
			return twice(jr, key, where);
		extra_seen |= 1ULL << i;
		if (s->read_extra(rd, base, i, where))
			return -1;
	}
	if (more < 0) {
		jr_context(jr, said(where));
		return -1;
	}
	for (int k = 0; k < 2 && s->t[k]; k++)
		if (rs_check(jr, s->t[k], seen[k], said(where)))
			return -1;
	for (i = 0; i < s->nextra; i++)
		if (!(extra_seen & (1ULL << i)))
			return jr_fail(jr, "%s has no \"%s\" (a file of this schema always does)",
				       said(where), s->extra[i]);
	return 0;
}

static int read_object(struct reader *rd, void *base, const struct object_spec *s,
		       const char *where)
{
	if (jr_object_begin(rd->jr)) {
		jr_context(rd->jr, said(where));
		return -1;
	}
	return read_members(rd, base, s, where);
}

/* An array of at most cap elements, element i read by fn; *n gets how many.  0 or -1. */
typedef int (*element_fn)(struct reader *rd, void *base, int i, const char *where);

static int each_element(struct reader *rd, void *base, int cap, int *n, element_fn fn,
			const char *where)
{
	struct json_reader *jr = rd->jr;
	int more = jr_array_begin(jr) ? -1 : 1;

	for (*n = 0; more > 0 && (more = jr_array_next(jr)) > 0; (*n)++) {
		if (*n == cap)
			more = jr_fail(jr, "more than %d entries", cap);
		else if (fn(rd, base, *n, where))
			more = -1;
	}
	if (more < 0)
		jr_context(jr, where);
	return more;
}

/* Integers in [min, max], into v[]. */
struct ints {
	int *v;
	int64_t min, max;
};

static int int_element(struct reader *rd, void *base, int i, const char *where)
{
	struct ints *a = base;
	int64_t v;

	(void)where;
	if (jr_s64(rd->jr, a->min, a->max, &v))
		return -1;
	a->v[i] = (int)v;
	return 0;
}

/* A list of CPUs, or of group labels (by index into cpus): at most max_n of them. */
static int read_cpu_ints(struct reader *rd, int *v, int max_n, int *n, const char *where)
{
	struct ints a = { v, 0, MT_MAX_CPUS_USER - 1 };

	return each_element(rd, &a, max_n, n, int_element, where);
}

/* The cells, grown as they come: a file's cells may come before its cpus. */
struct cells_read {
	struct calibration *c;
	struct object_spec spec;
	int side, cap;
};

static int cell_element(struct reader *rd, void *base, int i, const char *where)
{
	struct cells_read *k = base;
	struct calibration *c = k->c;
	char at[160];

	if (i == k->side * k->side)
		return jr_fail(rd->jr, "more than %d cells (a %d x %d matrix)", i, k->side,
			       k->side);
	if (i == k->cap) {
		int cap = k->cap ? 2 * k->cap : 4;
		struct calib_cell *p = realloc(c->cells, (size_t)cap * sizeof(*p));

		if (!p) {
			rd->oom = true;
			return jr_fail(rd->jr, "out of memory for the cells");
		}
		c->cells = p;
		k->cap = cap;
	}
	memset(&c->cells[i], 0, sizeof(c->cells[i]));
	snprintf(at, sizeof(at), "%.150s[]", where);
	return read_object(rd, &c->cells[i], &k->spec, at);
}

static int read_cells(struct reader *rd, struct calibration *c, bool file, int side, int *n,
		      const char *where)
{
	struct cells_read k = { .c = c, .side = side };

	free(c->cells);
	c->cells = NULL;
	if (file && c->method == CALIB_2005) {
		k.spec.t[0] = &rs_calib_cell_2005;
	} else {
		k.spec.t[0] = &rs_calib_cell;
		k.spec.t[1] = file ? &rs_calib_cell_2004 : NULL;
	}
	k.spec.skip_unknown = !file;
	return each_element(rd, &k, INT_MAX, n, cell_element, where);
}

/* ---- the chase ---- */

/* n zeroed elements of size bytes; NULL, the error recorded, when there is no memory. */
static void *alloc_zeroed(struct reader *rd, size_t n, size_t size, const char *what)
{
	void *p = calloc(n, size);

	if (!p) {
		rd->oom = true;
		jr_fail(rd->jr, "out of memory for the %s", what);
	}
	return p;
}

/* Bounds of what a chase can hold: what calibrate can make, with room to spare. */
#define MAX_CURVES 256		/* 16 distances x CHASE_MAX_WS x CHASE_NCHAINS */

static const struct object_spec chase_point_spec = { .t = { &rs_calib_chase_point } };

static int chase_point_element(struct reader *rd, void *base, int i, const char *where)
{
	return read_object(rd, &((struct chase_curve *)base)->points[i], &chase_point_spec, where);
}

static const char *const points_extra[] = { "points" };

static int read_points(struct reader *rd, void *base, int which, const char *where)
{
	struct chase_curve *x = base;
	char at[160];

	(void)which;
	snprintf(at, sizeof(at), "%.140s.points[]", where);
	return each_element(rd, x, CHASE_MAX_POINTS, &x->npoints, chase_point_element, at);
}

static const struct object_spec chase_curve_spec = {
	.t = { &rs_calib_chase_curve }, .extra = points_extra, .nextra = 1,
	.read_extra = read_points,
};

static int chase_curve_element(struct reader *rd, void *base, int i, const char *where)
{
	return read_object(rd, &((struct calib_chase *)base)->curves[i], &chase_curve_spec, where);
}

static const char *const curves_extra[] = { "curves" };

static int read_curves(struct reader *rd, void *base, int which, const char *where)
{
	struct calib_chase *ch = base;
	char at[160];

	(void)which;
	ch->curves = alloc_zeroed(rd, MAX_CURVES, sizeof(*ch->curves), "chase's curves");
	if (!ch->curves)
		return -1;
	snprintf(at, sizeof(at), "%.140s.curves[]", where);
	return each_element(rd, ch, MAX_CURVES, &ch->ncurves, chase_curve_element, at);
}

static const struct object_spec chase_spec = {
	.t = { &rs_calib_chase }, .extra = curves_extra, .nextra = 1, .read_extra = read_curves,
};

/* "chase": null, or an object whose curves are checked once cpus is known. */
static int read_chase(struct reader *rd, struct calibration *c, const char *where)
{
	if (jr_null(rd->jr))
		return 0;
	if (calib_alloc_chase(c, 0)) {
		rd->oom = true;
		return jr_fail(rd->jr, "out of memory for the chase");
	}
	return read_object(rd, c->chase, &chase_spec, where);
}

/* What a chase read says of itself: its counts, its blocks of chain counts, its curves. */
static int check_chase(struct json_reader *jr, const struct calibration *c, const char *pre)
{
	struct calib_chase *ch = c->chase;

	if (ch->rounds < 1 || ch->tries < 1 || ch->switched > ch->trials)
		return jr_fail(jr, "%schase: rounds and tries 1 or more, switched at most trials",
			       pre);
	if (!(ch->cold_fraction > 0 && ch->cold_fraction < 1) || !(ch->residual_share <= 1) ||
	    !isfinite(ch->wall_s))
		return jr_fail(jr, "%schase: cold_fraction a ratio between 0 and 1, residual_share "
			       "at most 1, wall_s a duration", pre);
	if (ch->ncurves % CHASE_NCHAINS)
		return jr_fail(jr, "%schase.curves: %d curves, not %d per pair and working set",
			       pre, ch->ncurves, CHASE_NCHAINS);
	for (int i = 0; i < ch->ncurves; i++) {
		struct chase_curve *x = &ch->curves[i];
		const struct chase_curve *first = &ch->curves[i - i % CHASE_NCHAINS];
		bool cpus_ok = x->src_cpu != x->dst_cpu && cpu_list_has(&c->cpus, x->src_cpu) &&
			       cpu_list_has(&c->cpus, x->dst_cpu);

		if (x->chains != chase_chains[i % CHASE_NCHAINS] || !cpus_ok ||
		    x->src_cpu != first->src_cpu || x->dst_cpu != first->dst_cpu ||
		    x->distance != first->distance || x->ws_bytes != first->ws_bytes ||
		    x->npoints != first->npoints || x->npoints < 1 || x->ws_bytes < 64 ||
		    x->ws_bytes % 64)
			return jr_fail(jr, "%schase.curves[%d]: each pair of CPUs calibrated "
				       "and working set of whole lines has a curve of 1, 2, 4 and 8 "
				       "chains in this order, over the same displacements", pre, i);
		for (int p = 0; p < x->npoints; p++) {
			uint64_t d = x->points[p].displaced_bytes;

			if (d != first->points[p].displaced_bytes || !d ||
			    (p && d <= x->points[p - 1].displaced_bytes))
				return jr_fail(jr, "%schase.curves[%d].points[%d]: displaced_bytes "
					       "above 0 and rising, as in the curves beside it", pre, i,
					       p);
		}
		/* null stands for what has no finite value: none, or beyond the sweep (inside an
		 * interval with a finite bound; one wholly beyond prints as none) */
		x->has_residual = isfinite(x->residual_ns);
		x->has_interval = isfinite(x->dstar_lo_bytes) || isfinite(x->dstar_hi_bytes);
		if (x->has_interval && isnan(x->dstar_hi_bytes))
			x->dstar_hi_bytes = INFINITY;
		if (x->has_interval && isnan(x->dstar_lo_bytes))
			x->dstar_lo_bytes = INFINITY;
		if (!isfinite(x->dstar_bytes) || (x->has_interval &&
						  !(x->dstar_lo_bytes <= x->dstar_hi_bytes)))
			return jr_fail(jr, "%schase.curves[%d]: dstar_bytes a size, and "
				       "dstar_lo_bytes at most dstar_hi_bytes (null: beyond the sweep)",
				       pre, i);
	}
	return 0;
}

static int read_measured(struct reader *rd, struct calibration *c, const char *key,
			 struct calib_seen *seen, bool file, int max_side, const char *where)
{
	char at[160];
	int rc = table_member(rd->jr, c, &rs_calibration_measured, key, &seen->members, where);

	if (rc)
		return rc;
	member_path(at, sizeof(at), where, key);
	if (!strcmp(key, "cpus")) {
		if (seen->cpus)
			return twice(rd->jr, key, where);
		seen->cpus = true;
		return read_cpu_ints(rd, c->cpus.cpu, max_side, &c->cpus.n, at) ? -1 : 1;
	}
	if (!strcmp(key, "cells")) {
		if (seen->cells)
			return twice(rd->jr, key, where);
		seen->cells = true;
		return read_cells(rd, c, file, max_side, &seen->ncells, at) ? -1 : 1;
	}
	if (!strcmp(key, "chase") && rd->version >= 3) {
		if (seen->chase)
			return twice(rd->jr, key, where);
		seen->chase = true;
		return read_chase(rd, c, at) ? -1 : 1;
	}
	return 0;
}

int calib_read_measured(struct json_reader *jr, struct calibration *c, const char *key,
			struct calib_seen *seen, bool file, int max_side, const char *where)
{
	struct reader rd = { .jr = jr, .c = c, .version = 3 };

	return read_measured(&rd, c, key, seen, file, max_side, where);
}

static bool is_time(double ns)
{
	return isfinite(ns) && ns >= 0;
}

int calib_check_measured(struct json_reader *jr, const struct calibration *c,
			 const struct calib_seen *seen, const char *where)
{
	struct rs_table named = rs_calibration_measured;
	int n = c->cpus.n;
	char pre[96];

	named.object = where;
	snprintf(pre, sizeof(pre), "%s%s", where, *where ? "." : "");
	if (rs_check(jr, &named, seen->members, said(where)))
		return -1;
	if (!seen->cpus)
		return jr_fail(jr, "%s has no \"cpus\" (a file of this schema always does)",
			       said(where));
	if (c->chase && check_chase(jr, c, pre))
		return -1;
	if (!seen->cells)
		return 0;
	if (seen->ncells != n * n)
		return jr_fail(jr, "%scells: %d cells, not %d (a %d x %d matrix)", pre,
			       seen->ncells, n * n, n, n);
	for (int i = 0; i < n * n; i++) {
		const struct calib_cell *x = &c->cells[i];

		if (x->src_cpu != c->cpus.cpu[i / n] || x->dst_cpu != c->cpus.cpu[i % n])
			return jr_fail(jr, "%scells[%d]: CPUs %d -> %d, not %d -> %d (row by row "
				       "over %scpus)", pre, i, x->src_cpu, x->dst_cpu,
				       c->cpus.cpu[i / n], c->cpus.cpu[i % n], pre);
		if (!is_time(x->fill_median_ns) || !is_time(x->fill_mad_ns) ||
		    !is_time(x->fill_undisturbed_ns) || !is_time(x->fill_anchor_ns))
			return jr_fail(jr, "%scells[%d]: fill_median_ns, fill_mad_ns, "
				       "fill_undisturbed_median_ns and fill_anchor_ns must be "
				       "times of 0 ns or more", pre, i);
		if (x->fills_undisturbed < 0 || x->fills_undisturbed > c->reps)
			return jr_fail(jr, "%scells[%d]: fills_undisturbed %d is not a count of "
				       "the %d fills", pre, i, x->fills_undisturbed, c->reps);
		if (x->distance < 0 || x->distance >= MAX_DISTANCES)
			return jr_fail(jr, "%scells[%d]: distance %d is not a scheduler-domain "
				       "distance (0 to %d)", pre, i, x->distance,
				       MAX_DISTANCES - 1);
	}
	return 0;
}

/* ---- the calibration file's own members ---- */

static const char *const group_extra[] = { "group_of_cpu" };

static int read_group_of(struct reader *rd, void *base, int which, const char *where)
{
	bool llc = base == &rd->c->llc;
	int *n = llc ? &rd->llc_n : &rd->groups_n;
	char at[160];

	(void)which;
	*n = -1;
	if (llc && jr_null(rd->jr))
		return 0;
	return read_cpu_ints(rd, llc ? rd->c->llc.group_of : rd->c->groups.group_of,
			     MT_MAX_CPUS_USER, n, member_path(at, sizeof(at), where,
							      "group_of_cpu"));
}

static const struct object_spec tunable_spec = { .t = { &rs_tunable } };
static const struct object_spec llc_spec = {
	.t = { &rs_calib_llc }, .extra = group_extra, .nextra = 1, .read_extra = read_group_of,
};
static const struct object_spec fills_spec = { .t = { &rs_calib_fills } };
static const struct object_spec groups_spec = {
	.t = { &rs_calib_groups }, .extra = group_extra, .nextra = 1,
	.read_extra = read_group_of,
};
static const struct object_spec step_spec = { .t = { &rs_calib_step } };
static const struct object_spec size_spec = { .t = { &rs_calib_size } };

static int step_element(struct reader *rd, void *base, int i, const char *where)
{
	return read_object(rd, &((struct calib_distance *)base)->steps[i], &step_spec, where);
}

static const char *const steps_extra[] = { "steps" };

static int read_steps(struct reader *rd, void *base, int which, const char *where)
{
	struct calib_distance *d = base;
	char at[160];

	(void)which;
	d->steps = alloc_zeroed(rd, MAX_STEPS, sizeof(*d->steps), "steps");
	if (!d->steps)
		return -1;
	snprintf(at, sizeof(at), "%s.steps[]", where);
	return each_element(rd, d, MAX_STEPS, &d->nsteps, step_element, at);
}

static const struct object_spec distance_spec = {
	.t = { &rs_calib_distance }, .extra = steps_extra, .nextra = 1, .read_extra = read_steps,
};

static int distance_element(struct reader *rd, void *base, int i, const char *where)
{
	return read_object(rd, &((struct calibration *)base)->dist[i], &distance_spec, where);
}

static const char *const search_extra[] = { "distances" };

static int read_distances(struct reader *rd, void *base, int which, const char *where)
{
	struct calibration *c = base;
	char at[160];
	int n;

	(void)which;
	c->dist = alloc_zeroed(rd, MAX_DISTANCES, sizeof(*c->dist), "distances");
	if (!c->dist)
		return -1;
	/* all of them until the count is known, so that calib_free() frees any steps read */
	c->ndist = MAX_DISTANCES;
	snprintf(at, sizeof(at), "%s.distances[]", where);
	if (each_element(rd, c, MAX_DISTANCES, &n, distance_element, at))
		return -1;
	c->ndist = n;
	return 0;
}

static const struct object_spec search_spec = {
	.t = { &rs_calib_search }, .extra = search_extra, .nextra = 1,
	.read_extra = read_distances,
};

static int size_element(struct reader *rd, void *base, int i, const char *where)
{
	return read_object(rd, &((struct calibration *)base)->sizes[i], &size_spec, where);
}

static const char *const top_extra[] = {
	"tunable", "llc", "fill_statistics", "groups", "size_search", "size_sweep",
};

/* A member that may be null: false when it was (consumed). */
static bool there(struct reader *rd)
{
	return !jr_null(rd->jr);
}

static int read_top(struct reader *rd, void *base, int which, const char *where)
{
	struct calibration *c = base;

	(void)where;
	switch (which) {
	case 0:
		return read_object(rd, &c->tunable, &tunable_spec, "tunable");
	case 1:
		return read_object(rd, &c->llc, &llc_spec, "llc");
	case 2:
		rd->fills = there(rd);
		return rd->fills ? read_object(rd, c, &fills_spec, "fill_statistics") : 0;
	case 3:
		c->groups.valid = there(rd);
		return c->groups.valid ? read_object(rd, &c->groups, &groups_spec, "groups") : 0;
	case 4:
		rd->search = there(rd);
		return rd->search ? read_object(rd, c, &search_spec, "size_search") : 0;
	default:
		if (!there(rd))
			return 0;
		c->sizes = alloc_zeroed(rd, MAX_SIZES, sizeof(*c->sizes), "size sweep");
		return !c->sizes ? -1 : each_element(rd, c, MAX_SIZES, &c->nsizes, size_element, "size_sweep[]");
	}
}

static int top_hook(struct reader *rd, void *base, const char *key)
{
	return read_measured(rd, base, key, &rd->seen, true, MT_MAX_CPUS_USER, "");
}

static const struct object_spec top_spec = {
	.t = { &rs_calib_file }, .extra = top_extra, .nextra = 6, .read_extra = read_top,
	.hook = top_hook,
};

/* A grouping: n labels numbered by first appearance; *k gets how many groups. */
static int check_labels(struct json_reader *jr, const int *label, int got, int n, int *k,
			const char *where)
{
	if (got != n)
		return jr_fail(jr, "%s: %d entries, not one per CPU (%d)", where, got, n);
	*k = 0;
	for (int i = 0; i < n; i++) {
		if (label[i] > *k)
			return jr_fail(jr, "%s[%d]: group %d before group %d (groups are numbered "
				       "by first appearance)", where, i, label[i], *k);
		*k += label[i] == *k;
	}
	return 0;
}

/* What the members say about each other. */
static int check_whole(struct reader *rd)
{
	struct json_reader *jr = rd->jr;
	struct calibration *c = rd->c;
	bool m2004 = c->method == CALIB_2004;
	int n = c->cpus.n;

	if (c->reps < 1)
		return jr_fail(jr, "reps: %d is not a number of repetitions (1 or more)", c->reps);
	if (rd->version >= 3 && !rd->seen.chase)
		return jr_fail(jr, "the calibration has no \"chase\" (a %s file always does)",
			       CALIB_SCHEMA);
	if (!is_time(c->wall_s) || c->wall_s > MAX_WALL_S)
		return jr_fail(jr, "wall_s: not a duration of 0 to %.0f s", MAX_WALL_S);
	if (c->cache_bytes > MAX_CACHE_BYTES)
		return jr_fail(jr, "cache_bytes: %llu is larger than any cache (%llu bytes)",
			       (unsigned long long)c->cache_bytes, MAX_CACHE_BYTES);
	for (int i = 0; i < c->nsizes; i++)
		if (!(c->sizes[i].factor > 0 && c->sizes[i].factor <= MAX_SIZE_FACTOR))
			return jr_fail(jr, "size_sweep[%d].factor: not a ratio above 0 and up "
				       "to %d", i, MAX_SIZE_FACTOR);
	if (calib_check_measured(jr, c, &rd->seen, ""))
		return -1;
	if (n < 1 || !rd->seen.cells)
		return jr_fail(jr, "%s: a calibration of no CPU", n < 1 ? "cpus" : "cells");
	/* the 2005 method's one figure per pair is its cost (calib.h) */
	for (int i = 0; !m2004 && i < n * n; i++)
		c->cells[i].robust_ns = c->cells[i].cost_ns;
	if (c->has_hot != is_time(c->hot_seed_ns) || c->has_hot != is_time(c->hot_robust_ns))
		return jr_fail(jr, "hot_seed_ns and hot_robust_ns: both times of 0 ns or more, "
			       "or both null");
	if (rd->fills != m2004 || rd->search == m2004)
		return jr_fail(jr, "method %d: fill_statistics is an object with method 2004 and "
			       "null with 2005, size_search the other way round", c->method);
	if (m2004 && (c->has_interval != is_time(c->hot_robust_lo_ns) ||
		      c->has_interval != is_time(c->hot_robust_hi_ns) ||
		      c->hot_robust_lo_ns > c->hot_robust_hi_ns))
		return jr_fail(jr, "fill_statistics: hot_robust_lo_ns and hot_robust_hi_ns are "
			       "both null or an interval of times, lo <= hi");
	if (!m2004 && c->factor < 1)
		return jr_fail(jr, "size_search.factor: %d is not a factor (1 or more, in 1/128)",
			       c->factor);
	for (int d = 0; d < c->ndist; d++)
		if ((c->dist[d].cpu1 < 0) != (c->dist[d].cpu2 < 0))
			return jr_fail(jr, "size_search.distances[%d]: cpu1 and cpu2 are both null "
				       "or both CPUs", d);
	c->llc.known = c->llc.source[0];
	if (c->llc.known != (rd->llc_n >= 0))
		return jr_fail(jr, "llc: source and group_of_cpu are both null or both given");
	if (c->llc.known && check_labels(jr, c->llc.group_of, rd->llc_n, n, &c->llc.ngroups,
					 "llc.group_of_cpu"))
		return -1;
	if (c->groups.valid != (m2004 && n > 1))
		return jr_fail(jr, "groups: an object with method 2004 on two CPUs or more, else "
			       "null");
	if (c->groups.valid && check_labels(jr, c->groups.group_of, rd->groups_n, n,
					    &c->groups.ngroups, "groups.group_of_cpu"))
		return -1;
	if (c->groups.valid && c->groups.compared != c->llc.known)
		return jr_fail(jr, "groups.agree: null exactly when the LLC grouping is unknown");
	return 0;
}

/* Versions 3 and 2, read whole and strictly; 2 has no chase. */
static int read_strict(struct reader *rd)
{
	struct json_reader *jr = rd->jr;
	char key[64];
	int rc = jr_object_next(jr, key, sizeof(key));

	/* the method first: which members a cell has depends on it */
	if (rc < 0)
		return -1;
	if (!rc || strcmp(key, "method"))
		return jr_fail(jr, "its second member is not \"method\" "
			       "(docs/calibration-file.md)");
	if (top_hook(rd, rd->c, key) < 0)
		return -1;
	if (rd->c->method != CALIB_2004 && rd->c->method != CALIB_2005)
		return jr_fail(jr, "method: %d is neither 2004 nor 2005", rd->c->method);
	if (read_members(rd, rd->c, &top_spec, "") || jr_end(jr))
		return -1;
	return check_whole(rd);
}

/*
 * Version 1's members (user/cli/calib_report.c of earlier builds).  The first three are
 * read; the others are known, checked for their syntax and left.
 */
static const char *const v1_names[] = {
	"method", "hot_time_ns", "hot_time_robust_ns", "cpus", "cache_size_bytes",
	"buffer_size_bytes", "reps", "cpu_mhz", "cells", "distances", "factor",
	"hot_time_robust_lo_ns", "hot_time_robust_hi_ns", "anchor_blocks", "anchor_quantile",
	"anchor_block_quantile", "disturbed_above_anchor_pct", "disturbed_pct", "noise_mad_pct",
	"max_over_median", "wall_s", "kernel_migration_cost", "group_of_cpu",
	"llc_groups_source", "llc_groups_unknown_why", "llc_group_of_cpu",
	"sysfs_llc_group_of_cpu", "groups_agree", "cache", "size_sweep",
};
#define V1_NAMES ((int)(sizeof(v1_names) / sizeof(v1_names[0])))

/* A version 1 hot time: an integer in ns, or null; false when null. */
static int v1_hot(struct json_reader *jr, double *ns, bool *there_ns)
{
	uint64_t v;

	*there_ns = !jr_null(jr);
	if (!*there_ns)
		return 0;
	if (jr_u64(jr, &v))
		return -1;
	*ns = (double)v;
	return 0;
}

static int read_v1(struct reader *rd)
{
	struct json_reader *jr = rd->jr;
	struct calibration *c = rd->c;
	bool robust = false;
	uint64_t seen = 0;
	char key[64];
	int64_t v;
	int more, i, rc;

	while ((more = jr_object_next(jr, key, sizeof(key))) > 0) {
		for (i = 0; i < V1_NAMES && strcmp(key, v1_names[i]); i++)
			;
		if (i == V1_NAMES)
			return jr_fail(jr, "\"%s\" is not a member of %s", key, CALIB_SCHEMA_V1);
		if (seen & (1ULL << i))
			return twice(jr, key, "");
		seen |= 1ULL << i;
		if (i == 0)
			rc = jr_s64(jr, CALIB_2004, CALIB_2005, &v);
		else if (i == 1)
			rc = v1_hot(jr, &c->hot_seed_ns, &c->has_hot);
		else if (i == 2)
			rc = v1_hot(jr, &c->hot_robust_ns, &robust);
		else
			rc = jr_skip(jr);
		if (rc) {
			jr_context(jr, key);
			return -1;
		}
		if (i == 0)
			c->method = (enum calib_method)v;
	}
	if (more < 0 || jr_end(jr))
		return -1;
	for (i = 0; i < 2; i++)
		if (!(seen & (1ULL << i)))
			return jr_fail(jr, "the calibration has no \"%s\" (a %s file always does)",
				       v1_names[i], CALIB_SCHEMA_V1);
	if (robust && !c->has_hot)
		return jr_fail(jr, "hot_time_robust_ns without hot_time_ns");
	if (!robust)
		c->hot_robust_ns = NAN;
	return 0;
}

static int read_document(struct reader *rd, int *version)
{
	struct json_reader *jr = rd->jr;
	char schema[64], key[16];
	int rc = jr_object_begin(jr) ? -1 : jr_object_next(jr, key, sizeof(key));

	if (rc < 0) {
		jr_context(jr, "not a migtrace calibration file");
		return -1;
	}
	if (!rc || strcmp(key, "schema"))
		return jr_fail(jr, "not a migtrace calibration file: its first member is not "
			       "\"schema\"");
	if (jr_string(jr, schema, sizeof(schema), NULL)) {
		jr_context(jr, "schema");
		return -1;
	}
	*version = !strcmp(schema, CALIB_SCHEMA) ? 3 : !strcmp(schema, CALIB_SCHEMA_V2) ? 2 :
		   !strcmp(schema, CALIB_SCHEMA_V1) ? 1 : 0;
	rd->version = *version;
	if (*version >= 2)
		return read_strict(rd);
	if (*version == 1)
		return read_v1(rd);
	return jr_fail(jr, "schema %s: not a calibration file (`migtrace calibrate -o` "
		       "writes %s)", schema, CALIB_SCHEMA);
}

int calib_file_parse(const char *buf, size_t len, struct calibration *c, int *version,
		     char *err, size_t errlen)
{
	struct json_reader jr;
	struct reader rd = { .jr = &jr, .c = c, .llc_n = -1, .groups_n = -1 };

	memset(c, 0, sizeof(*c));
	jr_init(&jr, buf, len);
	if (!read_document(&rd, version))
		return 0;
	jr_error(&jr, err, errlen);
	calib_free(c);
	return rd.oom ? -ENOMEM : -EINVAL;
}

int calib_file_read(const char *path, struct calibration *c, int *version, char *err,
		    size_t errlen)
{
	FILE *f = fopen(path, "re");
	size_t len = 0, cap = 0, got;
	char *buf = NULL, *p;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot open it: %s", strerror(-rc));
		return rc;
	}
	errno = 0;
	do {
		if (len == cap && cap >= CALIB_FILE_MAX_BYTES) {
			rc = -EFBIG;
			snprintf(err, errlen, "larger than %llu MiB: not a calibration file "
				 "migtrace wrote", CALIB_FILE_MAX_BYTES >> 20);
			goto out;
		}
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			if (!(p = realloc(buf, cap))) {
				rc = -ENOMEM;
				snprintf(err, errlen, "out of memory reading it");
				goto out;
			}
			buf = p;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got);
	if (ferror(f)) {
		rc = errno ? -errno : -EIO;
		snprintf(err, errlen, "reading it failed: %s", strerror(-rc));
	} else if (!len) {
		rc = -EINVAL;
		snprintf(err, errlen, "empty: not a calibration file");
	} else {
		rc = calib_file_parse(buf, len, c, version, err, errlen);
	}
out:
	fclose(f);
	free(buf);
	return rc;
}
