/* Reading an input file: only regular files within their limit, refused before a byte is read, named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eh/file.h"
#include "reports/rows.h"

#define LIMIT 4096          /* the max each row reads with */

enum make { MAKE_FILE, MAKE_DIR, MAKE_FIFO, MAKE_NONE, USE_PATH };

struct row {
	const char *name;
	enum make make;
	long long size;         /* MAKE_FILE: its size (past LIMIT: sparse) */
	int rc;
	const char *message;    /* in the error, after the path */
	const char *path;       /* USE_PATH */
};

static const struct row rows[] = {
	{ "small regular file is read", MAKE_FILE, 100, 0 },
	{ "empty file is read", MAKE_FILE, 0, 0 },
	{ "file at the limit is read", MAKE_FILE, LIMIT, 0 },
	{ "file one byte over the limit is refused", MAKE_FILE, LIMIT + 1, EH_EINPUT,
	  "4097 bytes, more than the 4096 a test input may have" },
	{ "sparse file far over the limit is refused", MAKE_FILE, 1ll << 40, EH_EINPUT,
	  "1099511627776 bytes, more than the 4096" },
	{ "directory is refused", MAKE_DIR, 0, EH_EINPUT,
	  "a directory, not a regular file: cannot read it as a test input" },
	{ "FIFO is refused without waiting for a writer", MAKE_FIFO, 0, EH_EINPUT,
	  "a FIFO, not a regular file" },
	{ "character device /dev/zero is refused", USE_PATH, 0, EH_EINPUT,
	  "a character device, not a regular file", "/dev/zero" },
	{ "missing file", MAKE_NONE, 0, EH_EIO, "cannot open" },
};

/* The row's input at path (in a fresh directory); fills it with a pattern whose bytes the read must return. */
static void make_input(const struct row *r, const char *path)
{
	int fd;
	long long i;

	switch (r->make) {
	case MAKE_FILE:
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		assert_true(fd >= 0);
		if (r->size > LIMIT) {
			assert_int_equal(ftruncate(fd, (off_t)r->size), 0);  /* sparse */
		} else {
			for (i = 0; i < r->size; i++) {
				char c = (char)('a' + i % 26);

				assert_int_equal(write(fd, &c, 1), 1);
			}
		}
		close(fd);
		break;
	case MAKE_DIR:
		assert_int_equal(mkdir(path, 0700), 0);
		break;
	case MAKE_FIFO:
		assert_int_equal(mkfifo(path, 0600), 0);
		break;
	default:
		break;
	}
}

static void run_row(void **state)
{
	const struct row *r = *state;
	char dir[] = "/tmp/eh-test-file-XXXXXX", path[64], *buf = (char *)1;
	struct eh_error err = { 0 };
	size_t len = 1, i;
	int rc;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/input", dir);
	make_input(r, path);
	rc = eh_file_read(r->make == USE_PATH ? r->path : path, LIMIT, "test input", &buf, &len, &err);
	if (r->make == MAKE_DIR)
		rmdir(path);
	else
		unlink(path);
	rmdir(dir);
	if (rc != r->rc)
		fail_msg("%s: rc %d, expected %d (%s)", r->name, rc, r->rc, err.msg);
	if (rc) {
		const char *named = r->make == USE_PATH ? r->path : path;

		if (buf || len || strncmp(err.msg, named, strlen(named)) || !strstr(err.msg, r->message))
			fail_msg("%s: message '%s', expected '%s: ...%s...' and nothing read", r->name, err.msg,
				 named, r->message);
		return;
	}
	if (len != (size_t)r->size)
		fail_msg("%s: read %zu bytes, expected %lld", r->name, len, r->size);
	for (i = 0; i < len; i++)
		if (buf[i] != (char)('a' + i % 26))
			fail_msg("%s: byte %zu is 0x%02x", r->name, i, (unsigned char)buf[i]);
	eh_free(buf);
}

int main(void)
{
	struct CMUnitTest tests[EH_COUNT(rows)];
	size_t n = 0;

	EH_ADD_ROWS(tests, n, rows, run_row);
	return EH_RUN_TESTS("file", tests, n);
}
