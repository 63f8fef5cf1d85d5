// SPDX-License-Identifier: GPL-2.0
/*
 * Cache-aware scheduling through the moves (analysis/judge/llc_pref.c): the kernel's LLC ids
 * as the environment keeps them, each move's class against its preferred LLC, by cause, per
 * LLC and per task; the text that says so, and why none when no task had a preference; and
 * the run file's round trip of the preference (null when not read).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "llc_pref.h"
#include "render_text.h"
#include "run_file.h"

static void llc_ids(void **state)
{
	struct run_sched_rules s = { 0 };
	struct cpu_set_list l;

	(void)state;
	snprintf(s.llc_ids, sizeof(s.llc_ids), "0:0-1;7:2-3,8");
	assert_int_equal(run_llc_of_cpu(&s, 0), 0);
	assert_int_equal(run_llc_of_cpu(&s, 1), 0);
	assert_int_equal(run_llc_of_cpu(&s, 3), 7);
	assert_int_equal(run_llc_of_cpu(&s, 8), 7);
	assert_int_equal(run_llc_of_cpu(&s, 4), -1);
	assert_int_equal(run_llc_cpus(&s, 7, &l), 0);
	assert_int_equal(l.n, 3);
	assert_int_equal(run_llc_cpus(&s, 1, &l), -ENOENT);
	s.llc_ids[0] = 0;
	assert_int_equal(run_llc_of_cpu(&s, 0), -1);
}

/* A move of pid from src to dst by cause, its preference pref (read when >= -1). */
static void add(struct run *r, uint32_t pid, int src, int dst, int cause, int pref)
{
	struct mt_migrate m = { .kind = MT_REC_MIGRATE, .pid = pid, .tgid = 100,
				.src_cpu = (__u16)src, .dst_cpu = (__u16)dst, .cause = (__u8)cause,
				.pref_llc = pref < -1 ? -1 : pref,
				.flags = pref < -1 ? 0 : MT_RF_PREF_LLC };

	snprintf(m.comm, sizeof(m.comm), "w%u", pid);
	assert_int_equal(run_record_add(r, &m), 0);
}

static struct run *two_llc_run(void)
{
	struct run *r = run_new();

	assert_non_null(r);
	r->meta.nr_cpus = 4;
	r->env.rules.checked = true;
	r->env.rules.preferred_llc = RUN_BTF_PRESENT;
	r->env.rules.llc = (struct run_llc_knobs){ 1, 1, 20, 50, 2, 5 };
	snprintf(r->env.rules.llc_ids, sizeof(r->env.rules.llc_ids), "0:0-1;1:2-3");
	return r;
}

static void classes(void **state)
{
	struct run *r = two_llc_run();
	struct llc_pref *p = calloc(1, sizeof(*p));

	(void)state;
	assert_non_null(p);
	add(r, 1, 2, 3, MT_CAUSE_WAKEUP, 1);	/* within LLC 1 */
	add(r, 1, 3, 2, MT_CAUSE_WAKEUP, 1);	/* within */
	add(r, 1, 0, 2, MT_CAUSE_LB_PULL, 1);	/* into it: a cache-aware pull */
	add(r, 2, 2, 0, MT_CAUSE_LB_PULL, 1);	/* out of it */
	add(r, 2, 0, 1, MT_CAUSE_WAKEUP, 1);	/* elsewhere */
	add(r, 3, 0, 1, MT_CAUSE_WAKEUP, -1);	/* no preference */
	add(r, 4, 0, 1, MT_CAUSE_WAKEUP, -2);	/* not read (ftrace) */
	assert_int_equal(llc_pref_compute(r, p), 0);
	assert_true(p->read && p->mapped);
	assert_int_equal(p->records, 7);
	assert_int_equal(p->read_records, 6);
	assert_int_equal(p->moves[LLC_MOVE_WITHIN], 2);
	assert_int_equal(p->moves[LLC_MOVE_ENTERS], 1);
	assert_int_equal(p->moves[LLC_MOVE_LEAVES], 1);
	assert_int_equal(p->moves[LLC_MOVE_OUTSIDE], 1);
	assert_int_equal(p->moves[LLC_MOVE_NO_PREF], 1);
	assert_int_equal(p->by_cause[MT_CAUSE_LB_PULL][LLC_MOVE_ENTERS], 1);
	assert_int_equal(p->by_cause[MT_CAUSE_LB_PULL][LLC_MOVE_LEAVES], 1);
	assert_int_equal(p->nllcs, 1);
	assert_int_equal(p->llc[0].id, 1);
	assert_string_equal(p->llc[0].cpus, "2-3");
	assert_int_equal(p->llc[0].tasks, 2);	/* pids 1 and 2; 3's last had none */
	assert_int_equal(p->ntasks, 3);
	assert_int_equal(p->task[0].pid, 1);	/* the most moves first */
	assert_int_equal(p->task[0].total, 3);
	assert_int_equal(p->task[2].pref_llc, -1);
	assert_float_equal(llc_pref_held(p->moves), 3.0 / 5, 1e-12);
	assert_float_equal(llc_pref_held(p->task[0].moves), 1.0, 1e-12);
	/* without the kernel's ids: a preference, but not where */
	r->env.rules.llc_ids[0] = 0;
	assert_int_equal(llc_pref_compute(r, p), 0);
	assert_false(p->mapped);
	assert_int_equal(p->moves[LLC_MOVE_UNMAPPED], 5);
	assert_true(isnan(llc_pref_held(p->moves)));
	free(p);
	run_free(r);
}

