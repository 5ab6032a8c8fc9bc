/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * NVMe-oF target offload: the XRQ offload context, backend controllers
 * (CREATE/DESTROY_NVMF_BACKEND_CTRL) and namespaces on an XRQ.
 *
 * None of this is in the 6.1 mlx5_ifc.h.  The opcodes (0x720..0x724, 0x728)
 * and layouts are those of the vendor's public out-of-tree driver headers
 * (MLNX_OFED include/linux/mlx5/mlx5_ifc.h, used by its
 * drivers/infiniband/hw/mlx5/nvmf.c); names, offsets and sizes were checked
 * by hand against that header (github wjz304/mlnx-ofed-kernel @56bfb0f6),
 * not by the cross-check, which lists them as expected-absent.  Provisional
 * in that no firmware has confirmed them.  The counters are 64-bit values
 * split in _high/_low dwords (the vendor code reads the _low words); they
 * stay split so the names are those of the vendor layout.
 */
#pragma once

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/*
 * The namespace QUERY/ATTACH/DETACH_NVMF_NAMESPACE name: xrqn, the XRQ the
 * namespace hangs off; frontend_namespace, the NSID.
 */
#define CXPRM_NVMF_NAMESPACE_IN(F) CXPRM_CMD_IN_OBJ(F, xrqn) F(frontend_namespace, 0x60, 0x20)
CXPRM_LAYOUT(query_nvmf_namespace_in, 0x80, CXPRM_NVMF_NAMESPACE_IN)

/*
 * 112 bytes.  last_*_req_latency are valid only when
 * nvmf_cap.last_req_latency is set.
 */
#define CXPRM_NVMF_FRONTEND_NAMESPACE_CONTEXT(F)                                \
	F(num_read_cmd_high, 0x0, 0x20)                                         \
	F(num_read_cmd_low, 0x20, 0x20)                                         \
	F(num_read_blocks_high, 0x40, 0x20)                                     \
	F(num_read_blocks_low, 0x60, 0x20)                                      \
	F(num_write_cmd_high, 0x80, 0x20)                                       \
	F(num_write_cmd_low, 0xa0, 0x20)                                        \
	F(num_write_blocks_high, 0xc0, 0x20)                                    \
	F(num_write_blocks_low, 0xe0, 0x20)                                     \
	F(num_write_inline_cmd_high, 0x100, 0x20)                               \
	F(num_write_inline_cmd_low, 0x120, 0x20)                                \
	F(num_flush_cmd_high, 0x140, 0x20)                                      \
	F(num_flush_cmd_low, 0x160, 0x20)                                       \
	F(num_error_cmd_high, 0x180, 0x20)                                      \
	F(num_error_cmd_low, 0x1a0, 0x20)                                       \
	F(num_backend_error_cmd_high, 0x1c0, 0x20)                              \
	F(num_backend_error_cmd_low, 0x1e0, 0x20)                               \
	F(current_q_depth, 0x210, 0x10)                                         \
	F(last_read_req_latency, 0x220, 0x20)                                   \
	F(last_write_req_latency, 0x240, 0x20)
CXPRM_LAYOUT(nvmf_frontend_namespace_context, 0x380, CXPRM_NVMF_FRONTEND_NAMESPACE_CONTEXT)

#define CXPRM_QUERY_NVMF_NAMESPACE_OUT(F) CXPRM_CMD_OUT_HDR(F) F(ns_ctx, 0x80, 0x380)
CXPRM_LAYOUT(query_nvmf_namespace_out, 0x400, CXPRM_QUERY_NVMF_NAMESPACE_OUT)

/*
 * 64 bytes.  lba_data_size and backend_controller_id (from
 * CREATE_NVMF_BACKEND_CTRL) describe the backing NVMe namespace.
 * lba_data_size is in bytes, not log2: OFED's nvmet passes
 * max(1 << blksize_shift, 512) and mlx5_core_attach_nvmf_ns sets it as
 * given, so 16 bits hold at most 32768.
 */
#define CXPRM_ATTACH_NVMF_NAMESPACE_IN(F)                                       \
	CXPRM_NVMF_NAMESPACE_IN(F)                                              \
	F(backend_namespace, 0x80, 0x20)                                        \
	F(lba_data_size, 0xa0, 0x10)                                            \
	F(backend_controller_id, 0xb0, 0x10)
CXPRM_LAYOUT(attach_nvmf_namespace_in, 0x200, CXPRM_ATTACH_NVMF_NAMESPACE_IN)
CXPRM_LAYOUT(attach_nvmf_namespace_out, 0x80, CXPRM_CMD_OUT_HDR)

CXPRM_LAYOUT(detach_nvmf_namespace_in, 0x80, CXPRM_NVMF_NAMESPACE_IN)
CXPRM_LAYOUT(detach_nvmf_namespace_out, 0x80, CXPRM_CMD_OUT_HDR)

