/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Shared plumbing of the typed commands (the headers beside this one).
 *
 * Each typed command is a free function in cxprm::cmd taking the engine
 * (Cmdq&) and an optional CmdResult* that receives the delivery status,
 * firmware status and syndrome.  Return values follow Cmdq::exec: OK,
 * E_REMOTEIO (firmware answered a non-OK status, see res->st.status), a
 * transport error, E_INVAL/E_RANGE for bad caller input (nothing sent), or
 * E_PROTO when the firmware's output breaks the protocol (a count larger
 * than asked): never an overrun.
 *
 * Each query also has a pure decoder decode_xxx(out, outlen, result) that
 * works on raw output bytes without a device (for `cxprm decode`).
 */
#pragma once

#include "../cmdq.h"
#include "../errors.h"
#include "../host.h"
#include "../layout.h"
#include "../prm/flex.h"
#include "../prm/transport.h"
#include "../types.h"

namespace cxprm::cmd {

/*
 * Scratch memory from host->ops->mem_alloc for messages too large for the
 * stack (capability images, page lists).  Freed on scope exit.
 */
class HostMem {
public:
	HostMem() = default;
	~HostMem() { release(); }
	HostMem(const HostMem &) = delete;
	HostMem &operator=(const HostMem &) = delete;

	/* Zeroed bytes; E_NOMEM on failure, E_INVAL without a host. */
	int alloc(const cxprm_host *host, usize bytes);
	void release();
	u8 *data() { return p_; }
	usize size() const { return n_; }

private:
	const cxprm_host *host_ = nullptr;
	u8 *p_ = nullptr;
	usize n_ = 0;
};

/*
 * Cmdq::exec with a CmdResult always collected (copied to *res when given);
 * OK, E_REMOTEIO or a transport error.
 */
inline int exec(Cmdq &q, const MsgSource &in, void *out, u32 outlen, CmdResult *res, u32 flags = 0)
{
	/* Cmdq::exec fills *res (or a local one of its own when res is null). */
	return q.exec(in, out, outlen, res, flags);
}
inline int exec(Cmdq &q, const void *in, u32 inlen, void *out, u32 outlen, CmdResult *res,
		u32 flags = 0)
{
	return exec(q, MsgSource::flat((const u8 *)in, inlen), out, outlen, res, flags);
}

/* Zeroes an input of layout In and writes its opcode and op_mod. */
template <class In> inline prm::Ref<In> begin_in(void *buf, u16 opcode, u16 op_mod = 0)
{
	mem_zero(buf, In::size_bytes);
	prm::Ref<In> r(buf);
	prm::set<typename In::opcode>(r, opcode);
	prm::set<typename In::op_mod>(r, op_mod);
	return r;
}

/*
 * Output bytes to ask for with layout Out: at least the 16 bytes that travel
 * inline (the engine's minimum; ENABLE/DISABLE_HCA outs are only 12).
 */
template <class Out> constexpr u32 out_size()
{
	return Out::size_bytes > prm::INLINE_BYTES ? Out::size_bytes : prm::INLINE_BYTES;
}

/*
 * Runs a command whose output Out carries only a status (and syndrome),
 * into out_size<Out>() bytes on the stack.
 */
template <class Out>
inline int exec_status(Cmdq &q, const void *in, u32 inlen, CmdResult *res, u32 flags = 0)
{
	u8 out[out_size<Out>()];
	return exec(q, in, inlen, out, sizeof(out), res, flags);
}

/* The pure decoder of a query's output: decode_xxx(out, outlen, result). */
template <class T> using DecodeFn = int (*)(const void *out, u32 outlen, T *result);

/*
 * Runs a command into out_size<Out>() bytes on the stack and, when it
 * succeeds, returns decode(out, that size, result).
 */
template <class Out, class T>
inline int exec_decode(Cmdq &q, const void *in, u32 inlen, T *result, DecodeFn<T> decode,
		       CmdResult *res)
{
	u8 out[out_size<Out>()];
	int err = exec(q, in, inlen, out, sizeof(out), res);
	return err ? err : decode(out, sizeof(out), result);
}

/*
 * A query with no argument beyond op_mod (QUERY_ISSI, QUERY_ADAPTER):
 * E_INVAL without result, else exec_decode.
 */
template <class In, class Out, class T>
inline int query_cmd(Cmdq &q, u16 opcode, T *result, DecodeFn<T> decode, CmdResult *res)
{
	if (!result)
		return E_INVAL;
	u8 in[In::size_bytes];
	begin_in<In>(in, opcode);
	return exec_decode<Out>(q, in, sizeof(in), result, decode, res);
}

/*
 * An input of layout In that names one object: In's field Num = num.
 * E_RANGE (nothing written) when num does not fit.
 */
template <class In, class Num> inline int encode_num_cmd(u8 *in, u16 opcode, u32 num)
{
	if (!prm::fits<Num>(num))
		return E_RANGE;
	prm::set<Num>(begin_in<In>(in, opcode), num);
	return OK;
}

/*
 * The decode_* of an output whose answer is the nested layout Ctx in its
 * region Field (the output is Field's layout): E_INVAL without out or
 * result, or when outlen is short of the output; else read(ctx, result).
 */
template <class Field, class Ctx, class T, class Read>
inline int decode_sub(const void *out, u32 outlen, T *result, Read read)
{
	using Out = typename Field::layout;
	if (!out || !result || outlen < Out::size_bytes)
		return E_INVAL;
	return read(prm::sub<Field, Ctx>(prm::CRef<Out>(out)), result);
}

/*
 * The queries of one object (QUERY_CQ/SRQ/RMP/DCT): E_INVAL without
 * result, E_RANGE (nothing sent) when num does not fit In's field Num,
 * else exec_decode.
 */
template <class In, class Out, class Num, class T>
inline int query_object(Cmdq &q, u16 opcode, u32 num, T *result, DecodeFn<T> decode,
			CmdResult *res)
{
	if (!result)
		return E_INVAL;
	u8 in[In::size_bytes];
	int err = encode_num_cmd<In, Num>(in, opcode, num);
	return err ? err : exec_decode<Out>(q, in, sizeof(in), result, decode, res);
}

/*
 * The commands that name one object and return only a status (DEALLOC_PD,
 * DESTROY_CQ/SRQ/XRQ/QP, 2RST_QP, DRAIN/DESTROY_DCT): In's field Num = num,
 * uid = uid.  E_RANGE (nothing sent) when num does not fit.  The input
 * alone: encode_object_cmd (In::size_bytes at in).
 */
template <class In, class Num> inline int encode_object_cmd(u8 *in, u16 opcode, u32 num, u16 uid)
{
	int err = encode_num_cmd<In, Num>(in, opcode, num);
	if (!err)
		prm::set<typename In::uid>(prm::Ref<In>(in), uid);
	return err;
}

template <class In, class Out, class Num>
inline int object_cmd(Cmdq &q, u16 opcode, u32 num, u16 uid, CmdResult *res)
{
	u8 in[In::size_bytes];
	int err = encode_object_cmd<In, Num>(in, opcode, num, uid);
	return err ? err : exec_status<Out>(q, in, sizeof(in), res);
}

/*
 * Runs a create/alloc command whose output Out returns the new object's
 * number in field Num (ALLOC_PD, CREATE_CQ/SRQ/QP/XRQ): *num = that number
 * when the command succeeds.  The caller has checked num.
 */
template <class Out, class Num>
inline int exec_create(Cmdq &q, const void *in, u32 inlen, u32 *num, CmdResult *res)
{
	u8 out[out_size<Out>()];
	int err = exec(q, in, inlen, out, sizeof(out), res);
	if (!err)
		*num = (u32)prm::get<Num>(prm::CRef<Out>(out));
	return err;
}

/*
 * The input of a create command In with a pas[] tail Pas of npas entries,
 * in host memory (in): E_RANGE when it would not fit in one message, or
 * HostMem::alloc's error.  Then In's opcode and uid are set and fill(r)
 * writes the rest (context and pas[]) through r = Ref<In>.
 */
template <class In, class Pas, class Fill>
inline int build_pas_in(Cmdq &q, HostMem &in, u16 opcode, u16 uid, u32 npas, Fill fill)
{
	if (npas > Pas::entries_in(q.config().max_msg_bytes))
		return E_RANGE;
	int err = in.alloc(q.host(), Pas::bytes_for(npas));
	if (err)
		return err;
	auto r = begin_in<In>(in.data(), opcode);
	prm::set<typename In::uid>(r, uid);
	fill(r);
	return OK;
}

/*
 * build_pas_in, then exec_create: the create commands of queues whose
 * output Out returns the new object's number in Num (CREATE_CQ/SRQ/RMP/XRQ).
 */
template <class In, class Pas, class Out, class Num, class Fill>
inline int exec_create_pas(Cmdq &q, u16 opcode, u16 uid, u32 npas, Fill fill, u32 *num,
			   CmdResult *res)
{
	HostMem in;
	int err = build_pas_in<In, Pas>(q, in, opcode, uid, npas, fill);
	return err ? err : exec_create<Out, Num>(q, in.data(), (u32)in.size(), num, res);
}

/*
 * The pas[] tail of T for a contiguous buffer of n 4 KiB pages at bus
 * (4 KiB aligned): entry i = bus + i * 4 KiB.
 */
template <class T> inline void set_contiguous_pas(prm::Ref<typename T::layout> r, u64 bus, u32 n)
{
	for (u32 i = 0; i < n; i++)
		prm::set_pas<T>(r, i, bus + (u64)i * prm::ADAPTER_PAGE_SIZE);
}

/* The status byte of a command output (prm::cmd_out::status). */
u8 out_status(const void *out);
u32 out_syndrome(const void *out);

} // namespace cxprm::cmd
