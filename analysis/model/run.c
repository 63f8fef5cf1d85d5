// SPDX-License-Identifier: GPL-2.0
/* The run model's life: made empty, filled record by record, freed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

const char *const mt_cause_names[MT_NR_CAUSES] = {
	"wakeup", "lb_pull", "active_balance", "affinity", "fork", "exec", "unknown", "unseen",
};

const char *const mt_cause_titles[MT_NR_CAUSES] = {
	"wakeup placement", "load-balance pull", "active balance", "affinity change",
	"fork placement", "exec balance", "unknown", "unseen (no event)",
};

const char *const mt_state_names[4] = { "running", "queued", "waking", "new" };
const char *const corr_hot_state_names[4] = { "found", "above range", "no cost", "no data" };
const char *const verdict_names[VERDICT_NR_KINDS] = {
	"undetermined", "too low", "about right", "too high", "none",
};

struct run *run_new(void)
{
	struct run *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->setup.hot_ns_arg = RUN_NO_HOT_ARG;
	r->setup.cold_fraction = CORR_COLD_FRACTION;
	r->env.cpu_mhz = -1;
	r->calib.cal.cpu_mhz = -1;
	r->meta.exit_status = -1;
	r->meta.unit_probe_ns = -1;
	r->cost.workload_cpu_s = -1;
	cachewalk_config_default(&r->setup.cw);
	return r;
}

void run_free(struct run *r)
{
	if (!r)
		return;
	free(r->recs);
	free(r->units);
	free(r->pairs);
	calib_free(&r->calib.cal);
	free(r);
}

/* Makes room for one more element of size elem in *buf (capacity *cap, n in use). */
static int grow(void **buf, size_t *cap, size_t n, size_t elem, size_t first)
{
	if (n == *cap) {
		size_t c = *cap ? *cap * 2 : first;
		void *p = realloc(*buf, c * elem);

		if (!p)
			return -ENOMEM;
		*buf = p;
		*cap = c;
	}
	return 0;
}

/* Appends one record of size bytes, or past max_kept (0: no limit) only counts it. */
static int keep(void **buf, size_t *cap, size_t *n, uint64_t *not_kept, size_t max_kept,
		const void *rec, size_t size, size_t first)
{
	if (max_kept && *n >= max_kept) {
		(*not_kept)++;
		return 0;
	}
	if (grow(buf, cap, *n, size, first))
		return -ENOMEM;
	memcpy((char *)*buf + *n * size, rec, size);
	(*n)++;
	return 0;
}

int run_record_add(struct run *r, const struct mt_migrate *m)
{
	return keep((void **)&r->recs, &r->cap, &r->nrecs, &r->recs_not_kept, r->max_kept, m,
		    sizeof(*m), 1024);
}

int run_record_add_unit(struct run *r, const struct mt_unit *u)
{
	return keep((void **)&r->units, &r->ucap, &r->nunits, &r->units_not_kept, r->max_kept,
		    u, sizeof(*u), 4096);
}

int run_alloc_pairs(struct run *r, int nr_cpus)
{
	if (nr_cpus <= 0 || nr_cpus > RUN_MAX_NR_CPUS)
		return -EINVAL;
	free(r->pairs);
	r->pairs = calloc((size_t)nr_cpus * (size_t)nr_cpus, sizeof(uint64_t));
	if (!r->pairs)
		return -ENOMEM;
	r->meta.nr_cpus = nr_cpus;
	return 0;
}

uint64_t run_total_migrations(const struct run *r)
{
	uint64_t t = 0;

	for (int c = 0; c < MT_NR_CAUSES; c++)
		t += r->stats.migrations[c];
	return t;
}
