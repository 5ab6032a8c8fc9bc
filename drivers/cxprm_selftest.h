/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A self-test of the shim, written in C++ (cxprm_selftest.cpp) and called
 * from the C probe.  It proves that C++ objects link into cxprm.ko and reach
 * the device only through the host interface of <cxprm/host.h>:
 *
 *  - reads fw_rev and cmdif_rev_fw_sub of the init segment;
 *  - exercises mem_alloc, locks, waiters, the clock and sleep;
 *  - in scratch mode (QEMU ivshmem only: the offsets are reserved space of a
 *    real ConnectX init segment and must never be written there) it fills a
 *    DMA buffer with a pattern, publishes its bus address in the scratch
 *    dwords below and waits for the host-side program to answer with the
 *    FNV-1a hash of what it read from guest RAM.
 *
 * Temporary: goes away once the core's own code drives the device.
 */
#ifndef CXPRM_SELFTEST_H
#define CXPRM_SELFTEST_H

#include <cxprm/host.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch dwords (big-endian, like the rest of the init segment). */
#define CXPRM_SCRATCH_DMA_HI		0x20
#define CXPRM_SCRATCH_DMA_LO		0x24
#define CXPRM_SCRATCH_DMA_LEN		0x28
#define CXPRM_SCRATCH_MAGIC		0x2c	/* guest: buffer is ready */
#define CXPRM_SCRATCH_ACK		0x30	/* host: FNV-1a of the buffer */
#define CXPRM_SCRATCH_ACK_MAGIC		0x34	/* host: ACK is valid */
#define CXPRM_SCRATCH_MAGIC_VAL		0x43584450u	/* "CXDP" */
#define CXPRM_SCRATCH_ACK_MAGIC_VAL	0x4358414bu	/* "CXAK" */

/* The pattern: this string (with its NUL), then dword i = BASE | i. */
#define CXPRM_PATTERN_STR		"CXPRM-DMA-PROOF"
#define CXPRM_PATTERN_BASE		0xc0de0000u
#define CXPRM_PATTERN_LEN		4096u
#define CXPRM_SCRATCH_ACK_TIMEOUT_NS	(5ull * 1000 * 1000 * 1000)

struct cxprm_selftest {
	/* Filled by cxprm_selftest_run(). */
	cxprm_u32 fw_rev;
	cxprm_u32 cmdif_rev_fw_sub;
	int host_rc;		/* 0, or -errno of the first failed check */
	const char *host_fail;	/* which check failed */

	/* Scratch mode only. */
	int scratch;
	struct cxprm_dma_buf dma;
	cxprm_u32 fnv;		/* FNV-1a of the buffer, computed here */
	cxprm_u32 ack;		/* what the host program answered */
	int ack_rc;		/* 0 match, -ETIMEDOUT, -EIO mismatch */
	cxprm_u64 ack_ns;	/* publish to answer */
};

/* Returns st->host_rc; a scratch ack failure only sets st->ack_rc. */
int cxprm_selftest_run(const struct cxprm_host *host, int scratch,
		       struct cxprm_selftest *st);
/* Withdraws the scratch publication and frees the buffer. */
void cxprm_selftest_fini(const struct cxprm_host *host,
			 struct cxprm_selftest *st);

#ifdef __cplusplus
}
#endif

#endif /* CXPRM_SELFTEST_H */
