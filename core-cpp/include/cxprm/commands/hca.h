/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * HCA life cycle and capabilities: QUERY_HCA_CAP, SET_HCA_CAP, ENABLE_HCA,
 * DISABLE_HCA, INIT_HCA, TEARDOWN_HCA (prm/hca_cap.h, prm/hca.h).
 */
#pragma once

#include "common.h"
#include "pages.h"
#include "../prm/hca_cap.h"
#include "../prm/opcodes.h"

namespace cxprm::cmd {

/*
 * The general capabilities, decoded: one member per field that
 * prm::cmd_hca_cap lists, same name (generated from its field list, so a
 * field added to the layout appears here and in the decoder).
 */
#define CXPRM_GC_MEMBER_(name, off, width) u64 name;
struct GeneralCaps {
	CXPRM_CMD_HCA_CAP(CXPRM_GC_MEMBER_)
};
#undef CXPRM_GC_MEMBER_

/* Bytes of a capability image (query_hca_cap_out.capability). */
inline constexpr u32 CAP_IMAGE_BYTES = prm::HCA_CAP_BYTES;

/* Whose capabilities: this function, or another one (other_function). */
struct CapTarget {
	bool other_function = false;
	u16 function_id = 0;
};

/*
 * QUERY_HCA_CAP: copies the CAP_IMAGE_BYTES capability image of
 * 'cap_type' (prm::cap::Type) in 'mode' (MAX/CUR) to image.
 */
int query_hca_cap(Cmdq &q, u16 cap_type, prm::cap::Mode mode, u8 *image,
		  CmdResult *res = nullptr, const CapTarget &target = {});
/* QUERY_HCA_CAP of cap::GENERAL, decoded; image (optional) gets the raw bytes. */
int query_general_caps(Cmdq &q, prm::cap::Mode mode, GeneralCaps *caps, u8 *image = nullptr,
		       CmdResult *res = nullptr);
/* The capability image inside a query_hca_cap_out of outlen bytes. */
int decode_query_hca_cap(const void *out, u32 outlen, const u8 **image);
/* Its input (query_hca_cap_in::size_bytes); E_INVAL for a bad mode or type. */
int encode_query_hca_cap(u8 *in, u16 cap_type, prm::cap::Mode mode, const CapTarget &target = {});
/* Decodes a general capability image (CAP_IMAGE_BYTES). */
void decode_general_caps(const u8 *image, GeneralCaps *caps);

/* SET_HCA_CAP: writes the image of cap_type (op_mod = cap_type << 1). */
int set_hca_cap(Cmdq &q, u16 cap_type, const u8 *image, CmdResult *res = nullptr,
		const CapTarget &target = {});

/* ENABLE_HCA / DISABLE_HCA of a function (function_id 0 = this one). */
int enable_hca(Cmdq &q, const FunctionRef &fn = {}, CmdResult *res = nullptr);
int disable_hca(Cmdq &q, const FunctionRef &fn = {}, CmdResult *res = nullptr);

/* INIT_HCA.  sw_owner_id is sent only when given (cap sw_owner_id). */
struct InitHcaParams {
	u16 sw_vhca_id = 0;
	bool set_sw_owner_id = false;
	u32 sw_owner_id[4] = {};
};
int init_hca(Cmdq &q, const InitHcaParams &p = {}, CmdResult *res = nullptr);

/* teardown_hca_in.profile (prm::teardown_profile). */
enum class TeardownProfile : u16 { GRACEFUL = 0, FORCE = 1, PREPARE_FAST = 2 };

/*
 * TEARDOWN_HCA.  *state (optional) = teardown_hca_out.state
 * (prm::teardown_state: 0 SUCCESS, 1 FAIL).  A FAIL state with status OK
 * returns OK: the caller decides (the force profile reports it).
 */
int teardown_hca(Cmdq &q, TeardownProfile profile, u8 *state = nullptr,
		 CmdResult *res = nullptr);

} // namespace cxprm::cmd
