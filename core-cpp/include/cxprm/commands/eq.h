/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* CREATE_EQ / DESTROY_EQ and ALLOC_UAR / DEALLOC_UAR (prm/eq.h). */
#pragma once

#include "common.h"

namespace cxprm::cmd {

struct EqParams {
	u8 log_eq_size = 0;    /* 2^n 64-byte entries */
	u32 uar_page = 0;      /* UAR page of the doorbell (ALLOC_UAR) */
	u16 intr = 0;          /* MSI-X vector */
	u8 log_page_size = 0;  /* log2(page size / 4 KiB) of pas[] */
	u8 page_offset = 0;
	bool oi = false;       /* overrun ignore */
	bool ec = false;
	u16 uid = 0;
	u64 event_bitmask[4] = {}; /* bit t of word t/64 = event type t */
	const u64 *pas = nullptr;  /* bus addresses of the queue pages */
	u32 npas = 0;
};

/* Sets event type t in an EqParams::event_bitmask. */
inline void eq_subscribe(EqParams &p, u8 type) { p.event_bitmask[type / 64] |= 1ull << (type % 64); }

/*
 * CREATE_EQ -> *eqn.  E_RANGE when a value does not fit its eqc field,
 * E_INVAL when pas[] is missing, too short for the queue, or unaligned.
 */
int create_eq(Cmdq &q, const EqParams &p, u8 *eqn, CmdResult *res = nullptr);
int decode_create_eq(const void *out, u32 outlen, u8 *eqn);
int destroy_eq(Cmdq &q, u8 eqn, CmdResult *res = nullptr);

int alloc_uar(Cmdq &q, u32 *uar, CmdResult *res = nullptr);
int dealloc_uar(Cmdq &q, u32 uar, CmdResult *res = nullptr);

} // namespace cxprm::cmd
