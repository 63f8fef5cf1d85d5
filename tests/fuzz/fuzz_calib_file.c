// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the calibration-file reader (analysis/model/calib_file.c and its JSON
 * reader), on anything.  It must return 0 or -EINVAL/-ENOMEM, and on failure leave nothing
 * in the model and one line saying what is wrong.  A file of this schema it accepts must
 * render (the report, both seed logs, the size sweep, the chase) without trouble, and write
 * back as a file that it reads again to the same bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_file.h"
#include "calib_report.h"

/* The calibration file of c, in memory.  Aborts if it cannot be written. */
static char *serialise(const struct calibration *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f || calib_file_write(f, c) || fclose(f))
		abort();
	return buf;
}

static void render(FILE *f, const struct calibration *c)
{
	calib_print_intro(f, c);
	calib_print_report(f, c);
	calib_print_chase(f, c, true);
	calib_print_seed_2004(f, c);
	if (c->method == CALIB_2005)
		calib_print_seed_2005(f, c);
	for (int i = 0; i < c->nsizes; i++)
		calib_print_sweep_size(f, c, i);
	calib_print_sweep_peak(f, c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct calibration c, again;
	char err[400] = "", *one, *two;
	int rc, version;
	size_t n1, n2;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	rc = calib_file_parse((const char *)data, size, &c, &version, err, sizeof(err));
	if (rc) {
		if ((rc != -EINVAL && rc != -ENOMEM) || c.cells || c.dist || c.sizes || c.chase ||
		    !err[0] || strchr(err, '\n'))
			abort();
		return 0;
	}
	if (version == 1) {
		/* the hot time only: nothing else was read */
		if (c.cells || c.cpus.n)
			abort();
		return 0;
	}
	render(devnull, &c);
	one = serialise(&c, &n1);
	if (calib_file_parse(one, n1, &again, &version, err, sizeof(err)))
		abort();	/* what the writer wrote, the reader must take */
	two = serialise(&again, &n2);
	if (n1 != n2 || memcmp(one, two, n1))
		abort();
	free(one);
	free(two);
	calib_free(&again);
	calib_free(&c);
	return 0;
}
