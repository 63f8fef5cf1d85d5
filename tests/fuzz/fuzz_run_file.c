// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the run-file reader (analysis/model/run_file_read.c and its JSON reader), on
 * anything.  It must return 0 or -EINVAL/-ENOMEM, and on failure no model and one line
 * saying what is wrong.  A file it accepts must render as text without trouble, and write
 * back as a run file that it reads again to the same bytes (reading is idempotent after one
 * pass: what the writer normalises, such as a null for a negative CPU time, stays put).
 * The exports that need no program (CSV, the exposition, Perfetto, what-if) render it too.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_export.h"
#include "render_text.h"
#include "run_file.h"

/* The run file of r, in memory.  Aborts if it cannot be written. */
static char *serialise(const struct run *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f || run_file_write(f, r) || fclose(f))
		abort();
	return buf;
}

/* The exports of r, to nowhere: they must not crash on anything the reader accepts. */
static void exports(FILE *f, const struct run *r)
{
	static const int64_t t_ns[] = { -1, 0, 500000, INT64_MAX };
	struct whatif w;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int err;

	whatif_compute(r, t_ns, 4, &w);
	render_whatif_text(f, &w);
	for (int i = 0; i < render_csv_nfiles; i++)
		render_csv_files[i].write(f, r, &w);
	/* the text format, and OpenMetrics made of it (render_om1: what the text holds) */
	mem = open_memstream(&text, &len);
	if (!mem)
		abort();
	render_openmetrics(mem, r, &w, "0.1 (fuzz)");
	if (fclose(mem))
		abort();
	fwrite(text, 1, len, f);
	render_om1(f, text, len);
	free(text);
	err = render_perfetto(f, r);
	if (err && err != -ENOMEM)
		abort();	/* a writer left unbalanced, or a write error on /dev/null */
	err = render_perfetto_pb(f, r);
	if (err && err != -ENOMEM)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct run *r = NULL, *again = NULL;
	char err[400] = "", *one, *two;
	size_t n1, n2;
	int rc;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	rc = run_file_parse((const char *)data, size, NULL, &r, err, sizeof(err));
	if (rc) {
		if ((rc != -EINVAL && rc != -ENOMEM) || r || !err[0] || strchr(err, '\n'))
			abort();
		return 0;
	}
	render_text(devnull, r);
	exports(devnull, r);
	one = serialise(r, &n1);
	if (run_file_parse(one, n1, NULL, &again, err, sizeof(err)))
		abort();	/* what the writer wrote, the reader must take */
	two = serialise(again, &n2);
	if (n1 != n2 || memcmp(one, two, n1))
		abort();
	free(one);
	free(two);
	run_free(again);
	run_free(r);
	return 0;
}
