/* Reads or maps a whole input file into memory for the parsers, which all work on buffers; digests one for reports. */
#include "eh/file.h"

#include <errno.h>
#include <openssl/evp.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file_type(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* st's file, checked before a byte is read: a regular file no larger than max. */
static int check(const char *path, const struct stat *st, size_t max, const char *what,
		 struct eh_error *err)
{
	if (!S_ISREG(st->st_mode))
		return eh_error_set(err, EH_EINPUT, "%s: %s, not a regular file: cannot read it as a %s",
				    path, file_type(st->st_mode), what);
	if ((uintmax_t)st->st_size > max)
		return eh_error_set(err, EH_EINPUT, "%s: %jd bytes, more than the %zu a %s may have",
				    path, (intmax_t)st->st_size, max, what);
	return 0;
}

/* Open path and check it: *fd and *size on success (close *fd), or an error naming path. */
static int open_checked(const char *path, size_t max, const char *what, int *fd, size_t *size,
			struct eh_error *err)
{
	struct stat st;
	int rc;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused. */
	*fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0)
		return eh_error_set(err, EH_EIO, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(*fd, &st))
		rc = eh_error_set(err, EH_EIO, "%s: cannot stat: %s", path, strerror(errno));
	else
		rc = check(path, &st, max, what, err);
	if (rc) {
		close(*fd);
		return rc;
	}
	/* What the file holds when it was checked; one that grows meanwhile is read that far. */
	*size = (size_t)st.st_size;
	return 0;
}

int eh_file_read(const char *path, size_t max, const char *what, char **buf, size_t *len,
		 struct eh_error *err)
{
	size_t size;
	int fd, rc;

	*buf = NULL;
	*len = 0;
	rc = open_checked(path, max, what, &fd, &size, err);
	if (rc)
		return rc;
	*buf = eh_alloc(size ? size : 1);
	if (!*buf) {
		rc = eh_error_set(err, EH_ENOMEM, "%s: out of memory for %zu bytes", path, size);
		goto out;
	}
	while (*len < size) {
		ssize_t got = read(fd, *buf + *len, size - *len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = eh_error_set(err, EH_EIO, "%s: read error: %s", path, strerror(errno));
			break;
		}
		if (!got)
			break;
		*len += (size_t)got;
	}
out:
	close(fd);
	if (rc) {
		eh_free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return rc;
}

/*
 * A transparent huge page. A mapping starts on one and reaches one past the file's end (pages
 * there are never touched), so that each part eh_file_map_load reads can be huge pages throughout.
 */
#define HUGE ((size_t)2 << 20)

int eh_file_map(const char *path, size_t max, const char *what, struct eh_file_map *m, struct eh_error *err)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t size;
	uint8_t *p, *at = NULL, *end;
	int fd, rc;

