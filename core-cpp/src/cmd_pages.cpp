// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* QUERY_PAGES and MANAGE_PAGES. */
#include "cxprm/commands/pages.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"

namespace cxprm::cmd {

using namespace prm;

namespace {

constexpr u64 PAGE_MASK = ADAPTER_PAGE_SIZE - 1;

template <class In> void set_function(Ref<In> r, const FunctionRef &fn)
{
	set<typename In::embedded_cpu_function>(r, fn.embedded_cpu_function);
	set<typename In::function_id>(r, fn.function_id);
}

u32 max_entries(u32 max_msg)
{
	/* Both directions carry at most max_msg bytes. */
	return min_of(manage_pages_in_pas::entries_in(max_msg),
		      manage_pages_out_pas::entries_in(max_msg));
}

} // namespace

int query_pages(Cmdq &q, PagesKind kind, const FunctionRef &fn, PagesQuery *out,
		CmdResult *res)
{
	if (!out || kind < PagesKind::BOOT || kind > PagesKind::REGULAR)
		return E_INVAL;
	u8 in[query_pages_in::size_bytes];
	set_function(begin_in<query_pages_in>(in, op::QUERY_PAGES, (u16)kind), fn);
	return exec_decode<query_pages_out>(q, in, sizeof(in), out, decode_query_pages, res);
}

int decode_query_pages(const void *out, u32 outlen, PagesQuery *p)
{
	if (!out || !p || outlen < query_pages_out::size_bytes)
		return E_INVAL;
	CRef<query_pages_out> o(out);
	p->num_pages = (s32)(u32)get<query_pages_out::num_pages>(o);
	p->function_id = (u16)get<query_pages_out::function_id>(o);
	p->embedded_cpu_function = get<query_pages_out::embedded_cpu_function>(o);
	return OK;
}

u32 manage_pages_max_entries(const Cmdq &q)
{
	return max_entries(q.config().max_msg_bytes);
}

int manage_pages_give(Cmdq &q, const FunctionRef &fn, const u64 *pas, u32 n, CmdResult *res)
{
	if (!pas)
		return E_INVAL;
	ManagePagesGive give;
	int err = give.begin(q, n);
	for (u32 i = 0; !err && i < n; i++)
		err = give.add(pas[i]);
	return err ? err : give.exec(fn, res);
}

int ManagePagesGive::begin(Cmdq &q, u32 n)
{
	release();
	n_ = put_ = 0;
	if (!n)
		return E_INVAL;
	if (n > manage_pages_max_entries(q))
		return E_RANGE;
	int err = q.reserve(manage_pages_in_pas::bytes_for(n), EXEC_PAGE_SLOT, &slot_);
	if (err)
		return err;
	n_ = n;
	return OK;
}

/*
 * The next entry straight into its mailbox block, big-endian, once: the
 * command then writes only the blocks' control bytes (cmdq_page_slot.cpp).
 */
int ManagePagesGive::add(u64 pa)
{
	static_assert(manage_pages_in::size_bytes == prm::INLINE_BYTES &&
		      manage_pages_in_pas::elem_bytes == 8 && prm::MAILBOX_DATA % 8 == 0,
		      "an entry never straddles two blocks");
	if (!slot_.held() || put_ == n_ || (pa & PAGE_MASK))
		return E_INVAL;
	store_be64(slot_.data(manage_pages_in_pas::bytes_for(put_)), pa);
	put_++;
	return OK;
}

int ManagePagesGive::exec(const FunctionRef &fn, CmdResult *res)
{
	if (!slot_.held() || put_ != n_) {
		release();
		return E_INVAL;
	}
	u8 head[manage_pages_in::size_bytes];
	auto r = begin_in<manage_pages_in>(head, op::MANAGE_PAGES, manage_pages_op::GIVE);
	set_function(r, fn);
	set<manage_pages_in::input_num_entries>(r, n_);
	u8 out[out_size<manage_pages_out>()];
	return slot_.queue()->exec_reserved(&slot_, head, out, sizeof(out), res);
}

int manage_pages_cant_give(Cmdq &q, const FunctionRef &fn, CmdResult *res)
{
	u8 in[manage_pages_in::size_bytes];
	set_function(begin_in<manage_pages_in>(in, op::MANAGE_PAGES, manage_pages_op::CANT_GIVE),
		     fn);
	return exec_status<manage_pages_out>(q, in, sizeof(in), res, EXEC_PAGE_SLOT);
}

int manage_pages_take(Cmdq &q, const FunctionRef &fn, u32 n, u64 *pas, u32 *got, CmdResult *res)
{
	if (got)
		*got = 0;
	if (!n || !pas || !got)
		return E_INVAL;
	if (n > manage_pages_max_entries(q))
		return E_RANGE;
	u8 in[manage_pages_in::size_bytes];
	auto r = begin_in<manage_pages_in>(in, op::MANAGE_PAGES, manage_pages_op::TAKE);
	set_function(r, fn);
	set<manage_pages_in::input_num_entries>(r, n);

	u32 outlen = manage_pages_out_pas::bytes_for(n);
	HostMem out;
	int err = out.alloc(q.host(), outlen);
	if (err)
		return err;
	err = exec(q, in, sizeof(in), out.data(), outlen, res, EXEC_PAGE_SLOT);
	if (err)
		return err;
	return decode_manage_pages_take(out.data(), outlen, n, pas, got);
}

int decode_manage_pages_take(const void *out, u32 outlen, u32 asked, u64 *pas, u32 *got)
{
	*got = 0;
	if (!out || outlen < manage_pages_out::size_bytes)
		return E_INVAL;
	CRef<manage_pages_out> o(out);
	u64 n = get<manage_pages_out::output_num_entries>(o);
	/* Never trust the count beyond what we asked for and what arrived. */
	if (n > asked || n > manage_pages_out_pas::entries_in(outlen))
		return E_PROTO;
	for (u32 i = 0; i < (u32)n; i++)
		pas[i] = get_pas<manage_pages_out_pas>(o, i);
	*got = (u32)n;
	return OK;
}

} // namespace cxprm::cmd
