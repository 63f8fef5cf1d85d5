// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's rule and the topology levels (docs/design.md, "What the kernel does",
 * "Topology levels"): MT_RULE_OF picks the test that decides in the kernel's order and
 * MT_RULE_HOT answers at every threshold; MT_LEVEL_OF classes a CPU pair from the ids
 * topology_level_ids() reads from fake sysfs trees (SMT siblings, a shared and a split LLC,
 * two nodes, an LLC of unknown sharing); and a run whose pulls are decided by those tests,
 * written and read back, counts them the same in its summary, its what-if and its text,
 * while a record or a count edited alone is refused; and a natural run's refill cost is
 * split by the level of its pulls.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze.h"
#include "fake_sysfs.h"
#include "render_text.h"
#include "run_file.h"
#include "topology.h"
#include "whatif.h"

#define US 1000LL

/* Each test before the age decides whatever the age and the threshold; NUMA's comes first,
 * the core cookie after SMT, as can_migrate_task() and task_hot() ask them. */
static void rule_order(void **state)
{
	static const int64_t thresholds[] = { -1, 0, 50 * US, 500 * US, 1000000 * US };
	static const struct {
		uint32_t flags;
		int level;
		int rule;
	} cases[] = {
		{ 0, MT_LEVEL_LLC, MT_RULE_AGE },
		{ 0, MT_LEVEL_UNKNOWN, MT_RULE_AGE },
		{ 0, MT_LEVEL_SMT, MT_RULE_SMT },
		{ MT_RF_IDLE_POLICY, MT_LEVEL_SMT, MT_RULE_IDLE_POLICY },
		{ MT_RF_NOT_FAIR | MT_RF_IDLE_POLICY, MT_LEVEL_LLC, MT_RULE_NOT_FAIR },
		{ MT_RF_CORE_COOKIE, MT_LEVEL_CROSS_LLC, MT_RULE_CORE_COOKIE },
		{ MT_RF_CORE_COOKIE, MT_LEVEL_SMT, MT_RULE_SMT },
		{ MT_RF_NUMA_FROM_PREF | MT_RF_IDLE_POLICY, MT_LEVEL_NODE, MT_RULE_NUMA_FROM_PREF },
		{ MT_RF_NUMA_TO_PREF | MT_RF_CORE_COOKIE, MT_LEVEL_NODE, MT_RULE_NUMA_TO_PREF },
		/* what the rule does not decide by: the age does */
		{ MT_RF_NUMA_WEIGHED | MT_RF_DELAYED | MT_RF_KAGE_VALID, MT_LEVEL_NODE,
		  MT_RULE_AGE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rule = MT_RULE_OF(cases[i].flags, cases[i].level);

		assert_int_equal(rule, cases[i].rule);
		for (size_t t = 0; t < sizeof(thresholds) / sizeof(thresholds[0]); t++) {
			int64_t young = 100 * US, old = 10000 * US, T = thresholds[t];
			bool hot_young = MT_RULE_HOT(rule, young, T);
			bool hot_old = MT_RULE_HOT(rule, old, T);

			if (rule == MT_RULE_AGE) {
				assert_int_equal(hot_young, MT_TASK_HOT(young, T));
				assert_int_equal(hot_old, MT_TASK_HOT(old, T));
			} else {
				/* hot: off the busy preferred node, a core cookie mismatch */
				bool hot = rule == MT_RULE_NUMA_FROM_PREF ||
					   rule == MT_RULE_CORE_COOKIE;

				assert_int_equal(hot_young, hot);
				assert_int_equal(hot_old, hot);
			}
		}
	}
	/* the age's own rule: -1 all hot, 0 none, else under the threshold */
	assert_true(MT_TASK_HOT(10000 * US, -1));
	assert_false(MT_TASK_HOT(0, 0));
	assert_true(MT_TASK_HOT(499 * US, 500 * US));
	assert_false(MT_TASK_HOT(500 * US, 500 * US));
}

/* The level of every pair of two CPUs of a tree, by the ids topology_level_ids() gives. */
static unsigned tree_level(const struct topology *t, int a, int b)
{
	int ca, la, na, cb, lb, nb;

	topology_level_ids(t, a, &ca, &la, &na);
	topology_level_ids(t, b, &cb, &lb, &nb);
	return MT_LEVEL_OF(ca, cb, la, lb, na, nb);
}

static void levels_of_fake_trees(void **state)
{
	char *root = fs_tempdir();
	struct topology t;
	int core, llc, node;

	(void)state;
	/* two sockets, a node each, SMT pairs (0,1) (2,3) (4,5) (6,7), an L3 per socket */
	make_tree_2socket(root);
	assert_int_equal(topology_read(root, &t), 0);
	topology_level_ids(&t, 3, &core, &llc, &node);
	assert_int_equal(core, 2);
	assert_int_equal(llc, 0);
	assert_int_equal(node, 0);
	assert_int_equal(tree_level(&t, 0, 1), MT_LEVEL_SMT);
	assert_int_equal(tree_level(&t, 5, 4), MT_LEVEL_SMT);
	assert_int_equal(tree_level(&t, 1, 2), MT_LEVEL_LLC);
	assert_int_equal(tree_level(&t, 3, 4), MT_LEVEL_NODE);
	assert_int_equal(tree_level(&t, 6, 0), MT_LEVEL_NODE);
	/* a CPU past the tree: its own core, of an unknown LLC */
	topology_level_ids(&t, 99, &core, &llc, &node);
	assert_int_equal(core, 99);
	assert_int_equal(llc, -1);
	topology_free(&t);
	fs_rmtree(root);

	/* two CCXs of one node: an L3 each */
	make_tree_amd_ccx(root, true);
	assert_int_equal(topology_read(root, &t), 0);
	assert_int_equal(tree_level(&t, 0, 1), MT_LEVEL_SMT);
	assert_int_equal(tree_level(&t, 0, 6), MT_LEVEL_LLC);
	assert_int_equal(tree_level(&t, 0, 8), MT_LEVEL_CROSS_LLC);
	assert_int_equal(tree_level(&t, 15, 7), MT_LEVEL_CROSS_LLC);
	topology_free(&t);
	fs_rmtree(root);

	/* no cache directories: SMT siblings are known, the LLC's sharing is not, never guessed */
	make_tree_nocache(root, 4, 2);
	assert_int_equal(topology_read_caches(root, TOPO_CACHES_SYSFS, &t), 0);
	assert_int_equal(tree_level(&t, 0, 1), MT_LEVEL_SMT);
	assert_int_equal(tree_level(&t, 1, 2), MT_LEVEL_UNKNOWN);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

/* Four CPUs: (0,1) an SMT pair sharing an LLC with 2, on node 0; 3 alone on node 1. */
static void set_topo(struct run *r)
{
	static const int core[] = { 0, 0, 2, 3 }, llc[] = { 0, 0, 0, 3 }, node[] = { 0, 0, 0, 1 };

	r->has_levels = true;
	r->topo.ncpus = 4;
	memcpy(r->topo.core, core, sizeof(core));
	memcpy(r->topo.llc, llc, sizeof(llc));
	memcpy(r->topo.node, node, sizeof(node));
}

/* A pull into r as the kernel counts it: judged, by its level and the rule that decides it. */
static void add_pull(struct run *r, int src, int dst, uint32_t flags, int64_t kage_ns)
{
	struct mt_migrate m = { .kind = MT_REC_MIGRATE, .pid = 9, .tgid = 9, .src_cpu = src,
				.dst_cpu = dst, .cause = MT_CAUSE_LB_PULL, .state = MT_STATE_QUEUED,
				.on_rq = 2, .flags = flags | MT_RF_KAGE_VALID, .age_ns = 1000,
				.kernel_age_ns = kage_ns, .ts_ns = 1000 + r->nrecs };
	unsigned rule;

	m.level = run_topo_level(&r->topo, src, dst);
	rule = MT_RULE_OF(m.flags, m.level);
	assert_int_equal(run_record_add(r, &m), 0);
	r->stats.rb_records++;
	r->stats.migrations[m.cause]++;
	r->stats.level_migrations[m.level][m.cause]++;
	r->stats.kernel_migrations++;
	r->hists.age[m.cause][0]++;
	r->stats.lb_judged++;
	r->stats.level_lb_judged[m.level]++;
	r->stats.lb_rule[rule]++;
	r->hists.kernel_age[1]++;
	r->hists.kernel_age_level[m.level][1]++;
	if (MT_RULE_HOT(rule, kage_ns, r->meta.hot_ns)) {
		r->stats.lb_hot++;
		r->stats.level_lb_hot[m.level]++;
	}
	r->pairs[src * r->meta.nr_cpus + dst]++;
	r->sum.migrations++;
	r->sum.kernel_counted++;
}

/*
 * Seven judged pulls: two within the SMT pair (cold), a SCHED_IDLE task's (cold), one by its
 * age (10 µs: hot at 500 µs), a core cookie mismatch (hot however old), off the busy
 * preferred node (hot, though SCHED_IDLE), onto the preferred node (cold, though of another
 * cookie).  By age alone the five young ones would be hot at 500 µs and the two old ones
 * cold: the rule turns six of the seven.
 */
static struct run *exempt_run(void)
{
	struct run *r = run_new();

	assert_non_null(r);
	snprintf(r->meta.command, sizeof(r->meta.command), "pulls");
	snprintf(r->meta.end_reason, sizeof(r->meta.end_reason), "exited with status 0");
	r->meta.hot_ns = 500 * US;
	assert_int_equal(run_alloc_pairs(r, 4), 0);
	set_topo(r);
	add_pull(r, 0, 1, 0, 100 * US);
	add_pull(r, 1, 0, 0, 100 * US);
	add_pull(r, 0, 2, MT_RF_IDLE_POLICY, 100 * US);
	add_pull(r, 2, 0, 0, 10 * US);
	add_pull(r, 0, 2, MT_RF_CORE_COOKIE, 10000 * US);
	add_pull(r, 3, 0, MT_RF_NUMA_FROM_PREF | MT_RF_IDLE_POLICY, 10000 * US);
	add_pull(r, 0, 3, MT_RF_NUMA_TO_PREF | MT_RF_CORE_COOKIE, 100 * US);
	return r;
}

/* The run written and read back: what a report works from. */
static struct run *written_and_read(const struct run *r, char **json, size_t *len)
{
	struct run_read_opts o = { 0 };
	FILE *f = open_memstream(json, len);
	struct run *back = NULL;
	char err[512];

	assert_non_null(f);
	assert_int_equal(run_file_write(f, r), 0);
	fclose(f);
	if (run_file_parse(*json, *len, &o, &back, err, sizeof(err)))
		fail_msg("the run's own file is refused: %s", err);
	return back;
}

/* text with its first old replaced by new (which must be there): a new string. */
static char *replaced(const char *text, const char *old, const char *new)
{
	const char *at = strstr(text, old);
	char *out;

	assert_non_null(at);
	out = malloc(strlen(text) - strlen(old) + strlen(new) + 1);
	assert_non_null(out);
	sprintf(out, "%.*s%s%s", (int)(at - text), text, new, at + strlen(old));
	return out;
}

static void exemptions_counted(void **state)
{
	static const int64_t t_ns[] = { -1, 0, 50 * US, 500 * US, 1000000 * US };
	static const uint64_t hot_at[] = { 3, 2, 3, 3, 3 };
	struct run *r = exempt_run(), *back;
	struct whatif w;
	size_t len = 0, tlen = 0;
	char *json = NULL, *text = NULL;
	FILE *f;

	(void)state;
	assert_int_equal(r->stats.lb_judged, 7);
	assert_int_equal(r->stats.lb_hot, 3);
	back = written_and_read(r, &json, &len);
	assert_int_equal(back->stats.lb_hot, 3);
	assert_int_equal(back->stats.lb_rule[MT_RULE_SMT], 2);
	assert_int_equal(back->stats.lb_rule[MT_RULE_AGE], 1);
	assert_int_equal(back->stats.level_lb_hot[MT_LEVEL_NODE], 1);
	assert_int_equal(back->recs[1].level, MT_LEVEL_SMT);
	assert_int_equal(back->recs[6].level, MT_LEVEL_NODE);
	/* the what-if, at every threshold: the tests before the age answer the same at -1 and 0 */
	whatif_compute(back, t_ns, 5, &w);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(w.row[i].lb_judged, 7);
		assert_int_equal(w.row[i].lb_hot, hot_at[i]);
	}
	assert_int_equal(w.lb_rule[MT_RULE_IDLE_POLICY], 1);
	assert_int_equal(w.lb_rule[MT_RULE_CORE_COOKIE], 1);
	/* the summary says the same, test by test, and level by level */
	f = open_memstream(&text, &tlen);
	assert_non_null(f);
	render_text_results(f, back);
	fclose(f);
	if (!strstr(text, "would call hot: 3 of 7 (42.9 %") ||
	    !strstr(text, "    SMT siblings                   cold         2  task_hot()") ||
	    !strstr(text, "    off its busy preferred node    hot          1  ") ||
	    !strstr(text, "    none: the age decides                       1  task_hot()") ||
	    !strstr(text, "  SMT sibling           2          0        2        0        2  "
			  "0 (0.0 %)\n") ||
	    !strstr(text, "  same LLC              3          0        3        0        3  "
			  "2 (66.7 %)\n") ||
	    !strstr(text, "  cross node            2          0        2        0        2  "
			  "1 (50.0 %)\n"))
		fail_msg("the text does not count as the rule does:\n%s", text);
	free(text);
	run_free(back);
	free(json);
	run_free(r);
}

/* A record whose flags are edited without its counts: the counts and the records disagree. */
static void doctored_record_refused(void **state)
{
	struct run_read_opts o = { 0 };
	struct run *r = exempt_run(), *back;
	size_t len = 0;
	char *json = NULL, *doctored, err[512];

	(void)state;
	back = written_and_read(r, &json, &len);
	run_free(back);
	back = NULL;
	/* the one pull judged by its age (10 µs, hot) made SCHED_IDLE's: cold */
	doctored = replaced(json, "\"flags\":1,\"age_ns\":1000,\"off_cpu_ns\":0,"
			    "\"kernel_age_ns\":10000,", "\"flags\":17,\"age_ns\":1000,"
			    "\"off_cpu_ns\":0,\"kernel_age_ns\":10000,");
	assert_int_not_equal(run_file_parse(doctored, strlen(doctored), &o, &back, err,
					    sizeof(err)), 0);
	assert_null(back);
	if (!strstr(err, "stats.lb_judged 7 and lb_hot 3, not the judged pulls in migrations (7) "
			 "and those hot at meta.hot_ns by the kernel's rule (2)"))
		fail_msg("refused for another reason: %s", err);
	free(doctored);
	/* the rules' split of the judged pulls no longer adds up */
	doctored = replaced(json, "\"rules\":{\"age\":1,", "\"rules\":{\"age\":2,");
	assert_int_not_equal(run_file_parse(doctored, strlen(doctored), &o, &back, err,
					    sizeof(err)), 0);
	if (!strstr(err, "levels: rules add up to 8, delayed_pulls 0, numa_weighed_pulls 0, "
			 "against stats.lb_judged 7"))
		fail_msg("refused for another reason: %s", err);
	free(doctored);
	free(json);
	run_free(r);
}

/* The next unit of thread 9 in r, dur_ns long, 10 µs after the last one. */
static struct mt_unit *next_unit(struct run *r, uint64_t *clock, uint64_t dur_ns)
{
	struct mt_unit u = { .kind = MT_REC_UNIT, .pid = 9, .tgid = 9, .tag = CW_TAG_NATURAL };

	u.prev_end_ns = *clock;
	u.start_ns = *clock + 10 * US;
	u.end_ns = u.start_ns + dur_ns;
	*clock = u.end_ns;
	assert_int_equal(run_record_add_unit(r, &u), 0);
	return &r->units[r->nunits - 1];
}

/*
 * A natural run whose pulls within the SMT pair cost 10 µs and across nodes 50 µs, each
 * against the same same-CPU wakes: the run's cost mixes them, each level's is its own.
 */
static void cost_by_level(void **state)
{
	struct run *r = run_new();
	uint64_t clock = 1000 * US;
	struct mt_unit *u;

	(void)state;
	assert_non_null(r);
	r->setup.mode = CORR_NATURAL;
	r->setup.bootstrap = 200;
	r->meta.hot_ns = 500 * US;
	set_topo(r);
	for (int rep = 0; rep < 150; rep++) {
		/* a pull 0 -> 1 (SMT), a pull 0 -> 3 (cross node), a stay */
		int kind = rep % 3;
		int64_t jitter = (int64_t)((rep * 7919) % 2001) - 1000;

		u = next_unit(r, &clock, (kind == 0 ? 120 : kind == 1 ? 160 : 110) * US + jitter);
		u->switches_before = 1;
		u->last_off_ns = 150 * US;
		if (kind < 2) {
			u->migs_before = 1;
			u->mig_age_ns = 150 * US;
			u->mig_cause = MT_CAUSE_LB_PULL;
			u->mig_src_cpu = 0;
			u->mig_dst_cpu = kind ? 3 : 1;
		}
		next_unit(r, &clock, 100 * US - jitter);
		next_unit(r, &clock, 100 * US + jitter);
	}
	r->stats.units = r->nunits;
	/*
	 * The wait side per level: one pull of each level, cut short at 20 µs, among waits that
	 * all ended at 32-64 µs: each saved ~30 µs of waiting, which pays for the SMT pull's
	 * 10 µs of refill and not for the cross-node pull's 50 µs.
	 */
	r->hists.runwait[5] = 1000;
	for (int level = 0; level < 2; level++) {
		struct mt_migrate m = { .pid = 9, .tgid = 9, .src_cpu = 0, .dst_cpu = level ? 3 : 1,
					.cause = MT_CAUSE_LB_PULL, .kernel_age_ns = 150 * US,
					.age_ns = 150 * US, .wait_ns = 20 * US,
					.flags = MT_RF_KAGE_VALID | MT_RF_WAIT_VALID };

		assert_int_equal(run_record_add(r, &m), 0);
		r->hists.runwait_pulled[4]++;
	}
	assert_int_equal(run_analyze(r), 0);
	assert_true(r->has_level_cost);
	assert_int_equal(r->level_cost[MT_LEVEL_SMT].tstar_state, CORR_HOT_NO_COST);
	assert_int_equal(r->level_cost[MT_LEVEL_NODE].tstar_state, CORR_HOT_ABOVE);
	assert_int_equal(r->level_cost[MT_LEVEL_SMT].pulls, 50);
	assert_int_equal(r->level_cost[MT_LEVEL_NODE].pulls, 50);
	assert_int_equal(r->level_cost[MT_LEVEL_LLC].pulls, 0);
	assert_int_equal(r->level_cost[MT_LEVEL_SMT].judged, 50);
	assert_true(fabs(r->level_cost[MT_LEVEL_SMT].cost_ns - 10 * US) < 1 * US);
	assert_true(fabs(r->level_cost[MT_LEVEL_NODE].cost_ns - 50 * US) < 1 * US);
	/* the run's own pulls, both levels in one cell: between the two */
	assert_int_equal(r->corr.n_mig_events, 100);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_order),
		cmocka_unit_test(levels_of_fake_trees),
		cmocka_unit_test(exemptions_counted),
		cmocka_unit_test(doctored_record_refused),
		cmocka_unit_test(cost_by_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
