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

#include <cxprm/prm/layouts_gen.h>

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/* srqc: log_rq_stride: log2(stride / 16 B); log_page_size: log2(page / 4K). */

/*
 * wq: wq_type: WQ_TYPE_*; an RMP or XRQ is a linked list (Linux and the vendor
 * never set it: ib/srq_cmd.c set_wq).  log_wq_stride: log2 of the stride in
 * bytes, unlike srqc.log_rq_stride (set_wq writes wqe_shift + 4, set_srqc
 * wqe_shift).  log_wq_pg_sz: log2(page / 4 KiB).  Its pas[] is the
 * command's tail.
 */

inline constexpr u8 WQ_TYPE_LINKED_LIST = 0;
inline constexpr u8 WQ_TYPE_CYCLIC = 1;

/* xrqc.offload: 0 none, XRQ_OFFLOAD_RNDV 1, XRQ_OFFLOAD_NVMF 2 (vendor's). */
inline constexpr u8 XRQ_OFFLOAD_RNDV = 1;
inline constexpr u8 XRQ_OFFLOAD_NVMF = 2;

} // namespace cxprm::prm
