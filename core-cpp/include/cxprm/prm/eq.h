/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Event queues: eqc, CREATE/DESTROY/QUERY_EQ, the 64-byte event entry and
 * the event payloads the core decodes; ALLOC_UAR/DEALLOC_UAR (an EQ needs a
 * UAR page for its doorbell).  Event types: event:: in opcodes.h.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/* eqc: st: 0x9 ARMED, 0xa FIRED.  log_page_size = log2(page size / 4 KiB). */

/* create_eq_in: event_bitmask: 4 x 64 bits, bit t of the 256 = event type t. */

/*
 * destroy_eq_in: DESTROY_EQ and QUERY_EQ: the EQ number only (8 bits, not
 * an object number).
 */

/* query_eq_out: only the first 64 event types are reported back. */

/*
 * eqe: the event entry.  owner is bit 0 of the last byte; the valid value flips
 * on each wrap of the queue.  event_data is the 28-byte payload, one of the
 * layouts cmd_inter_comp_event, pages_req_event, dct_events
 * according to event_type.
 */

inline constexpr u32 EQE_BYTES = eqe::size_bytes; /* 64 */

/* cmd_inter_comp_event: event::CMD: bit i set = command slot i completed. */

/*
 * pages_req_event: event::PAGE_REQUEST: num_pages is signed (negative =
 * take pages back). 6.1's mlx5_ifc.h leaves bits 0x0..0xf reserved, but its
 * device.h (struct mlx5_eqe_page_req, be16 ec_function) and pagealloc.c
 * read ec_function = bit 15 (EC_FUNCTION_MASK 0x8000) and release_all = bit
 * 14 (RELEASE_ALL_PAGES_MASK 0x4000) of that be16: bits 0x0 and 0x1 here.
 */

/* dct_events: event::DCT_DRAINED and event::DCT_KEY_VIOLATION. */

} // namespace cxprm::prm
