// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fake_sysfs.h"
#include "topology.h"

static void two_cpu_machine(void **state)
{
	char *root = fs_tempdir();
	const struct topo_cache *k;
	struct topology t;

	(void)state;
	make_tree_2cpu(root);
	assert_int_equal(topology_read(root, &t), 0);
	assert_int_equal(t.online.n, 2);
	assert_int_equal(t.max_cpu, 1);
	assert_int_equal(t.cpu[1].core_id, 1);
	assert_int_equal(t.cpu[1].ncache, 4);
	k = topology_percore_cache(&t, 0);
	assert_non_null(k);
	assert_int_equal(k->level, 2);
	assert_int_equal(k->size_bytes, 512 * 1024);
	k = topology_llc(&t, 1);
	assert_int_equal(k->level, 3);
	assert_int_equal(k->size_bytes, 32ULL << 20);
	assert_true(topology_share_llc(&t, 0, 1));
	assert_false(topology_smt_siblings(&t, 0, 1));
	assert_int_equal(topology_cache_level(&t, 0, 1)->size_bytes, 32 * 1024);
	assert_null(topology_cache_level(&t, 0, 4));
	/* SMT does not exist here; LLC is the first level: 0 and 1 are at distance 0. */
	assert_int_equal(topology_distance(&t, 0, 1), 0);
	assert_int_equal(t.cpu[0].node, 0);
	assert_int_equal(t.cpu_mhz, -1);	/* no cpufreq in the fake tree */
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

static void two_socket_smt(void **state)
{
	char *root = fs_tempdir();
	const struct topo_cache *k;
	struct topology t;

	(void)state;
	make_tree_2socket(root);
	assert_int_equal(topology_read(root, &t), 0);
	assert_int_equal(t.online.n, 7);	/* CPU 7 is offline */
	assert_false(t.cpu[7].online);
	assert_true(t.cpu[7].present);
	k = topology_percore_cache(&t, 4);
	assert_int_equal(k->level, 2);		/* shared by SMT siblings only: per-core */
	assert_int_equal(k->size_bytes, 256 * 1024);
	assert_int_equal(topology_llc(&t, 4)->size_bytes, 8ULL << 20);
	assert_true(topology_smt_siblings(&t, 0, 1));
	assert_false(topology_smt_siblings(&t, 1, 2));
	assert_true(topology_share_llc(&t, 1, 2));
	assert_false(topology_share_llc(&t, 3, 4));
	assert_int_equal(t.cpu[5].package_id, 1);
	assert_int_equal(t.cpu[5].node, 1);
	/* SMT = 0, LLC (= package = node) = 1, machine = 2. */
	assert_int_equal(topology_distance(&t, 0, 1), 0);
	assert_int_equal(topology_distance(&t, 0, 2), 1);
	assert_int_equal(topology_distance(&t, 0, 4), 2);
	assert_int_equal(topology_distance(&t, 6, 3), 2);
	topology_free(&t);
	fs_rmtree(root);
	free(root);
}

static void missing_tree(void **state)
{
	struct topology t;

	(void)state;
	assert_int_not_equal(topology_read("/nonexistent-migtrace", &t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_cpu_machine),
		cmocka_unit_test(two_socket_smt),
		cmocka_unit_test(missing_tree),
	};

	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
