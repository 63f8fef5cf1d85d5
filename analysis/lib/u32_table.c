// SPDX-License-Identifier: GPL-2.0
/* An open-addressing u32-keyed table (u32_table.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "u32_table.h"

#define MIN_CAP 64

static uint32_t key_at(const struct u32_table *t, size_t i)
{
	uint32_t key;

	memcpy(&key, t->slot + i * t->esize, sizeof(key));
	return key;
}

/*
 * Fibonacci hashing, from the product's high half: its low bits depend only on the key's
 * low bits, so pids that differ in high bits alone would share a home.
 */
static size_t home_of(uint32_t key, size_t cap)
{
	return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* key's slot, or the empty slot where it would go. */
static size_t probe(const unsigned char *slot, size_t esize, size_t cap, uint32_t key)
{
	size_t i = home_of(key, cap);
	uint32_t k;

	for (;;) {
		memcpy(&k, slot + i * esize, sizeof(k));
		if (!k || k == key)
			return i;
		i = (i + 1) & (cap - 1);
	}
}

static int grow(struct u32_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : MIN_CAP;
	unsigned char *slot = calloc(cap, t->esize);

	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		uint32_t key = key_at(t, i);

		if (key)
			memcpy(slot + probe(slot, t->esize, cap, key) * t->esize,
			       t->slot + i * t->esize, t->esize);
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

void u32_table_init(struct u32_table *t, size_t esize)
{
	*t = (struct u32_table){ .esize = esize };
}

void *u32_table_find(const struct u32_table *t, uint32_t key)
{
	size_t i;

	if (!key || !t->cap)
		return NULL;
	i = probe(t->slot, t->esize, t->cap, key);
	return key_at(t, i) ? t->slot + i * t->esize : NULL;
}

void *u32_table_insert(struct u32_table *t, uint32_t key)
{
	unsigned char *e;
	size_t i;

	if (!key)
		return NULL;
	if ((t->n + 1) * 2 > t->cap && grow(t))
		return NULL;
	i = probe(t->slot, t->esize, t->cap, key);
	e = t->slot + i * t->esize;
	if (!key_at(t, i)) {
		memcpy(e, &key, sizeof(key));
		t->n++;
	}
	return e;
}

/*
 * Backward-shift deletion: each entry after the hole moves into it unless its home lies
 * cyclically in (hole, its slot], where a probe for it would never pass the hole.
 */
void u32_table_remove(struct u32_table *t, uint32_t key)
{
	size_t hole, i, home, mask = t->cap - 1;
	uint32_t k;

	if (!u32_table_find(t, key))
		return;
	hole = probe(t->slot, t->esize, t->cap, key);
	for (i = (hole + 1) & mask; (k = key_at(t, i)); i = (i + 1) & mask) {
		home = home_of(k, t->cap);
		if (((i - home) & mask) < ((i - hole) & mask))
			continue;	/* its home is after the hole: it stays */
		memcpy(t->slot + hole * t->esize, t->slot + i * t->esize, t->esize);
		hole = i;
	}
	memset(t->slot + hole * t->esize, 0, t->esize);
	t->n--;
}

void *u32_table_at(const struct u32_table *t, size_t i)
{
	return i < t->cap && key_at(t, i) ? t->slot + i * t->esize : NULL;
}

void u32_table_free(struct u32_table *t)
{
	free(t->slot);
	*t = (struct u32_table){ .esize = t->esize };
}
