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
