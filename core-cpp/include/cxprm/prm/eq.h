/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Event queues: eqc, CREATE/DESTROY/QUERY_EQ, the 64-byte event entry and
 * the event payloads the core decodes; ALLOC_UAR/DEALLOC_UAR (an EQ needs a
 * UAR page for its doorbell).  Event types: event:: in opcodes.h.
 */
#pragma once

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/* st: 0x9 ARMED, 0xa FIRED.  log_page_size = log2(page size / 4 KiB). */
#define CXPRM_EQC(F)                                                            \
	F(status, 0x0, 4)                                                       \
	F(ec, 0xd, 1)                                                           \
	F(oi, 0xe, 1)                                                           \
	F(st, 0x14, 4)                                                          \
	F(page_offset, 0x54, 6)                                                 \
	F(log_eq_size, 0x63, 5)                                                 \
	F(uar_page, 0x68, 0x18)                                                 \
	F(intr, 0xb4, 0xc)                                                      \
	F(log_page_size, 0xc3, 5)                                               \
	F(consumer_counter, 0x148, 0x18)                                        \
	F(producer_counter, 0x168, 0x18)
CXPRM_LAYOUT(eqc, 0x200, CXPRM_EQC)

/* event_bitmask: 4 x 64 bits, bit t of the 256 = event type t. */
#define CXPRM_CREATE_EQ_IN(F)                                                   \
	CXPRM_CMD_IN_UID_HDR(F)                                                 \
	F(eq_context_entry, 0x80, 0x200)                                        \
	F(event_bitmask, 0x2c0, 0x100)
CXPRM_LAYOUT(create_eq_in, 0x880, CXPRM_CREATE_EQ_IN)

using create_eq_in_pas = Tail<create_eq_in, 0x40>;

#define CXPRM_CREATE_EQ_OUT(F) CXPRM_CMD_OUT_HDR(F) F(eq_number, 0x58, 8)
CXPRM_LAYOUT(create_eq_out, 0x80, CXPRM_CREATE_EQ_OUT)

/* DESTROY_EQ and QUERY_EQ: the EQ number only (8 bits, not an object number). */
#define CXPRM_EQN_ONLY_IN(F) CXPRM_CMD_IN_HDR(F) F(eq_number, 0x58, 8)
CXPRM_LAYOUT(destroy_eq_in, 0x80, CXPRM_EQN_ONLY_IN)
CXPRM_LAYOUT(destroy_eq_out, 0x80, CXPRM_CMD_OUT_HDR)
CXPRM_LAYOUT(query_eq_in, 0x80, CXPRM_EQN_ONLY_IN)

/* Only the first 64 event types are reported back. */
#define CXPRM_QUERY_EQ_OUT(F)                                                   \
	CXPRM_CMD_OUT_HDR(F)                                                    \
	F(eq_context_entry, 0x80, 0x200)                                        \
	F(event_bitmask, 0x2c0, 0x40)
CXPRM_LAYOUT(query_eq_out, 0x880, CXPRM_QUERY_EQ_OUT)

using query_eq_out_pas = Tail<query_eq_out, 0x40>;

/*
 * The event entry.  owner is bit 0 of the last byte; the valid value flips
 * on each wrap of the queue.  event_data is the 28-byte payload, one of the
 * layouts below according to event_type.
 */
#define CXPRM_EQE(F)                                                            \
	F(event_type, 0x8, 8)                                                   \
	F(event_sub_type, 0x18, 8)                                              \
	F(event_data, 0x100, 0xe0)                                              \
	F(signature, 0x1f0, 8)                                                  \
	F(owner, 0x1ff, 1)
CXPRM_LAYOUT(eqe, 0x200, CXPRM_EQE)

inline constexpr u32 EQE_BYTES = eqe::size_bytes; /* 64 */

/* event::CMD: bit i set = command slot i completed. */
#define CXPRM_CMD_INTER_COMP_EVENT(F)                                           \
	F(command_completion_vector, 0x0, 0x20)
CXPRM_LAYOUT(cmd_inter_comp_event, 0xe0, CXPRM_CMD_INTER_COMP_EVENT)

/*
 * event::PAGE_REQUEST: num_pages is signed (negative = take pages back).
 * 6.1's mlx5_ifc.h leaves bits 0x0..0xf reserved, but its device.h
 * (struct mlx5_eqe_page_req, be16 ec_function) and pagealloc.c read
 * ec_function = bit 15 (EC_FUNCTION_MASK 0x8000) and release_all = bit 14
 * (RELEASE_ALL_PAGES_MASK 0x4000) of that be16: bits 0x0 and 0x1 here.
 */
#define CXPRM_PAGES_REQ_EVENT(F)                                                \
	F(ec_function, 0x0, 0x1)                                                \
	F(release_all, 0x1, 0x1)                                                \
	F(function_id, 0x10, 0x10)                                              \
	F(num_pages, 0x20, 0x20)
CXPRM_LAYOUT(pages_req_event, 0xe0, CXPRM_PAGES_REQ_EVENT)

/* event::DCT_DRAINED and event::DCT_KEY_VIOLATION. */
#define CXPRM_DCT_EVENTS(F)                                                     \
	F(dct_number, 0xc8, 0x18)
CXPRM_LAYOUT(dct_events, 0xe0, CXPRM_DCT_EVENTS)

CXPRM_LAYOUT(alloc_uar_in, 0x80, CXPRM_CMD_IN_UID_HDR)

#define CXPRM_ALLOC_UAR_OUT(F) CXPRM_CMD_OUT_OBJ(F, uar)
CXPRM_LAYOUT(alloc_uar_out, 0x80, CXPRM_ALLOC_UAR_OUT)

#define CXPRM_DEALLOC_UAR_IN(F) CXPRM_CMD_IN_UID_OBJ(F, uar)
CXPRM_LAYOUT(dealloc_uar_in, 0x80, CXPRM_DEALLOC_UAR_IN)
CXPRM_LAYOUT(dealloc_uar_out, 0x80, CXPRM_CMD_OUT_HDR)

} // namespace cxprm::prm
