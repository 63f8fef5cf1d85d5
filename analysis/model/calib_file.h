/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calibration file: the calibration model (calib.h) serialised as JSON, schema
 * CALIB_SCHEMA (docs/calibration-file.md), written by `migtrace calibrate --json` and read
 * by `migtrace run --calibration`.  Its members are the run file's calibration.measured
 * (the same tables of run_schema.c, the same spelling) and what only calibrate measures.
 * Files of CALIB_SCHEMA_V1, written by earlier migtrace builds with other names, are read
 * for their hot time.
 */
#ifndef MIGTRACE_CALIB_FILE_H
#define MIGTRACE_CALIB_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "calib.h"
#include "json_reader.h"
#include "json_writer.h"

#define CALIB_SCHEMA "migtrace.calibrate/3"
#define CALIB_SCHEMA_V2 "migtrace.calibrate/2"	/* as 3, without the chase */
#define CALIB_SCHEMA_V1 "migtrace.calibrate/1"
/* The largest calibration file a reader takes: a 1024-CPU matrix is about 400 MiB. */
#define CALIB_FILE_MAX_BYTES (1ULL << 30)

/* Writes c to f as a calibration file.  0 or -errno. */
int calib_file_write(FILE *f, const struct calibration *c);
/*
 * Reads a calibration file held in buf[0..len) into c (zeroed first; calib_free() it).  A
 * CALIB_SCHEMA file is read whole and strictly: an unknown or repeated member, a value of
 * the wrong type or out of its range, a missing member, or members that disagree (a matrix
 * that is not cpus x cpus) are refused; a CALIB_SCHEMA_V2 file the same way, with no chase.
 * A CALIB_SCHEMA_V1 file gives its method and hot times only (has_hot, hot_seed_ns, and
 * hot_robust_ns or NAN when it has none).  *version gets 3, 2 or 1.  0, or -EINVAL (err
 * says what and where, one line) or -ENOMEM; c holds nothing on failure.
 */
int calib_file_parse(const char *buf, size_t len, struct calibration *c, int *version,
		     char *err, size_t errlen);
/* Reads the file at path whole, then parses it.  -errno of the read as well. */
int calib_file_read(const char *path, struct calibration *c, int *version, char *err,
		    size_t errlen);

/*
 * The members the run file's calibration.measured shares with the calibration file: the
 * rs_calibration_measured table and cpus, then (separately, for the file puts them last)
 * the cells.  A run file's cells have rs_calib_cell's members; a calibration file's (file)
 * add rs_calib_cell_2004's, or have rs_calib_cell_2005's with that method.
 */
void calib_write_measured(struct json_writer *w, const struct calibration *c);
void calib_write_cells(struct json_writer *w, const struct calibration *c, bool file);
/* The chase (calib.h): an object, or null when c has none. */
void calib_write_chase(struct json_writer *w, const struct calibration *c);
/* What calib_read_measured() has read of an object. */
struct calib_seen {
	uint64_t members;	/* bits of rs_calibration_measured */
	bool cpus, cells;
	int ncells;		/* how many cells were read into c->cells */
	bool chase;		/* "chase" was read (an object, or null) */
};

/*
 * Reading them: key's value into c: 1; 0 when key is none of them (nothing consumed); -1
 * on an error (in jr).  A member read twice is refused.  where names the object in
 * messages ("calibration.measured", or "" at a file's top level); max_side bounds the CPUs.
 */
int calib_read_measured(struct json_reader *jr, struct calibration *c, const char *key,
			struct calib_seen *seen, bool file, int max_side, const char *where);
/*
 * Once the object is read: every member of the table and cpus there, and the cells (when
 * read) c->cpus.n squared, row by row over cpus, with times of 0 ns or more.  0 or -1.
 */
int calib_check_measured(struct json_reader *jr, const struct calibration *c,
			 const struct calib_seen *seen, const char *where);

#endif
