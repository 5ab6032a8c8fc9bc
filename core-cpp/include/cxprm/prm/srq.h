/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Shared receive queues: srqc and CREATE/DESTROY/QUERY_SRQ; the work-queue
 * context wq and extended receive queues: xrqc, CREATE/DESTROY_XRQ.
 *
 * Linux's mlx5_ib creates a plain SRQ with CREATE_SRQ at ISSI 0 and with
 * CREATE_RMP above (srq_cmd.c); cxprm uses CREATE_SRQ, whose srqn a dctc or
 * qpc names the same way (prm-notes-objects.rst, "Objects").  An XRQ with
 * xrqc.offload = XRQ_OFFLOAD_NVMF carries the NVMe-oF target offload
 * context (nvmf.h nvme_offload_context: vendor layout, provisional).
 */
#pragma once

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/* log_rq_stride: log2(stride / 16 B); log_page_size: log2(page / 4 KiB). */
#define CXPRM_SRQC(F)                                                           \
	F(state, 0x0, 4)                                                        \
	F(log_srq_size, 0x4, 4)                                                 \
	F(wq_signature, 0x20, 1)                                                \
	F(cont_srq, 0x21, 1)                                                    \
	F(rlky, 0x23, 1)                                                        \
	F(log_rq_stride, 0x25, 3)                                               \
	F(xrcd, 0x28, 0x18)                                                     \
	F(page_offset, 0x40, 6)                                                 \
	F(cqn, 0x48, 0x18)                                                      \
	F(log_page_size, 0x82, 6)                                               \
	F(pd, 0xc8, 0x18)                                                       \
	F(lwm, 0xe0, 0x10)                                                      \
	F(wqe_cnt, 0xf0, 0x10)                                                  \
	F(dbr_addr, 0x140, 0x40)
CXPRM_LAYOUT(srqc, 0x200, CXPRM_SRQC)

#define CXPRM_CREATE_SRQ_IN(F) CXPRM_CMD_IN_UID_HDR(F) F(srq_context_entry, 0x80, 0x200)
CXPRM_LAYOUT(create_srq_in, 0x880, CXPRM_CREATE_SRQ_IN)

using create_srq_in_pas = Tail<create_srq_in, 0x40>;

#define CXPRM_CREATE_SRQ_OUT(F) CXPRM_CMD_OUT_OBJ(F, srqn)
CXPRM_LAYOUT(create_srq_out, 0x80, CXPRM_CREATE_SRQ_OUT)

#define CXPRM_DESTROY_SRQ_IN(F) CXPRM_CMD_IN_UID_OBJ(F, srqn)
CXPRM_LAYOUT(destroy_srq_in, 0x80, CXPRM_DESTROY_SRQ_IN)
CXPRM_LAYOUT(destroy_srq_out, 0x80, CXPRM_CMD_OUT_HDR)

#define CXPRM_QUERY_SRQ_IN(F) CXPRM_CMD_IN_OBJ(F, srqn)
CXPRM_LAYOUT(query_srq_in, 0x80, CXPRM_QUERY_SRQ_IN)

#define CXPRM_QUERY_SRQ_OUT(F) CXPRM_CMD_OUT_HDR(F) F(srq_context_entry, 0x80, 0x200)
CXPRM_LAYOUT(query_srq_out, 0x880, CXPRM_QUERY_SRQ_OUT)

/*
 * wq_type: WQ_TYPE_*; an RMP or XRQ is a linked list (Linux and the vendor
 * never set it: ib/srq_cmd.c set_wq).  log_wq_stride: log2 of the stride in
 * bytes, unlike srqc.log_rq_stride (set_wq writes wqe_shift + 4, set_srqc
 * wqe_shift).  log_wq_pg_sz: log2(page / 4 KiB).  Its pas[] is the
 * command's tail.
 */
#define CXPRM_WQ(F)                                                             \
	F(wq_type, 0x0, 4)                                                      \
	F(wq_signature, 0x4, 1)                                                 \
	F(page_offset, 0x2b, 5)                                                 \
	F(lwm, 0x30, 0x10)                                                      \
	F(pd, 0x48, 0x18)                                                       \
	F(uar_page, 0x68, 0x18)                                                 \
	F(dbr_addr, 0x80, 0x40)                                                 \
	F(hw_counter, 0xc0, 0x20)                                               \
	F(sw_counter, 0xe0, 0x20)                                               \
	F(log_wq_stride, 0x10c, 4)                                              \
	F(log_wq_pg_sz, 0x113, 5)                                               \
	F(log_wq_sz, 0x11b, 5)
CXPRM_LAYOUT(wq, 0x600, CXPRM_WQ)

inline constexpr u8 WQ_TYPE_LINKED_LIST = 0;
inline constexpr u8 WQ_TYPE_CYCLIC = 1;

/* offload: 0 none, XRQ_OFFLOAD_RNDV 1, XRQ_OFFLOAD_NVMF 2 (vendor value). */
inline constexpr u8 XRQ_OFFLOAD_RNDV = 1;
inline constexpr u8 XRQ_OFFLOAD_NVMF = 2;

#define CXPRM_XRQC(F)                                                           \
	F(state, 0x0, 4)                                                        \
	F(rlkey, 0x4, 1)                                                        \
	F(topology, 0x14, 4)                                                    \
	F(offload, 0x1c, 4)                                                     \
	F(user_index, 0x28, 0x18)                                               \
	F(cqn, 0x48, 0x18)                                                      \
	F(tag_matching_topology_context, 0x100, 0x80)                           \
	F(nvme_offload_context, 0x180, 0x200)                                   \
	F(wq, 0x400, 0x600)
CXPRM_LAYOUT(xrqc, 0xa00, CXPRM_XRQC)

#define CXPRM_CREATE_XRQ_IN(F) CXPRM_CMD_IN_UID_HDR(F) F(xrq_context, 0x80, 0xa00)
CXPRM_LAYOUT(create_xrq_in, 0xa80, CXPRM_CREATE_XRQ_IN)

using create_xrq_in_pas = Tail<create_xrq_in, 0x40>;

#define CXPRM_CREATE_XRQ_OUT(F) CXPRM_CMD_OUT_OBJ(F, xrqn)
CXPRM_LAYOUT(create_xrq_out, 0x80, CXPRM_CREATE_XRQ_OUT)

#define CXPRM_DESTROY_XRQ_IN(F) CXPRM_CMD_IN_UID_OBJ(F, xrqn)
CXPRM_LAYOUT(destroy_xrq_in, 0x80, CXPRM_DESTROY_XRQ_IN)
CXPRM_LAYOUT(destroy_xrq_out, 0x80, CXPRM_CMD_OUT_HDR)

} // namespace cxprm::prm
