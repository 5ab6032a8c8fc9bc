// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CXPRM_IOC_BATCH through cxprm_core_ioctl() (ioctl_batch.cpp) against the
// in-process emulator: the batch's own errors (nothing runs), a mix of
// good and refused ops (each its own ioctl's result, the good ones'
// structs back), the ops' commands in flight together (the emulator's
// trace under a slow latency model), and two ops on one object (-EBUSY).
#include "support/capi_device.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <vector>

#include "cxprm/capi.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

constexpr int EPERM_ = -1, ENOENT_ = -2, EFAULT_ = -14, EBUSY_ = -16, EINVAL_ = -22,
	      ENOTTY_ = -25;
constexpr uint64_t kBad = 0xdead0000; // a user address whose copies fail

struct Caller {
	bool admin = true, raw_write = false;
	// When the struct at 'watch' is copied in: how many DCT ops of 'dcts' had begun.
	uint64_t watch = 0;
	const cxprm_core_dcts *dcts = nullptr;
	int begun_then = -1;
};

int copy_in(void *ctx, void *dst, cxprm_u64 uaddr, cxprm_size n)
{
	if (uaddr == kBad || !uaddr)
		return EFAULT_;
	auto *c = static_cast<Caller *>(ctx);
	if (c->watch && uaddr == c->watch)
		c->begun_then = (int)c->dcts->pending;
	std::memcpy(dst, (const void *)(uintptr_t)uaddr, n);
	return 0;
}

int copy_out(void *, cxprm_u64 uaddr, const void *src, cxprm_size n)
{
	if (uaddr == kBad || !uaddr)
		return EFAULT_;
	std::memcpy((void *)(uintptr_t)uaddr, src, n);
	return 0;
}

int allowed(void *ctx, int priv)
{
	auto *c = static_cast<Caller *>(ctx);
	return priv == CXPRM_CORE_PRIV_ADMIN ? c->admin : c->raw_write;
}

const cxprm_core_caller_ops kOps = {copy_in, copy_out, allowed, nullptr};

std::mutex &dcts_mu()
{
	static std::mutex m;
	return m;
}

uint64_t ua(const void *p) { return (uint64_t)(uintptr_t)p; }

emu::Profile slow_dct_profile()
{
	emu::Profile p = test::objects_cx7();
	p.latency.enabled = true;
	p.latency.engines = 4;
	p.latency.default_us = 0;
	p.latency.per_opcode_us[op::CREATE_DCT] = 200000; // 200 ms: overlap is unmistakable
	return p;
}

struct Batch : ::testing::Test, test::CapiDevice {
	explicit Batch(emu::Profile p = test::objects_cx7()) : CapiDevice(std::move(p)) {}
	cxprm_core_file file{};
	Caller who;
	cxprm_core_caller caller{&kOps, &who};

	void SetUp() override
	{
		ASSERT_NO_FATAL_FAILURE(bring_up());
		ASSERT_NO_FATAL_FAILURE(start_events());
		ASSERT_NO_FATAL_FAILURE(make_refs());
		const cxprm_host *hh = h.host();
		file.obj_lock = hh->ops->lock_create(hh->ctx);
		file.dcts.lock = [](cxprm_core_dcts *) { dcts_mu().lock(); };
		file.dcts.unlock = [](cxprm_core_dcts *) { dcts_mu().unlock(); };
	}
	void TearDown() override
	{
		uint32_t dctn;
		while (cxprm_core_dcts_pop(&file.dcts, &dctn))
			EXPECT_EQ(cxprm_core_dct_destroy(core, dctn, nullptr), 0);
		EXPECT_EQ(cxprm_core_objs_destroy(core, file.objs, nullptr), 0u);
		const cxprm_host *hh = h.host();
		hh->ops->lock_destroy(hh->ctx, file.obj_lock);
		close_objects();
		tear_down();
	}
	long batch(cxprm_batch *b) { return cxprm_core_ioctl(core, &file, CXPRM_IOC_BATCH, ua(b), &caller); }
	// n DCT creates in one batch (ops[i] on d[i]): how many were done.
	unsigned create_dcts(cxprm_dct *d, cxprm_batch_op *ops, unsigned n)
	{
		for (unsigned i = 0; i < n; i++) {
			d[i] = dct_arg();
			ops[i] = {CXPRM_IOC_DCT_CREATE, 1, ua(&d[i])};
		}
		cxprm_batch b{n, 0, ua(ops), 0, 0};
		EXPECT_EQ(batch(&b), 0);
		return b.done;
	}
	uint64_t commands()
	{
		cxprm_core_info i{};
		cxprm_core_get_info(core, &i);
		return i.commands;
	}
};

