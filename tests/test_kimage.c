/* What a kernel image says about itself: the release of its linux_banner, and the .config it embeds. */
#include <string.h>

#include "eh/elf.h"
#include "eh/kimage.h"
#include "reports/rows.h"
#include "test_objects.h"

/* tests/objects/kimage.o as assembled, or with one change (mutate), parsed. */
static struct eh_elf *open_kimage(void (*mutate)(unsigned char *buf))
{
	struct eh_error err = { 0 };
	struct eh_elf *elf = NULL;
	char path[4096];
	size_t len;
	unsigned char *buf = test_object_load("kimage", &len, path, sizeof(path));

	assert_non_null(buf);
	if (mutate)
		mutate(buf);
	assert_int_equal(eh_elf_parse(&elf, path, buf, len, &err), 0);
	free(buf);
	return elf;
}

static void test_release(void **state)
{
	struct eh_elf *elf = open_kimage(NULL);
	char buf[64];

	(void)state;
	assert_int_equal(eh_kimage_release(elf, buf, sizeof(buf), NULL), 0);
	assert_string_equal(buf, "6.1.99-test-arm64");
	eh_elf_free(elf);
}

static void test_config(void **state)
{
	struct eh_elf *elf = open_kimage(NULL);
	struct eh_kconfig *cfg = NULL;
	struct eh_error err = { 0 };

	(void)state;
	assert_int_equal(eh_kimage_config(&cfg, elf, &err), 0);
	assert_true(eh_kconfig_enabled(cfg, "CONFIG_ARM64"));
	assert_true(eh_kconfig_enabled(cfg, "CONFIG_ARM64_WORKAROUND_REPEAT_TLBI"));
	assert_false(eh_kconfig_enabled(cfg, "CONFIG_CAVIUM_TX2_ERRATUM_219"));
	eh_kconfig_free(cfg);
	eh_elf_free(elf);
}

/* The deflate data of the embedded .config damaged: its first compressed byte flipped. */
static void damage_config(unsigned char *buf)
{
	Elf64_Shdr sh;
	unsigned char *p;

	test_object_shdr(buf, ".rodata", &sh);
	p = memmem(buf + sh.sh_offset, sh.sh_size, "IKCFG_ST", 8);
	assert_non_null(p);
	p[8 + 10] ^= 0xff;     /* past the 10-byte gzip header */
}

static void test_config_damaged(void **state)
{
	struct eh_elf *elf = open_kimage(damage_config);
	struct eh_kconfig *cfg = NULL;
	struct eh_error err = { 0 };

	(void)state;
	assert_int_equal(eh_kimage_config(&cfg, elf, &err), EH_EINPUT);
	assert_null(cfg);
	assert_non_null(strstr(err.msg, "kimage.o: kernel_config_data"));
	eh_elf_free(elf);
}

/* An object without either: a kernel object, not an image. */
static void test_absent(void **state)
{
	struct eh_error err = { 0 };
	struct eh_elf *elf = NULL;
	struct eh_kconfig *cfg = NULL;
	char path[4096], buf[64];
	size_t len;
	unsigned char *obj = test_object_load("clean", &len, path, sizeof(path));

	(void)state;
	assert_non_null(obj);
	assert_int_equal(eh_elf_parse(&elf, path, obj, len, &err), 0);
	assert_int_equal(eh_kimage_release(elf, buf, sizeof(buf), NULL), EH_ENOENT);
	assert_int_equal(eh_kimage_config(&cfg, elf, NULL), EH_ENOENT);
	eh_elf_free(elf);
	free(obj);
}

int main(void)
{
	struct CMUnitTest tests[4];
	size_t n = 0;

	EH_ADD_TEST(tests, n, test_release);
	EH_ADD_TEST(tests, n, test_config);
	EH_ADD_TEST(tests, n, test_config_damaged);
	EH_ADD_TEST(tests, n, test_absent);
	return EH_RUN_TESTS("kimage", tests, n);
}
