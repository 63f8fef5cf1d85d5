/* SPDX-License-Identifier: GPL-2.0 */
/* Does an ELF file define a function?  For --unit, checked before anything is launched. */
#ifndef MIGTRACE_ELF_SYM_H
#define MIGTRACE_ELF_SYM_H

/*
 * 0 when path is an ELF file whose .symtab or .dynsym defines function name (a symbol of
 * type FUNC with a section); -ENOENT when it does not, -ENOEXEC when path is not ELF, or
 * another -errno when it cannot be read.
 */
int elf_defines_function(const char *path, const char *name);

#endif