TEST_F(Batch, BadCountsFlagsAndPointersRunNothing)
{
	cxprm_caps caps{};
	cxprm_batch_op ops[CXPRM_BATCH_MAX + 1];
	for (auto &o : ops)
		o = {CXPRM_IOC_QUERY_CAPS, 1, ua(&caps)};
	uint64_t before = commands();
	cxprm_batch b{};
	b.ops = ua(ops);
	b.count = 0;
	EXPECT_EQ(batch(&b), EINVAL_);
	b.count = CXPRM_BATCH_MAX + 1;
	EXPECT_EQ(batch(&b), EINVAL_);
	b.count = 1, b.flags = 1;
	EXPECT_EQ(batch(&b), EINVAL_);
	b.flags = 0, b.reserved = 1;
	EXPECT_EQ(batch(&b), EINVAL_);
	b.reserved = 0, b.ops = kBad;
	EXPECT_EQ(batch(&b), EFAULT_);
	b.ops = 0;
	EXPECT_EQ(batch(&b), EFAULT_);
	EXPECT_EQ(cxprm_core_ioctl(core, &file, CXPRM_IOC_BATCH, kBad, &caller), EFAULT_);
	b.ops = ua(ops);
	who.admin = false;
	EXPECT_EQ(batch(&b), EPERM_);
	EXPECT_EQ(commands(), before);
	EXPECT_EQ(ops[0].result, 1) << "a refused batch writes no result";
}

TEST_F(Batch, AMixOfGoodAndRefusedOps)
{
	cxprm_caps caps{};
	cxprm_dct good = dct_arg(), unknown{}, unread = dct_arg();
	unknown.dctn = 0xabcdef;
	cxprm_obj bad_obj{};
	bad_obj.type = CXPRM_OBJ_PD;
	bad_obj.reserved = 1;
	cxprm_obj backend{};
	backend.type = CXPRM_OBJ_NVMF_BACKEND;
	cxprm_info info{};
	cxprm_batch_op ops[] = {
		{CXPRM_IOC_QUERY_CAPS, 0, ua(&caps)},
		{CXPRM_IOC_INFO, 0, ua(&info)},
		{CXPRM_IOC_BATCH, 0, ua(&info)},
		{CXPRM_IOC_DCT_DESTROY, 0, ua(&unknown)},
		{CXPRM_IOC_DCT_CREATE, 0, kBad},
		{CXPRM_IOC_OBJ_CREATE, 0, ua(&bad_obj)},
		{CXPRM_IOC_OBJ_CREATE, 0, ua(&backend)},
		{CXPRM_IOC_DCT_CREATE, 0, ua(&good)},
		{0x12345678, 0, ua(&unread)},
	};
	cxprm_batch b{};
	b.count = sizeof(ops) / sizeof(ops[0]);
	b.ops = ua(ops);
	ASSERT_EQ(batch(&b), 0);
	EXPECT_EQ(b.done, 2u);
	EXPECT_EQ(ops[0].result, 0);
	EXPECT_EQ(caps.st.status, 0);
	EXPECT_EQ(caps.st.opcode, op::QUERY_HCA_CAP);
	EXPECT_EQ(ops[1].result, ENOTTY_);
	EXPECT_EQ(ops[2].result, ENOTTY_);
	EXPECT_EQ(ops[3].result, ENOENT_);
	EXPECT_EQ(ops[4].result, EFAULT_);
	EXPECT_EQ(ops[5].result, EINVAL_);
	EXPECT_EQ(ops[6].result, EPERM_) << "the backend needs the raw write scope in a batch too";
	EXPECT_EQ(ops[7].result, 0);
	EXPECT_NE(good.dctn, 0u);
	EXPECT_EQ(good.st.opcode, op::CREATE_DCT);
	EXPECT_EQ(ops[8].result, ENOTTY_);
	EXPECT_EQ(info.fw_major, 0u) << "a refused op's struct is not written";
	EXPECT_EQ(file.dcts.n, 1u);
	EXPECT_EQ(file.dcts.pending, 0u);
}

