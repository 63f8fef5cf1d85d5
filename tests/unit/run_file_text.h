/* SPDX-License-Identifier: GPL-2.0 */
/* A run written to memory as its run file, for round-trip tests (cmocka asserts). */
#ifndef MIGTRACE_RUN_FILE_TEXT_H
#define MIGTRACE_RUN_FILE_TEXT_H

#include <stdio.h>

#include "run_file.h"

/* The run file of r, *n bytes; the result is the caller's to free.  Not inlined: gcc 12
 * then takes open_memstream's buffer for a local and warns of dangling pointers to it. */
static __attribute__((noinline, unused)) char *write_to_string(const struct run *r,
							      size_t *n)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, n);

	assert_non_null(f);
	assert_int_equal(run_file_write(f, r), 0);
	fclose(f);
	return buf;
}

#endif
