// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* QUERY_ADAPTER. */
#include "cxprm/commands/adapter.h"

#include "cxprm/prm/adapter.h"
#include "cxprm/prm/opcodes.h"

namespace cxprm::cmd {

using namespace prm;

namespace {

/* Copies a NUL-padded byte field into a C string of cap bytes. */
template <class F> void copy_string(CRef<typename F::layout> r, char *dst, u32 cap)
{
	static_assert(F::width % 8 == 0, "string field is not whole bytes");
	const u8 *s = bytes<F>(r);
	u32 n = min_of<u32>(F::width / 8, cap - 1), i = 0;
	for (; i < n && s[i]; i++)
		dst[i] = (char)s[i];
	dst[i] = 0;
}

} // namespace

int query_adapter(Cmdq &q, AdapterInfo *info, CmdResult *res)
{
	return query_cmd<query_adapter_in, query_adapter_out>(q, op::QUERY_ADAPTER, info,
							      decode_query_adapter, res);
}

int decode_query_adapter(const void *out, u32 outlen, AdapterInfo *info)
{
	using pb = query_adapter_param_block;
	return decode_sub<query_adapter_out::query_adapter_struct, pb>(
		out, outlen, info, [](CRef<pb> b, AdapterInfo *i) {
			i->ieee_vendor_id = (u32)get<pb::ieee_vendor_id>(b);
			i->vsd_vendor_id = (u16)get<pb::vsd_vendor_id>(b);
			copy_string<pb::vsd>(b, i->vsd, sizeof(i->vsd));
			copy_string<pb::vsd_contd_psid>(b, i->psid, sizeof(i->psid));
			return OK;
		});
}

} // namespace cxprm::cmd