static char *text_of(const struct run *r, void (*fn)(FILE *, const struct run *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, r);
	fclose(f);
	return buf;
}

static void text(void **state)
{
	struct run *r = two_llc_run();
	char *t;

	(void)state;
	add(r, 1, 2, 3, MT_CAUSE_WAKEUP, 1);
	add(r, 1, 0, 2, MT_CAUSE_ACTIVE, 1);
	t = text_of(r, render_text_llc_pref);
	assert_non_null(strstr(t, "the kernel's LLCs: 0:0-1;1:2-3"));
	assert_non_null(strstr(t, "2 of 2 moves were of tasks with a preferred LLC: 1 within "
			       "it, 1 into it, 0 out of it"));
	assert_non_null(strstr(t, "LLC 1 (CPUs 2-3): preferred by 1 task;"));
	assert_non_null(strstr(t, "held (ended in it) 100.0 %"));
	/* the cache-aware pulls' row counts the active pull into it */
	assert_non_null(strstr(t, "cache-aware pulls                                      1"));
	free(t);
	/* no preference at all: why, from the knobs */
	run_free(r);
	r = two_llc_run();
	add(r, 1, 2, 3, MT_CAUSE_WAKEUP, -1);
	t = text_of(r, render_text_llc_pref);
	assert_non_null(strstr(t, "none of the 1 moves was of a task with a preferred LLC"));
	assert_non_null(strstr(t, "more than one thread"));
	free(t);
	r->env.rules.llc.enabled = 0;
	t = text_of(r, render_text_llc_pref);
	assert_non_null(strstr(t, "llc_balancing is disabled (enabled 0)"));
	free(t);
	/* a kernel without it: nothing */
	r->env.rules.preferred_llc = RUN_BTF_ABSENT;
	t = text_of(r, render_text_llc_pref);
	assert_string_equal(t, "");
	free(t);
	run_free(r);
}

/*
 * The verdict's last line: the stickiness against the cost of leaving an LLC, from validate's
 * verdict when its two CPUs are in different LLCs; said unmeasured when they share one; the
 * knob off said so.
 */
static void verdict_line(void **state)
{
	struct run *r = two_llc_run();
	char *t;

	(void)state;
	r->setup.kind = RUN_KIND_VALIDATE;
	r->has_verdict = r->has_levels = true;
	r->topo.ncpus = 4;
	for (int cpu = 0; cpu < 4; cpu++) {
		r->topo.core[cpu] = cpu;
		r->topo.llc[cpu] = cpu < 2 ? 0 : 2;
	}
	r->setup.cw.cpu_a = 0;
	r->setup.cw.cpu_b = 2;
	r->verdict.kind = VERDICT_TOO_LOW;
	r->verdict.hot_ns = 8.59e6;
	add(r, 1, 2, 3, MT_CAUSE_WAKEUP, 1);
	add(r, 1, 2, 0, MT_CAUSE_LB_PULL, 1);
	t = text_of(r, render_text_llc_verdict);
	assert_non_null(strstr(t, "a move out of an LLC stays costly for 8.59 ms (the verdict "
			       "above: validate's two CPUs are in different LLCs: LLC 0 to LLC 1 "
			       "in the kernel's ids)"));
	assert_non_null(strstr(t, "holds older ones whose cache there has gone cold"));
	/* per preferred LLC: how often it held, how many left it */
	assert_non_null(strstr(t, "     LLC 1 (CPUs 2-3): held 50.0 % of its tasks' moves, 1 left "
			       "it; each of those paid the refill of leaving, hot for 8.59 ms\n"));
	free(t);
	r->setup.cw.cpu_b = 1;	/* one LLC: not the cost of leaving it */
	t = text_of(r, render_text_llc_verdict);
	assert_non_null(strstr(t, "not measured here (validate --cpus A,B with A and B in "
			       "different LLCs measures it)"));
	free(t);
	r->env.rules.llc.enabled = 0;
	t = text_of(r, render_text_llc_verdict);
	assert_non_null(strstr(t, "cache-aware scheduling is off (llc_balancing enabled 0)"));
	free(t);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(llc_ids),
		cmocka_unit_test(classes),
		cmocka_unit_test(text),
		cmocka_unit_test(verdict_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
