// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* QUERY_HCA_CAP, SET_HCA_CAP, ENABLE/DISABLE_HCA, INIT_HCA, TEARDOWN_HCA. */
#include "cxprm/commands/hca.h"

#include "cxprm/prm/hca.h"

namespace cxprm::cmd {

using namespace prm;

namespace {

template <class In> void set_target(Ref<In> in, const CapTarget &t)
{
	set<typename In::other_function>(in, t.other_function);
	set<typename In::function_id>(in, t.function_id);
}

/* ENABLE_HCA / DISABLE_HCA share their shape. */
template <class In, class Out> int hca_function_cmd(Cmdq &q, u16 opcode, const FunctionRef &fn,
						     CmdResult *res)
{
	u8 in[In::size_bytes], out[out_size<Out>()];
	auto r = begin_in<In>(in, opcode);
	set<typename In::embedded_cpu_function>(r, fn.embedded_cpu_function);
	set<typename In::function_id>(r, fn.function_id);
	return exec(q, in, sizeof(in), out, sizeof(out), res);
}

} // namespace

int query_hca_cap(Cmdq &q, u16 cap_type, cap::Mode mode, u8 *image, CmdResult *res,
		  const CapTarget &target)
{
	if (!image)
		return E_INVAL;
	u8 in[query_hca_cap_in::size_bytes];
	int err = encode_query_hca_cap(in, cap_type, mode, target);
	if (err)
		return err;

	/*
	 * The output's header to the stack, the image (all of the mailbox
	 * data) straight into the caller's buffer: no 4 KiB message to
	 * allocate and copy out of (Documentation/performance.rst).
	 */
	static_assert(query_hca_cap_out::capability::offset / 8 == INLINE_BYTES &&
		      query_hca_cap_out::size_bytes == INLINE_BYTES + CAP_IMAGE_BYTES, "image = the tail");
	u8 head[INLINE_BYTES];
	err = q.exec_split(MsgSource::flat(in, sizeof(in)), head, image, query_hca_cap_out::size_bytes, res);
	/* A firmware error's output is not an image: zeros, as on every error (security.rst). */
	if (err == E_REMOTEIO)
		mem_zero(image, CAP_IMAGE_BYTES);
	return err;
}

int encode_query_hca_cap(u8 *in, u16 cap_type, cap::Mode mode, const CapTarget &target)
{
	if ((mode != cap::MAX && mode != cap::CUR) || !fits<query_hca_cap_in::op_mod>((u32)cap_type << 1 | mode))
		return E_INVAL;
	set_target(begin_in<query_hca_cap_in>(in, op::QUERY_HCA_CAP, (u16)(cap_type << 1 | mode)), target);
	return OK;
}

int decode_query_hca_cap(const void *out, u32 outlen, const u8 **image)
{
	if (!out || outlen < query_hca_cap_out::size_bytes)
		return E_INVAL;
	*image = bytes<query_hca_cap_out::capability>(CRef<query_hca_cap_out>(out));
	return OK;
}

void decode_general_caps(const u8 *image, GeneralCaps *caps)
{
	CXPRM_GET_FIELDS(CXPRM_CMD_HCA_CAP, cmd_hca_cap, image, caps);
}

int query_general_caps(Cmdq &q, cap::Mode mode, GeneralCaps *caps, u8 *image, CmdResult *res)
{
	if (!caps)
		return E_INVAL;
	HostMem tmp;
	if (!image) {
		int err = tmp.alloc(q.host(), CAP_IMAGE_BYTES);
		if (err)
			return err;
		image = tmp.data();
	}
	int err = query_hca_cap(q, cap::GENERAL, mode, image, res);
	if (!err)
		decode_general_caps(image, caps);
	return err;
}

int set_hca_cap(Cmdq &q, u16 cap_type, const u8 *image, CmdResult *res, const CapTarget &target)
{
	if (!image || !fits<set_hca_cap_in::op_mod>((u32)cap_type << 1))
		return E_INVAL;
	HostMem in;
	int err = in.alloc(q.host(), set_hca_cap_in::size_bytes);
	if (err)
		return err;
	auto r = begin_in<set_hca_cap_in>(in.data(), op::SET_HCA_CAP,
					  cap::op_mod((cap::Type)cap_type, cap::MAX));
	set_target(r, target);
	mem_copy(bytes<set_hca_cap_in::capability>(r), image, CAP_IMAGE_BYTES);
	u8 out[out_size<set_hca_cap_out>()];
	return exec(q, in.data(), set_hca_cap_in::size_bytes, out, sizeof(out), res);
}

int enable_hca(Cmdq &q, const FunctionRef &fn, CmdResult *res)
{
	return hca_function_cmd<enable_hca_in, enable_hca_out>(q, op::ENABLE_HCA, fn, res);
}

int disable_hca(Cmdq &q, const FunctionRef &fn, CmdResult *res)
{
	return hca_function_cmd<disable_hca_in, disable_hca_out>(q, op::DISABLE_HCA, fn, res);
}

int init_hca(Cmdq &q, const InitHcaParams &p, CmdResult *res)
{
	if (!fits<init_hca_in::sw_vhca_id>(p.sw_vhca_id))
		return E_RANGE;
	u8 in[init_hca_in::size_bytes], out[out_size<init_hca_out>()];
	auto r = begin_in<init_hca_in>(in, op::INIT_HCA);
	set<init_hca_in::sw_vhca_id>(r, p.sw_vhca_id);
	if (p.set_sw_owner_id) {
		/* sw_owner_id[4][0x20]: four big-endian dwords. */
		u8 *id = bytes<init_hca_in::sw_owner_id>(r);
		for (u32 i = 0; i < 4; i++)
			store_be32(id + 4 * i, p.sw_owner_id[i]);
	}
	return exec(q, in, sizeof(in), out, sizeof(out), res);
}

int teardown_hca(Cmdq &q, TeardownProfile profile, u8 *state, CmdResult *res)
{
	if (!fits<teardown_hca_in::profile>((u16)profile))
		return E_INVAL;
	u8 in[teardown_hca_in::size_bytes], out[out_size<teardown_hca_out>()];
	auto r = begin_in<teardown_hca_in>(in, op::TEARDOWN_HCA);
	set<teardown_hca_in::profile>(r, (u16)profile);
	int err = exec(q, in, sizeof(in), out, sizeof(out), res);
	if (!err && state)
		*state = (u8)get<teardown_hca_out::state>(CRef<teardown_hca_out>(out));
	return err;
}

} // namespace cxprm::cmd
