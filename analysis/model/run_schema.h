/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run file's and the calibration file's schemas as tables: one table per flat object
 * (its members, their types and where they live in the model), used by both the writers
 * (run_file_write.c, calib_file.c) and the readers (run_file_read.c, calib_file.c), so the
 * two cannot drift apart; docs/run-file.md and docs/calibration-file.md document every name
 * (a unit test checks that they do).  Objects with arrays or maps inside are written and
 * read by hand around these tables.
 */
#ifndef MIGTRACE_RUN_SCHEMA_H
#define MIGTRACE_RUN_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json_reader.h"
#include "json_writer.h"

enum rs_type {
	RS_U64, RS_S64, RS_U32, RS_INT, RS_LONG, RS_U16, RS_U8, RS_SIZE, RS_DBL, RS_BOOL,
	RS_STR,		/* NUL-terminated char[size] */
	RS_BYTES,	/* char[size], NUL-terminated only when shorter (a task's comm) */
	RS_ENUM,	/* an int enum, written by its name */
	RS_ENUM_U8,	/* a __u8 enum, written by its name (a number when out of range) */
	RS_HEX32,	/* a u32 written as a "0x…" string, as manuals name CPUID leaves */
};

#define RS_NULL_EMPTY	(1u << 0)	/* string: "" is written as null, null read as "" */
#define RS_NULL_NEG	(1u << 1)	/* number: < 0 is written as null, null read as -1 */
#define RS_NULL_ZERO	(1u << 2)	/* number: 0 is written as null, null read as 0 */
#define RS_NULL_MIN	(1u << 3)	/* s64: INT64_MIN is written as null, and read back */
#define RS_OPTIONAL	(1u << 4)	/* may be missing when read (then left as it was) */
#define RS_IF_MIG	(1u << 5)	/* a unit's: written only after a migration */
#define RS_PRESENT	(1u << 6)	/* null unless the bool at present_off is true */
#define RS_KAGE		(1u << 7)	/* a migration's kernel age: null unless its flag */

struct rs_field {
	const char *name;
	enum rs_type type;
	size_t off;			/* from the table's base */
	size_t size;			/* RS_STR, RS_BYTES: the buffer */
	const char *const *names;	/* RS_ENUM*: value i is names[i] */
	int nnames;
	unsigned flags;
	size_t present_off;		/* RS_PRESENT: the bool that says the value is there */
};

struct rs_table {
	const char *object;		/* its place in the file, for messages: "meta" */
	const struct rs_field *f;
	int n;				/* at most 64 */
};

/* The tables, by the object they describe (see docs/run-file.md). */
extern const struct rs_table rs_environment, rs_cache, rs_tunable, rs_config, rs_cachewalk,
	rs_calibration, rs_calibration_measured, rs_calib_cell, rs_meta, rs_stats,
	rs_completeness, rs_cost, rs_correlation, rs_cell, rs_verdict, rs_migration, rs_unit;
/*
 * The calibration file's own (docs/calibration-file.md); it shares rs_calibration_measured,
 * rs_calib_cell and rs_tunable with the run file.
 */
extern const struct rs_table rs_calib_file, rs_calib_llc, rs_calib_fills, rs_calib_groups,
	rs_calib_search, rs_calib_distance, rs_calib_step, rs_calib_size, rs_calib_cell_2004,
	rs_calib_cell_2005;
/* Every table of each file, for tests that check the documentation. */
extern const struct rs_table *const rs_all_tables[];
extern const int rs_ntables;
extern const struct rs_table *const rs_calib_file_tables[];
extern const int rs_calib_file_ntables;

/* Whether member f of base is written as null (the exports write it empty). */
bool rs_is_null(const void *base, const struct rs_field *f);
/* An integer or enum member of base, widened. */
int64_t rs_int(const void *base, const struct rs_field *f);
/* Writes every member of t from base into the object being written. */
void rs_write(struct json_writer *w, const void *base, const struct rs_table *t);
/*
 * If key is a member of t, reads its value into base and marks it in *seen: 1.  0 when t
 * has no such member (nothing consumed); -1 on an error (recorded in r).
 */
int rs_read(struct json_reader *r, void *base, const struct rs_table *t, const char *key,
	    uint64_t *seen);
/* Fails (recorded in r) when a required member of t is not in seen.  0 or -1. */
int rs_check(struct json_reader *r, const struct rs_table *t, uint64_t seen, const char *where);
/* Reads a whole object of t's members; members t does not know are skipped.  0 or -1. */
int rs_read_object(struct json_reader *r, void *base, const struct rs_table *t,
		   const char *where);

#endif
