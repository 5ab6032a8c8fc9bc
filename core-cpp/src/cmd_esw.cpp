// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* QUERY_ESW_FUNCTIONS. */
#include "cxprm/commands/esw.h"

#include "cxprm/prm/esw.h"
#include "cxprm/prm/opcodes.h"

namespace cxprm::cmd {

using namespace prm;

using sf_tail = query_esw_functions_out_host_sf_enable;

int query_esw_functions(Cmdq &q, EswFunctions *f, u64 *sf_enable, u32 sf_words, CmdResult *res)
{
	if (!f || (sf_words && !sf_enable))
		return E_INVAL;
	if (sf_words > sf_tail::entries_in(q.config().max_msg_bytes))
		return E_RANGE;
	u8 in[query_esw_functions_in::size_bytes];
	u32 outlen = encode_query_esw_functions(in, sf_words);
	HostMem out;
	int err = out.alloc(q.host(), outlen);
	if (err)
		return err;
	err = exec(q, in, sizeof(in), out.data(), outlen, res);
	if (err)
		return err;
	return decode_query_esw_functions(out.data(), outlen, f, sf_enable, sf_words);
}

u32 encode_query_esw_functions(u8 *in, u32 sf_words)
{
	begin_in<query_esw_functions_in>(in, op::QUERY_ESW_FUNCTIONS);
	return sf_tail::bytes_for(sf_words);
}

int decode_query_esw_functions(const void *out, u32 outlen, EswFunctions *f, u64 *sf_enable,
			       u32 sf_words)
{
	if (!out || !f || outlen < query_esw_functions_out::size_bytes || (sf_words && !sf_enable))
		return E_INVAL;
	CRef<query_esw_functions_out> o(out);
	using hp = host_params_context;
	auto h = sub<query_esw_functions_out::host_params_context, hp>(o);
	f->host_number = (u8)get<hp::host_number>(h);
	f->host_pf_not_exist = get<hp::host_pf_not_exist>(h);
	f->host_pf_disabled = get<hp::host_pf_disabled>(h);
	f->host_num_of_vfs = (u16)get<hp::host_num_of_vfs>(h);
	f->host_total_vfs = (u16)get<hp::host_total_vfs>(h);
	f->host_pci_bus = (u16)get<hp::host_pci_bus>(h);
	f->host_pci_device = (u16)get<hp::host_pci_device>(h);
	f->host_pci_function = (u16)get<hp::host_pci_function>(h);
	u32 present = sf_tail::entries_in(outlen);
	for (u32 i = 0; i < sf_words; i++)
		sf_enable[i] = i < present ? load_be64(tail_entry<sf_tail>(o, i)) : 0;
	return OK;
}

} // namespace cxprm::cmd
