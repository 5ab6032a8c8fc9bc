// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The object commands (commands/objects.h, qp.h, nvmf.h: PD, CQ, SRQ, XRQ,
// NVMF backend, QP) as bytes: each input through the real engine is caught
// by an answer hook that replaces the device model, checked field by field
// against the PRM layouts, and answered with an object number the command
// must decode.  Bad caller input never reaches the device.
// First: emulator.h names a constant SIG_BLOCK, a <signal.h> macro gtest pulls in.
#include "support/harness.h"
#include "support/command_values.h"

#include <gtest/gtest.h>

#include <vector>

#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/objects.h"
#include "cxprm/commands/qp.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pd_cq.h"
#include "cxprm/prm/qp.h"
#include "cxprm/prm/srq.h"
#include "cxprm/queue_mem.h"

using namespace cxprm;
using namespace cxprm::cmd;
namespace op = cxprm::prm::op;
namespace prm = cxprm::prm;

namespace {

// A queue's params p in one page at buf, its doorbell record at dbr.
template <class P> void one_page(P &p, uint64_t buf, uint64_t dbr)
{
	p.buf_bus = buf;
	p.buf_pages = 1;
	p.dbr_bus = dbr;
}

struct Captured {
	std::vector<uint8_t> in;
	uint32_t calls = 0;
};

// Every command is answered by the hook: status OK and 'number' in the
// output dword 2 (low 24 bits), where every *_out here keeps it.
struct EncodeTest : ::testing::Test {
	test::Harness h{test::quiet_cx7()};
	Captured cap;
	uint32_t number = 0x1234;
	void SetUp() override
	{
		ASSERT_EQ(h.start(), OK);
		h.emu.set_answer_hook(
			[this](unsigned, const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen) {
				cap.in.assign(in, in + inlen);
				cap.calls++;
				if (outlen >= 12)
					store_be32(out + 8, number);
				return (uint8_t)0;
			},
			true);
	}
	void TearDown() override
	{
		h.emu.set_answer_hook({});
		h.cmdq.fini();
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
	template <class L> prm::CRef<L> in() const
	{
		EXPECT_GE(cap.in.size(), (size_t)L::size_bytes);
		return prm::CRef<L>(cap.in.data());
	}
	uint16_t opcode() const { return (uint16_t)prm::get<prm::cmd_in::opcode>(prm::CRef<prm::cmd_in>(cap.in.data())); }
};

TEST_F(EncodeTest, PdAllocAndDealloc)
{
	uint32_t pd = 0;
	ASSERT_EQ(alloc_pd(h.cmdq, &pd, 7), OK);
	EXPECT_EQ(opcode(), op::ALLOC_PD);
	EXPECT_EQ(prm::get<prm::alloc_pd_in::uid>(in<prm::alloc_pd_in>()), 7u);
	EXPECT_EQ(pd, 0x1234u);
	ASSERT_EQ(dealloc_pd(h.cmdq, 0x42), OK);
	EXPECT_EQ(opcode(), op::DEALLOC_PD);
	EXPECT_EQ(prm::get<prm::dealloc_pd_in::pd>(in<prm::dealloc_pd_in>()), 0x42u);
}

TEST_F(EncodeTest, CqFromQueueMem)
{
	QueueMem m;
	ASSERT_EQ(m.init(h.host(), 3 * QueueMem::PAGE), OK);
	EXPECT_EQ(m.npages(), 3u);
	CqParams p;
	p.log_cq_size = 7; // 128 x 64 B = 8 KiB
	p.uar_page = 5;
	p.eqn = 9;
	p.buf_bus = m.page_bus(0);
	p.buf_pages = m.npages();
	p.dbr_bus = m.dbr_bus();
	uint32_t cqn = 0;
	ASSERT_EQ(create_cq(h.cmdq, p, &cqn), OK);
	EXPECT_EQ(cqn, 0x1234u);
	EXPECT_EQ(opcode(), op::CREATE_CQ);
	ASSERT_EQ(cap.in.size(), (size_t)prm::create_cq_in_pas::bytes_for(3));
	auto c = prm::sub<prm::create_cq_in::cq_context, prm::cqc>(in<prm::create_cq_in>());
	EXPECT_EQ(prm::get<prm::cqc::log_cq_size>(c), 7u);
	EXPECT_EQ(prm::get<prm::cqc::uar_page>(c), 5u);
	EXPECT_EQ(prm::get<prm::cqc::c_eqn_or_apu_element>(c), 9u);
	EXPECT_EQ(prm::get<prm::cqc::dbr_addr>(c), m.dbr_bus());
	for (uint32_t i = 0; i < 3; i++)
		EXPECT_EQ(prm::get_pas<prm::create_cq_in_pas>(in<prm::create_cq_in>(), i), m.page_bus(i));

	ASSERT_EQ(destroy_cq(h.cmdq, 0x77), OK);
	EXPECT_EQ(prm::get<prm::destroy_cq_in::cqn>(in<prm::destroy_cq_in>()), 0x77u);
	CqInfo info{};
	ASSERT_EQ(query_cq(h.cmdq, 0x77, &info), OK);
	EXPECT_EQ(opcode(), op::QUERY_CQ);
	EXPECT_EQ(prm::get<prm::query_cq_in::cqn>(in<prm::query_cq_in>()), 0x77u);
	m.fini();
}

TEST_F(EncodeTest, SrqAndDecode)
{
	SrqParams p;
	p.log_srq_size = 6;
	p.log_rq_stride = 2; // 64 B: 4 KiB
	p.pd = 3;
	p.lwm = 4;
	one_page(p, 0x200000, 0x300040);
	uint32_t srqn = 0;
	ASSERT_EQ(create_srq(h.cmdq, p, &srqn), OK);
	EXPECT_EQ(srqn, 0x1234u);
	auto c = prm::sub<prm::create_srq_in::srq_context_entry, prm::srqc>(in<prm::create_srq_in>());
	EXPECT_EQ(prm::get<prm::srqc::log_srq_size>(c), 6u);
	EXPECT_EQ(prm::get<prm::srqc::log_rq_stride>(c), 2u);
	EXPECT_EQ(prm::get<prm::srqc::pd>(c), 3u);
	EXPECT_EQ(prm::get<prm::srqc::lwm>(c), 4u);
	EXPECT_EQ(prm::get<prm::srqc::dbr_addr>(c), 0x300040u);
	EXPECT_EQ(prm::get_pas<prm::create_srq_in_pas>(in<prm::create_srq_in>(), 0), 0x200000u);

	// The offline decoder of QUERY_SRQ's output.
	std::vector<uint8_t> out(prm::query_srq_out::size_bytes);
	prm::Ref<prm::query_srq_out> o(out.data());
	auto oc = prm::sub<prm::query_srq_out::srq_context_entry, prm::srqc>(o);
	prm::set<prm::srqc::pd>(oc, 0xabcdef);
	prm::set<prm::srqc::wqe_cnt>(oc, 17);
	SrqInfo info{};
	ASSERT_EQ(decode_query_srq(out.data(), (uint32_t)out.size(), &info), OK);
	EXPECT_EQ(info.pd, 0xabcdefu);
	EXPECT_EQ(info.wqe_cnt, 17u);
	EXPECT_EQ(decode_query_srq(out.data(), (uint32_t)out.size() - 1, &info), E_INVAL);
}

// The vendor driver's CREATE_XRQ for nvmet (OFED ib/srq_cmd.c, srq_nvmf.c,
// nvme/target/rdma_offload.c): stride in log2 bytes, wq_type 0 (linked
// list), nvmf_offload_type 4, the staging pas after the queue's, each list
// padded to 64 bytes.
TEST_F(EncodeTest, XrqNvmfVendorLayout)
{
	XrqNvmfParams p;
	p.cqn = 0x11;
	p.pd = 0x22;
	p.log_wq_sz = 4;
	p.log_wq_stride = 8; // 256 B x 16 = 4 KiB
	one_page(p, 0x400000, 0x500000);
	p.staging_bus = 0x800000;
	p.staging_pages = 3;
	p.log_max_namespace = 3;
	p.nvme_queue_size = 64;
	uint32_t xrqn = 0;
	ASSERT_EQ(create_xrq_nvmf(h.cmdq, p, &xrqn), OK);
	EXPECT_EQ(opcode(), op::CREATE_XRQ);
	EXPECT_EQ(xrqn, 0x1234u);
	// The fixed part, 64 bytes of queue pas (one + padding), 64 of staging pas.
	ASSERT_EQ(cap.in.size(), prm::create_xrq_in::size_bytes + 64u + 64u);
	auto x = prm::sub<prm::create_xrq_in::xrq_context, prm::xrqc>(in<prm::create_xrq_in>());
	EXPECT_EQ(prm::get<prm::xrqc::offload>(x), prm::XRQ_OFFLOAD_NVMF);
	EXPECT_EQ(prm::get<prm::xrqc::cqn>(x), 0x11u);
	auto n = prm::sub<prm::xrqc::nvme_offload_context, prm::nvme_offload_context>(x);
	EXPECT_EQ(prm::get<prm::nvme_offload_context::nvmf_offload_type>(n), 4u) << "read/write/flush";
	EXPECT_EQ(prm::get<prm::nvme_offload_context::log_max_namespace>(n), 3u);
	EXPECT_EQ(prm::get<prm::nvme_offload_context::nvme_queue_size>(n), 64u);
	EXPECT_EQ(prm::get<prm::nvme_offload_context::staging_buffer_number_of_pages>(n), 3u);
	EXPECT_EQ(prm::get<prm::nvme_offload_context::staging_buffer_log_page_size>(n), 0u); // 4 KiB
	auto w = prm::sub<prm::xrqc::wq, prm::wq>(x);
	EXPECT_EQ(prm::get<prm::wq::wq_type>(w), 0u) << "linked list, as Linux's set_wq leaves it";
	EXPECT_EQ(prm::get<prm::wq::pd>(w), 0x22u);
	EXPECT_EQ(prm::get<prm::wq::log_wq_sz>(w), 4u);
	EXPECT_EQ(prm::get<prm::wq::log_wq_stride>(w), 8u) << "log2 bytes";
	EXPECT_EQ(prm::get<prm::wq::dbr_addr>(w), 0x500000u);
	const uint8_t *tail = cap.in.data() + prm::create_xrq_in::size_bytes;
	EXPECT_EQ(load_be64(tail), 0x400000u);
	for (unsigned i = 1; i < 8; i++)
		EXPECT_EQ(load_be64(tail + 8 * i), 0u) << "padding entry " << i;
	for (unsigned i = 0; i < 3; i++)
		EXPECT_EQ(load_be64(tail + 64 + 8 * i), 0x800000u + 0x1000u * i) << "staging page " << i;
	ASSERT_EQ(destroy_xrq(h.cmdq, 0x1234), OK);
	EXPECT_EQ(opcode(), op::DESTROY_XRQ);

	// What the old driver sent, or no staging buffer, never leaves.
	uint32_t calls = cap.calls;
	p.log_wq_stride = 4; // 16 B: below a receive WQE
	EXPECT_EQ(create_xrq_nvmf(h.cmdq, p, &xrqn), E_INVAL);
	p.log_wq_stride = 8;
	p.staging_pages = 0;
	EXPECT_EQ(create_xrq_nvmf(h.cmdq, p, &xrqn), E_INVAL);
	EXPECT_EQ(cap.calls, calls);
}

// The vendor's backend address list: 2 x 64 bytes, CQ at +0, SQ at +64
// (OFED ib/nvmf.c set_nvmf_pas).
TEST_F(EncodeTest, NvmfBackendVendorLayout)
{
	NvmfBackendParams b;
	b.xrqn = 0x1234;
	b.cq_bus = 0x600000;
	b.sq_bus = 0x601000;
	b.sqt_db_bus = 0xfe001008; // an SSD's SQ1TDBL and CQ1HDBL (DSTRD 0)
	b.cqh_db_bus = 0xfe00100c;
	b.queue_depth = 256;       // SQ 16 KiB, CQ 4 KiB
	number = 0x00000007; // backend_controller_id: low 16 bits of dword 2
	uint16_t id = 0;
	ASSERT_EQ(create_nvmf_backend_ctrl(h.cmdq, b, &id), OK);
	EXPECT_EQ(id, 7u);
	using BI = prm::create_nvmf_be_ctrl_in;
	ASSERT_EQ(cap.in.size(), BI::size_bytes + 128u);
	EXPECT_EQ(prm::get<BI::xrqn>(in<BI>()), 0x1234u);
	auto be = prm::sub<BI::nvmf_be_ctrl_entry, prm::nvmf_be_ctrl>(in<BI>());
	EXPECT_EQ(prm::get<prm::nvmf_be_ctrl::cqh_dbr_addr>(be), 0xfe00100cu);
	EXPECT_EQ(prm::get<prm::nvmf_be_ctrl::sqt_dbr_addr>(be), 0xfe001008u);
	// As nvmet_rdma_init_be_ctrl_attr: log2 of 4 KiB pages, offsets and
	// initial doorbell values 0.
	EXPECT_EQ(prm::get<prm::nvmf_be_ctrl::sq_log_page_size>(be), 2u);
	EXPECT_EQ(prm::get<prm::nvmf_be_ctrl::cq_log_page_size>(be), 0u);
	EXPECT_EQ(prm::get<prm::nvmf_be_ctrl::sq_page_offset>(be), 0u);
	EXPECT_EQ(prm::get<prm::nvmf_be_ctrl::initial_sqt_db_value>(be), 0u);
	const uint8_t *list = cap.in.data() + BI::size_bytes;
	EXPECT_EQ(load_be64(list), 0x600000u);
	EXPECT_EQ(load_be64(list + 8), 0u) << "nothing right after the CQ address";
	EXPECT_EQ(load_be64(list + 64), 0x601000u) << "the SQ address at +64";
	ASSERT_EQ(destroy_nvmf_backend_ctrl(h.cmdq, 0x1234, 7), OK);
	using BD = prm::destroy_nvmf_be_ctrl_in;
	EXPECT_EQ(prm::get<BD::backend_controller_id>(in<BD>()), 7u);
}

TEST_F(EncodeTest, QpLifecycleCommands)
{
	QpParams p;
	p.pd = 1;
	p.cqn_snd = 2;
	p.cqn_rcv = 3;
	p.srqn = 4;
	p.log_sq_size = 6; // 64 x 64 B = 4 KiB
	one_page(p, 0x700000, 0x710000);
	uint32_t qpn = 0;
	ASSERT_EQ(create_qp(h.cmdq, p, &qpn), OK);
	EXPECT_EQ(qpn, 0x1234u);
	auto c = prm::sub<prm::create_qp_in::qpc, prm::qpc>(in<prm::create_qp_in>());
	EXPECT_EQ(prm::get<prm::qpc::st>(c), QP_ST_RC);
	EXPECT_EQ(prm::get<prm::qpc::pd>(c), 1u);
	EXPECT_EQ(prm::get<prm::qpc::cqn_snd>(c), 2u);
	EXPECT_EQ(prm::get<prm::qpc::cqn_rcv>(c), 3u);
	EXPECT_EQ(prm::get<prm::qpc::rq_type>(c), QP_RQ_SRQ);
	EXPECT_EQ(prm::get<prm::qpc::srqn_rmpn_xrqn>(c), 4u);
	EXPECT_EQ(prm::get<prm::qpc::log_sq_size>(c), 6u);

	QpPath path;
	path.remote_qpn = 0x55;
	path.next_rcv_psn = 0x100;
	path.next_send_psn = 0x200;
	path.rgid[15] = 9;
	path.rmac[0] = 0xaa;
	path.rmac[5] = 0xbb;
	ASSERT_EQ(qp_rst2init(h.cmdq, 0x1234, path), OK);
	EXPECT_EQ(opcode(), op::RST2INIT_QP);
	EXPECT_EQ(prm::get<prm::rst2init_qp_in::qpn>(in<prm::rst2init_qp_in>()), 0x1234u);
	ASSERT_EQ(qp_init2rtr(h.cmdq, 0x1234, path), OK);
	EXPECT_EQ(opcode(), op::INIT2RTR_QP);
	auto rc = prm::sub<prm::init2rtr_qp_in::qpc, prm::qpc>(in<prm::init2rtr_qp_in>());
	EXPECT_EQ(prm::get<prm::qpc::remote_qpn>(rc), 0x55u);
	EXPECT_EQ(prm::get<prm::qpc::next_rcv_psn>(rc), 0x100u);
	auto a = prm::sub<prm::qpc::primary_address_path, prm::ads>(rc);
	EXPECT_EQ(prm::bytes<prm::ads::rgid_rip>(a)[15], 9);
	EXPECT_EQ(prm::get<prm::ads::rmac_47_32>(a), 0xaa00u);
	EXPECT_EQ(prm::get<prm::ads::rmac_31_0>(a), 0xbbu);
	ASSERT_EQ(qp_rtr2rts(h.cmdq, 0x1234, path), OK);
	auto sc = prm::sub<prm::rtr2rts_qp_in::qpc, prm::qpc>(in<prm::rtr2rts_qp_in>());
	EXPECT_EQ(prm::get<prm::qpc::next_send_psn>(sc), 0x200u);
	ASSERT_EQ(qp_2rst(h.cmdq, 0x1234), OK);
	EXPECT_EQ(opcode(), op::QP_2RST);
	ASSERT_EQ(destroy_qp(h.cmdq, 0x1234), OK);
	EXPECT_EQ(opcode(), op::DESTROY_QP);
}

TEST_F(EncodeTest, BadCallerInputNeverReachesTheDevice)
{
	uint32_t n = 0;
	EXPECT_EQ(alloc_pd(h.cmdq, nullptr), E_INVAL);
	EXPECT_EQ(dealloc_pd(h.cmdq, 1u << 24), E_RANGE);
	CqParams cq;
	one_page(cq, 0x10000, 0x20000);
	cq.log_cq_size = 7; // 8 KiB in one page
	EXPECT_EQ(create_cq(h.cmdq, cq, &n), E_INVAL);
	cq.log_cq_size = 6;
	cq.buf_bus = 0x10800; // unaligned
	EXPECT_EQ(create_cq(h.cmdq, cq, &n), E_INVAL);
	cq.buf_bus = 0x10000;
	cq.dbr_bus = 0x20004; // dbr not 8-byte aligned
	EXPECT_EQ(create_cq(h.cmdq, cq, &n), E_INVAL);
	cq.dbr_bus = 0x20000;
	cq.uar_page = 1u << 24;
	EXPECT_EQ(create_cq(h.cmdq, cq, &n), E_RANGE);
	cq.uar_page = 0;
	EXPECT_EQ(create_cq(h.cmdq, cq, nullptr), E_INVAL);
	EXPECT_EQ(query_cq(h.cmdq, 1, nullptr), E_INVAL);
	EXPECT_EQ(destroy_cq(h.cmdq, 1u << 24), E_RANGE);
	SrqParams sp;
	one_page(sp, 0x10000, 0x20000);
	sp.pd = 1u << 24;
	EXPECT_EQ(create_srq(h.cmdq, sp, &n), E_RANGE);
	sp.pd = 1;
	sp.log_srq_size = 9; // 512 x 16 B = 8 KiB > one page
	EXPECT_EQ(create_srq(h.cmdq, sp, &n), E_INVAL);
	QpParams qp;
	one_page(qp, 0x10000, 0x20000);
	qp.log_sq_size = 7; // 8 KiB
	EXPECT_EQ(create_qp(h.cmdq, qp, &n), E_INVAL);
	qp.log_sq_size = 16; // 4 bits
	EXPECT_EQ(create_qp(h.cmdq, qp, &n), E_RANGE);
	QpPath path;
	path.mtu = 8;
	EXPECT_EQ(qp_init2rtr(h.cmdq, 1, path), E_RANGE);
	EXPECT_EQ(qp_rst2init(h.cmdq, 1u << 24, QpPath{}), E_RANGE);
	XrqNvmfParams xp;
	one_page(xp, 0x10000, 0x20000);
	xp.log_wq_stride = 8;
	xp.staging_bus = 0x30000;
	xp.staging_pages = 1;
	xp.log_max_namespace = 32; // 5 bits
	EXPECT_EQ(create_xrq_nvmf(h.cmdq, xp, &n), E_RANGE);
	NvmfBackendParams bp;
	uint16_t id;
	bp.cq_bus = 0x10000;
	bp.sq_bus = 0x10100; // unaligned
	bp.cqh_db_bus = bp.sqt_db_bus = 0x20000;
	bp.queue_depth = 64;
	EXPECT_EQ(create_nvmf_backend_ctrl(h.cmdq, bp, &id), E_INVAL);
	bp.sq_bus = 0x11000;
	bp.sqt_db_bus = 0x20002; // a doorbell register is 4-byte aligned
	EXPECT_EQ(create_nvmf_backend_ctrl(h.cmdq, bp, &id), E_INVAL);
	bp.sqt_db_bus = 0x20000;
	bp.queue_depth = 1;
	EXPECT_EQ(create_nvmf_backend_ctrl(h.cmdq, bp, &id), E_INVAL);
	EXPECT_EQ(cap.calls, 0u);

	QueueMem m;
	EXPECT_EQ(m.init(h.host(), 0), E_INVAL);
	EXPECT_EQ(m.init(h.host(), (QueueMem::MAX_PAGES + 1) * (size_t)QueueMem::PAGE), E_RANGE);
	EXPECT_FALSE(m.ready());
}

} // namespace
