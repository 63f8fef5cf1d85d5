/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run file: the run model serialised as JSON, schema RUN_SCHEMA (docs/run-file.md).
 * Written by run_file_write.c as a stream (the record arrays one record at a time), read
 * back by run_file_read.c into the same model, so `migtrace report` renders what the run
 * did.  Both use the schema's tables (run_schema.c).
 */
#ifndef MIGTRACE_RUN_FILE_H
#define MIGTRACE_RUN_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run.h"

/* What a reader holds of a file at once (json_reader.h): its memory does not grow with it. */
#define RUN_FILE_WINDOW_BYTES (1u << 20)

/*
 * How to read: NULL keeps every record in the model.  drop_records keeps none, only counts
 * them into r->tally (struct run_tally): enough for everything but what lists the records
 * (run_file_write(), the CSV record files, the Perfetto trace), at a memory cost that does
 * not grow with the file; the what-if counts are made at threshold_ns[0..nthresholds).
 */
struct run_read_opts {
	bool drop_records;
	bool keep_units;		/* units kept even when the records are dropped (report A B
					 * correlates a natural run's units again) */
	int nthresholds;		/* at most RUN_MAX_THRESHOLDS */
	const int64_t *threshold_ns;
};

/* Writes r to f; costs no memory in proportion to the records.  0 or -errno. */
int run_file_write(FILE *f, const struct run *r);
/*
 * Reads a run file held in buf[0..len) into *out (a new model; run_free() it).  0, or
 * -EINVAL (not a run file of this schema, or one whose totals disagree with their parts:
 * err says what and where, one line, without the file's name) or -ENOMEM (err says what
 * it was reading).  *out is NULL on failure: nothing half-read is left.
 */
int run_file_parse(const char *buf, size_t len, const struct run_read_opts *o,
		   struct run **out, char *err, size_t errlen);
/* Reads the file at path ('-': stdin) through a window.  -errno of the read as well. */
int run_file_read(const char *path, const struct run_read_opts *o, struct run **out,
		  char *err, size_t errlen);

#endif
