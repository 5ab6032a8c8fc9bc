// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ATTACH/DETACH_NVMF_NAMESPACE, QUERY_NVMF_NAMESPACE_CONTEXT (provisional). */
#include "cxprm/commands/nvmf.h"

#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"

namespace cxprm::cmd {

using namespace prm;

namespace {

/* The vendor layout splits each 64-bit counter into _high/_low dwords. */
template <class Hi, class Lo> u64 join(CRef<nvmf_frontend_namespace_context> c)
{
	return get<Hi>(c) << 32 | get<Lo>(c);
}

} // namespace

int attach_nvmf_namespace(Cmdq &q, const NvmfNamespace &ns, CmdResult *res)
{
	using L = attach_nvmf_namespace_in;
	if (!fits<L::xrqn>(ns.xrqn))
		return E_RANGE;
	if (ns.lba_data_size < 512 || (ns.lba_data_size & (ns.lba_data_size - 1)))
		return E_INVAL;
	u8 in[L::size_bytes], out[out_size<attach_nvmf_namespace_out>()];
	auto r = begin_in<L>(in, op::ATTACH_NVMF_NAMESPACE);
	set<L::xrqn>(r, ns.xrqn);
	set<L::frontend_namespace>(r, ns.nsid);
	set<L::backend_namespace>(r, ns.backend_namespace);
	set<L::lba_data_size>(r, ns.lba_data_size);
	set<L::backend_controller_id>(r, ns.backend_controller_id);
	return exec(q, in, sizeof(in), out, sizeof(out), res);
}

int detach_nvmf_namespace(Cmdq &q, u32 xrqn, u32 nsid, CmdResult *res)
{
	using L = detach_nvmf_namespace_in;
	if (!fits<L::xrqn>(xrqn))
		return E_RANGE;
	u8 in[L::size_bytes], out[out_size<detach_nvmf_namespace_out>()];
	auto r = begin_in<L>(in, op::DETACH_NVMF_NAMESPACE);
	set<L::xrqn>(r, xrqn);
	set<L::frontend_namespace>(r, nsid);
	return exec(q, in, sizeof(in), out, sizeof(out), res);
}

int query_nvmf_namespace(Cmdq &q, u32 xrqn, u32 nsid, NvmfNsCounters *c, CmdResult *res)
{
	using L = query_nvmf_namespace_in;
	if (!c)
		return E_INVAL;
	u8 in[L::size_bytes], out[out_size<query_nvmf_namespace_out>()];
	int err = encode_query_nvmf_namespace(in, xrqn, nsid);
	if (err)
		return err;
	err = exec(q, in, sizeof(in), out, sizeof(out), res);
	if (err)
		return err;
	return decode_query_nvmf_namespace(out, sizeof(out), c);
}

int encode_query_nvmf_namespace(u8 *in, u32 xrqn, u32 nsid)
{
	using L = query_nvmf_namespace_in;
	if (!fits<L::xrqn>(xrqn))
		return E_RANGE;
	auto r = begin_in<L>(in, op::QUERY_NVMF_NAMESPACE_CONTEXT);
	set<L::xrqn>(r, xrqn);
	set<L::frontend_namespace>(r, nsid);
	return OK;
}

int decode_query_nvmf_namespace(const void *out, u32 outlen, NvmfNsCounters *c)
{
	if (!out || !c || outlen < query_nvmf_namespace_out::size_bytes)
		return E_INVAL;
	using N = nvmf_frontend_namespace_context;
	auto n = sub<query_nvmf_namespace_out::ns_ctx, N>(CRef<query_nvmf_namespace_out>(out));
#define CXPRM_NVMF_JOIN_(m, f) c->m = join<N::f##_high, N::f##_low>(n);
#define CXPRM_NVMF_GET_(m, f) c->m = (decltype(c->m))get<N::f>(n);
	CXPRM_NVMF_NS_COUNTERS_64(CXPRM_NVMF_JOIN_)
	CXPRM_NVMF_NS_COUNTERS_32(CXPRM_NVMF_GET_)
#undef CXPRM_NVMF_JOIN_
#undef CXPRM_NVMF_GET_
	return OK;
}

} // namespace cxprm::cmd
