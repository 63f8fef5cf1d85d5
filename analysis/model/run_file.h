/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run file: the run model serialised as JSON, schema RUN_SCHEMA (docs/run-file.md).
 * Written by render_json.c as a stream (the record arrays one record at a time), read back
 * by run_file_read.c into the same model, so `migtrace report` renders what the run did.
 */
#ifndef MIGTRACE_RUN_FILE_H
#define MIGTRACE_RUN_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "run.h"

/* The largest run file a reader takes: 4 GiB is ~20 million records. */
#define RUN_FILE_MAX_BYTES (4ULL << 30)

/* Writes r to f; costs no memory in proportion to the records.  0 or -errno. */
int run_file_write(FILE *f, const struct run *r);
/*
 * Reads a run file held in buf[0..len) into *out (a new model; run_free() it).  0, or
 * -EINVAL (not a run file of this schema: err says what and where, one line, without the
 * file's name) or -ENOMEM.  *out is NULL on failure: nothing half-read is left.
 */
int run_file_parse(const char *buf, size_t len, struct run **out, char *err, size_t errlen);
/* Reads the file at path whole, then parses it.  -errno of the read as well. */
int run_file_read(const char *path, struct run **out, char *err, size_t errlen);

#endif