/*
 * The NVMe-oF offload part of an XRQ (xrqc.nvme_offload_context, 0x200
 * bits; xrqc.offload = XRQ_OFFLOAD_NVMF).  nvmf_offload_type: the vendor's
 * mlx5_nvmf_offload_type (OFED ib/srq.h): 1 write, 2 read, 3 read/write,
 * 4 read/write/flush, which nvmet asks for (OFED nvme/target/
 * rdma_offload.c).  log_max_namespace bounds the namespaces the XRQ can
 * attach.  The staging buffer (staging_buffer_number_of_pages pages of
 * 4 KiB << staging_buffer_log_page_size) has its pas after the queue's:
 * xrq_nvmf_staging_entry().
 */
#define CXPRM_NVME_OFFLOAD_CONTEXT(F)                                           \
	F(nvmf_offload_type, 0x0, 8)                                            \
	F(passthrough_sqe_rw_service_en, 0x9, 1)                                \
	F(log_max_namespace, 0xb, 5)                                            \
	F(cmd_unknown_namespace_cnt, 0x20, 0x20)                                \
	F(ioccsz, 0x40, 0x20)                                                   \
	F(icdoff, 0x60, 8)                                                      \
	F(log_max_io_size, 0x6b, 5)                                             \
	F(nvme_memory_log_page_size, 0x7c, 4)                                   \
	F(staging_buffer_log_page_size, 0x8b, 5)                                \
	F(staging_buffer_number_of_pages, 0x90, 0x10)                           \
	F(staging_buffer_page_offset, 0xa0, 0x20)                               \
	F(nvme_queue_size, 0xd0, 0x10)
CXPRM_LAYOUT(nvme_offload_context, 0x200, CXPRM_NVME_OFFLOAD_CONTEXT)

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
 * The backend NVMe controller an XRQ forwards to: its CQ and SQ (addresses
 * in the list after the command, nvmf_be_ctrl_addrs), their doorbells,
 * the initial doorbell values.  0x380 bits.
 */
#define CXPRM_NVMF_BE_CTRL(F)                                                   \
	F(cq_page_offset, 0x6, 0xa)                                             \
	F(sq_page_offset, 0x16, 0xa)                                            \
	F(cq_log_page_size, 0x2b, 5)                                            \
	F(sq_log_page_size, 0x3b, 5)                                            \
	F(initial_cqh_db_value, 0x60, 0x10)                                     \
	F(initial_sqt_db_value, 0x70, 0x10)                                     \
	F(log_cmd_timeout_us, 0x9b, 5)                                          \
	F(cqh_dbr_addr, 0x180, 0x40)                                            \
	F(sqt_dbr_addr, 0x1c0, 0x40)
CXPRM_LAYOUT(nvmf_be_ctrl, 0x380, CXPRM_NVMF_BE_CTRL)

#define CXPRM_CREATE_NVMF_BE_CTRL_IN(F) CXPRM_CMD_IN_OBJ(F, xrqn) F(nvmf_be_ctrl_entry, 0x80, 0x380)
CXPRM_LAYOUT(create_nvmf_be_ctrl_in, 0x400, CXPRM_CREATE_NVMF_BE_CTRL_IN)

/*
 * The address list after create_nvmf_be_ctrl_in (vendor
 * nvmf_be_ctrl_entry.pas): 2 x NVMF_PAS_ALIGN bytes, the CQ's address at
 * +0, the SQ's at +64 (OFED ib/nvmf.c get_pas_size, set_nvmf_pas: one
 * contiguous, 64-byte aligned queue each).  Provisional (vendor driver).
 */
#define CXPRM_NVMF_BE_CTRL_ADDRS(F)                                             \
	F(cq_addr, 0x0, 0x40)                                                   \
	F(sq_addr, 0x200, 0x40)
CXPRM_LAYOUT(nvmf_be_ctrl_addrs, 0x400, CXPRM_NVMF_BE_CTRL_ADDRS)
static_assert(nvmf_be_ctrl_addrs::size_bytes == 2 * NVMF_PAS_ALIGN &&
		      nvmf_be_ctrl_addrs::sq_addr::offset == NVMF_PAS_ALIGN * 8,
	      "backend address list: 2 x 64 bytes, SQ at +64");

/* The list is the one entry of the command's tail. */
using create_nvmf_be_ctrl_in_addrs = Tail<create_nvmf_be_ctrl_in, nvmf_be_ctrl_addrs::size_bits>;

#define CXPRM_CREATE_NVMF_BE_CTRL_OUT(F) CXPRM_CMD_OUT_HDR(F) F(backend_controller_id, 0x50, 0x10)
CXPRM_LAYOUT(create_nvmf_be_ctrl_out, 0x80, CXPRM_CREATE_NVMF_BE_CTRL_OUT)

#define CXPRM_DESTROY_NVMF_BE_CTRL_IN(F)                                        \
	CXPRM_CMD_IN_OBJ(F, xrqn)                                               \
	F(backend_controller_id, 0x70, 0x10)
CXPRM_LAYOUT(destroy_nvmf_be_ctrl_in, 0x80, CXPRM_DESTROY_NVMF_BE_CTRL_IN)
CXPRM_LAYOUT(destroy_nvmf_be_ctrl_out, 0x80, CXPRM_CMD_OUT_HDR)

} // namespace cxprm::prm
