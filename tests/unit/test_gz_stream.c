// SPDX-License-Identifier: GPL-2.0
/* gzip run files (analysis/lib/gz_stream.c): what gz_fopen_write writes, the inflating
 * thread gives back byte for byte, two members one after the other too; a stream cut short
 * is said so; a reader that stops early ends the thread without an error. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gz_stream.h"

#define TEXT_BYTES (3 * 1024 * 1024)	/* past the thread's 64 KiB chunks, many times */

/* Made-up text that compresses, but not to nothing: a counter in decimal per line. */
static char *text_of(size_t len)
{
	char *t = malloc(len);
	size_t off = 0;

	assert_non_null(t);
	for (unsigned i = 0; off < len; i++)
		off += (size_t)snprintf(t + off, len - off, "{\"line\":%u}\n", i * 2654435761u);
	return t;
}

/* t gzipped into a temporary file, appended to f (one member a call). */
static void gzip_into(FILE *f, const char *t, size_t len)
{
	FILE *z = gz_fopen_write(f);

	assert_non_null(z);
	assert_int_equal(fwrite(t, 1, len, z), len);
	assert_int_equal(fclose(z), 0);
	assert_int_equal(fflush(f), 0);
}

/* Everything the thread inflates from f, read the way run_file_read does (a first block
 * read, then the rest from the thread); its length in *len, its error in *err. */
static char *inflate_all(FILE *f, size_t *len, int *err, char *why, size_t whylen)
{
	struct gz_stream gz;
	char head[100], *out = malloc(2 * TEXT_BYTES + 1);
	int fd = fileno(f), zfd;
	ssize_t n;

	assert_non_null(out);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	n = read(fd, head, sizeof(head));
	assert_true(n > 3 && gz_magic(head, (size_t)n));
	zfd = gz_stream_start(&gz, fd, head, (size_t)n);
	assert_true(zfd >= 0);
	*len = 0;
	while ((n = read(zfd, out + *len, 2 * TEXT_BYTES - *len)) > 0)
		*len += (size_t)n;
	close(zfd);
	*err = gz_stream_finish(&gz);
	snprintf(why, whylen, "%s", gz.why);
	return out;
}

static void round_trip(void **state)
{
	char *t = text_of(TEXT_BYTES), *back, why[128];
	FILE *f = tmpfile();
	size_t len;
	int err;

	(void)state;
	assert_non_null(f);
	gzip_into(f, t, TEXT_BYTES);
	assert_true(ftell(f) < TEXT_BYTES / 3);
	back = inflate_all(f, &len, &err, why, sizeof(why));
	assert_int_equal(err, 0);
	assert_int_equal(len, TEXT_BYTES);
	assert_memory_equal(back, t, TEXT_BYTES);
	free(back);
	/* a second member after the first: gzip -c a b > c, read whole */
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	gzip_into(f, t, TEXT_BYTES / 2);
	back = inflate_all(f, &len, &err, why, sizeof(why));
	assert_int_equal(err, 0);
	assert_int_equal(len, TEXT_BYTES + TEXT_BYTES / 2);
	assert_memory_equal(back + TEXT_BYTES, t, TEXT_BYTES / 2);
	free(back);
	fclose(f);
	free(t);
}

static void cut_short(void **state)
{
	char *t = text_of(TEXT_BYTES), *back, why[128];
	FILE *f = tmpfile();
	size_t len;
	int err;

	(void)state;
	assert_non_null(f);
	gzip_into(f, t, TEXT_BYTES);
	assert_int_equal(ftruncate(fileno(f), ftell(f) / 2), 0);
	back = inflate_all(f, &len, &err, why, sizeof(why));
	assert_int_equal(err, -EINVAL);
	assert_string_equal(why, "its gzip stream is cut short");
	assert_true(len < TEXT_BYTES && !memcmp(back, t, len));
	free(back);
	fclose(f);
	free(t);
}

static void reader_stops_early(void **state)
{
	char *t = text_of(TEXT_BYTES), head[100], buf[4096];
	FILE *f = tmpfile();
	struct gz_stream gz;
	int zfd;
	ssize_t n;

	(void)state;
	assert_non_null(f);
	gzip_into(f, t, TEXT_BYTES);
	assert_int_equal(lseek(fileno(f), 0, SEEK_SET), 0);
	n = read(fileno(f), head, sizeof(head));
	zfd = gz_stream_start(&gz, fileno(f), head, (size_t)n);
	assert_true(zfd >= 0);
	assert_true(read(zfd, buf, sizeof(buf)) > 0);
	close(zfd);	/* the thread's next send fails: it ends, no error of its own */
	assert_int_equal(gz_stream_finish(&gz), 0);
	fclose(f);
	free(t);
}

static void names(void **state)
{
	(void)state;
	assert_true(gz_path("run.json.gz"));
	assert_false(gz_path("run.json"));
	assert_false(gz_path(".gz"));
	assert_false(gz_magic("\x1f\x8b", 2));
	assert_true(gz_magic("\x1f\x8b\x08", 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(cut_short),
		cmocka_unit_test(reader_stops_early),
		cmocka_unit_test(names),
	};

	return cmocka_run_group_tests_name("gz_stream", tests, NULL, NULL);
}
