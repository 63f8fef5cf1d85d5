/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An open-addressing hash table of fixed-size entries keyed by a nonzero u32 (a pid, a
 * tgid) that each entry holds in its first four bytes.  Linear probing, kept at most half
 * full so a probe ends soon; removal shifts the run back, so no tombstones pile up in a
 * table whose keys come and go (threads of a long run).  Entries move when the table
 * grows or an entry is removed: a pointer is good until the next insert or remove.
 */
#ifndef MIGTRACE_U32_TABLE_H
#define MIGTRACE_U32_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct u32_table {
	unsigned char *slot;	/* cap entries of esize bytes; key 0: empty */
	size_t esize;		/* bytes per entry, >= sizeof(uint32_t) */
	size_t cap;		/* a power of two; 0 before the first insert */
	size_t n;		/* entries in use */
};

/* An empty table of entries of esize bytes (no allocation until the first insert). */
void u32_table_init(struct u32_table *t, size_t esize);
/* The entry of key, or NULL. */
void *u32_table_find(const struct u32_table *t, uint32_t key);
/* The entry of key, made zeroed (but its key) on first sight; NULL: key 0 or no memory. */
void *u32_table_insert(struct u32_table *t, uint32_t key);
/* Removes key's entry, if any. */
void u32_table_remove(struct u32_table *t, uint32_t key);
/* The i-th slot (0 <= i < cap), or NULL when it is empty: for walks over every entry. */
void *u32_table_at(const struct u32_table *t, size_t i);
void u32_table_free(struct u32_table *t);

#endif
