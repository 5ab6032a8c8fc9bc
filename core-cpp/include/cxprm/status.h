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
 * The X-lists are plain C (the guest selftests build their constants from
 * them, selftests/cxprm/cxprm_prm.h); the rest is C++.
 */
#pragma once

#define CXPRM_CMD_STATUSES(X)                                                                       \
	X(OK, 0x00, "the command completed successfully")                                           \
	X(INT_ERR, 0x01, "internal firmware error")                                                 \
	X(BAD_OP_ERR, 0x02, "the opcode is not supported")                                          \
	X(BAD_PARAM_ERR, 0x03, "bad parameter: unsupported, out of range or reserved bits set")     \
	X(BAD_SYS_STATE_ERR, 0x04, "the system (HCA) is not in the state the command needs")        \
	X(BAD_RES_ERR, 0x05, "the resource does not exist or is not owned by the caller")           \
	X(RES_BUSY, 0x06, "the resource is busy")                                                   \
	X(LIM_ERR, 0x08, "a limit was exceeded (not enough resources or capability)")               \
	X(BAD_RES_STATE_ERR, 0x09, "the resource is not in the state the command needs")            \
	X(IX_ERR, 0x0a, "an index is out of range")                                                 \
	X(NO_RES_ERR, 0x0f, "no resources left (e.g. no free pages or ICM)")                        \
	X(BAD_QP_STATE_ERR, 0x10, "the QP is not in the state the command needs")                   \
	X(BAD_PKT_ERR, 0x30, "bad packet (discarded)")                                              \
	X(BAD_SIZE_OUTS_CQES_ERR, 0x40, "the CQ is too small for the outstanding completions")      \
	X(BAD_INP_LEN_ERR, 0x50, "the input length is wrong for this command")                      \
	X(BAD_OUTP_LEN_ERR, 0x51, "the output length is wrong for this command")

#define CXPRM_DELIVERY_STATUSES(X)                                                                  \
	X(OK, 0x00, "the command was delivered")                                                    \
	X(SIGNAT_ERR, 0x01, "bad signature on the entry or a mailbox block")                        \
	X(TOK_ERR, 0x02, "a mailbox block's token does not match the entry's token")                \
	X(BAD_BLK_NUM_ERR, 0x03, "a mailbox block number is out of sequence")                       \
	X(OUT_PTR_ALIGN_ERR, 0x04, "the output mailbox pointer is not aligned to the block size")   \
	X(IN_PTR_ALIGN_ERR, 0x05, "the input mailbox pointer is not aligned to the block size")     \
	X(FW_ERR, 0x06, "firmware internal error while delivering the command")                     \
	X(IN_LENGTH_ERR, 0x07, "the input length does not fit the mailbox chain")                   \
	X(OUT_LENGTH_ERR, 0x08, "the output length does not fit the mailbox chain")                 \
	X(RES_FLD_NOT_CLR_ERR, 0x09, "a reserved field of the entry or a mailbox is not zero")      \
	X(CMD_DESCR_ERR, 0x10, "bad command descriptor type (entry type is not PCIe)")

/* 0x12 is not in the 6.1 header; newer and vendor headers have it. */
#define CXPRM_HEALTH_SYNDROMES(X)                                                                   \
	X(FW_INTERNAL_ERR, 0x01, "firmware internal error")                                         \
	X(DEAD_IRISC, 0x07, "a firmware processor (iRISC) stopped responding")                      \
	X(HW_FATAL_ERR, 0x08, "fatal hardware error")                                               \
	X(FW_CRC_ERR, 0x09, "the firmware image failed its CRC check")                              \
	X(ICM_FETCH_PCI_ERR, 0x0a, "a PCI error while fetching ICM (host memory given to firmware)") \
	X(ICM_PAGE_ERR, 0x0b, "an ICM page error (bad host page given to firmware)")                \
	X(ASYNCHRONOUS_EQ_BUF_OVERRUN, 0x0c, "an asynchronous event queue overflowed")              \
	X(EQ_IN_ERR, 0x0d, "an event queue entered the error state")                                \
	X(EQ_INV, 0x0e, "an event was posted to an invalid event queue")                            \
	X(FFSER_ERR, 0x0f, "FFSER error (PRM name; no detail published)")                           \
	X(HIGH_TEMP_ERR, 0x10, "the device overheated")                                             \
	X(ICM_PCI_POISONED_ERR, 0x12, "a poisoned PCI read while fetching ICM")

#ifdef __cplusplus
#include "types.h"

namespace cxprm {

namespace cmd_status {
#define CXPRM_STATUS_ENUM_(n, v, s) n = v,
enum : u8 { CXPRM_CMD_STATUSES(CXPRM_STATUS_ENUM_) };
} // namespace cmd_status

namespace delivery_status {
enum : u8 { CXPRM_DELIVERY_STATUSES(CXPRM_STATUS_ENUM_) };
} // namespace delivery_status

namespace health_synd {
enum : u8 { CXPRM_HEALTH_SYNDROMES(CXPRM_STATUS_ENUM_) };
#undef CXPRM_STATUS_ENUM_
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
