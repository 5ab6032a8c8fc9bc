/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Codes the firmware reports, with their PRM names and a sentence each:
 *
 *   - command status: cmd_out.status, the outcome of an executed command
 *     (MLX5_CMD_STAT_* of device.h);
 *   - delivery status: cmd_queue_entry.status, whether the command could be
 *     delivered at all (the values of the Linux driver's core/cmd.c);
 *   - health syndrome: health_buffer.synd / initial_seg.health_syndrome
 *     (MLX5_INITIAL_SEG_HEALTH_SYNDROME_* of mlx5_ifc.h).
 *
 * Names never come back null: an unknown code is "UNKNOWN", with a sentence
 * saying so.
 *
 * The codes themselves are rows of status_codes.def (plain C: the guest
 * selftests build their constants from it, selftests/cxprm/cxprm_prm.h);
 * this header is C++.
 */
#pragma once

#ifdef __cplusplus
#include "types.h"

namespace cxprm {

namespace cmd_status {
enum : u8 {
#define CXPRM_CMD_STATUS_ROW(n, v, s) n = v,
#include "status_codes.def"
};
} // namespace cmd_status

namespace delivery_status {
enum : u8 {
#define CXPRM_DELIVERY_STATUS_ROW(n, v, s) n = v,
#include "status_codes.def"
};
} // namespace delivery_status

namespace health_synd {
enum : u8 {
#define CXPRM_HEALTH_SYND_ROW(n, v, s) n = v,
#include "status_codes.def"
};
} // namespace health_synd

/* "BAD_PARAM_ERR" for 0x03; "UNKNOWN" for a code not in the list. */
const char *cmd_status_name(u8 status);
const char *cmd_status_text(u8 status);

/* "SIGNAT_ERR" for 0x01; "UNKNOWN" for a code not in the list. */
const char *delivery_status_name(u8 status);
const char *delivery_status_text(u8 status);

/* "DEAD_IRISC" for 0x07; "UNKNOWN" for a code not in the list (0 = none). */
const char *health_syndrome_name(u8 synd);
const char *health_syndrome_text(u8 synd);

} // namespace cxprm
#endif /* __cplusplus */
