// SPDX-License-Identifier: GPL-2.0
/* Cache-aware scheduling through the moves (llc_pref.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "llc_pref.h"

const char *const llc_move_names[LLC_NR_MOVES] = {
	"no_preference", "within", "enters", "leaves", "outside", "unmapped",
};

/* A move's class, with llc_of[cpu] the kernel's LLC id of each CPU (-1 not known). */
static enum llc_move classify(const struct mt_migrate *m, const int *llc_of, int ncpus)
{
	int src, dst;

	if (m->pref_llc < 0)
		return LLC_MOVE_NO_PREF;
	src = m->src_cpu < ncpus ? llc_of[m->src_cpu] : -1;
	dst = m->dst_cpu < ncpus ? llc_of[m->dst_cpu] : -1;
	if (src < 0 || dst < 0)
		return LLC_MOVE_UNMAPPED;
	if (src == m->pref_llc)
		return dst == m->pref_llc ? LLC_MOVE_WITHIN : LLC_MOVE_LEAVES;
	return dst == m->pref_llc ? LLC_MOVE_ENTERS : LLC_MOVE_OUTSIDE;
}

/* The entry of LLC id in p, added when new (the last one takes the overflow). */
static struct llc_pref_llc *llc_entry(struct llc_pref *p, const struct run_sched_rules *s,
				      int id)
{
	struct cpu_set_list *cpus;
	struct llc_pref_llc *e;

	for (int i = 0; i < p->nllcs; i++)
		if (p->llc[i].id == id)
			return &p->llc[i];
	if (p->nllcs == LLC_PREF_MAX_LLCS)
		return &p->llc[LLC_PREF_MAX_LLCS - 1];
	e = &p->llc[p->nllcs++];
	e->id = id;
	cpus = malloc(sizeof(*cpus));
	if (cpus && !run_llc_cpus(s, id, cpus))
		format_cpu_list(cpus, e->cpus, sizeof(e->cpus));
	free(cpus);
	return e;
}

struct task_move {
	uint32_t pid;
	uint32_t rec;		/* index of the record */
	uint8_t move;
};

static int by_pid(const void *a, const void *b)
{
	const struct task_move *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->rec < y->rec ? -1 : x->rec > y->rec;
}

/* Keeps the LLC_PREF_MAX_TASKS tasks with the most moves, most first. */
static void keep_task(struct llc_pref *p, const struct llc_pref_task *t)
{
	int at = p->nshown;

	if (at == LLC_PREF_MAX_TASKS) {
		if (t->total <= p->task[at - 1].total)
			return;
		at--;
	} else {
		p->nshown++;
	}
	while (at > 0 && p->task[at - 1].total < t->total) {
		p->task[at] = p->task[at - 1];
		at--;
	}
	p->task[at] = *t;
}

int llc_pref_compute(const struct run *r, struct llc_pref *p)
{
	const struct run_sched_rules *s = &r->env.rules;
	struct task_move *tm = NULL;
	int *llc_of = NULL, ncpus = r->meta.nr_cpus > 0 ? r->meta.nr_cpus : 1;
	size_t n = 0;
	int err = 0;

	memset(p, 0, sizeof(*p));
	p->mapped = s->llc_ids[0] != 0;
	llc_of = malloc(sizeof(*llc_of) * (size_t)ncpus);
	tm = malloc(sizeof(*tm) * (r->nrecs ? r->nrecs : 1));
	if (!llc_of || !tm) {
		err = -ENOMEM;
		goto out;
	}
	for (int cpu = 0; cpu < ncpus; cpu++)
		llc_of[cpu] = p->mapped ? run_llc_of_cpu(s, cpu) : -1;
	for (size_t i = 0; i < r->nrecs; i++) {
		const struct mt_migrate *m = &r->recs[i];
		enum llc_move mv;

		p->records++;
		if (!(m->flags & MT_RF_PREF_LLC))
			continue;
		p->read = true;
		p->read_records++;
		mv = classify(m, llc_of, ncpus);
		p->moves[mv]++;
		p->by_cause[m->cause < MT_NR_CAUSES ? m->cause : MT_CAUSE_UNKNOWN][mv]++;
		if (m->pref_llc >= 0)
			llc_entry(p, s, m->pref_llc)->moves[mv]++;
		tm[n++] = (struct task_move){ .pid = m->pid, .rec = (uint32_t)i, .move = mv };
	}
	/* per task: its records in order, its last preference */
	qsort(tm, n, sizeof(*tm), by_pid);
	for (size_t i = 0; i < n;) {
		struct llc_pref_task t = { .pid = tm[i].pid };
		const struct mt_migrate *last = NULL;

		for (; i < n && tm[i].pid == t.pid; i++) {
			t.moves[tm[i].move]++;
			t.total++;
			last = &r->recs[tm[i].rec];
		}
		memcpy(t.comm, last->comm, sizeof(t.comm));
		t.comm[sizeof(t.comm) - 1] = 0;
		t.pref_llc = last->pref_llc;
		p->ntasks++;
		if (t.pref_llc >= 0)
			llc_entry(p, s, t.pref_llc)->tasks++;
		keep_task(p, &t);
	}
out:
	free(llc_of);
	free(tm);
	return err;
}

double llc_pref_held(const uint64_t moves[LLC_NR_MOVES])
{
	uint64_t in = moves[LLC_MOVE_WITHIN] + moves[LLC_MOVE_ENTERS];
	uint64_t all = in + moves[LLC_MOVE_LEAVES] + moves[LLC_MOVE_OUTSIDE];

	return all ? (double)in / (double)all : NAN;
}
