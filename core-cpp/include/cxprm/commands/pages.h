/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_PAGES and MANAGE_PAGES (prm/pages.h).  Most callers want the
 * PageTracker (cxprm/pages.h), which owns the memory behind these.
 */
#pragma once

#include "common.h"

namespace cxprm::cmd {

/* Which function the pages are for (query_pages_in/manage_pages_in). */
struct FunctionRef {
	u16 function_id = 0;
	bool embedded_cpu_function = false;
};

/* query_pages_in.op_mod (prm::query_pages_op). */
enum class PagesKind : u16 { BOOT = 1, INIT = 2, REGULAR = 3 };

struct PagesQuery {
	s32 num_pages;   /* > 0: firmware wants pages; < 0: it returns some */
	u16 function_id;
	bool embedded_cpu_function;
};

int query_pages(Cmdq &q, PagesKind kind, const FunctionRef &fn, PagesQuery *out,
		CmdResult *res = nullptr);
int decode_query_pages(const void *out, u32 outlen, PagesQuery *r);

/* Most page addresses one MANAGE_PAGES message can carry on q. */
u32 manage_pages_max_entries(const Cmdq &q);

/*
 * Pages one teardown reclaim round asks back: what 12 output mailbox
 * blocks hold after the 16-byte header, (16 + 12 * 512 - 16) / 8 = 768
 * (Linux pagealloc.c optimal_reclaimed_pages(), MLX5_BLKS_FOR_RECLAIM_PAGES).
 */
constexpr u32 RECLAIM_ROUND_PAGES = 12 * 512 / 8;

/*
 * GIVE: hands the n pages at pas[] (4 KiB aligned bus addresses) to
 * firmware.  E_INVAL for an unaligned address, E_RANGE when n exceeds
 * manage_pages_max_entries(q).  Runs on the reserved page slot: a
 * ManagePagesGive with the n addresses added.
 */
int manage_pages_give(Cmdq &q, const FunctionRef &fn, const u64 *pas, u32 n,
		      CmdResult *res = nullptr);

/*
 * GIVE with its page list written into the page slot's input mailboxes
 * as the pages are mapped (Cmdq::Reserved): begin() takes the slot for n
 * pages (E_INVAL for 0, E_RANGE beyond manage_pages_max_entries(q), or
 * the slot's error), add() writes the next page's address (E_INVAL when
 * unaligned or n are in), exec() runs the command once all n are in
 * (E_INVAL otherwise, the slot given back), and
 * release() (also the destructor) gives the slot back unused.  The slot
 * is held from begin() to exec(): map the pages, issue no command.
 */
class ManagePagesGive {
public:
	int begin(Cmdq &q, u32 n);
	int add(u64 pa);
	int exec(const FunctionRef &fn, CmdResult *res = nullptr);
	void release() { slot_.release(); }

private:
	Cmdq::Reserved slot_;
	u32 n_ = 0, put_ = 0;
};

/* CANT_GIVE: tells firmware we cannot satisfy its page request. */
int manage_pages_cant_give(Cmdq &q, const FunctionRef &fn, CmdResult *res = nullptr);

/*
 * TAKE: asks for up to n pages back.  pas[] (room for n) receives the bus
 * addresses firmware returned, *got how many.  E_PROTO (and *got = 0) when
 * firmware claims more entries than asked or than its output holds.
 */
int manage_pages_take(Cmdq &q, const FunctionRef &fn, u32 n, u64 *pas, u32 *got,
		      CmdResult *res = nullptr);

/* Offline decode of a TAKE answer of outlen bytes; same checks as above. */
int decode_manage_pages_take(const void *out, u32 outlen, u32 asked, u64 *pas, u32 *got);

} // namespace cxprm::cmd