// A batch's memory is kept for the next (ioctl_batch.cpp, Kept): the next
// batch of no more ops needs no host allocation, and what the last left
// there shows nowhere in its results.
TEST_F(Batch, TheNextBatchKeepsNoStateOfTheLast)
{
	constexpr unsigned N = 40;
	static cxprm_dct d[N], q[N];
	static cxprm_batch_op ops[N];
	ASSERT_EQ(create_dcts(d, ops, N), N);
	// The same queries twice, refused ops mixed in: the second time with
	// every host allocation failing (the queue's mailboxes are made by
	// then; the batch's memory is the one kept).
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < N; i++) {
			q[i] = {};
			q[i].dctn = d[i].dctn;
			ops[i] = {CXPRM_IOC_DCT_QUERY, 1, (i + pass) % 5 ? ua(&q[i]) : kBad};
		}
		cxprm_batch b{N, 0, ua(ops), 0, 0};
		h.uh.fail_alloc_after(pass ? 0 : -1);
		EXPECT_EQ(batch(&b), 0);
		h.uh.fail_alloc_after(-1);
		EXPECT_EQ(b.done, N - N / 5);
		for (unsigned i = 0; i < N; i++) {
			if (!((i + pass) % 5)) {
				EXPECT_EQ(ops[i].result, EFAULT_) << i;
				EXPECT_EQ(q[i].st.opcode, 0) << "a refused op's struct is not written";
				continue;
			}
			EXPECT_EQ(ops[i].result, 0) << pass << " " << i;
			EXPECT_EQ(q[i].st.opcode, op::QUERY_DCT) << i;
			EXPECT_EQ(q[i].st.status, 0) << i;
			EXPECT_EQ(q[i].dctn, d[i].dctn) << i;
			EXPECT_EQ(q[i].ctx.pd, pd) << i;
			EXPECT_EQ(q[i].ctx.cqn, cqn) << i;
		}
	}
}

struct SlowBatch : Batch {
	SlowBatch() : Batch(slow_dct_profile()) {}
};

TEST_F(SlowBatch, OpsAreInFlightTogether)
{
	struct Span {
		uint64_t seen, answered;
	};
	std::mutex mu;
	std::vector<Span> spans;
	h.emu.set_trace([&](const emu::TraceRecord &r) {
		if (r.opcode != op::CREATE_DCT)
			return;
		std::lock_guard<std::mutex> lk(mu);
		spans.push_back({r.seen_ns, r.time_ns});
	});
	constexpr unsigned N = 8;
	cxprm_dct d[N];
	cxprm_batch_op ops[N];
	EXPECT_EQ(create_dcts(d, ops, N), N);
	h.emu.set_trace({});
	std::vector<uint32_t> numbers;
	for (unsigned i = 0; i < N; i++) {
		EXPECT_EQ(ops[i].result, 0) << i;
		numbers.push_back(d[i].dctn);
	}
	std::sort(numbers.begin(), numbers.end());
	EXPECT_EQ(std::unique(numbers.begin(), numbers.end()), numbers.end()) << "distinct DCTs";
	EXPECT_EQ(file.dcts.n, N);
	// Most in flight at once: doorbells seen before an earlier answer.
	std::lock_guard<std::mutex> lk(mu);
	ASSERT_EQ(spans.size(), N);
	unsigned most = 0;
	for (const Span &s : spans) {
		unsigned at = 0;
		for (const Span &o : spans)
			at += o.seen <= s.seen && s.seen < o.answered;
		most = std::max(most, at);
	}
	EXPECT_GE(most, 4u) << "K = 4 engines busy at once";
}

// A batch whose ops are all posted has its first commands in flight while
// its later ops are still copied in (ioctl_batch.cpp step 1, post_more):
// the DCT creates before the last had begun (their table entries claimed,
// pending) when the last one's struct came in.
TEST_F(SlowBatch, FirstCommandsGoOutWhileLaterOpsAreCopiedIn)
{
	constexpr unsigned N = 4;
	cxprm_dct d[N];
	cxprm_batch_op ops[N];
	who.watch = ua(&d[N - 1]);
	who.dcts = &file.dcts;
	EXPECT_EQ(create_dcts(d, ops, N), N);
	EXPECT_EQ(who.begun_then, (int)N - 1) << "ops 0.." << N - 2 << " posted before op " << N - 1 << " was read";
	EXPECT_EQ(file.dcts.pending, 0u);
	EXPECT_EQ(file.dcts.n, N);
}

