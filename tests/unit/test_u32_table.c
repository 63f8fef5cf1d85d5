// SPDX-License-Identifier: GPL-2.0
/* The u32-keyed table (analysis/lib/u32_table.c) against a plain array, under random inserts
 * and removes: removal's backward shift must keep every other key findable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "u32_table.h"

#define KEYS 4096	/* keys drawn from 1 .. KEYS: many collide, runs wrap the table */

struct entry {
	uint32_t key;
	uint32_t value;
	uint64_t pad;
};

static uint32_t next(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

static void check_all(const struct u32_table *t, const uint32_t *ref)
{
	size_t n = 0;

	for (uint32_t k = 1; k <= KEYS; k++) {
		struct entry *e = u32_table_find(t, k);

		if (ref[k]) {
			assert_non_null(e);
			assert_int_equal(e->key, k);
			assert_int_equal(e->value, ref[k]);
			n++;
		} else {
			assert_null(e);
		}
	}
	assert_int_equal(t->n, n);
}

static void random_against_array(void **state)
{
	uint32_t *ref = calloc(KEYS + 1, sizeof(*ref));
	struct u32_table t;
	uint64_t seed = 42;

	(void)state;
	assert_non_null(ref);
	u32_table_init(&t, sizeof(struct entry));
	for (int round = 0; round < 200000; round++) {
		/* phases that add more than they remove, then the reverse: the table grows
		 * to over a thousand keys and empties again, with long probe runs */
		uint32_t k = 1 + next(&seed) % KEYS;
		bool removing = (round / 20000) % 2;

		if (next(&seed) % 4 < (removing ? 3u : 1u)) {
			u32_table_remove(&t, k);
			ref[k] = 0;
		} else {
			struct entry *e = u32_table_insert(&t, k);

			assert_non_null(e);
			e->value = ref[k] = (uint32_t)round + 1;
		}
		if (round % 5000 == 0)
			check_all(&t, ref);
	}
	check_all(&t, ref);
	u32_table_free(&t);
	free(ref);
}

/* The slot a key takes alone in a table of 64 slots: its home. */
static size_t home_in_64(uint32_t key)
{
	struct u32_table t;
	size_t i;

	u32_table_init(&t, sizeof(struct entry));
	assert_non_null(u32_table_insert(&t, key));
	assert_int_equal(t.cap, 64);
	for (i = 0; !u32_table_at(&t, i); i++)
		;
	u32_table_free(&t);
	return i;
}

/*
 * Removal's two cases side by side: after a is removed, b (home h, sitting at h + 1) must
 * move back into the hole, and c (home h + 1) must follow it only into h + 1, never to h.
 */
static void removal_shifts_only_what_it_may(void **state)
{
	uint32_t a = 1, b = 0, c = 0;
	size_t h = home_in_64(a);
	struct u32_table t;

	(void)state;
	for (uint32_t k = 2; !b || !c; k++) {
		size_t home = home_in_64(k);

		if (!b && home == h)
			b = k;
		else if (!c && home == ((h + 1) & 63))
			c = k;
	}
	u32_table_init(&t, sizeof(struct entry));
	assert_non_null(u32_table_insert(&t, a));
	assert_non_null(u32_table_insert(&t, c));	/* c at its home h + 1 */
	u32_table_remove(&t, a);
	assert_non_null(u32_table_find(&t, c));		/* stayed: not moved before its home */
	assert_non_null(u32_table_insert(&t, a));
	assert_non_null(u32_table_insert(&t, b));	/* b past c, at h + 2 */
	u32_table_remove(&t, a);
	assert_non_null(u32_table_find(&t, b));
	assert_non_null(u32_table_find(&t, c));
	assert_null(u32_table_find(&t, a));
	assert_int_equal(t.n, 2);
	u32_table_free(&t);
}

static void walk_and_zero_key(void **state)
{
	struct u32_table t;
	size_t seen = 0;

	(void)state;
	u32_table_init(&t, sizeof(struct entry));
	assert_null(u32_table_find(&t, 7));
	assert_null(u32_table_insert(&t, 0));	/* 0 marks an empty slot */
	for (uint32_t k = 1; k <= 1000; k++)
		assert_non_null(u32_table_insert(&t, k * 7919));
	assert_int_equal(t.n, 1000);
	assert_true(t.cap >= 2000);		/* kept at most half full */
	for (size_t i = 0; i < t.cap; i++)
		seen += u32_table_at(&t, i) != NULL;
	assert_int_equal(seen, 1000);
	u32_table_free(&t);
	assert_int_equal(t.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_against_array),
		cmocka_unit_test(walk_and_zero_key),
		cmocka_unit_test(removal_shifts_only_what_it_may),
	};

	return cmocka_run_group_tests_name("u32_table", tests, NULL, NULL);
}
