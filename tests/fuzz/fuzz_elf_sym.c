// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: --unit's symbol check over arbitrary bytes written as a file.  It must
 * answer 0, -ENOENT, -ENOEXEC or another -errno, and never crash on a malformed ELF.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "elf_sym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	FILE *f;
	int err;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/mt-fuzz-elf.%d", (int)getpid());
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
