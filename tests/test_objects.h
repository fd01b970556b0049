/* Test helpers: the relocatable objects assembled from tests/objects/, read whole into memory. */
#ifndef EH_TEST_OBJECTS_H
#define EH_TEST_OBJECTS_H

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tests/objects/NAME.S as assembled; *len gets its size. The caller frees the buffer. */
static inline unsigned char *test_object_load(const char *name, size_t *len, char *path, size_t path_len)
{
	unsigned char *buf;
	FILE *f;
	long n;

	*len = 0;
	snprintf(path, path_len, "%s/%s.o", EH_TEST_OBJ_DIR, name);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
		return f ? (fclose(f), NULL) : NULL;
	buf = malloc((size_t)n);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The section header named name in an ELF64 image held in buf, copied to *out; its offset, or 0. */
static inline size_t test_object_shdr(const unsigned char *buf, const char *name, Elf64_Shdr *out)
{
	Elf64_Ehdr eh;
	Elf64_Shdr strtab;
	unsigned i;

	memcpy(&eh, buf, sizeof(eh));
	memcpy(&strtab, buf + eh.e_shoff + (size_t)eh.e_shstrndx * sizeof(Elf64_Shdr), sizeof(strtab));
	for (i = 0; i < eh.e_shnum; i++) {
		size_t at = eh.e_shoff + (size_t)i * sizeof(Elf64_Shdr);

		memcpy(out, buf + at, sizeof(*out));
		if (!strcmp((const char *)buf + strtab.sh_offset + out->sh_name, name))
			return at;
	}
	return 0;
}

#endif
