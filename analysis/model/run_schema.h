/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run file's and the calibration file's schemas as tables: one table per flat object
 * (its members, their types and where they live in the model), used by both the writers
 * (run_file_write.c, calib_file.c) and the readers (run_file_read.c, calib_file.c), so the
 * two cannot drift apart; docs/run-file.md and docs/calibration-file.md document every name
 * (a unit test checks that they do).  Objects with arrays or maps inside are written and
 * read by hand around these tables.  The sweep file's tables (sweep_schema.h) are walked by
 * the same functions; schema_def.h has the macros every table is defined with.
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
	/* written, never read (the files that have them are not read back): */
	RS_CSTR,	/* a const char *; NULL is written as "" */
	RS_ARGV,	/* a NULL-terminated char *const * (NULL: none), an array of strings;
			 * no CSV cell (empty) */
	RS_U64_NAMED,	/* a u64[nnames], an object of names[i]: value i; in CSV its total,
			 * then a column <name>_<names[i]> each */
};

#define RS_NULL_EMPTY	(1u << 0)	/* string: "" is written as null, null read as "" */
#define RS_NULL_NEG	(1u << 1)	/* number: < 0 is written as null, null read as -1 */
#define RS_NULL_ZERO	(1u << 2)	/* number: 0 is written as null, null read as 0 */
#define RS_NULL_MIN	(1u << 3)	/* s64: INT64_MIN is written as null, and read back */
#define RS_OPTIONAL	(1u << 4)	/* may be missing when read (then left as it was) */
#define RS_IF_MIG	(1u << 5)	/* a unit's: written only after a migration */
#define RS_PRESENT	(1u << 6)	/* null unless the member at present_off (a bool, or a
					 * count) is not 0 */
#define RS_KAGE		(1u << 7)	/* a migration's kernel age: null unless its flag */
#define RS_WAIT		(1u << 11)	/* a migration's wait: null unless its flag */
#define RS_PREF_LLC	(1u << 12)	/* a migration's preferred LLC: null unless its flag */
#define RS_EXPORTS_ONLY	(1u << 8)	/* not a member of the file: a CSV column, a gauge */
#define RS_EXPORTS_NULL	(1u << 9)	/* the null rule is the exports' (empty, no gauge): the
					 * file writes the member as it is */
#define RS_NONNEG	(1u << 10)	/* number: a time, a duration, a count: never < 0 (a
					 * negative one is refused; with RS_NULL_NEG, null says
					 * it, so a negative number is refused there too) */

struct rs_field {
	const char *name;
	enum rs_type type;
	size_t off;			/* from the table's base */
	size_t size;			/* RS_STR, RS_BYTES: the buffer */
	const char *const *names;	/* RS_ENUM*: value i is names[i] */
	int nnames;
	unsigned flags;
	size_t present_off;		/* RS_PRESENT: the member that says the value is there */
	size_t present_size;		/* its size: a bool, an int */
};

struct rs_table {
	const char *object;		/* its place in the file, for messages: "meta" */
	const struct rs_field *f;
	int n;				/* at most 64 */
};

/* The tables, by the object they describe (see docs/run-file.md). */
extern const struct rs_table rs_environment, rs_cache, rs_tunable, rs_sched_rules, rs_config,
	rs_cachewalk, rs_calibration, rs_calibration_measured, rs_calib_cell, rs_meta, rs_backend, rs_stats,
	rs_completeness, rs_cost, rs_correlation, rs_cell, rs_corr_rate, rs_verdict,
	rs_verdict_rate, rs_verdict_model, rs_sequence, rs_seq_look, rs_migration, rs_unit,
	rs_switch, rs_waking, rs_probe, rs_probe_moment, rs_probe_result, rs_level_cost, rs_footprint, rs_footprint_point, rs_footprint_level, rs_footprint_hint;
/*
 * The calibration file's own (docs/calibration-file.md); it shares rs_calibration_measured,
 * rs_calib_cell and rs_tunable with the run file.
 */
extern const struct rs_table rs_calib_file, rs_calib_llc, rs_calib_fills, rs_calib_groups,
	rs_calib_search, rs_calib_distance, rs_calib_step, rs_calib_size, rs_calib_cell_2004,
	rs_calib_cell_2005, rs_calib_chase, rs_calib_chase_curve, rs_calib_chase_point;
/* Every table of each file, for tests that check the documentation. */
extern const struct rs_table *const rs_all_tables[];
extern const int rs_ntables;
extern const struct rs_table *const rs_calib_file_tables[];
extern const int rs_calib_file_ntables;

/* Whether member f of base is null in the exports (written empty, no gauge); the file writes
 * it as null too unless f says RS_EXPORTS_NULL. */
bool rs_is_null(const void *base, const struct rs_field *f);
/* Whether member f of base is left out (a unit's migration members when it follows none;
 * the exports write it empty). */
bool rs_is_absent(const void *base, const struct rs_field *f);
/* An integer or enum member of base, widened. */
int64_t rs_int(const void *base, const struct rs_field *f);
/* A number member of base as a double (a bool: 0 or 1); for RS_U64_NAMED, its value i. */
double rs_number(const void *base, const struct rs_field *f, int i);
/* The member of t called name, or NULL. */
const struct rs_field *rs_field_named(const struct rs_table *t, const char *name);
/* Writes every member of t from base (RS_EXPORTS_ONLY ones aside) into the object being
 * written. */
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
