// SPDX-License-Identifier: GPL-2.0
/*
 * argp prints a usage error as two lines, the message and "Try `PROG --help' or `PROG
 * --usage' for more information."; migtrace's contract is one line naming the option and
 * the token.  A stream that passes everything to stderr except that hint keeps argp's own
 * errors (unknown option, missing argument) and ours to one line, without replacing argp.
 */
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"

static char line[1024];
static size_t used;
static int in_hint;	/* inside the hint, which argp wraps at 79 columns */

static void emit_line(void)
{
	if (!strncmp(line, "Try `", 5))
		in_hint = 1;
	if (!in_hint)
		fwrite(line, 1, used, stderr);
	else if (memmem(line, used, "information.", 12))
		in_hint = 0;
	used = 0;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	for (size_t i = 0; i < size; i++) {
		if (used == sizeof(line))
			emit_line();	/* a very long line: pass it on in pieces */
		line[used++] = buf[i];
		if (buf[i] == '\n')
			emit_line();
	}
	return (ssize_t)size;
}

static int filter_close(void *cookie)
{
	(void)cookie;
	if (used)
		emit_line();
	return 0;
}

FILE *mt_cli_err_stream(void)
{
	static FILE *f;
	cookie_io_functions_t io = { .write = filter_write, .close = filter_close };

	if (!f) {
		f = fopencookie(NULL, "w", io);
		if (!f)
			return stderr;
		setvbuf(f, NULL, _IONBF, 0);
	}
	return f;
}
