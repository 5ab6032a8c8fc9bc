/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * NVMe-oF target offload namespaces: ATTACH_NVMF_NAMESPACE,
 * DETACH_NVMF_NAMESPACE, QUERY_NVMF_NAMESPACE_CONTEXT (prm/nvmf.h,
 * provisional layouts from the vendor driver).
 */
#pragma once

#include "common.h"

namespace cxprm::cmd {

struct NvmfNamespace {
	u32 xrqn;                   /* 24 bits: the XRQ of the NVMF target */
	u32 nsid;                   /* frontend_namespace */
	u32 backend_namespace;
	u16 lba_data_size;
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

int attach_nvmf_namespace(Cmdq &q, const NvmfNamespace &ns, CmdResult *res = nullptr);
int detach_nvmf_namespace(Cmdq &q, u32 xrqn, u32 nsid, CmdResult *res = nullptr);
int query_nvmf_namespace(Cmdq &q, u32 xrqn, u32 nsid, NvmfNsCounters *c,
			 CmdResult *res = nullptr);
int decode_query_nvmf_namespace(const void *out, u32 outlen, NvmfNsCounters *c);

} // namespace cxprm::cmd
