/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What one firmware command came to, and the bytes it put on the wire: one
 * type each for every layer.  The engine (Cmdq::exec) fills them, the C
 * facade returns them, and their first members are the UAPI's own structs,
 * which the ioctls copy to userspace as they are:
 *   - cxprm_core_result.st is struct cxprm_cmd_status (delivery, status,
 *     opcode, syndrome, latency); the rest says where the command ran;
 *   - cxprm_core_capture.hdr is struct cxprm_raw_dump (the entry as rung
 *     and as handed back, block counts, slot); the blocks go to the
 *     caller's buffer.
 * Plain C, like capi.h; C++ code calls them CmdResult and CmdCapture.
 */
#ifndef CXPRM_CMD_RESULT_H
#define CXPRM_CMD_RESULT_H

#include "host.h"
#include "uapi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cxprm_core_result {
	struct cxprm_cmd_status st; /* st.delivery: cmd_queue_entry.status, 0 = OK;
				     * st.status, st.syndrome: cmd_out's, valid
				     * when delivered; st.latency_ns: doorbell to
				     * ownership back; st.opcode: the input's */
	__UINT16_TYPE__ op_mod;     /* the input's */
	cxprm_u8 slot;              /* the queue slot it ran in */
	cxprm_u8 token;             /* 0: never posted */
	cxprm_u32 reserved;
};

struct cxprm_core_capture {
	struct cxprm_raw_dump hdr; /* out */
	cxprm_u8 *blocks;          /* caller's buffer, blocks_cap * 576 bytes (may be NULL) */
	cxprm_u32 blocks_cap;
};

#ifdef __cplusplus
}

namespace cxprm {
using CmdResult = cxprm_core_result;
using CmdCapture = cxprm_core_capture;
} // namespace cxprm
#endif

#endif /* CXPRM_CMD_RESULT_H */
