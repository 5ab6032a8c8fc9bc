/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Private to the C facade (capi.cpp: ABI glue; capi_text.cpp: debugfs
 * texts): the object behind struct cxprm_core and the small reads both
 * files make.  Not installed, not included outside core-cpp/src.
 */
#pragma once

#include "cxprm/capi.h"
#include "cxprm/device.h"
#include "cxprm/events.h"
#include "cxprm/piece_pool.h"
#include "cxprm/prm/opcodes.h"
#include "roce.h"

namespace cxprm::capi {
struct ObjMem;
} // namespace cxprm::capi
struct cxprm_core_objs;

struct cxprm_core {
	/* Placement form only: the memory comes from the host. */
	static void *operator new(cxprm::usize, void *p) noexcept { return p; }
	static void operator delete(void *, void *) noexcept {}

	const cxprm_host *host = nullptr;
	cxprm::Device dev;
	cxprm::Events ev;
	bool command_events = false;
	/* Bring-up succeeded and no teardown since: commands may be sent (ioctl_entry.cpp). */
	bool up = false;
	/* What INFO reports of the host's side (cxprm_core_set_identity). */
	cxprm_info ident{};
	cxprm_core_event_fn listener = nullptr;
	void *listener_ctx = nullptr;
	/*
	 * The doorbell records of every file's queues (ioctl_objects.cpp);
	 * freed last, after the queue memory below.
	 */
	cxprm::PiecePool dbr;
	/* Queue memory of objects whose destroy failed (objects_table.cpp). */
	cxprm::capi::ObjMem *kept = nullptr;
	/* Tables of closed files whose objects others still name (same file). */
	cxprm_core_objs *orphans = nullptr;
	/* RoCE for the function (roce.h). */
	cxprm::capi::Roce roce;
	/* The automatic recovery's rules (recover.cpp). */
	cxprm_core_recovery_config recovery{};
	/* CXPRM_IOC_BATCH's two pieces of memory, kept for the next batch (ioctl_batch.cpp). */
	void *batch_kept[2] = {};
};

namespace cxprm::capi {

/*
 * CREATE_DCT's checks and RoCE set-up, then its input at in
 * (create_dct_in::size_bytes): cxprm_core_dct_create's and the DCT
 * ioctl's.  OK, or the error with *r and *op saying which command failed
 * (*op 0: none was sent).
 */
int dct_create_prepare(cxprm_core *c, const cxprm_dctc *ctx, u8 *in, CmdResult *r, u16 *op);

/*
 * A typed ioctl's return for its command's result: a firmware status is a
 * result (in st), not an error; a value that does not fit a PRM field is
 * the caller's bad argument.
 */
inline int ioc_ret(int err)
{
	if (err == E_REMOTEIO)
		return OK;
	return err == E_RANGE ? E_INVAL : err;
}

/* The queue's lock exists only while it is up: stats need it. */
inline bool queue_up(cxprm_core *c)
{
	return c->dev.cmdq().queue_page().cpu != nullptr;
}

inline u32 read_iseg(const cxprm_host *h, u32 off)
{
	return h->ops->ioread32be(h->ctx, off);
}

inline const char *opname(u16 op)
{
	const char *n = prm::opcode_name(op);
	return n ? n : "UNKNOWN";
}

/*
 * A file's DCT or object table (n entries, table locked): the index of the
 * entry named (match(i)), or -1.  The firmware may hand a number out again
 * while the DESTROY of its last owner is in flight, so a table can hold it
 * twice: claimed picks the entry a DESTROY, DRAIN or QP_MODIFY marked busy
 * (busy(i)), else an entry not busy is preferred.
 */
template <class Match, class Busy> int table_find(u32 n, Match match, Busy busy, bool claimed)
{
	int any = -1;
	for (u32 i = 0; i < n; i++) {
		if (!match(i))
			continue;
		if (busy(i) == claimed)
			return (int)i;
		any = (int)i;
	}
	return claimed ? -1 : any;
}

/*
 * Object queue memory kept because its destroy failed (objects_table.cpp):
 * how many, and freeing it once the device can no longer write it.
 */
u32 kept_count(cxprm_core *c);
u32 kept_release(cxprm_core *c);
/* Orphan tables freed without a command, their queue memory kept. */
u32 orphans_release(cxprm_core *c);
/* Frees the memory batches keep (ioctl_batch.cpp); at destroy. */
void batch_kept_release(cxprm_core *c);
/*
 * The firmware lost t's objects (cxprm_core_file_forget): each is
 * remembered as lost (-ESTALE when named), its queue memory kept.
 */
void objs_forget(cxprm_core *c, cxprm_core_objs *t);

} // namespace cxprm::capi
