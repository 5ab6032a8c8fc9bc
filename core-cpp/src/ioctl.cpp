// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ioctls of include/uapi/linux/cxprm.h (capi.h, "the ioctls"): what
 * each one means on the struct the caller copied in.  The kernel shim
 * (drivers/cxprm_cdev.c) only copies from and to userspace and checks the
 * capability around these; the CLI's fake device calls the same functions,
 * so the two cannot drift.  The request checks that need no device are in
 * ioctl_check.cpp.
 */
#include "cxprm/capi.h"

#include "cxprm/cmdq.h"
#include "cxprm/errors.h"
#include "cxprm/prm/transport.h"
#include "cxprm/types.h"

#include "capi_core.h"
#include "capi_uapi.h"

using namespace cxprm;

/* The facade's enums and limits are the UAPI's, in every build. */
static_assert((int)CXPRM_CORE_DOWN == CXPRM_STATE_DOWN && (int)CXPRM_CORE_UP == CXPRM_STATE_UP &&
		      (int)CXPRM_CORE_ERROR == CXPRM_STATE_ERROR &&
		      (int)CXPRM_CORE_GONE == CXPRM_STATE_GONE,
	      "enum cxprm_core_state == enum cxprm_state");
static_assert(sizeof(cxprm_caps::caps) == CXPRM_CORE_CAP_BYTES, "cxprm_caps.caps");
static_assert(sizeof(cxprm_event::data) == CXPRM_CORE_EQE_DATA, "cxprm_event.data");
static_assert(CXPRM_MAILBOX_BYTES == prm::MAILBOX_SIZE, "mailbox block size");
static_assert(CXPRM_RAW_MAX == prm::INLINE_BYTES + 64 * prm::MAILBOX_DATA, "CXPRM_RAW_MAX");
static_assert(sizeof(cxprm_raw_dump) == 64 + 64 + 4 * 4, "struct cxprm_raw_dump");
static_assert(sizeof(cxprm_raw_dump::entry_posted) == 64, "cmd_queue_entry");
static_assert(sizeof(cxprm_dct::dctn) == sizeof(cxprm_u32), "dctn");
/* The errno values the UAPI documents are the core's (asm-generic). */
static_assert(E_PERM == -1 && E_NOENT == -2 && E_NOMEM == -12 && E_FAULT == -14 && E_NODEV == -19 && E_INVAL == -22 &&
		      E_NOTTY == -25 && E_NOSPC == -28 && E_NOTSUP == -95 && E_BUSY == -16 &&
		      E_PROTO == -71 && E_BADMSG == -74 && E_OVERFLOW == -75 &&
		      E_SHUTDOWN == -108 && E_TIMEDOUT == -110 && E_HOSTDOWN == -112 &&
		      E_REMOTEIO == -121,
	      "errno values");
#if __STDC_HOSTED__
/* cxprm/uapi.h's _IOC encoding (the freestanding build's) is the system's. */
static_assert(CXPRM_IOC_INFO == CXPRM_IOC_ENCODE(2U, CXPRM_IOC_MAGIC, 0x00U, sizeof(cxprm_info)) &&
		      CXPRM_IOC_DCT_CREATE ==
			      CXPRM_IOC_ENCODE(3U, CXPRM_IOC_MAGIC, 0x10U, sizeof(cxprm_dct)) &&
		      CXPRM_IOC_SUBSCRIBE ==
			      CXPRM_IOC_ENCODE(1U, CXPRM_IOC_MAGIC, 0x40U, sizeof(cxprm_subscribe)),
	      "_IOC encoding");
#endif

namespace {

/* The names struct cxprm_info shares with struct cxprm_core_info. */
#define CXPRM_UAPI_INFO(X)                                                              \
	X(fw_major) X(fw_minor) X(fw_subminor) X(cmdif_rev) X(state) X(cmdq_entries)   \
	X(cmdq_log_stride) X(issi) X(health_syndrome) X(pages_given) X(pages_reclaimed) \
	X(commands) X(async_eqn) X(comp_eqn) X(recoveries) X(recovery) X(recovery_err)      \
	X(recovery_attempts)

} // namespace

