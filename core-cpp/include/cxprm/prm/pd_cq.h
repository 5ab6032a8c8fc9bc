/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Protection domains (ALLOC_PD / DEALLOC_PD) and completion queues: cqc,
 * CREATE/DESTROY/QUERY_CQ.  A CQ's entries live in host memory listed by
 * the pas[] tail; its doorbell record (two be32: consumer index, arm) at
 * cqc.dbr_addr; uar_page is the UAR page whose doorbell arms it.
 */
#pragma once

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

CXPRM_LAYOUT(alloc_pd_in, 0x80, CXPRM_CMD_IN_UID_HDR)

#define CXPRM_ALLOC_PD_OUT(F) CXPRM_CMD_OUT_OBJ(F, pd)
CXPRM_LAYOUT(alloc_pd_out, 0x80, CXPRM_ALLOC_PD_OUT)

#define CXPRM_DEALLOC_PD_IN(F) CXPRM_CMD_IN_UID_OBJ(F, pd)
CXPRM_LAYOUT(dealloc_pd_in, 0x80, CXPRM_DEALLOC_PD_IN)
CXPRM_LAYOUT(dealloc_pd_out, 0x80, CXPRM_CMD_OUT_HDR)

/*
 * cqe_sz: 0 = 64-byte entries, 1 = 128.  st: 0x6 SOLICITED_NOTIFICATION
 * _REQUEST_ARMED, 0x9 NOTIFICATION_REQUEST_ARMED, 0xa FIRED.
 * c_eqn_or_apu_element: the EQ completions are reported on.
 */
#define CXPRM_CQC(F)                                                            \
	F(status, 0x0, 4)                                                       \
	F(cqe_sz, 0x8, 3)                                                       \
	F(cc, 0xb, 1)                                                           \
	F(oi, 0xe, 1)                                                           \
	F(st, 0x14, 4)                                                          \
	F(page_offset, 0x54, 6)                                                 \
	F(log_cq_size, 0x63, 5)                                                 \
	F(uar_page, 0x68, 0x18)                                                 \
	F(cq_period, 0x84, 0xc)                                                 \
	F(cq_max_count, 0x90, 0x10)                                             \
	F(c_eqn_or_apu_element, 0xa0, 0x20)                                     \
	F(log_page_size, 0xc3, 5)                                               \
	F(last_notified_index, 0x108, 0x18)                                     \
	F(last_solicit_index, 0x128, 0x18)                                      \
	F(consumer_counter, 0x148, 0x18)                                        \
	F(producer_counter, 0x168, 0x18)                                        \
	F(dbr_addr, 0x1c0, 0x40)
CXPRM_LAYOUT(cqc, 0x200, CXPRM_CQC)

#define CXPRM_CREATE_CQ_IN(F)                                                   \
	CXPRM_CMD_IN_UID_HDR(F)                                                 \
	F(cq_context, 0x80, 0x200)                                              \
	F(cq_umem_valid, 0x2e0, 1)
CXPRM_LAYOUT(create_cq_in, 0x880, CXPRM_CREATE_CQ_IN)

using create_cq_in_pas = Tail<create_cq_in, 0x40>;

#define CXPRM_CREATE_CQ_OUT(F) CXPRM_CMD_OUT_OBJ(F, cqn)
CXPRM_LAYOUT(create_cq_out, 0x80, CXPRM_CREATE_CQ_OUT)

#define CXPRM_DESTROY_CQ_IN(F) CXPRM_CMD_IN_UID_OBJ(F, cqn)
CXPRM_LAYOUT(destroy_cq_in, 0x80, CXPRM_DESTROY_CQ_IN)
CXPRM_LAYOUT(destroy_cq_out, 0x80, CXPRM_CMD_OUT_HDR)

#define CXPRM_QUERY_CQ_IN(F) CXPRM_CMD_IN_OBJ(F, cqn)
CXPRM_LAYOUT(query_cq_in, 0x80, CXPRM_QUERY_CQ_IN)

#define CXPRM_QUERY_CQ_OUT(F) CXPRM_CMD_OUT_HDR(F) F(cq_context, 0x80, 0x200)
CXPRM_LAYOUT(query_cq_out, 0x880, CXPRM_QUERY_CQ_OUT)

using query_cq_out_pas = Tail<query_cq_out, 0x40>;

} // namespace cxprm::prm
