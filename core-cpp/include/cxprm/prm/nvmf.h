/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * NVMe-oF target offload: the XRQ offload context, backend controllers
 * (CREATE/DESTROY_NVMF_BACKEND_CTRL) and namespaces on an XRQ.
 *
 * None of this is in the 6.1 mlx5_ifc.h.  The opcodes (0x720..0x724, 0x728)
 * and layouts are those of the vendor's public out-of-tree driver headers
 * (MLNX_OFED include/linux/mlx5/mlx5_ifc.h, used by its
 * drivers/infiniband/hw/mlx5/nvmf.c); names, offsets and sizes were checked
 * by hand against that header (github wjz304/mlnx-ofed-kernel @56bfb0f6)
 * and are stated in layouts.sel (size= and name@offset:width); the
 * cross-check reports them as not in the header.  Provisional
 * in that no firmware has confirmed them.  The counters are 64-bit values
 * split in _high/_low dwords (the vendor code reads the _low words); they
 * stay split so the names are those of the vendor layout.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/*
 * query_nvmf_namespace_in: the namespace QUERY/ATTACH/DETACH_NVMF_NAMESPACE
 * name: xrqn, the XRQ the namespace hangs off; frontend_namespace, the
 * NSID.
 */

/*
 * nvmf_frontend_namespace_context: 112 bytes.  last_*_req_latency are valid
 * only when nvmf_cap.last_req_latency is set.
 */

/*
 * attach_nvmf_namespace_in: 64 bytes.  lba_data_size and
 * backend_controller_id (from CREATE_NVMF_BACKEND_CTRL) describe the
 * backing NVMe namespace. lba_data_size is in bytes, not log2: OFED's nvmet
 * passes max(1 << blksize_shift, 512) and mlx5_core_attach_nvmf_ns sets it
 * as given, so 16 bits hold at most 32768.
 */

/*
 * nvme_offload_context: the NVMe-oF offload part of an XRQ
 * (xrqc.nvme_offload_context, 0x200 bits; xrqc.offload = XRQ_OFFLOAD_NVMF).
 * nvmf_offload_type: the vendor's mlx5_nvmf_offload_type (OFED ib/srq.h): 1
 * write, 2 read, 3 read/write, 4 read/write/flush, which nvmet asks for
 * (OFED nvme/target/ rdma_offload.c).  log_max_namespace bounds the
 * namespaces the XRQ can attach.  The staging buffer
 * (staging_buffer_number_of_pages pages of 4 KiB <<
 * staging_buffer_log_page_size) has its pas after the queue's:
 * xrq_nvmf_staging_entry().
 */

inline constexpr u8 NVMF_OFFLOAD_READ_WRITE_FLUSH = 4;

/*
 * MLX5_PAS_ALIGN (OFED mlx5 driver.h): the NVMF address lists are padded
 * to 64 bytes.  CREATE_XRQ with NVMF offload (OFED ib/srq_cmd.c
 * create_xrq_cmd, srq_nvmf.c): the queue's pas (create_xrq_in_pas), padded,
 * then one pas per staging buffer page, padded.  Provisional (vendor
 * driver only); an older vendor tree spaced the staging pas 64 bytes apart.
 */
inline constexpr u32 NVMF_PAS_ALIGN = 64;
inline constexpr u32 NVMF_PAS_PER_ALIGN = NVMF_PAS_ALIGN / 8;

/* Index in create_xrq_in_pas of the first staging pas. */
inline constexpr u32 xrq_nvmf_staging_entry(u32 queue_pages)
{
	return (queue_pages + NVMF_PAS_PER_ALIGN - 1) / NVMF_PAS_PER_ALIGN * NVMF_PAS_PER_ALIGN;
}

/* pas[] entries of the whole, padded list (the message's tail). */
inline constexpr u32 xrq_nvmf_pas_entries(u32 queue_pages, u32 staging_pages)
{
	return xrq_nvmf_staging_entry(queue_pages) + xrq_nvmf_staging_entry(staging_pages);
}
static_assert(xrq_nvmf_staging_entry(1) == 8 && xrq_nvmf_staging_entry(8) == 8 &&
		      xrq_nvmf_pas_entries(9, 1) == 24,
	      "NVMF XRQ pas padding");

/*
 * nvmf_be_ctrl: the backend NVMe controller an XRQ forwards to: its CQ and
 * SQ (addresses in the list after the command, nvmf_be_ctrl_addrs), their
 * doorbells, the initial doorbell values.  0x380 bits.
 */

/*
 * The address list after create_nvmf_be_ctrl_in (vendor
 * nvmf_be_ctrl_entry.pas): 2 x NVMF_PAS_ALIGN bytes, the CQ's address at
 * +0, the SQ's at +64 (OFED ib/nvmf.c get_pas_size, set_nvmf_pas: one
 * contiguous, 64-byte aligned queue each).  Provisional (vendor driver).
 */
static_assert(nvmf_be_ctrl_addrs::size_bytes == 2 * NVMF_PAS_ALIGN &&
		      nvmf_be_ctrl_addrs::sq_addr::offset == NVMF_PAS_ALIGN * 8,
	      "backend address list: 2 x 64 bytes, SQ at +64");

/* create_nvmf_be_ctrl_in: the list is the one entry of the command's tail. */

} // namespace cxprm::prm
