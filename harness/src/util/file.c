/* Reads or maps a whole input file into memory for the parsers, which all work on buffers; digests one for reports. */
#include "eh/file.h"

#include <errno.h>
#include <openssl/evp.h>
#include <fcntl.h>
#include <inttypes.h>
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

int eh_file_map(const char *path, size_t max, const char *what, uint8_t **data, size_t *len,
		struct eh_error *err)
{
	size_t size;
	void *p;
	int fd, rc;

	*data = NULL;
	*len = 0;
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
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	rc = p == MAP_FAILED ? errno : 0;
	close(fd);
	if (rc)
		return eh_error_set(err, rc == ENOMEM ? EH_ENOMEM : EH_EIO, "%s: cannot map %zu bytes: %s", path,
				    size, strerror(rc));
	*data = p;
	*len = size;
	return 0;
}

void eh_file_unmap(uint8_t *data, size_t len)
{
	if (data)
		munmap(data, len);
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
