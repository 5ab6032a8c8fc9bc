/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * CREATE_DCT, QUERY_DCT, DRAIN_DCT, DESTROY_DCT (prm/dct.h).
 *
 * DctContext has one member per prm::dctc field, same name (generated from
 * the layout's field list): pd, cqn, srqn_xrqn, dc_access_key, mtu, port,
 * pkey_index, rre, rwe, rae, atomic_mode, atomic_like_write_en, hop_limit,
 * flow_label, tclass, min_rnr_nak, user_index, my_addr_index, cs_res,
 * counter_set_id, dscp, ecn, eth_prio, dei_cfi, ece, ... and the read-only
 * state and dc_access_key_violation_count, which CREATE_DCT sends as 0.
 */
#pragma once

#include "common.h"
#include "../prm/dct.h"

namespace cxprm::cmd {

#define CXPRM_DCTC_MEMBER_(name, off, width) u64 name;
struct DctContext {
	CXPRM_DCTC(CXPRM_DCTC_MEMBER_)
};
#undef CXPRM_DCTC_MEMBER_

/* dctc.state */
enum : u8 { DCT_STATE_ACTIVE = 0, DCT_STATE_DRAINING = 1, DCT_STATE_DRAINED = 2 };

/*
 * CREATE_DCT -> *dctn (and *ece, optional).  E_RANGE (nothing sent) when a
 * member does not fit its dctc field.
 */
int create_dct(Cmdq &q, const DctContext &c, u32 *dctn, u32 *ece = nullptr, u16 uid = 0,
	       CmdResult *res = nullptr);
/* Its input (create_dct_in::size_bytes); E_RANGE as create_dct. */
int encode_create_dct(u8 *in, const DctContext &c, u16 uid);
int decode_create_dct(const void *out, u32 outlen, u32 *dctn, u32 *ece);
int query_dct(Cmdq &q, u32 dctn, DctContext *c, CmdResult *res = nullptr);
int decode_query_dct(const void *out, u32 outlen, DctContext *c);
/* Its input (query_dct_in::size_bytes); E_RANGE when dctn does not fit. */
int encode_query_dct(u8 *in, u32 dctn);
int drain_dct(Cmdq &q, u32 dctn, u16 uid = 0, CmdResult *res = nullptr);
/* Its input (drain_dct_in::size_bytes, uid 0); E_RANGE when dctn does not fit. */
int encode_drain_dct(u8 *in, u32 dctn);
int destroy_dct(Cmdq &q, u32 dctn, u16 uid = 0, CmdResult *res = nullptr);
/*
 * The whole destroy as Linux does it (cmd_dct.cpp): DRAIN_DCT unless it is
 * draining or drained already, wait (bounded by timeout_ns, QUERY_DCT) for
 * DRAINED, DESTROY_DCT.  *failed_op (optional) = the opcode whose result
 * res holds (the failing one, or DESTROY_DCT).
 */
inline constexpr u64 DCT_DRAIN_TIMEOUT_NS = 10ull * 1000 * 1000 * 1000;
int destroy_dct_drained(Cmdq &q, u32 dctn, u64 timeout_ns = DCT_DRAIN_TIMEOUT_NS,
			CmdResult *res = nullptr, u16 *failed_op = nullptr);

/* Writes/reads a dctc layout (64 bytes); encode fails with E_RANGE. */
int encode_dctc(const DctContext &c, u8 *dctc);
void decode_dctc(const u8 *dctc, DctContext *c);

} // namespace cxprm::cmd
