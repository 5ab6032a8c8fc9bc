/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* QUERY_ISSI / SET_ISSI (prm/issi.h). */
#pragma once

#include "common.h"

namespace cxprm::cmd {

struct IssiInfo {
	u16 current_issi;
	u32 supported_mask; /* supported_issi_dw0: bit n = ISSI n supported */
};

int query_issi(Cmdq &q, IssiInfo *info, CmdResult *res = nullptr);
int decode_query_issi(const void *out, u32 outlen, IssiInfo *info);
int set_issi(Cmdq &q, u16 issi, CmdResult *res = nullptr);

} // namespace cxprm::cmd