	*m = (struct eh_file_map){ .fd = -1 };
	rc = open_checked(path, max, what, &fd, &size, err);
	if (rc || !size) {
		if (!rc)
			close(fd);
		return rc;
	}
	/*
	 * Private and writable: a parser may change its view (relocations of an object), which copies
	 * those pages alone; the file is opened read-only and never changes. Pages are read when first
	 * touched, so the parts of the file nobody looks at (DWARF) cost neither reads nor memory.
	 */
	p = mmap(NULL, size + 2 * HUGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		rc = errno;
	} else {
		at = p + (HUGE - (uintptr_t)p % HUGE) % HUGE;
		rc = mmap(at, size + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED ? errno : 0;
		if (rc)
			munmap(p, size + 2 * HUGE);
	}
	if (rc) {
		close(fd);
		return eh_error_set(err, rc == ENOMEM ? EH_ENOMEM : EH_EIO, "%s: cannot map %zu bytes: %s", path,
				    size, strerror(rc));
	}
	/* The reservation's ends around the mapping (to its last page) given back. */
	end = at + (size + HUGE + page - 1) / page * page;
	if (at > p)
		munmap(p, (size_t)(at - p));
	if (p + size + 2 * HUGE > end)
		munmap(end, (size_t)(p + size + 2 * HUGE - end));
	*m = (struct eh_file_map){ at, size, fd };
	return 0;
}

void eh_file_unmap(struct eh_file_map *m)
{
	if (m->data)
		munmap(m->data, m->len + HUGE);
	if (m->fd >= 0)
		close(m->fd);
	*m = (struct eh_file_map){ .fd = -1 };
}

static int cmp_range(const void *a, const void *b)
{
	const struct eh_file_range *x = a, *y = b;

	return (x->off > y->off) - (x->off < y->off);
}

/* Replace data's pages [lo, hi) (lo and hi offsets in it) by anonymous ones read from fd. */
static int load_pages(const char *path, int fd, uint8_t *data, size_t len, size_t lo, size_t hi, struct eh_error *err)
{
	size_t done = 0, end = hi < len ? hi : len;
	int rc = 0;

	if (mmap(data + lo, hi - lo, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	    MAP_FAILED)
		return 0;  /* the mapping stays as it is, read as it is touched */
	madvise(data + lo, hi - lo, MADV_HUGEPAGE);
	while (lo + done < end) {  /* past the file's end the page reads zero, as it did */
		ssize_t got = pread(fd, data + lo + done, end - lo - done, (off_t)(lo + done));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rc = got ? errno : EIO;
			break;
		}
		done += (size_t)got;
	}
	/* A read that failed: the file's pages back in their place. */
	if (rc && mmap(data + lo, hi - lo, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, (off_t)lo) ==
		      MAP_FAILED)
		return eh_error_set(err, EH_EIO, "%s: cannot read bytes 0x%zx-0x%zx: %s", path, lo, hi, strerror(rc));
	return 0;
}

int eh_file_map_load(const char *path, const struct eh_file_map *m, struct eh_file_range *r, size_t nr,
		     struct eh_error *err)
{
	const size_t huge = HUGE, base = (uintptr_t)m->data % huge, len = m->len, top = len + HUGE;
	size_t i, lo, hi;
	int rc = 0;

	if (!m->data || !nr)
		return 0;
	qsort(r, nr, sizeof(*r), cmp_range);
	for (i = 0; i < nr && !rc;) {
		/* The 2 MiB pages of the address space the part meets (within the mapping), and the next parts' they meet. */
		lo = r[i].off + base < huge ? 0 : (r[i].off + base) / huge * huge - base;
		hi = 0;
		for (; i < nr && r[i].off <= len && r[i].n <= len - r[i].off && (!hi || r[i].off < hi); i++) {
			size_t end = ((r[i].off + r[i].n + base + huge - 1) / huge * huge) - base;

			hi = end > hi ? end : hi;
		}
		if (!hi) {
			i++;  /* outside the file */
			continue;
		}
		rc = load_pages(path, m->fd, m->data, len, lo, hi < top ? hi : top, err);
	}
	return rc;
}

void eh_file_map_drop(const struct eh_file_map *m, size_t off, size_t n)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t lo, hi;

	if (!m->data || off >= m->len)
		return;
	lo = (off + page - 1) / page * page;
	hi = (n < m->len - off ? off + n : m->len) / page * page;
	if (lo < hi)
		mmap(m->data + lo, hi - lo, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, m->fd, (off_t)lo);
}

int eh_file_sha256(const char *path, char hex[EH_SHA256_HEX], struct eh_error *err)
{
	unsigned char chunk[1 << 16], md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0, i;
	EVP_MD_CTX *ctx;
	int fd, rc = 0;

	hex[0] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return eh_error_set(err, EH_EINPUT, "%s: %s", path, strerror(errno));
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		rc = eh_error_set(err, EH_ENOMEM, "%s: no SHA-256 context", path);
		goto out;
	}
	for (;;) {
		ssize_t got = read(fd, chunk, sizeof(chunk));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = eh_error_set(err, EH_EIO, "%s: read error: %s", path, strerror(errno));
			goto out;
		}
		if (!got)
			break;
		EVP_DigestUpdate(ctx, chunk, (size_t)got);
	}
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	for (i = 0; i < mdlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
out:
	EVP_MD_CTX_free(ctx);
	close(fd);
	return rc;
}
