/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The objects a DCT or QP names: ALLOC_PD / DEALLOC_PD, CREATE/DESTROY/
 * QUERY_CQ (prm/pd_cq.h), CREATE/DESTROY/QUERY_SRQ (prm/srq.h) and _RMP
 * (prm/rmp.h).
 *
 * A CQ's or SRQ's queue is one contiguous buffer (QueueMem: pas[] entry i
 * = buf_bus + i * 4 KiB) plus a doorbell record; E_INVAL (nothing sent)
 * when the buffer is missing, unaligned or smaller than the queue.
 */
#pragma once

#include "common.h"

namespace cxprm::cmd {

int alloc_pd(Cmdq &q, u32 *pd, u16 uid = 0, CmdResult *res = nullptr);
int dealloc_pd(Cmdq &q, u32 pd, u16 uid = 0, CmdResult *res = nullptr);

/*
 * The four calls of a queue object (CQ, SRQ, RMP): create_<obj>,
 * destroy_<obj>, query_<obj> and decode_query_<obj> (the output of a
 * QUERY_<OBJ> sent otherwise), the object named by its number num.
 * The definitions: cmd_queue.h (create_queue, CXPRM_DESTROY_AND_QUERY).
 */
#define CXPRM_QUEUE_COMMANDS(obj, num, Params, Info)                                        \
	int create_##obj(Cmdq &q, const Params &p, u32 *num, CmdResult *res = nullptr);     \
	int destroy_##obj(Cmdq &q, u32 num, u16 uid = 0, CmdResult *res = nullptr);         \
	int query_##obj(Cmdq &q, u32 num, Info *info, CmdResult *res = nullptr);            \
	int decode_query_##obj(const void *out, u32 outlen, Info *info);

/* 64-byte CQEs. */
struct CqParams {
	u8 log_cq_size = 0; /* 2^n entries */
	u32 uar_page = 0;   /* UAR page of the arm doorbell */
	u32 eqn = 0;        /* completion events go to this EQ */
	u64 buf_bus = 0;    /* 4 KiB-aligned, contiguous */
	u32 buf_pages = 0;  /* 4 KiB pages at buf_bus */
	u64 dbr_bus = 0;    /* doorbell record, 8-byte aligned */
	u16 uid = 0;
};

/* What QUERY_CQ reports (cqc). */
struct CqInfo {
	u8 status, st, log_cq_size;
	u32 uar_page, eqn;
	u32 consumer_counter, producer_counter;
	u64 dbr_addr;
};

CXPRM_QUEUE_COMMANDS(cq, cqn, CqParams, CqInfo)

/* A cyclic SRQ of 2^log_srq_size WQEs of 16 << log_rq_stride bytes. */
struct SrqParams {
	u8 log_srq_size = 0;
	u8 log_rq_stride = 0; /* log2(stride / 16 B) */
	u32 pd = 0;
	u32 cqn = 0;          /* XRC only; 0 for a plain SRQ */
	u16 lwm = 0;
	u64 buf_bus = 0;
	u32 buf_pages = 0;
	u64 dbr_bus = 0;
	u16 uid = 0;
};

struct SrqInfo {
	u8 state, log_srq_size, log_rq_stride;
	u32 pd, cqn;
	u16 lwm, wqe_cnt;
	u64 dbr_addr;
};

CXPRM_QUEUE_COMMANDS(srq, srqn, SrqParams, SrqInfo)

/*
 * The same SRQ as an RMP (prm/rmp.h), as Linux's mlx5_ib sends it from
 * ISSI 1 (ib/srq_cmd.c create_srq_split): no CQ (p.cqn must be 0); QUERY
 * reports rmpc.state (RMP_STATE_RDY) and the wq's hw_counter as wqe_cnt.
 */
CXPRM_QUEUE_COMMANDS(rmp, rmpn, SrqParams, SrqInfo)

/*
 * Bytes of queue: 2^log entries of 'stride' bytes; ~0 (larger than any
 * queue) from log 32 up, where the shift would leave 64 bits (a log from
 * userspace is a u8: fuzz/regressions/ioctl_request/xrq_log_size_248_shift).
 */
inline constexpr u64 queue_bytes(u32 log_entries, u32 stride)
{
	return log_entries >= 32 ? ~0ull : (u64)stride << log_entries;
}
static_assert(queue_bytes(255, 16) == ~0ull && queue_bytes(4, 64) == 1024, "queue_bytes");

/* A contiguous queue buffer: nonzero, 4 KiB aligned, holding 'bytes'. */
bool queue_buffer_ok(u64 bus, u32 pages, u64 bytes);

} // namespace cxprm::cmd
