/* Reads a whole input file into memory for the parsers, which all work on buffers; digests one for reports. */
#include "eh/file.h"

#include <errno.h>
#include <openssl/evp.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
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

int eh_file_read(const char *path, size_t max, const char *what, char **buf, size_t *len,
		 struct eh_error *err)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	size_t size;
	int rc = 0;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return eh_error_set(err, EH_EIO, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st))
		rc = eh_error_set(err, EH_EIO, "%s: cannot stat: %s", path, strerror(errno));
	else
		rc = check(path, &st, max, what, err);
	if (rc)
		goto out;
	/* What the file holds when it was checked; one that grows meanwhile is read that far. */
	size = (size_t)st.st_size;
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
