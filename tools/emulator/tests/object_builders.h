// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Building the objects a DCT, QP or NVMF namespace names, by hand (raw
// messages, as the other emulator tests do): UAR + EQ, PD, CQ, SRQ, NVMF
// XRQ and backend controller, DCT.  Each create_* returns the answer; the
// plain-named helpers expect OK and return the new number.
#pragma once

#include "test_driver.h"

#include <algorithm>

#include "cxprm/commands/nvmf.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/pd_cq.h"
#include "cxprm/prm/qp.h"
#include "cxprm/prm/srq.h"
#include "cxprm/prm/vport.h"

namespace cxprm::emu::test {

struct ObjectBuilder {
	TestDriver &drv;
	FakePlatform &plat;

	template <class Out, class F> static uint32_t number(const Answer &a)
	{
		EXPECT_EQ(a.status, st::OK) << std::hex << a.syndrome;
		return (uint32_t)prm::get<F>(a.as<Out>());
	}

	uint32_t uar()
	{
		Answer a = drv.run<prm::alloc_uar_out>(make_in<prm::alloc_uar_in>(op::ALLOC_UAR));
		return number<prm::alloc_uar_out, prm::alloc_uar_out::uar>(a);
	}
	uint8_t eq(uint32_t uar)
	{
		uint64_t ring = plat.alloc(4096);
		for (int i = 0; i < 16; i++)
			plat.cpu(ring + i * 64)[63] = 1;
		Msg m = make_in<prm::create_eq_in>(op::CREATE_EQ, 0, 8);
		auto c = prm::sub<prm::create_eq_in::eq_context_entry, prm::eqc>(m.as<prm::create_eq_in>());
		prm::set<prm::eqc::log_eq_size>(c, 4);
		prm::set<prm::eqc::uar_page>(c, uar);
		prm::set_pas<prm::create_eq_in_pas>(m.as<prm::create_eq_in>(), 0, ring);
		Answer a = drv.run<prm::create_eq_out>(m);
		return (uint8_t)number<prm::create_eq_out, prm::create_eq_out::eq_number>(a);
	}
	// MODIFY_NIC_VPORT_CONTEXT roce_en = en.
	Answer set_roce_en(bool en)
	{
		using in_t = prm::modify_nic_vport_context_in;
		Msg m = make_in<in_t>(op::MODIFY_NIC_VPORT_CONTEXT);
		prm::set<prm::modify_nic_vport_field_select::roce_en>(
			prm::sub<in_t::field_select, prm::modify_nic_vport_field_select>(m.as<in_t>()), 1);
		prm::set<prm::nic_vport_context::roce_en>(
			prm::sub<in_t::nic_vport_context, prm::nic_vport_context>(m.as<in_t>()), en);
		return drv.run<prm::modify_nic_vport_context_out>(m);
	}
	// SET_ROCE_ADDRESS of entry index (port 0: own); a zero gid_byte
	// writes the empty entry (the delete).
	Answer set_gid(uint16_t index, uint8_t gid_byte, uint8_t version = 0, uint8_t port = 0)
	{
		using in_t = prm::set_roce_address_in;
		Msg m = make_in<in_t>(op::SET_ROCE_ADDRESS);
		prm::set<in_t::roce_address_index>(m.as<in_t>(), index);
		prm::set<in_t::vhca_port_num>(m.as<in_t>(), port);
		auto e = prm::sub<in_t::roce_address, prm::roce_addr_layout>(m.as<in_t>());
		prm::bytes<prm::roce_addr_layout::source_l3_address>(e)[15] = gid_byte;
		prm::set<prm::roce_addr_layout::roce_version>(e, version);
		return drv.run<prm::set_roce_address_out>(m);
	}
	// RoCE as a driver sets it up: roce_en and GID entry 0.
	void roce()
	{
		EXPECT_EQ(set_roce_en(true).status, st::OK);
		EXPECT_EQ(set_gid(0, 1).status, st::OK);
	}
	uint32_t pd()
	{
		Answer a = drv.run<prm::alloc_pd_out>(make_in<prm::alloc_pd_in>(op::ALLOC_PD));
		return number<prm::alloc_pd_out, prm::alloc_pd_out::pd>(a);
	}
	// A CQ of 2^6 entries (one page) on uar/eqn; npas pas entries sent.
	Answer create_cq(uint32_t uar, uint32_t eqn, uint32_t npas = 1, uint8_t log_size = 6)
	{
		Msg m = make_in<prm::create_cq_in>(op::CREATE_CQ, 0, 8 * npas);
		auto c = prm::sub<prm::create_cq_in::cq_context, prm::cqc>(m.as<prm::create_cq_in>());
		prm::set<prm::cqc::log_cq_size>(c, log_size);
		prm::set<prm::cqc::uar_page>(c, uar);
		prm::set<prm::cqc::c_eqn_or_apu_element>(c, eqn);
		prm::set<prm::cqc::dbr_addr>(c, plat.alloc(64, 64));
		for (uint32_t i = 0; i < npas; i++)
			prm::set_pas<prm::create_cq_in_pas>(m.as<prm::create_cq_in>(), i, plat.alloc(4096));
		return drv.run<prm::create_cq_out>(m);
	}
	uint32_t cq(uint32_t uar, uint32_t eqn)
	{
		return number<prm::create_cq_out, prm::create_cq_out::cqn>(create_cq(uar, eqn));
	}
	Answer create_srq(uint32_t pd, uint32_t cqn = 0, uint32_t npas = 1)
	{
		Msg m = make_in<prm::create_srq_in>(op::CREATE_SRQ, 0, 8 * npas);
		auto c = prm::sub<prm::create_srq_in::srq_context_entry, prm::srqc>(m.as<prm::create_srq_in>());
		prm::set<prm::srqc::log_srq_size>(c, 6);
		prm::set<prm::srqc::log_rq_stride>(c, 2);
		prm::set<prm::srqc::pd>(c, pd);
		prm::set<prm::srqc::cqn>(c, cqn);
		prm::set<prm::srqc::dbr_addr>(c, plat.alloc(64, 64));
		for (uint32_t i = 0; i < npas; i++)
			prm::set_pas<prm::create_srq_in_pas>(m.as<prm::create_srq_in>(), i, plat.alloc(4096));
		return drv.run<prm::create_srq_out>(m);
	}
	uint32_t srq(uint32_t pd) { return number<prm::create_srq_out, prm::create_srq_out::srqn>(create_srq(pd)); }
	// CREATE_XRQ as the vendor driver sends it for nvmet (prm/nvmf.h),
	// unless a test changes it: 2^log_sz WQEs of 2^log_stride bytes, a
	// linked list, read/write/flush offload, staging_pages pas after the
	// queue's (both padded to 64 bytes; staging_pas false leaves them out).
	struct XrqSpec {
		uint8_t offload = prm::XRQ_OFFLOAD_NVMF, log_max_ns = 3;
		uint8_t offload_type = prm::NVMF_OFFLOAD_READ_WRITE_FLUSH, wq_type = prm::WQ_TYPE_LINKED_LIST;
		uint8_t log_stride = 8, log_sz = 4; // 256 B x 16: one page
		uint32_t staging_pages = 2;
		bool staging_pas = true;
		uint16_t nvme_queue_size = 64; // the modelled SSD's queue depth
	};
	uint64_t last_staging = 0; // the first staging page of the last create_xrq
	Answer create_xrq(uint32_t pd, uint32_t cqn, const XrqSpec &x)
	{
		uint32_t qpages = (uint32_t)std::max<uint64_t>(1, (1ull << (x.log_stride + x.log_sz)) / 4096);
		uint32_t npas = x.staging_pas ? prm::xrq_nvmf_pas_entries(qpages, x.staging_pages) : qpages;
		Msg m = make_in<prm::create_xrq_in>(op::CREATE_XRQ, 0, 8 * npas);
		auto in = m.as<prm::create_xrq_in>();
		auto c = prm::sub<prm::create_xrq_in::xrq_context, prm::xrqc>(in);
		prm::set<prm::xrqc::offload>(c, x.offload);
		prm::set<prm::xrqc::cqn>(c, cqn);
		auto n = prm::sub<prm::xrqc::nvme_offload_context, prm::nvme_offload_context>(c);
		prm::set<prm::nvme_offload_context::nvmf_offload_type>(n, x.offload_type);
		prm::set<prm::nvme_offload_context::log_max_namespace>(n, x.log_max_ns);
		prm::set<prm::nvme_offload_context::staging_buffer_number_of_pages>(n, x.staging_pages);
		prm::set<prm::nvme_offload_context::nvme_queue_size>(n, x.nvme_queue_size);
		auto w = prm::sub<prm::xrqc::wq, prm::wq>(c);
		prm::set<prm::wq::wq_type>(w, x.wq_type);
		prm::set<prm::wq::pd>(w, pd);
		prm::set<prm::wq::dbr_addr>(w, plat.alloc(64, 64));
		prm::set<prm::wq::log_wq_stride>(w, x.log_stride);
		prm::set<prm::wq::log_wq_sz>(w, x.log_sz);
		uint64_t q = plat.alloc(4096 * qpages);
		for (uint32_t i = 0; i < qpages; i++)
			prm::set_pas<prm::create_xrq_in_pas>(in, i, q + 4096 * i);
		if (x.staging_pas && x.staging_pages) {
			last_staging = plat.alloc(4096 * x.staging_pages);
			uint32_t first = prm::xrq_nvmf_staging_entry(qpages);
			for (uint32_t i = 0; i < x.staging_pages; i++)
				prm::set_pas<prm::create_xrq_in_pas>(in, first + i, last_staging + 4096 * i);
		}
		return drv.run<prm::create_xrq_out>(m);
	}
	Answer create_xrq(uint32_t pd, uint32_t cqn, uint8_t offload = prm::XRQ_OFFLOAD_NVMF, uint8_t log_max_ns = 3)
	{
		XrqSpec x;
		x.offload = offload;
		x.log_max_ns = log_max_ns;
		return create_xrq(pd, cqn, x);
	}
	uint32_t xrq(uint32_t pd, uint32_t cqn, uint8_t log_max_ns = 3)
	{
		return number<prm::create_xrq_out, prm::create_xrq_out::xrqn>(
			create_xrq(pd, cqn, prm::XRQ_OFFLOAD_NVMF, log_max_ns));
	}
	// The backend a test names: an I/O queue pair of the modelled SSD
	// (Emulator::nvme_take_queue, qids in turn so two backends do not
	// share one), or, with driver_pages, what cxprm once sent: pages and
	// doorbell records of the driver's own.
	struct BackendSpec {
		uint32_t list_bytes = prm::nvmf_be_ctrl_addrs::size_bytes; // the vendor's 128
		bool driver_pages = false;
		uint8_t sq_log_pages = 0, cq_log_pages = 0;
	};
	uint16_t next_qid = 1;
	NvmeQueueInfo last_queue{};
	uint64_t last_cq = 0, last_sq = 0;
	Answer create_backend(uint32_t xrqn, const BackendSpec &s)
	{
		using L = prm::create_nvmf_be_ctrl_in;
		Msg m = make_in<L>(op::CREATE_NVMF_BACKEND_CTRL, 0, s.list_bytes);
		prm::set<L::xrqn>(m.as<L>(), xrqn);
		auto b = prm::sub<L::nvmf_be_ctrl_entry, prm::nvmf_be_ctrl>(m.as<L>());
		last_queue = {};
		if (s.driver_pages) {
			last_queue.sqt_db_bus = plat.alloc(128, 64);
			last_queue.db_stride = 4; // the CQ's record 64 bytes on
			last_queue.sq_bus = plat.alloc(4096);
			last_queue.cq_bus = plat.alloc(4096);
		} else {
			EXPECT_TRUE(drv.emulator().nvme_take_queue(next_qid, &last_queue));
			next_qid = (uint16_t)(next_qid % 4 + 1);
		}
		prm::set<prm::nvmf_be_ctrl::sqt_dbr_addr>(b, last_queue.sqt_db_bus);
		prm::set<prm::nvmf_be_ctrl::cqh_dbr_addr>(b, cmd::nvme_cq_head_doorbell(last_queue.sqt_db_bus, last_queue.db_stride));
		prm::set<prm::nvmf_be_ctrl::sq_log_page_size>(b, s.sq_log_pages);
		prm::set<prm::nvmf_be_ctrl::cq_log_page_size>(b, s.cq_log_pages);
		last_cq = last_queue.cq_bus;
		last_sq = last_queue.sq_bus;
		if (s.list_bytes >= prm::nvmf_be_ctrl_addrs::size_bytes) {
			prm::Ref<prm::nvmf_be_ctrl_addrs> a(
				prm::tail_entry<prm::create_nvmf_be_ctrl_in_addrs>(m.as<L>(), 0));
			prm::set<prm::nvmf_be_ctrl_addrs::cq_addr>(a, last_cq);
			prm::set<prm::nvmf_be_ctrl_addrs::sq_addr>(a, last_sq);
		}
		return drv.run<prm::create_nvmf_be_ctrl_out>(m);
	}
	Answer create_backend(uint32_t xrqn) { return create_backend(xrqn, BackendSpec{}); }
	// ATTACH_NVMF_NAMESPACE nsid on xrqn, backed by namespace be of
	// controller ctrl; lba_data_size in bytes.
	Answer attach_ns(uint32_t xrqn, uint32_t nsid, uint32_t be, uint16_t lba, uint16_t ctrl)
	{
		using L = prm::attach_nvmf_namespace_in;
		Msg m = make_in<L>(op::ATTACH_NVMF_NAMESPACE);
		auto in = m.as<L>();
		prm::set<L::xrqn>(in, xrqn);
		prm::set<L::frontend_namespace>(in, nsid);
		prm::set<L::backend_namespace>(in, be);
		prm::set<L::lba_data_size>(in, lba);
		prm::set<L::backend_controller_id>(in, ctrl);
		return drv.exec(m, 16);
	}
	uint16_t backend(uint32_t xrqn)
	{
		return (uint16_t)number<prm::create_nvmf_be_ctrl_out, prm::create_nvmf_be_ctrl_out::backend_controller_id>(
			create_backend(xrqn));
	}
	// CREATE_DCT on pd, cqn and srqn, port 1, MTU 4096, the rest 0 (a
	// test sets more through dct_ctx()).
	static Msg dct_in(uint32_t pd, uint32_t cqn, uint32_t srqn)
	{
		Msg m = make_in<prm::create_dct_in>(op::CREATE_DCT);
		prm::Ref<prm::dctc> c = dct_ctx(m);
		prm::set<prm::dctc::pd>(c, pd);
		prm::set<prm::dctc::cqn>(c, cqn);
		prm::set<prm::dctc::srqn_xrqn>(c, srqn);
		prm::set<prm::dctc::mtu>(c, 5);
		prm::set<prm::dctc::port>(c, 1);
		return m;
	}
	static prm::Ref<prm::dctc> dct_ctx(Msg &m)
	{
		return prm::sub<prm::create_dct_in::dct_context_entry, prm::dctc>(m.as<prm::create_dct_in>());
	}
	// A command that names one object by field F of In (DESTROY_*, DEALLOC_PD, QUERY_*).
	template <class In, class F> Answer by_number(uint16_t opc, uint32_t n, uint32_t outlen = 16)
	{
		Msg m = make_in<In>(opc);
		prm::set<F>(m.as<In>(), n);
		return drv.exec(m, outlen);
	}
};

// Everything a DCT or QP names, created on an INITIALIZED device.
struct ObjectSet {
	uint32_t uar = 0, pd = 0, cqn = 0, srqn = 0;
	uint8_t eqn = 0;
	void create(ObjectBuilder &b)
	{
		uar = b.uar();
		eqn = b.eq(uar);
		pd = b.pd();
		cqn = b.cq(uar, eqn);
		srqn = b.srq(pd);
		b.roce();
	}
};

// An INITIALIZED device of profile p with a UAR, EQ, PD, CQ and SRQ.
struct ObjectRig {
	explicit ObjectRig(Profile p) : rig(std::move(p), Stage::INITIALIZED), b{rig.drv, rig.plat}
	{
		o.create(b);
	}
	Rig rig;
	ObjectBuilder b;
	ObjectSet o;
};

// The gtest fixture of the object tests: an INITIALIZED device with the
// ObjectSet created, and expect() for an answer's status and syndrome.
struct ObjectsFixture : InitializedTest {
	explicit ObjectsFixture(Profile p = quiet()) : InitializedTest(std::move(p)) {}
	ObjectBuilder b{drv, plat};
	ObjectSet o;
	void SetUp() override
	{
		InitializedTest::SetUp();
		o.create(b);
	}
	static void expect(const Answer &a, uint8_t status, uint32_t syndrome)
	{
		EXPECT_EQ(a.status, status) << std::hex << a.syndrome;
		EXPECT_EQ(a.syndrome, syndrome) << syndrome_name(a.syndrome);
	}
};

} // namespace cxprm::emu::test
