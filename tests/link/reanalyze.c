// SPDX-License-Identifier: GPL-2.0
/*
 * reanalyze FILE [OUT]: reads a run file, analyzes it again with this build's judge, prints
 * its text as `migtrace report` would, and with OUT writes the run file again.  For
 * developing the analysis on saved runs, and for the tests that check an analysis on a
 * doctored run file (Makefile: .output/tests/reanalyze).
 */
#include <stdio.h>

#include "analyze.h"
#include "render_text.h"
#include "run_file.h"
#include "run_output.h"

int main(int argc, char **argv)
{
	struct run *r = NULL;
	char err[512];
	int rc = 1;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: reanalyze RUN.json [OUT.json]\n");
		return 2;
	}
	if (run_file_read(argv[1], NULL, &r, err, sizeof(err))) {
		fprintf(stderr, "reanalyze: %s\n", err);
		return 2;
	}
	if (run_analyze(r))
		fprintf(stderr, "reanalyze: out of memory\n");
	else
		rc = 0;
	render_text(stdout, r);
	if (!rc && argc == 3 && run_output_save(argv[2], r, "reanalyze"))
		rc = 1;
	run_free(r);
	return rc;
}
