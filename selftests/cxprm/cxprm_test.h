/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the cxprm selftests, one header per job:
 *
 *   cxprm_util.h      the clock, small files, polling
 *   cxprm_prm.h       firmware codes (from the core's and emulator's
 *                     X-lists), PRM byte/bit access, command headers
 *   cxprm_dev.h       the device: open, module parameters, raw and typed
 *                     ioctls, privilege dropping
 *   emuctl/emuctl.h   the emulator's test control page: the client
 *                     /bin/emuctl is built on (tools/emulator/emuctl)
 *   cxprm_profiles.h  what the emulator's adapter profiles hold
 *
 * Header-only (static functions) so every test is one .c file; include it
 * after kselftest_harness.h.
 */
#ifndef CXPRM_SELFTEST_H
#define CXPRM_SELFTEST_H

#include "cxprm_util.h"
#include "cxprm_prm.h"
#include "cxprm_dev.h"
#include "emuctl/emuctl.h"	/* tools/emulator/emuctl */
#include "cxprm_profiles.h"

/* nvmf_objs_create on the emulated SSD's I/O queue pair qid, taken afresh. */
static inline int nvmf_objs_on_ssd(int fd, struct emuctl *e, uint32_t qid, struct nvmf_objs *n)
{
	struct emuctl_nvme_queue q;

	memset(n, 0, sizeof(*n));
	if (emuctl_nvme_queue(e, qid, &q)) {
		errno = ENODEV;
		return -1;
	}
	n->nvme.sq_bus = q.sq_bus;
	n->nvme.cq_bus = q.cq_bus;
	n->nvme.sqt_db_bus = q.sqt_db_bus;
	n->nvme.db_stride = (uint8_t)q.db_stride;
	n->nvme.queue_depth = (uint16_t)q.depth;
	return nvmf_objs_create(fd, n);
}

#endif /* CXPRM_SELFTEST_H */
