/* SPDX-License-Identifier: GPL-2.0 */
/* Does an ELF file define a function?  For --unit, checked before anything is launched. */
#ifndef MIGTRACE_ELF_SYM_H
#define MIGTRACE_ELF_SYM_H

#include <stdint.h>

/*
 * 0 when path is an ELF file whose .symtab or .dynsym defines function name (a symbol of
 * type FUNC with a section); -ENOENT when it does not, -ENOEXEC when path is not ELF, or
 * another -errno when it cannot be read.
 */
int elf_defines_function(const char *path, const char *name);
/* The same, and the function's offset in the file (what uprobe_events takes).  0 or -errno
 * as above. */
int elf_function_offset(const char *path, const char *name, uint64_t *offset);

#endif