// More ops than the queue has free slots, all posted from the calling
// thread (ioctl_batch_posted.cpp): it keeps every slot busy, ends one when
// none is free, and posts on.  The latency model answers each CREATE_DCT
// 2 ms after its doorbell on one of 4 engines.
struct SlotsBatch : Batch {
	static emu::Profile profile()
	{
		emu::Profile p = slow_dct_profile();
		p.latency.per_opcode_us[op::CREATE_DCT] = 2000;
		return p;
	}
	SlotsBatch() : Batch(profile()) {}
};

TEST_F(SlotsBatch, MoreOpsThanFreeSlotsArePostedFromOneThread)
{
	constexpr unsigned N = 50; // > the 31 regular slots
	std::atomic<unsigned> traced{0};
	h.emu.set_trace([&](const emu::TraceRecord &r) { traced += r.opcode == op::CREATE_DCT; });
	cxprm_dct d[N];
	cxprm_batch_op ops[N];
	EXPECT_EQ(create_dcts(d, ops, N), N);
	h.emu.set_trace({});
	for (unsigned i = 0; i < N; i++) {
		EXPECT_EQ(ops[i].result, 0) << i;
		EXPECT_NE(d[i].dctn, 0u) << i;
		EXPECT_EQ(d[i].st.opcode, op::CREATE_DCT) << i;
	}
	EXPECT_EQ(traced.load(), N);
	EXPECT_EQ(file.dcts.n, N);
	EXPECT_EQ(file.dcts.pending, 0u);
}

// An RC QP's steps as batches of posted ops (OBJ_CREATE of a QP, then
// QP_MODIFY), each with ops refused before their command mixed in: the
// refused ones have their ioctl's errors and leave the table as it was.
TEST_F(Batch, PostedQpOpsWithRefusalsMixedIn)
{
	constexpr unsigned N = 4;
	cxprm_obj qp[N + 2];
	for (unsigned i = 0; i < N; i++)
		qp[i] = qp_on(pd, cqn, srqn);
	qp[N] = qp_on(pd, cqn, srqn);
	qp[N].u.qp.st = 9; // not a QP type: E_INVAL before CREATE_QP
	qp[N + 1] = qp_on(pd, cqn, srqn);
	qp[N + 1].u.qp.reserved[0] = 1;
	cxprm_batch_op ops[N + 2];
	for (unsigned i = 0; i < N + 2; i++)
		ops[i] = {CXPRM_IOC_OBJ_CREATE, 0, ua(&qp[i])};
	cxprm_batch b{N + 2, 0, ua(ops), 0, 0};
	ASSERT_EQ(batch(&b), 0);
	EXPECT_EQ(b.done, N);
	for (unsigned i = 0; i < N; i++) {
		EXPECT_EQ(ops[i].result, 0) << i;
		EXPECT_NE(qp[i].id, 0u) << i;
		EXPECT_EQ(qp[i].st.opcode, op::CREATE_QP);
		EXPECT_EQ(qp[i].u.qp.state, 0) << "RST";
	}
	EXPECT_EQ(ops[N].result, EINVAL_);
	EXPECT_EQ(ops[N + 1].result, EINVAL_);
	EXPECT_EQ(cxprm_core_objs_count(file.objs), (uint32_t)N);

	cxprm_qp_modify m[N + 2] = {};
	for (unsigned i = 0; i < N + 2; i++) {
		m[i].qpn = i < N ? qp[i].id : 0xfffff0;
		m[i].transition = CXPRM_QP_RST2INIT;
		m[i].port = 1;
		ops[i] = {CXPRM_IOC_QP_MODIFY, 0, ua(&m[i])};
	}
	m[N + 1].transition = 9; // no such transition
	ASSERT_EQ(batch(&b), 0);
	EXPECT_EQ(b.done, N);
	for (unsigned i = 0; i < N; i++) {
		EXPECT_EQ(ops[i].result, 0) << i;
		EXPECT_EQ(m[i].st.opcode, op::RST2INIT_QP);
		EXPECT_EQ(m[i].st.status, 0);
		EXPECT_EQ(m[i].state, 1) << "INIT";
	}
	EXPECT_EQ(ops[N].result, ENOENT_) << "not the file's QP";
	EXPECT_EQ(ops[N + 1].result, EINVAL_);
	// The same transition again: the firmware refuses it (a status, not an error).
	ASSERT_EQ(batch(&b), 0);
	for (unsigned i = 0; i < N; i++) {
		EXPECT_EQ(ops[i].result, 0) << i;
		EXPECT_NE(m[i].st.status, 0) << i;
		EXPECT_EQ(m[i].state, 1) << "still INIT";
	}
}

