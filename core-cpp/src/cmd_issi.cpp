// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* QUERY_ISSI / SET_ISSI. */
#include "cxprm/commands/issi.h"

#include "cxprm/prm/issi.h"
#include "cxprm/prm/opcodes.h"

namespace cxprm::cmd {

using namespace prm;

int query_issi(Cmdq &q, IssiInfo *info, CmdResult *res)
{
	return query_cmd<query_issi_in, query_issi_out>(q, op::QUERY_ISSI, info, decode_query_issi,
							res);
}

int decode_query_issi(const void *out, u32 outlen, IssiInfo *info)
{
	if (!out || !info || outlen < query_issi_out::size_bytes)
		return E_INVAL;
	CRef<query_issi_out> o(out);
	info->current_issi = (u16)get<query_issi_out::current_issi>(o);
	info->supported_mask = (u32)get<query_issi_out::supported_issi_dw0>(o);
	return OK;
}

int set_issi(Cmdq &q, u16 issi, CmdResult *res)
{
	u8 in[set_issi_in::size_bytes];
	set<set_issi_in::current_issi>(begin_in<set_issi_in>(in, op::SET_ISSI), issi);
	return exec_status<set_issi_out>(q, in, sizeof(in), res);
}

} // namespace cxprm::cmd