extern "C" {

int cxprm_core_ioc_allowed(unsigned int cmd, int up)
{
	/* Commands need an HCA that came up; INFO tells why it did not. */
	if (up || cmd == CXPRM_IOC_INFO || cmd == CXPRM_IOC_STATS || cmd == CXPRM_IOC_SUBSCRIBE)
		return OK;
	return _IOC_TYPE(cmd) == CXPRM_IOC_MAGIC ? E_NODEV : E_NOTTY;
}

int cxprm_core_ioc_info(cxprm_core *c, cxprm_info *i)
{
	if (!c || !i)
		return E_INVAL;
	cxprm_core_info ci;
	cxprm_core_get_info(c, &ci);
#define CXPRM_INFO_COPY_(f) i->f = ci.f;
	CXPRM_UAPI_INFO(CXPRM_INFO_COPY_)
#undef CXPRM_INFO_COPY_
	i->flags |= (ci.failed_err ? CXPRM_INFO_FAILED : 0) | (ci.ecpf ? CXPRM_INFO_ECPF : 0) |
		    (ci.cmd_checksum ? CXPRM_INFO_CMD_CHECKSUM : 0);
	return OK;
}

int cxprm_core_ioc_caps(cxprm_core *c, cxprm_caps *k)
{
	int err = cxprm_core_typed_check(CXPRM_IOC_QUERY_CAPS, k);
	if (err)
		return err;
	cxprm_core_result r{};
	k->st = {};
	mem_zero(k->caps, sizeof(k->caps));
	err = cxprm_core_query_caps(c, k->cap_type, k->max, k->caps, &r);
	k->st = r.st;
	return capi::ioc_ret(err);
}

int cxprm_core_ioc_nvmf_ns(cxprm_core *c, cxprm_nvmf_ns *n)
{
	int err = cxprm_core_typed_check(CXPRM_IOC_NVMF_NS, n);
	if (err)
		return err;
	return capi::ioc_ret(cxprm_core_query_nvmf_ns(c, n, nullptr));
}

int cxprm_core_ioc_esw(cxprm_core *c, cxprm_esw_functions *e)
{
	int err = cxprm_core_typed_check(CXPRM_IOC_ESW_FUNCTIONS, e);
	if (err)
		return err;
	return capi::ioc_ret(cxprm_core_query_esw(c, e, CXPRM_ESW_MAX_SF_WORDS, nullptr));
}

int cxprm_core_ioc_is_typed(unsigned int cmd)
{
	return cmd == CXPRM_IOC_QUERY_CAPS || cmd == CXPRM_IOC_NVMF_NS ||
	       cmd == CXPRM_IOC_ESW_FUNCTIONS || cxprm_core_ioc_is_dct(cmd);
}

int cxprm_core_ioc_typed(cxprm_core *c, unsigned int cmd, cxprm_core_dcts *t, void *k)
{
	switch (cmd) {
	case CXPRM_IOC_QUERY_CAPS:
		return cxprm_core_ioc_caps(c, (cxprm_caps *)k);
	case CXPRM_IOC_NVMF_NS:
		return cxprm_core_ioc_nvmf_ns(c, (cxprm_nvmf_ns *)k);
	case CXPRM_IOC_ESW_FUNCTIONS:
		return cxprm_core_ioc_esw(c, (cxprm_esw_functions *)k);
	default:
		return cxprm_core_ioc_dct(c, cmd, t, (cxprm_dct *)k);
	}
}

int cxprm_core_ioc_stats(cxprm_core *c, cxprm_stats *s, cxprm_opcode_stats *entries)
{
	if (!s)
		return E_INVAL;
	u32 max = entries ? min_of<u32>(s->capacity, CXPRM_CORE_MAX_OPCODES) : 0;
	cxprm_u64 total = 0;
	s->count = cxprm_core_stats(c, entries, max, &total);
	s->total = total;
	return OK;
}

int cxprm_core_ioc_raw(cxprm_core *c, cxprm_raw_cmd *rc, const void *in, void *out,
		       const cxprm_core_raw_plan *plan, cxprm_core_capture *cap)
{
	if (!rc || !plan || (plan->dump && !cap))
		return E_INVAL;
	if (cap) /* never more blocks than the dump buffer holds */
		cap->blocks_cap = cap->blocks ? plan->blocks_cap : 0;
	cxprm_core_result r{};
	int err = cxprm_core_raw(c, in, rc->inlen, out, rc->outlen, &r, plan->dump ? cap : nullptr);
	/* Status and wire dump go back on transport errors too. */
	rc->st = r.st;
	rc->dump_len = 0;
	if (plan->dump && r.token)
		rc->dump_len = (u32)sizeof(cap->hdr) +
			       (cap->hdr.in_blocks + cap->hdr.out_blocks) * CXPRM_MAILBOX_BYTES;
	return capi::ioc_ret(err);
}

} // extern "C"
