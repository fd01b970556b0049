/*
 * The floor of the audit benchmark: read an ELF file and touch every byte of its executable sections
 * once (a sum of their 32-bit words), which any audit of those sections has to do at least.
 *   bench_read FILE SAMPLES    prints "bytes N" (executable section bytes) and "ns MEDIAN" (wall time),
 *                              and "needed N": the bytes of what an audit has to hold, every allocated
 *                              section with contents (code, data, .altinstructions) and the symbol and
 *                              string tables, from the section headers
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

/* Open, read and sum; returns the executable bytes seen, with their sum in *sum, and *needed. */
static uint64_t read_once(const char *path, uint64_t *sum, uint64_t *needed)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	uint64_t bytes = 0;

	if (fd < 0 || !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		fprintf(stderr, "bench_read: cannot read %s: %s\n", path, elf_errmsg(-1));
		exit(2);
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i;

		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
		    ((sh.sh_flags & SHF_ALLOC) || sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_STRTAB))
			*needed += sh.sh_size;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i + 4 <= d->d_size; i += 4) {
			uint32_t w;

			memcpy(&w, (const uint8_t *)d->d_buf + i, 4);
			*sum += w;
		}
		bytes += d->d_size;
	}
	elf_end(e);
	close(fd);
	return bytes;
}

int main(int argc, char **argv)
{
	unsigned long samples, i;
	uint64_t *ns, bytes = 0, sum = 0, needed = 0;

	if (argc != 3 || elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "usage: bench_read FILE SAMPLES\n");
		return 2;
	}
	samples = strtoul(argv[2], NULL, 0);
	if (!samples || !(ns = calloc(samples, sizeof(*ns))))
		return 2;
	for (i = 0; i < samples; i++) {
		uint64_t t0 = bench_now_ns();

		needed = 0;
		bytes = read_once(argv[1], &sum, &needed);
		ns[i] = bench_now_ns() - t0;
	}
	printf("bytes %" PRIu64 "\nns %" PRIu64 "\nchecksum %" PRIx64 "\nneeded %" PRIu64 "\n", bytes,
	       bench_median(ns, samples), sum, needed);
	free(ns);
	return 0;
}
