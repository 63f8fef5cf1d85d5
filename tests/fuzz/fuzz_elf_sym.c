// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: --unit's symbol check over arbitrary bytes written as a file.  It must
 * answer 0, -ENOENT, -ENOEXEC or another -errno, and never crash on a malformed ELF.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "elf_sym.h"

/* The file each input is written to: in $TMPDIR (run.sh gives each fuzzer its own, which it
 * removes however the fuzzer ends), removed at a normal exit. */
static char path[PATH_MAX];

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/mt-fuzz-elf.%d", dir && *dir ? dir : "/tmp",
		 (int)getpid());
	atexit(remove_file);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;
	int err;

	f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	err = elf_defines_function(path, "main");
	if (err > 0)
		abort();
	return 0;
}
