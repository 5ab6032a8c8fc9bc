/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* QUERY_ADAPTER (prm/adapter.h). */
#pragma once

#include "common.h"

namespace cxprm::cmd {

struct AdapterInfo {
	u32 ieee_vendor_id;  /* 24 bits; 0x02c9 Mellanox/NVIDIA */
	u16 vsd_vendor_id;
	char vsd[209];       /* vendor-specific data, NUL-terminated */
	char psid[17];       /* board id (vsd_contd_psid), NUL-terminated */
};

int query_adapter(Cmdq &q, AdapterInfo *info, CmdResult *res = nullptr);
int decode_query_adapter(const void *out, u32 outlen, AdapterInfo *info);

} // namespace cxprm::cmd
