// SPDX-License-Identifier: GPL-2.0
/* A function's symbol in an ELF file, found with libelf the way libbpf's uprobe code finds it. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "elf_sym.h"

static bool section_defines(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, const char *name,
			    GElf_Sym *found)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; data && i < n; i++) {
		const char *sym_name;
		GElf_Sym sym;

		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		sym_name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (sym_name && !strcmp(sym_name, name)) {
			*found = sym;
			return true;
		}
	}
	return false;
}

/* The file offset of a symbol: its address in its section, moved to the section's bytes. */
static int file_offset(Elf *elf, const GElf_Sym *sym, uint64_t *offset)
{
	Elf_Scn *scn = elf_getscn(elf, sym->st_shndx);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return -ENOEXEC;
	*offset = sym->st_value - sh.sh_addr + sh.sh_offset;
	return 0;
}

int elf_defines_function(const char *path, const char *name)
{
	return elf_function_offset(path, name, NULL);
}

int elf_function_offset(const char *path, const char *name, uint64_t *offset)
{
	Elf_Scn *scn = NULL;
	GElf_Sym sym;
	Elf *elf = NULL;
	int fd, err = -ENOENT;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		err = -ENOEXEC;
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		if (section_defines(elf, scn, &sh, name, &sym)) {
			err = offset ? file_offset(elf, &sym, offset) : 0;
			break;
		}
	}
out:
	elf_end(elf);
	close(fd);
	return err;
}
