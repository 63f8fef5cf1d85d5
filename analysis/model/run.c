// SPDX-License-Identifier: GPL-2.0
/* The run model's life: made empty, filled record by record (or counted), freed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "run.h"

const char *const mt_cause_names[MT_NR_CAUSES] = {
	"wakeup", "lb_pull", "active_balance", "affinity", "fork", "exec", "unknown", "unseen",
};

const char *const mt_cause_titles[MT_NR_CAUSES] = {
	"wakeup placement", "load-balance pull", "active balance", "affinity change",
	"fork placement", "exec balance", "unknown", "unseen (no event)",
};

const char *const mt_state_names[4] = { "running", "queued", "waking", "new" };
const char *const probe_kind_names[3] = { "", "sham", "move" };
const char *const probe_outcome_names[PROBE_NR_OUTCOMES] = { "done", "not_run", "gone" };
const char *const mt_level_names[MT_NR_LEVELS] = {
	"unknown", "smt", "llc", "cross_llc", "cross_node",
};
const char *const mt_level_titles[MT_NR_LEVELS] = {
	"LLC unknown", "SMT sibling", "same LLC", "cross LLC", "cross node",
};
const char *const mt_rule_names[MT_NR_RULES] = {
	"age", "numa_to_preferred", "numa_from_preferred", "not_fair", "idle_policy", "smt",
	"core_cookie",
};
const char *const corr_hot_state_names[4] = { "found", "above range", "no cost", "no data" };
const char *const verdict_names[VERDICT_NR_KINDS] = {
	"undetermined", "too low", "about right", "too high", "none", "by rate", "not applicable",
};
const char *const model_regime_names[MODEL_NR] = {
	"not tested", "too few rates", "bytes-driven", "time-driven", "both", "mixed",
};
const char *const run_core_sched_names[4] = { "not checked", "not built", "no SMT", "available" };
const char *const run_btf_member_names[3] = { "not checked", "absent", "present" };

bool run_rules_scx(const struct run_sched_rules *s)
{
	/* partial mode (switch_all 0) leaves the fair class every task not of policy SCHED_EXT;
	 * an unknown mode is taken as all, so that no verdict claims a rule it cannot know
	 * was consulted */
	return s->checked && (!strcmp(s->scx_state, "enabled") ||
			      !strcmp(s->scx_state, "enabling")) &&
	       (s->scx_switch_all != 0 || s->traced_ext_tasks > 0);
}

bool run_rules_numa(const struct run_sched_rules *s)
{
	/* migrate_degrades_locality() judges SD_NUMA domains only: one node has none */
	return s->checked && s->numa_balancing > 0 && s->numa_nodes > 1;
}

bool run_rules_core(const struct run_sched_rules *s)
{
	/* one cookie anywhere turns core scheduling on for every core: a task without one
	 * mismatches a core running a task with one */
	return s->checked && s->core_cookie_tasks > 0;
}

bool run_rules_llc(const struct run_sched_rules *s)
{
	return s->checked && s->preferred_llc == RUN_BTF_PRESENT;
}

int run_llc_cpus(const struct run_sched_rules *s, int id, struct cpu_set_list *out)
{
	const char *p = s->llc_ids;

	/* "ID:CPULIST;ID:CPULIST": the CPU lists hold no ';' */
	while (*p) {
		char list[256];
		size_t n = strcspn(p, ";");
		char *end;
		long got = strtol(p, &end, 10);

		if (end != p && *end == ':' && got == id && n > (size_t)(end + 1 - p) &&
		    n - (size_t)(end + 1 - p) < sizeof(list)) {
			memcpy(list, end + 1, n - (size_t)(end + 1 - p));
			list[n - (size_t)(end + 1 - p)] = 0;
			return parse_cpu_list(list, out, NULL, 0) ? -ENOENT : 0;
		}
		p += n;
		p += *p == ';';
	}
	return -ENOENT;
}

int run_llc_of_cpu(const struct run_sched_rules *s, int cpu)
{
	const char *p = s->llc_ids;

	while (*p) {
		struct cpu_set_list l;
		char *end;
		long id = strtol(p, &end, 10);

		if (end != p && *end == ':' && !run_llc_cpus(s, (int)id, &l) &&
		    cpu_list_has(&l, cpu))
			return (int)id;
		p += strcspn(p, ";");
		p += *p == ';';
	}
	return -1;
}

void verdict_not_applicable(struct verdict *v)
{
	v->kind = VERDICT_NOT_APPLICABLE;
	v->decay_kind = VERDICT_NOT_APPLICABLE;
	for (int k = 0; k < v->nrates; k++)
		v->rates[k].kind = VERDICT_NOT_APPLICABLE;
}