// The most a batch holds, as 'bench connect' pipelines RC connections:
// groups of G QPs, each batch one group's creates and one transition each
// of the three groups before it; the fourth batch has all four steps and
// four capability queries (on the host's threads) beside them, 256 ops.
TEST_F(Batch, PipelinedGroupsFillTheLargestBatch)
{
	constexpr unsigned G = 63, OPS = 4 * G + 4; // 4 * 63 QPs + PD, CQ, SRQ: a file's 256
	static_assert(OPS == CXPRM_BATCH_MAX);
	const uint32_t step[] = {CXPRM_QP_RST2INIT, CXPRM_QP_INIT2RTR, CXPRM_QP_RTR2RTS};
	std::vector<cxprm_obj> qp(4 * G);
	std::vector<cxprm_qp_modify> m(3 * G);
	cxprm_caps caps[4] = {};
	std::vector<cxprm_batch_op> ops(OPS);
	for (unsigned t = 0; t < 4; t++) {
		unsigned n = 0;
		for (unsigned g = 0; g < t; g++) // group g, one step further
			for (unsigned i = 0; i < G; i++) {
				cxprm_qp_modify &x = m[(t - g - 1) * G + i];
				x = {};
				x.qpn = qp[g * G + i].id;
				x.transition = step[t - g - 1];
				x.port = 1; // a loopback RC path, as 'bench connect' makes it
				x.mtu = 3;
				x.hop_limit = 64;
				x.remote_qpn = x.qpn;
				x.min_rnr_nak = 12;
				x.retry_count = x.rnr_retry = 7;
				x.ack_timeout = 14;
				ops[n++] = {CXPRM_IOC_QP_MODIFY, 1, ua(&x)};
			}
		for (unsigned i = 0; i < G; i++) { // group t's creates
			qp[t * G + i] = qp_on(pd, cqn, srqn);
			ops[n++] = {CXPRM_IOC_OBJ_CREATE, 1, ua(&qp[t * G + i])};
		}
		if (t == 3)
			for (cxprm_caps &c : caps)
				ops[n++] = {CXPRM_IOC_QUERY_CAPS, 1, ua(&c)};
		cxprm_batch b{n, 0, ua(ops.data()), 0, 0};
		ASSERT_EQ(batch(&b), 0) << t;
		for (unsigned i = 0; i < n; i++)
			EXPECT_EQ(ops[i].result, 0) << t << " " << i;
		ASSERT_EQ(b.done, n) << t;
		for (unsigned g = 0; g < t; g++)
			for (unsigned i = 0; i < G; i++) {
				const cxprm_qp_modify &x = m[(t - g - 1) * G + i];
				EXPECT_EQ(x.st.status, 0) << t << " " << g << std::hex << " " << x.st.syndrome;
				EXPECT_EQ(x.state, t - g) << "INIT, RTR, RTS";
			}
	}
	EXPECT_EQ(cxprm_core_objs_count(file.objs), 4 * G);
	for (const cxprm_caps &c : caps)
		EXPECT_EQ(c.st.opcode, op::QUERY_HCA_CAP);
	// One more op is one too many: refused whole, nothing runs.
	ops.push_back(ops[0]);
	cxprm_batch b{OPS + 1, 0, ua(ops.data()), 0, 0};
	EXPECT_EQ(batch(&b), EINVAL_);
}

TEST_F(Batch, TwoOpsOnOneObjectOneIsBusy)
{
	// Two DESTROYs of one DCT in one batch: one runs, the other is -EBUSY
	// while it does, or -ENOENT once it is gone.
	cxprm_dct d = dct_arg();
	ASSERT_EQ(cxprm_core_ioctl(core, &file, CXPRM_IOC_DCT_CREATE, ua(&d), &caller), 0);
	cxprm_dct a{}, c{};
	a.dctn = c.dctn = d.dctn;
	cxprm_batch_op ops[] = {{CXPRM_IOC_DCT_DESTROY, 0, ua(&a)}, {CXPRM_IOC_DCT_DESTROY, 0, ua(&c)}};
	cxprm_batch b{2, 0, ua(ops), 0, 0};
	ASSERT_EQ(batch(&b), 0);
	EXPECT_EQ(b.done, 1u);
	int other = ops[0].result == 0 ? ops[1].result : ops[0].result;
	EXPECT_TRUE(other == EBUSY_ || other == ENOENT_) << other;
	EXPECT_EQ(file.dcts.n, 0u);
}

} // namespace
