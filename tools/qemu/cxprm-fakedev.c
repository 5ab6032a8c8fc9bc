// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cxprm-fakedev: placeholder host-side "device" for tools/qemu/run-guest.sh.
 *
 *   cxprm-fakedev [--fw-rev HEX] [--cmdif HEX] RAM_FILE BAR_FILE
 *
 * Maps the ivshmem BAR file (the guest's BAR2) and the guest-RAM file.
 * Writes fw_rev and cmdif_rev_fw_sub into the init segment (offsets 0 and 4,
 * big-endian), creates $CXPRM_READY_FILE, then serves the DMA proof of the
 * shim's self-test: when the guest publishes a buffer (scratch dwords of
 * drivers/cxprm_selftest.h) it reads that guest-physical range from the RAM
 * file, checks the pattern, prints it and answers with its FNV-1a hash.
 * Runs until SIGTERM/SIGINT.
 *
 * Guest-physical to RAM-file offset (QEMU x86, one memory backend):
 *   gpa <  below_4g                 -> offset gpa
 *   gpa >= 4 GiB                    -> offset below_4g + (gpa - 4 GiB)
 * below_4g = $CXPRM_RAM_BELOW_4G (run-guest.sh sets it), else the RAM size.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../drivers/cxprm_selftest.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct map {
	const char *path;
	uint8_t *p;
	size_t size;
};

static int map_file(struct map *m, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDWR);

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "fakedev: %s: %s\n", path, strerror(errno));
		return -1;
	}
	m->path = path;
	m->size = st.st_size;
	m->p = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m->p == MAP_FAILED) {
		fprintf(stderr, "fakedev: mmap %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The device's view of its BAR: 32-bit big-endian registers. */
static uint32_t bar_rd(const struct map *bar, uint32_t off)
{
	return ntohl(__atomic_load_n((uint32_t *)(bar->p + off), __ATOMIC_ACQUIRE));
}

static void bar_wr(struct map *bar, uint32_t off, uint32_t v)
{
	__atomic_store_n((uint32_t *)(bar->p + off), htonl(v), __ATOMIC_RELEASE);
}

static uint64_t below_4g;

/* Guest-physical [gpa, gpa + len) inside the RAM file, or NULL. */
static const uint8_t *gpa_to_host(const struct map *ram, uint64_t gpa, uint64_t len)
{
	const uint64_t four_g = 1ull << 32;
	uint64_t off;

	if (gpa + len < gpa)
		return NULL;
	if (gpa + len <= below_4g)
		off = gpa;
	else if (gpa >= four_g && gpa - four_g + len <= ram->size - below_4g)
		off = below_4g + (gpa - four_g);
	else
		return NULL;
	return ram->p + off;
}

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 0x811c9dc5u;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x01000193u;
	}
	return h;
}

/* Answer one publication of the self-test's DMA buffer. */
static void serve_dma_proof(struct map *bar, const struct map *ram)
{
	uint64_t gpa = (uint64_t)bar_rd(bar, CXPRM_SCRATCH_DMA_HI) << 32 |
		       bar_rd(bar, CXPRM_SCRATCH_DMA_LO);
	uint32_t len = bar_rd(bar, CXPRM_SCRATCH_DMA_LEN);
	const uint8_t *p = gpa_to_host(ram, gpa, len);
	const char str[] = CXPRM_PATTERN_STR;
	unsigned int good = 0, total = 0;
	uint32_t h;

	if (!p || len < sizeof(str)) {
		printf("fakedev: DMA proof: gpa 0x%llx len %u is outside guest RAM\n",
		       (unsigned long long)gpa, len);
		bar_wr(bar, CXPRM_SCRATCH_ACK, 0);
		bar_wr(bar, CXPRM_SCRATCH_ACK_MAGIC, CXPRM_SCRATCH_ACK_MAGIC_VAL);
		return;
	}
	for (uint32_t i = sizeof(str) / 4; i < len / 4; i++) {
		uint32_t v;

		memcpy(&v, p + 4 * i, 4);
		good += v == (CXPRM_PATTERN_BASE | i);
		total++;
	}
	h = fnv1a(p, len);
	printf("fakedev: DMA proof: guest-phys 0x%llx (RAM file offset 0x%llx) len %u: \"%.*s\", pattern dwords %u/%u ok, first 0x%08x last 0x%08x, fnv1a 0x%08x\n",
	       (unsigned long long)gpa, (unsigned long long)(p - ram->p), len,
	       (int)strnlen((const char *)p, sizeof(str)), (const char *)p,
	       good, total, ((const uint32_t *)p)[sizeof(str) / 4],
	       ((const uint32_t *)p)[len / 4 - 1], h);
	fflush(stdout);
	bar_wr(bar, CXPRM_SCRATCH_ACK, h);
	bar_wr(bar, CXPRM_SCRATCH_ACK_MAGIC, CXPRM_SCRATCH_ACK_MAGIC_VAL);
}

int main(int argc, char **argv)
{
	uint32_t fw_rev = 0x00230010;	/* firmware 16.35.x */
	uint32_t cmdif = 0x000507e8;	/* cmdif rev 5, subminor 2024 */
	struct map ram, bar;
	const char *ready, *env;
	unsigned int served = 0;
	int i;

	for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--fw-rev"))
			fw_rev = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--cmdif"))
			cmdif = strtoul(argv[i + 1], NULL, 0);
		else
			break;
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: %s [--fw-rev HEX] [--cmdif HEX] RAM_FILE BAR_FILE\n",
			argv[0]);
		return 2;
	}
	if (map_file(&ram, argv[i]) || map_file(&bar, argv[i + 1]))
		return 1;
	if (bar.size < 0x1000) {
		fprintf(stderr, "fakedev: BAR file smaller than an init segment\n");
		return 1;
	}
	env = getenv("CXPRM_RAM_BELOW_4G");
	below_4g = env ? strtoull(env, NULL, 0) : ram.size;
	if (below_4g > ram.size)
		below_4g = ram.size;

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);

	bar_wr(&bar, 0x0, fw_rev);
	bar_wr(&bar, 0x4, cmdif);
	printf("fakedev: RAM %s (%zu MiB, %llu MiB below 4 GiB), BAR %s (%zu KiB): fw_rev 0x%08x cmdif_rev_fw_sub 0x%08x\n",
	       ram.path, ram.size >> 20, (unsigned long long)below_4g >> 20,
	       bar.path, bar.size >> 10, fw_rev, cmdif);
	fflush(stdout);

	ready = getenv("CXPRM_READY_FILE");
	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0) {
			fprintf(stderr, "fakedev: %s: %s\n", ready, strerror(errno));
			return 1;
		}
		close(fd);
	}

	while (!stop) {
		const struct timespec ms = { 0, 1000000 };

		if (bar_rd(&bar, CXPRM_SCRATCH_MAGIC) == CXPRM_SCRATCH_MAGIC_VAL &&
		    bar_rd(&bar, CXPRM_SCRATCH_ACK_MAGIC) != CXPRM_SCRATCH_ACK_MAGIC_VAL) {
			serve_dma_proof(&bar, &ram);
			served++;
		}
		nanosleep(&ms, NULL);
	}
	printf("fakedev: exiting, %u DMA proof(s) answered\n", served);
	return 0;
}