struct run *run_new(void)
{
	struct run *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->setup.hot_ns_arg = RUN_NO_HOT_ARG;
	r->setup.cold_fraction = CORR_COLD_FRACTION;
	r->setup.level = CORR_LEVEL;
	r->env.cpu_mhz = -1;
	r->calib.cal.cpu_mhz = -1;
	r->meta.exit_status = -1;
	r->meta.unit_probe_ns = -1;
	r->meta.traced_from_ns = -1;
	r->meta.traced_until_ns = -1;
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
	free(r->switches);
	free(r->moments);
	free(r->probe_units);
	free(r->wakings);
	free(r->pairs);
	calib_free(&r->calib.cal);
	free(r);
}

/* Appends one record of size bytes, or past max_kept (0: no limit) only counts it. */
static int keep(void **buf, size_t *cap, size_t *n, uint64_t *not_kept, size_t max_kept,
		const void *rec, size_t size, size_t first)
{
	if (max_kept && *n >= max_kept) {
		(*not_kept)++;
		return 0;
	}
	if (array_grow(buf, cap, *n, size, first))
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

int run_record_add_switch(struct run *r, const struct mt_switch *s)
{
	return keep((void **)&r->switches, &r->swcap, &r->nswitches, &r->switches_not_kept,
		    r->max_kept, s, sizeof(*s), 4096);
}

int run_record_add_waking(struct run *r, const struct mt_waking *w)
{
	return keep((void **)&r->wakings, &r->wkcap, &r->nwakings, &r->wakings_not_kept,
		    r->max_kept, w, sizeof(*w), 4096);
}

/* The intervention's records are few (a moment every 50 ms by default): all are kept. */
int run_record_add_moment(struct run *r, const struct probe_moment *m)
{
	return keep((void **)&r->moments, &r->mcap, &r->nmoments, NULL, 0, m, sizeof(*m), 1024);
}

int run_record_add_probe_unit(struct run *r, const struct mt_unit *u)
{
	return keep((void **)&r->probe_units, &r->pucap, &r->nprobe_units, NULL, 0, u,
		    sizeof(*u), 1024);
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

void run_tally_init(struct run_tally *t, const int64_t *t_ns, int n)
{
	memset(t, 0, sizeof(*t));
	t->nthresholds = n < RUN_MAX_THRESHOLDS ? n : RUN_MAX_THRESHOLDS;
	for (int i = 0; i < t->nthresholds; i++)
		t->threshold_ns[i] = t_ns[i];
}

void run_tally_migration(struct run_tally *t, const struct mt_migrate *m, int64_t hot_ns)
{
	t->migrations++;
	if (m->cause >= MT_NR_CAUSES)
		return;
	t->by_cause[m->cause]++;
	t->age_ns[m->cause] += m->age_ns;
	/* the kernel's rule (MT_RULE_HOT): a pull on the kernel's own age when it has one,
	 * after what decides before the age; a wakeup placement on ours (the wakeup path
	 * never asks: these are the moves T is about) */
	if (m->cause == MT_CAUSE_LB_PULL && (m->flags & MT_RF_KAGE_VALID)) {
		unsigned rule = MT_RULE_OF(m->flags, m->level);

		t->lb_judged++;
		t->lb_rule[rule]++;
		t->lb_hot_meta += MT_RULE_HOT(rule, m->kernel_age_ns, hot_ns);
		for (int i = 0; i < t->nthresholds; i++)
			t->lb_hot[i] += MT_RULE_HOT(rule, m->kernel_age_ns, t->threshold_ns[i]);
	} else if (m->cause == MT_CAUSE_WAKEUP) {
		t->wakeup_hot += MT_TASK_HOT((int64_t)m->age_ns, hot_ns);
		for (int i = 0; i < t->nthresholds; i++)
			t->wakeup_hot_at[i] += MT_TASK_HOT((int64_t)m->age_ns, t->threshold_ns[i]);
	}
}

bool run_replayed(const struct run *r)
{
	return r->meta.backend.replayed;
}

unsigned run_topo_level(const struct run_topo *t, int src, int dst)
{
	if (src < 0 || dst < 0 || src >= t->ncpus || dst >= t->ncpus)
		return MT_LEVEL_UNKNOWN;
	return MT_LEVEL_OF(t->core[src], t->core[dst], t->llc[src], t->llc[dst], t->node[src],
			   t->node[dst]);
}

void run_record_ages(const struct run *r, uint64_t nrec[MT_NR_CAUSES],
		     uint64_t age_ns[MT_NR_CAUSES])
{
	if (r->tally.records_dropped) {
		memcpy(nrec, r->tally.by_cause, sizeof(r->tally.by_cause));
		memcpy(age_ns, r->tally.age_ns, sizeof(r->tally.age_ns));
		return;
	}
	memset(nrec, 0, MT_NR_CAUSES * sizeof(*nrec));
	memset(age_ns, 0, MT_NR_CAUSES * sizeof(*age_ns));
	for (size_t i = 0; i < r->nrecs; i++) {
		if (r->recs[i].cause >= MT_NR_CAUSES)
			continue;
		nrec[r->recs[i].cause]++;
		age_ns[r->recs[i].cause] += r->recs[i].age_ns;
	}
}
