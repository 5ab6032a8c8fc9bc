/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * NVMe-oF target offload: the XRQ with the NVMF offload context
 * (CREATE_XRQ / DESTROY_XRQ, prm/srq.h), backend controllers
 * (CREATE/DESTROY_NVMF_BACKEND_CTRL) and namespaces (ATTACH_NVMF_NAMESPACE,
 * DETACH_NVMF_NAMESPACE, QUERY_NVMF_NAMESPACE_CONTEXT): prm/nvmf.h,
 * provisional layouts from the vendor driver.
 */
#pragma once

#include "common.h"

namespace cxprm::cmd {

struct NvmfNamespace {
	u32 xrqn;                   /* 24 bits: the XRQ of the NVMF target */
	u32 nsid;                   /* frontend_namespace */
	u32 backend_namespace;
	u16 lba_data_size;          /* bytes per block: a power of two, 512..32768 */
	u16 backend_controller_id;
};

/*
 * The per-namespace counters: X(member of NvmfNsCounters, field of
 * nvmf_frontend_namespace_context); the 64-bit ones are _high/_low pairs.
 */
#define CXPRM_NVMF_NS_COUNTERS_64(X)                                            \
	X(read_cmds, num_read_cmd)                                              \
	X(read_blocks, num_read_blocks)                                         \
	X(write_cmds, num_write_cmd)                                            \
	X(write_blocks, num_write_blocks)                                       \
	X(write_inline_cmds, num_write_inline_cmd)                              \
	X(flush_cmds, num_flush_cmd)                                            \
	X(error_cmds, num_error_cmd)                                            \
	X(backend_error_cmds, num_backend_error_cmd)
#define CXPRM_NVMF_NS_COUNTERS_32(X)                                            \
	X(current_q_depth, current_q_depth)                                     \
	X(last_read_latency, last_read_req_latency)                             \
	X(last_write_latency, last_write_req_latency)

/* Per-namespace counters (nvmf_frontend_namespace_context). */
struct NvmfNsCounters {
	u64 read_cmds, read_blocks;
	u64 write_cmds, write_blocks;
	u64 write_inline_cmds;
	u64 flush_cmds;
	u64 error_cmds;
	u64 backend_error_cmds;
	u16 current_q_depth;
	u32 last_read_latency;  /* valid with nvmf_cap.last_req_latency */
	u32 last_write_latency;
};

/*
 * An XRQ with xrqc.offload = NVMF, as the vendor driver makes it for nvmet
 * (OFED ib/srq_cmd.c create_xrq_cmd): a linked-list receive queue of
 * 2^log_wq_sz WQEs of 2^log_wq_stride bytes (wq.log_wq_stride is log2
 * bytes, at least XRQ_MIN_LOG_STRIDE) in one contiguous buffer,
 * completions to cqn, read/write/flush offload, and a staging buffer of
 * staging_pages contiguous 4 KiB pages.  log_max_namespace bounds its
 * namespaces.
 */
struct XrqNvmfParams {
	/* In the order set_xrq_nvmf writes them: xrqc, */
	u32 cqn = 0;
	/* its nvme_offload_context, */
	u8 log_max_namespace = 0;
	u32 ioccsz = 4;         /* in-capsule command size (16-byte units) */
	u8 log_max_io_size = 0;
	u16 nvme_queue_size = 0;
	u32 staging_pages = 0;
	/* its wq, */
	u32 pd = 0;
	u64 dbr_bus = 0;
	u8 log_wq_stride = 0;   /* log2 bytes */
	u8 log_wq_sz = 0;
	/* and pas[]: the queue's pages, then the staging buffer's. */
	u64 buf_bus = 0;
	u32 buf_pages = 0;
	u64 staging_bus = 0;
	u16 uid = 0;
};

/*
 * 32 bytes: Linux's smallest receive WQE (ib/srq.c create_srq_user/kernel:
 * a next segment and one data segment, at least 32 bytes).
 */
constexpr u8 XRQ_MIN_LOG_STRIDE = 5;

/*
 * The backend NVMe controller: one I/O queue pair of an NVMe device, as
 * the vendor's nvmet offload takes it from the NVMe driver
 * (nvmet_rdma_init_be_ctrl_attr): the SQ and CQ bus addresses (the list
 * after the command: CQ at +0, SQ at +64, prm/nvmf.h nvmf_be_ctrl_addrs),
 * 4 KiB aligned, page offsets 0; their sizes as log2 of 4 KiB pages, from
 * queue_depth entries of 64 (SQ) and 16 (CQ) bytes; the SQ tail and CQ
 * head doorbell registers (4-byte aligned, the device's BAR); initial
 * doorbell values 0.
 */
struct NvmfBackendParams {
	u32 xrqn = 0;
	u64 cq_bus = 0, sq_bus = 0;
	u64 cqh_db_bus = 0, sqt_db_bus = 0;
	u16 queue_depth = 0;
	u8 log_cmd_timeout_us = 0;
};
constexpr u32 NVME_SQE_BYTES = 64, NVME_CQE_BYTES = 16;
/*
 * NVMe's doorbells (CAP.DSTRD): queue y's SQ tail doorbell, then its CQ
 * head doorbell 4 << db_stride bytes after it.
 */
constexpr u64 nvme_cq_head_doorbell(u64 sqt_db_bus, u32 db_stride) { return sqt_db_bus + (4ull << db_stride); }
/* log2 of the 4 KiB pages a queue of 'bytes' spans, at least one page. */
constexpr u8 nvme_queue_log_pages(u32 bytes)
{
	u8 l = 0;
	while ((4096u << l) < bytes)
		l++;
	return l;
}
static_assert(nvme_queue_log_pages(64 * 64) == 0 && nvme_queue_log_pages(16 * 64) == 0 &&
		      nvme_queue_log_pages(64 * 1024) == 4,
	      "NVMe queue sizes in 4 KiB pages");

int create_xrq_nvmf(Cmdq &q, const XrqNvmfParams &p, u32 *xrqn, CmdResult *res = nullptr);
int destroy_xrq(Cmdq &q, u32 xrqn, u16 uid = 0, CmdResult *res = nullptr);
int create_nvmf_backend_ctrl(Cmdq &q, const NvmfBackendParams &p, u16 *id,
			     CmdResult *res = nullptr);
int destroy_nvmf_backend_ctrl(Cmdq &q, u32 xrqn, u16 id, CmdResult *res = nullptr);

int attach_nvmf_namespace(Cmdq &q, const NvmfNamespace &ns, CmdResult *res = nullptr);
int detach_nvmf_namespace(Cmdq &q, u32 xrqn, u32 nsid, CmdResult *res = nullptr);
int query_nvmf_namespace(Cmdq &q, u32 xrqn, u32 nsid, NvmfNsCounters *c,
			 CmdResult *res = nullptr);
int decode_query_nvmf_namespace(const void *out, u32 outlen, NvmfNsCounters *c);
/* Its input (query_nvmf_namespace_in::size_bytes); E_RANGE when xrqn does not fit. */
int encode_query_nvmf_namespace(u8 *in, u32 xrqn, u32 nsid);

} // namespace cxprm::cmd
