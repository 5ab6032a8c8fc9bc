// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The typed commands (include/cxprm/commands/) through the real engine
// against the firmware emulator: decoded values, firmware error decoding and
// caller-input checks that never reach the device.  The offline decoder is in
// commands_decode_test.cpp.
// First: emulator.h names a constant SIG_BLOCK, a <signal.h> macro gtest pulls in.
#include "support/harness.h"
#include "support/command_values.h"
#include "support/objects.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cxprm/commands/adapter.h"
#include "cxprm/commands/dct.h"
#include "cxprm/commands/decode.h"
#include "cxprm/commands/eq.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/issi.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/pages.h"
#include "cxprm/device.h"
#include "cxprm/pages.h"
#include "cxprm/prm/registry.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/status.h"

using namespace cxprm;
using namespace cxprm::cmd;
using namespace cxprm::test;
namespace op = cxprm::prm::op;

namespace {

// The engine alone against the emulator (HCA still DISABLED).
struct EngineTest : ::testing::Test {
	test::Harness h{quiet_cx7()};
	void SetUp() override { ASSERT_EQ(h.start(), OK); }
	void TearDown() override
	{
		h.cmdq.fini();
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
};

// A device brought up by Device (INITIALIZED) for the resource commands;
// objs makes what a DCT or namespace names.
struct UpTest : ::testing::Test {
	test::Harness h{quiet_cx7()};
	Device dev;
	CmdObjects objs{h.host(), dev.cmdq()};
	DctRefs refs;
	Cmdq &q() { return dev.cmdq(); }
	void SetUp() override
	{
		h.emu.start();
		ASSERT_EQ(dev.bringup(h.host(), quick_config()), OK);
	}
	void make_refs() { ASSERT_EQ(objs.make_dct_refs(&refs), OK); }
	void TearDown() override
	{
		EXPECT_EQ(objs.destroy(), OK);
		dev.teardown();
		EXPECT_EQ(dev.state(), DeviceState::OFF);
		EXPECT_EQ(h.emu.pages_held(), 0u);
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}
};

void expect_caps_eq(const GeneralCaps &a, const GeneralCaps &b)
{
#define CXPRM_CMP_(name, off, width) EXPECT_EQ(a.name, b.name) << #name;
	CXPRM_CMD_HCA_CAP(CXPRM_CMP_)
#undef CXPRM_CMP_
}


} // namespace

// The bring-up sequence by hand, one typed command at a time.
TEST_F(EngineTest, LifecycleByHand)
{
	auto &prof = h.emu.profile();
	CmdResult r{};

	// Out of order: nothing but ENABLE_HCA runs on a DISABLED function.
	IssiInfo issi{};
	EXPECT_EQ(query_issi(h.cmdq, &issi, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_SYS_STATE_ERR);
	EXPECT_EQ(r.st.syndrome, emu::synd::WRONG_STATE);

	ASSERT_EQ(enable_hca(h.cmdq, {}, &r), OK) << "delivery " << (int)r.st.delivery;
	EXPECT_EQ(r.st.status, 0);
	EXPECT_EQ(h.emu.hca_state(), emu::HcaState::ENABLED);

	ASSERT_EQ(query_issi(h.cmdq, &issi), OK);
	EXPECT_EQ(issi.current_issi, 0);
	EXPECT_EQ(issi.supported_mask, prof.issi_mask);
	ASSERT_EQ(set_issi(h.cmdq, 1), OK);
	EXPECT_EQ(h.emu.current_issi(), 1);
	ASSERT_EQ(query_issi(h.cmdq, &issi), OK);
	EXPECT_EQ(issi.current_issi, 1);

	// INIT_HCA while boot pages are owed.
	EXPECT_EQ(init_hca(h.cmdq, {}, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_SYS_STATE_ERR);

	PageTracker pt;
	ASSERT_EQ(pt.init(h.host(), &h.cmdq), OK);
	PagesQuery pq{};
	ASSERT_EQ(query_pages(h.cmdq, PagesKind::BOOT, {}, &pq), OK);
	EXPECT_EQ(pq.num_pages, prof.boot_pages);
	EXPECT_EQ(pq.function_id, 0);
	ASSERT_EQ(pt.give((uint32_t)pq.num_pages), OK);
	EXPECT_EQ(h.emu.pages_held(), (uint64_t)prof.boot_pages);

	// Capabilities: decoded values and the raw image are the profile's.
	std::vector<uint8_t> image(CAP_IMAGE_BYTES);
	GeneralCaps max{}, cur{};
	ASSERT_EQ(query_general_caps(h.cmdq, prm::cap::MAX, &max, image.data()), OK);
	EXPECT_EQ(0, memcmp(image.data(), prof.caps.at(prm::cap::GENERAL).max.data(), CAP_IMAGE_BYTES));
	expect_caps_eq(max, caps_of(std::vector<uint8_t>(prof.caps.at(0).max.begin(),
							 prof.caps.at(0).max.end())));
	ASSERT_EQ(query_general_caps(h.cmdq, prm::cap::CUR, &cur, image.data()), OK);
	expect_caps_eq(cur, caps_of(h.emu.cap_cur(prm::cap::GENERAL)));
	ASSERT_EQ(set_hca_cap(h.cmdq, prm::cap::GENERAL, image.data(), &r), OK);

	ASSERT_EQ(query_pages(h.cmdq, PagesKind::INIT, {}, &pq), OK);
	EXPECT_EQ(pq.num_pages, prof.init_pages);
	if (pq.num_pages > 0) {
		ASSERT_EQ(pt.give((uint32_t)pq.num_pages), OK);
	}
	ASSERT_EQ(init_hca(h.cmdq, {}, &r), OK);
	EXPECT_EQ(h.emu.hca_state(), emu::HcaState::INITIALIZED);

	uint8_t state = 0xff;
	ASSERT_EQ(teardown_hca(h.cmdq, TeardownProfile::GRACEFUL, &state), OK);
	EXPECT_EQ(state, prm::teardown_state::SUCCESS);
	EXPECT_EQ(h.emu.hca_state(), emu::HcaState::TORN_DOWN);

	uint32_t got = 0;
	EXPECT_EQ(pt.take((uint32_t)pt.live(), &got), OK);
	EXPECT_EQ(pt.live(), 0u);
	EXPECT_EQ(h.emu.pages_held(), 0u);
	ASSERT_EQ(disable_hca(h.cmdq), OK);
	EXPECT_EQ(h.emu.hca_state(), emu::HcaState::DISABLED);
	EXPECT_EQ(pt.destroy(), 0u);
	EXPECT_EQ(h.emu.counters().pages_leaked, 0u);
}

TEST_F(EngineTest, BadCallerInputNeverReachesTheDevice)
{
	uint64_t before = h.emu.commands_processed();
	std::vector<uint8_t> image(CAP_IMAGE_BYTES);
	EXPECT_EQ(query_hca_cap(h.cmdq, 0, (prm::cap::Mode)2, image.data()), E_INVAL);
	EXPECT_EQ(query_hca_cap(h.cmdq, 0, prm::cap::MAX, nullptr), E_INVAL);
	EXPECT_EQ(query_hca_cap(h.cmdq, 0x8000, prm::cap::MAX, image.data()), E_INVAL);
	uint64_t pas[2] = {0x10000, 0x10001};
	EXPECT_EQ(manage_pages_give(h.cmdq, {}, pas, 2), E_INVAL);
	EXPECT_EQ(manage_pages_give(h.cmdq, {}, pas, 0), E_INVAL);
	std::vector<uint64_t> many(manage_pages_max_entries(h.cmdq) + 1, 0x10000);
	EXPECT_EQ(manage_pages_give(h.cmdq, {}, many.data(), (uint32_t)many.size()), E_RANGE);
	uint32_t got = 7;
	EXPECT_EQ(manage_pages_take(h.cmdq, {}, (uint32_t)many.size(), many.data(), &got), E_RANGE);
	EXPECT_EQ(got, 0u);
	EXPECT_EQ(init_hca(h.cmdq, InitHcaParams{0x4000, false, {}}), E_RANGE);

	DctContext c = full_dct();
	uint32_t dctn = 0;
	c.pd = 1u << 24; // 24-bit field
	EXPECT_EQ(create_dct(h.cmdq, c, &dctn), E_RANGE);
	c = full_dct();
	c.mtu = 8; // 3 bits
	EXPECT_EQ(create_dct(h.cmdq, c, &dctn), E_RANGE);
	EXPECT_EQ(query_dct(h.cmdq, 1u << 24, &c), E_RANGE);
	EXPECT_EQ(destroy_dct(h.cmdq, 1u << 24), E_RANGE);
	EXPECT_EQ(query_nvmf_namespace(h.cmdq, 1u << 24, 1, nullptr), E_INVAL);
	NvmfNsCounters nc{};
	EXPECT_EQ(query_nvmf_namespace(h.cmdq, 1u << 24, 1, &nc), E_RANGE);

	EqParams ep;
	uint64_t pa = 0x2000;
	uint8_t eqn;
	ep.pas = &pa;
	ep.npas = 1;
	ep.log_eq_size = 32; // 5 bits
	EXPECT_EQ(create_eq(h.cmdq, ep, &eqn), E_RANGE);
	ep.log_eq_size = 7; // 8 KiB: two 4 KiB pages needed
	EXPECT_EQ(create_eq(h.cmdq, ep, &eqn), E_INVAL);
	ep.log_eq_size = 6;
	pa = 0x2800; // unaligned
	EXPECT_EQ(create_eq(h.cmdq, ep, &eqn), E_INVAL);
	ep.intr = 0x1000; // 12 bits
	EXPECT_EQ(create_eq(h.cmdq, ep, &eqn), E_RANGE);

	EXPECT_EQ(h.emu.commands_processed(), before);
}

TEST_F(EngineTest, QueryAdapter)
{
	ASSERT_EQ(enable_hca(h.cmdq), OK);
	AdapterInfo a{};
	ASSERT_EQ(query_adapter(h.cmdq, &a), OK);
	EXPECT_EQ(a.ieee_vendor_id, h.emu.profile().ieee_vendor_id);
	EXPECT_EQ(std::string(a.psid), h.emu.profile().psid);
	EXPECT_EQ(std::string(a.vsd), h.emu.profile().vsd);
	ASSERT_EQ(disable_hca(h.cmdq), OK);
}

TEST_F(UpTest, CapsMatchTheProfile)
{
	auto &prof = h.emu.profile();
	GeneralCaps max = caps_of(std::vector<uint8_t>(prof.caps.at(0).max.begin(),
						       prof.caps.at(0).max.end()));
	expect_caps_eq(dev.caps_max(), max);
	expect_caps_eq(dev.caps_cur(), caps_of(h.emu.cap_cur(prm::cap::GENERAL)));
	EXPECT_EQ(dev.caps_cur().cmdif_checksum, 0u);
	EXPECT_EQ(dev.caps_cur().dct, max.dct);
	// Linux handle_hca_cap: uar_4k only on hosts with pages over 4 KiB.
	EXPECT_EQ(dev.caps_cur().uar_4k, 0u);
	EXPECT_EQ(dev.caps_cur().log_uar_page_sz, 0u);
	EXPECT_GT(dev.caps_max().num_ports, 0u);
	EXPECT_GT(dev.caps_max().log_max_qp, 0u);
}

// Literal values of Profile::connectx7() (tools/emulator/src/profiles.cpp).
TEST_F(UpTest, ConnectX7Values)
{
	const GeneralCaps &c = dev.caps_cur();
	EXPECT_EQ(c.log_max_qp, 20u);
	EXPECT_EQ(c.log_max_eq, 8u);
	EXPECT_EQ(c.num_ports, 1u);
	EXPECT_EQ(c.port_type, prm::port_type::ETH);
	EXPECT_EQ(c.device_frequency_khz, 1000000u);
	EXPECT_EQ(c.ece_support, 1u);
	EXPECT_EQ(c.dct, 1u);
	EXPECT_EQ(c.nvmf_target_offload, 1u);
	EXPECT_EQ(c.force_teardown, 1u);
	EXPECT_EQ(c.sw_owner_id, 1u);
	EXPECT_EQ(c.uctx_cap, 0x7u);
	EXPECT_EQ(dev.caps_max().event_cap, 1u);
	EXPECT_EQ(c.event_cap, 0u); // MAX 1, CUR 0 and not changed by us
	EXPECT_EQ(dev.fw_version().major, 28);
	EXPECT_EQ(dev.fw_version().minor, 39);
	EXPECT_EQ(dev.fw_version().subminor, 1002);
	EXPECT_EQ(dev.pages().live(), 32u + 4096u);
	AdapterInfo a{};
	ASSERT_EQ(query_adapter(q(), &a), OK);
	EXPECT_EQ(std::string(a.psid), "MT_0000000834");
	EXPECT_EQ(a.ieee_vendor_id, 0x2c9u);
}

TEST_F(UpTest, DctRoundTripEveryField)
{
	ASSERT_NO_FATAL_FAILURE(make_refs());
	DctContext in = refs.on(full_dct());
	uint32_t dctn = 0, ece = 0xffffffff;
	CmdResult r{};
	ASSERT_EQ(create_dct(q(), in, &dctn, &ece, 0, &r), OK) << std::hex << r.st.syndrome;
	auto &dp = h.emu.profile().dct;
	EXPECT_GE(dctn, dp.first_dctn);
	EXPECT_LT(dctn, dp.first_dctn + dp.max_dcts);
	EXPECT_EQ(h.emu.dct_count(), 1u);

	DctContext out{};
	ASSERT_EQ(query_dct(q(), dctn, &out), OK);
#define CXPRM_CMP_DCT_(name, off, width)                                          \
	if (strcmp(#name, "state") && strcmp(#name, "dc_access_key_violation_count")) { \
		EXPECT_EQ(out.name, in.name) << #name;                                    \
	}
	CXPRM_DCTC(CXPRM_CMP_DCT_)
#undef CXPRM_CMP_DCT_
	EXPECT_EQ(out.state, DCT_STATE_ACTIVE);

	ASSERT_EQ(drain_dct(q(), dctn), OK);
	ASSERT_EQ(query_dct(q(), dctn, &out), OK);
	EXPECT_TRUE(out.state == DCT_STATE_DRAINING || out.state == DCT_STATE_DRAINED) << out.state;
	EXPECT_EQ(drain_dct(q(), dctn, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_RES_STATE_ERR);

	ASSERT_EQ(destroy_dct(q(), dctn), OK);
	EXPECT_EQ(h.emu.dct_count(), 0u);
	EXPECT_EQ(query_dct(q(), dctn, &out, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_RES_ERR);
	EXPECT_EQ(r.st.syndrome, emu::synd::DCT_UNKNOWN_QUERY);
}

TEST_F(UpTest, DctFirmwareErrors)
{
	ASSERT_NO_FATAL_FAILURE(make_refs());
	CmdResult r{};
	uint32_t dctn = 0;
	DctContext c = refs.on(full_dct());
	c.pd = 0;
	EXPECT_EQ(create_dct(q(), c, &dctn, nullptr, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_PARAM_ERR);
	EXPECT_EQ(r.st.syndrome, emu::synd::DCT_BAD_PD);
	c = refs.on(full_dct());
	c.mtu = 7;
	EXPECT_EQ(create_dct(q(), c, &dctn, nullptr, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_PARAM_ERR);
	EXPECT_EQ(r.st.syndrome, emu::synd::DCT_BAD_MTU);
	c = refs.on(full_dct());
	c.port = 0;
	EXPECT_EQ(create_dct(q(), c, &dctn, nullptr, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, emu::synd::DCT_BAD_PORT);

	// Unknown DCT numbers.
	DctContext out{};
	EXPECT_EQ(query_dct(q(), 0xabcdef, &out, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_RES_ERR);
	EXPECT_EQ(drain_dct(q(), 0xabcdef, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, emu::synd::DCT_UNKNOWN_DRAIN);
	EXPECT_EQ(destroy_dct(q(), 0xabcdef, 0, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, emu::synd::DCT_UNKNOWN_DESTROY);
	EXPECT_EQ(h.emu.dct_count(), 0u);
}

TEST_F(UpTest, NvmfCountersFollowIo)
{
	auto &np = h.emu.profile().nvmf;
	ASSERT_NO_FATAL_FAILURE(make_refs());
	NvmfRefs x;
	CmdResult r{};
	emu::NvmeQueueInfo ssd;
	ASSERT_TRUE(h.emu.nvme_take_queue(1, &ssd));
	ASSERT_EQ(objs.make_nvmf_refs(refs, ssd, &x, &r), OK) << std::hex << r.st.syndrome;
	NvmfNamespace ns{x.xrqn, 7, 1, 512, x.backend};
	ASSERT_EQ(attach_nvmf_namespace(q(), ns, &r), OK) << std::hex << r.st.syndrome;
	EXPECT_EQ(h.emu.nvmf_namespace_count(), 1u);
	EXPECT_EQ(attach_nvmf_namespace(q(), ns, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, emu::synd::NVMF_NS_EXISTS);

	NvmfNsCounters c{};
	ASSERT_EQ(query_nvmf_namespace(q(), ns.xrqn, ns.nsid, &c), OK);
	EXPECT_EQ(c.read_cmds, 0u);
	EXPECT_EQ(c.write_blocks, 0u);

	// I/O through the backend NVMe device, then values beyond 32 bits
	// (counted without I/O) for the _high/_low join.
	emu::NvmfIo io;
	io.read_cmds = 3;
	io.read_blocks = 24;
	io.write_cmds = 5;
	io.write_blocks = 40;
	io.write_inline_cmds = 2;
	io.flush_cmds = 1;
	io.error_cmds = 3;
	io.backend_error_cmds = 4;
	ASSERT_TRUE(h.emu.simulate_nvmf_io(ns.xrqn, ns.nsid, io));
	emu::NvmfIo years;
	years.read_cmds = 0x1'0000'0000ull;
	years.write_blocks = 0x2'0000'0000ull;
	ASSERT_TRUE(h.emu.nvmf_add_counters(ns.xrqn, ns.nsid, years));
	io.read_cmds += years.read_cmds;
	io.write_blocks += years.write_blocks;
	ASSERT_EQ(query_nvmf_namespace(q(), ns.xrqn, ns.nsid, &c), OK);
	emu::NvmfCounters e{};
	ASSERT_TRUE(h.emu.nvmf_counters(ns.xrqn, ns.nsid, &e));
	EXPECT_EQ(c.read_cmds, io.read_cmds);
	EXPECT_EQ(c.read_blocks, io.read_blocks);
	EXPECT_EQ(c.write_cmds, io.write_cmds);
	EXPECT_EQ(c.write_blocks, io.write_blocks);
	EXPECT_EQ(c.write_inline_cmds, io.write_inline_cmds);
	EXPECT_EQ(c.flush_cmds, io.flush_cmds);
	EXPECT_EQ(c.error_cmds, io.error_cmds);
	EXPECT_EQ(c.backend_error_cmds, io.backend_error_cmds);
	EXPECT_EQ(c.current_q_depth, e.current_q_depth);
	EXPECT_EQ(c.last_read_latency, e.last_read_latency);
	EXPECT_EQ(c.last_write_latency, e.last_write_latency);

	ASSERT_TRUE(h.emu.simulate_nvmf_io(ns.xrqn, ns.nsid, 10, 20, 8));
	NvmfNsCounters c2{};
	ASSERT_EQ(query_nvmf_namespace(q(), ns.xrqn, ns.nsid, &c2), OK);
	EXPECT_EQ(c2.read_cmds, c.read_cmds + 10);
	EXPECT_EQ(c2.write_cmds, c.write_cmds + 20);

	// Errors: unknown XRQ, unknown namespace.
	EXPECT_EQ(query_nvmf_namespace(q(), np.first_xrqn + np.num_xrqs, 7, &c, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, emu::synd::NVMF_BAD_XRQN);
	EXPECT_EQ(query_nvmf_namespace(q(), ns.xrqn, 8, &c, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, emu::synd::NVMF_NS_UNKNOWN_QUERY);

	ASSERT_EQ(detach_nvmf_namespace(q(), ns.xrqn, ns.nsid), OK);
	EXPECT_EQ(h.emu.nvmf_namespace_count(), 0u);
	EXPECT_EQ(query_nvmf_namespace(q(), ns.xrqn, ns.nsid, &c, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.status, cmd_status::BAD_RES_ERR);
	EXPECT_EQ(detach_nvmf_namespace(q(), ns.xrqn, ns.nsid, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, emu::synd::NVMF_NS_UNKNOWN_DETACH);
}

// The eswitch functions: an ECPF eswitch manager (BlueField) only (A8/B9).
TEST(EcpfUp, EswFunctionsFollowVfCount)
{
	auto prof = emu::Profile::bluefield3();
	prof.nvmf.auto_io_ms = 0;
	test::Harness h{prof};
	Device dev;
	h.emu.start();
	ASSERT_EQ(dev.bringup(h.host(), quick_config()), OK);
	auto q = [&]() -> Cmdq & { return dev.cmdq(); };
	auto &ep = h.emu.profile().esw;
	EswFunctions f{};
	CmdResult r{};
	ASSERT_EQ(query_esw_functions(q(), &f, nullptr, 0, &r), OK) << std::hex << r.st.syndrome;
	EXPECT_EQ(f.host_number, ep.host_number);
	EXPECT_EQ(f.host_num_of_vfs, ep.num_vfs);
	EXPECT_EQ(f.host_total_vfs, ep.total_vfs);
	EXPECT_EQ(f.host_pci_bus, ep.pci_bus);
	EXPECT_EQ(f.host_pci_device, ep.pci_device);
	EXPECT_EQ(f.host_pci_function, ep.pci_function);
	EXPECT_EQ(f.host_pf_disabled, ep.pf_disabled);

	ASSERT_TRUE(h.emu.set_num_vfs(3));
	ASSERT_EQ(query_esw_functions(q(), &f), OK);
	EXPECT_EQ(f.host_num_of_vfs, 3);
	ASSERT_TRUE(h.emu.set_num_vfs(0));
	uint64_t sf[2] = {~0ull, ~0ull};
	ASSERT_EQ(query_esw_functions(q(), &f, sf, 2), OK);
	EXPECT_EQ(f.host_num_of_vfs, 0);
	EXPECT_EQ(sf[0], 0u); // the emulator has no SFs
	EXPECT_EQ(sf[1], 0u);
	dev.teardown();
	EXPECT_EQ(dev.state(), DeviceState::OFF);
}

TEST_F(UpTest, UarAndEq)
{
	uint32_t uar = 0;
	ASSERT_EQ(alloc_uar(q(), &uar), OK);
	EXPECT_EQ(h.emu.uar_count(), 1u);

	// An EQ of 2^7 entries = 8 KiB = two pages.
	cxprm_dma_buf ring[2] = {};
	uint64_t pas[2];
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(h.host()->ops->dma_alloc(h.host()->ctx, 4096, 4096, &ring[i]), 0);
		pas[i] = ring[i].bus;
	}
	EqParams p;
	p.log_eq_size = 7;
	p.uar_page = uar;
	p.intr = 1;
	p.pas = pas;
	p.npas = 2;
	eq_subscribe(p, prm::event::PAGE_REQUEST);
	eq_subscribe(p, prm::event::ESW_FUNCTIONS_CHANGED);
	eq_subscribe(p, 0xc1);
	uint8_t eqn = 0xff;
	CmdResult r{};
	ASSERT_EQ(create_eq(q(), p, &eqn, &r), OK) << std::hex << r.st.syndrome;
	emu::EqInfo info{};
	ASSERT_TRUE(h.emu.eq_info(eqn, &info));
	EXPECT_EQ(info.log_size, 7);
	EXPECT_EQ(info.uar, uar);
	EXPECT_EQ(info.intr, 1);
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(info.event_bitmask[i], p.event_bitmask[i]) << i;

	// A UAR in use cannot go; an unknown EQ cannot be destroyed.
	EXPECT_EQ(dealloc_uar(q(), uar, &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, emu::synd::UAR_IN_USE);
	EXPECT_EQ(destroy_eq(q(), (uint8_t)(eqn + 1), &r), E_REMOTEIO);
	EXPECT_EQ(r.st.syndrome, emu::synd::EQ_UNKNOWN_DESTROY);

	ASSERT_EQ(destroy_eq(q(), eqn), OK);
	EXPECT_EQ(h.emu.eq_count(), 0u);
	ASSERT_EQ(dealloc_uar(q(), uar), OK);
	EXPECT_EQ(h.emu.uar_count(), 0u);
	for (auto &b : ring)
		h.host()->ops->dma_free(h.host()->ctx, &b);
}
