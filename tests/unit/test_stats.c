// SPDX-License-Identifier: GPL-2.0
/* Order statistics: the selection quantile against the sorting one, on awkward inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats.h"

/* The two must agree exactly: the bootstrap and the point estimate use one each. */
static void select_equals_sort(void **state)
{
	static const double qs[] = { 0, 0.025, 0.1, 0.25, 0.5, 0.9, 0.975, 1 };
	double a[257], b[257];
	uint64_t x = 12345;

	(void)state;
	for (size_t n = 1; n <= 257; n += 16) {
		for (int dup = 0; dup < 2; dup++) {
			for (size_t i = 0; i < n; i++) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				/* dup: few distinct values, so the pivot meets its equals */
				a[i] = (double)((x >> 33) % (dup ? 4 : 100000));
			}
			for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
				double want;

				memcpy(b, a, n * sizeof(*a));
				want = quantile_sorted_inplace(b, n, qs[k]);
				memcpy(b, a, n * sizeof(*a));
				assert_true(quantile_select_inplace(b, n, qs[k]) == want);
			}
		}
	}
}

static void select_edges(void **state)
{
	double v[4] = { 3, 1, 2, 4 };

	(void)state;
	assert_true(quantile_select_inplace(v, 0, 0.5) == 0);
	assert_true(quantile_select_inplace(v, 1, 0.5) == 3);
	/* linear interpolation between order statistics, as the sorting one does */
	assert_true(quantile_select_inplace(v, 4, 0.5) == 2.5);
	assert_true(quantile_select_inplace(v, 4, 0.1) == 1.3);
	assert_true(quantile_select_inplace(v, 4, -1) == 1);
	assert_true(quantile_select_inplace(v, 4, 2) == 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(select_equals_sort),
		cmocka_unit_test(select_edges),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
