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

/* An input L naming a namespace: xrqn (E_RANGE when it does not fit), nsid. */
template <class L> int encode_namespace(u8 *in, u16 opcode, u32 xrqn, u32 nsid)
{
	int err = encode_num_cmd<L, typename L::xrqn>(in, opcode, xrqn);
	if (!err)
		set<typename L::frontend_namespace>(Ref<L>(in), nsid);
	return err;
}

} // namespace

int attach_nvmf_namespace(Cmdq &q, const NvmfNamespace &ns, CmdResult *res)
{
	using L = attach_nvmf_namespace_in;
	u8 in[L::size_bytes];
	int err = encode_namespace<L>(in, op::ATTACH_NVMF_NAMESPACE, ns.xrqn, ns.nsid);
	if (err)
		return err;
	if (ns.lba_data_size < 512 || (ns.lba_data_size & (ns.lba_data_size - 1)))
		return E_INVAL;
	Ref<L> r(in);
	set<L::backend_namespace>(r, ns.backend_namespace);
	set<L::lba_data_size>(r, ns.lba_data_size);
	set<L::backend_controller_id>(r, ns.backend_controller_id);
	return exec_status<attach_nvmf_namespace_out>(q, in, sizeof(in), res);
}

int detach_nvmf_namespace(Cmdq &q, u32 xrqn, u32 nsid, CmdResult *res)
{
	u8 in[detach_nvmf_namespace_in::size_bytes];
	int err = encode_namespace<detach_nvmf_namespace_in>(in, op::DETACH_NVMF_NAMESPACE, xrqn,
							     nsid);
	return err ? err : exec_status<detach_nvmf_namespace_out>(q, in, sizeof(in), res);
}

int query_nvmf_namespace(Cmdq &q, u32 xrqn, u32 nsid, NvmfNsCounters *c, CmdResult *res)
{
	if (!c)
		return E_INVAL;
	u8 in[query_nvmf_namespace_in::size_bytes];
	int err = encode_query_nvmf_namespace(in, xrqn, nsid);
	return err ? err
		   : exec_decode<query_nvmf_namespace_out>(q, in, sizeof(in), c,
							   decode_query_nvmf_namespace, res);
}

int encode_query_nvmf_namespace(u8 *in, u32 xrqn, u32 nsid)
{
	return encode_namespace<query_nvmf_namespace_in>(in, op::QUERY_NVMF_NAMESPACE_CONTEXT,
							 xrqn, nsid);
}

int decode_query_nvmf_namespace(const void *out, u32 outlen, NvmfNsCounters *c)
{
	using N = nvmf_frontend_namespace_context;
	return decode_sub<query_nvmf_namespace_out::ns_ctx, N>(
		out, outlen, c, [](CRef<N> n, NvmfNsCounters *r) {
#define CXPRM_NVMF_JOIN_(m, f) r->m = join<N::f##_high, N::f##_low>(n);
#define CXPRM_NVMF_GET_(m, f) r->m = (decltype(r->m))get<N::f>(n);
			CXPRM_NVMF_NS_COUNTERS_64(CXPRM_NVMF_JOIN_)
			CXPRM_NVMF_NS_COUNTERS_32(CXPRM_NVMF_GET_)
#undef CXPRM_NVMF_JOIN_
#undef CXPRM_NVMF_GET_
			return OK;
		});
}

} // namespace cxprm::cmd
