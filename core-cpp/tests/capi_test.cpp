// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The C facade (capi.h) against the in-process emulator: the life cycle the
// kernel shim runs (create, bring-up, events, typed queries, DCTs, raw with
// capture, statistics and debugfs texts, teardown with every page back,
// destroy with nothing leaked) and a failed bring-up; the raw policy is in
// capi_policy_test.cpp.
#include "support/harness.h"
#include "support/objects.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cxprm/capi.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;
namespace op = cxprm::prm::op;

namespace {

using test::small_profile;

cxprm_core_config quick_config()
{
	return test::quick_capi_config();
}

struct CapiTest : ::testing::Test {
	test::Harness h{small_profile()};
	cxprm_core *core = nullptr;
	test::SeenEvents seen;

	void SetUp() override
	{
		h.emu.start();
		ASSERT_EQ(cxprm_core_create(h.host(), &core), 0);
	}
	void TearDown() override
	{
		cxprm_core_destroy(core);
		core = nullptr;
		h.emu.stop();
		EXPECT_EQ(h.uh.dma_live(), 0u);
		EXPECT_EQ(h.uh.mem_live(), 0u);
	}

	static void listener(void *ctx, uint8_t type, uint8_t sub_type, const uint8_t *data)
	{
		auto *self = static_cast<CapiTest *>(ctx);
		self->seen.add(type, sub_type, data, CXPRM_CORE_EQE_DATA);
	}

	int start_events(bool command_events = false)
	{
		cxprm_core_events_config ec{};
		ec.command_events = command_events;
		ec.listener = listener;
		ec.listener_ctx = this;
		return cxprm_core_events_start(core, &ec);
	}

	// Polls (and services) until pred() or 20 s (a loaded host).
	template <class P> bool pump(P pred)
	{
		auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
		while (std::chrono::steady_clock::now() < end) {
			cxprm_core_events_poll(core, 128);
			if (cxprm_core_events_pending(core))
				cxprm_core_events_service(core);
			if (pred())
				return true;
			std::this_thread::sleep_for(std::chrono::milliseconds(1));
		}
		return false;
	}

	size_t count_events(uint8_t type) { return seen.count(type); }

	// Tears down: without error (and no failed step) or with one, and the
	// pages as counted.
	cxprm_core_teardown_report teardown(bool ok, uint64_t given, uint64_t reclaimed, uint64_t stranded)
	{
		cxprm_core_teardown_report rep;
		cxprm_core_teardown(core, &rep);
		EXPECT_EQ(rep.err == 0, ok) << rep.err;
		if (ok) {
			EXPECT_STREQ(rep.failed_step, "");
		} else {
			EXPECT_STRNE(rep.failed_step, "");
		}
		EXPECT_EQ(rep.pages_given, given);
		EXPECT_EQ(rep.pages_reclaimed, reclaimed);
		EXPECT_EQ(rep.pages_stranded, stranded);
		return rep;
	}

	std::string text(int which)
	{
		std::vector<char> buf(256 * 1024);
		int trunc = 1;
		size_t n = cxprm_core_format(core, which, buf.data(), buf.size(), &trunc);
		EXPECT_EQ(trunc, 0) << which;
		EXPECT_EQ(n, strlen(buf.data()));
		if (getenv("CXPRM_CAPI_PRINT")) // to look at the texts
			printf("---- text %d ----\n%s", which, buf.data());
		return std::string(buf.data(), n);
	}
};

std::vector<uint8_t> cmd_in(uint16_t opcode, uint16_t op_mod, size_t len)
{
	std::vector<uint8_t> in(len, 0);
	in[0] = opcode >> 8;
	in[1] = opcode & 0xff;
	in[6] = op_mod >> 8;
	in[7] = op_mod & 0xff;
	return in;
}

void put_be32(std::vector<uint8_t> &v, size_t off, uint32_t x)
{
	v[off] = x >> 24;
	v[off + 1] = x >> 16;
	v[off + 2] = x >> 8;
	v[off + 3] = x;
}

TEST_F(CapiTest, FullLifeCycle)
{
	cxprm_core_info info;
	cxprm_core_get_info(core, &info);
	EXPECT_EQ(info.state, (uint32_t)CXPRM_CORE_DOWN);
	EXPECT_EQ(info.async_eqn, ~0u);

	cxprm_core_config cfg = quick_config();
	ASSERT_EQ(cxprm_core_bringup(core, &cfg), 0);
	cxprm_core_get_info(core, &info);
	const emu::Profile &p = h.emu.profile();
	EXPECT_EQ(info.state, (uint32_t)CXPRM_CORE_UP);
	EXPECT_EQ(info.fw_major, p.fw_rev.major);
	EXPECT_EQ(info.fw_minor, p.fw_rev.minor);
	EXPECT_EQ(info.fw_subminor, p.fw_rev.subminor);
	EXPECT_EQ(info.cmdif_rev, 5);
	EXPECT_EQ(info.issi, 1u);
	EXPECT_EQ(info.cmdq_entries, 32u);
	EXPECT_EQ(info.cmdq_log_stride, 6u);
	EXPECT_EQ(info.pages_given, 32u);
	EXPECT_EQ(info.pages_live, 32u);
	EXPECT_GT(info.commands, 8u);
	EXPECT_EQ(info.health_syndrome, 0u);
	EXPECT_EQ(h.emu.pages_held(), 32u);

	ASSERT_EQ(start_events(), 0);
	cxprm_core_get_info(core, &info);
	EXPECT_NE(info.async_eqn, ~0u);
	EXPECT_EQ(info.events_running, 1u);

	// Typed: general caps CUR equal the emulator's image.
	std::vector<uint8_t> image(CXPRM_CORE_CAP_BYTES);
	cxprm_core_result res;
	ASSERT_EQ(cxprm_core_query_caps(core, 0, 0, image.data(), &res), 0);
	EXPECT_EQ(res.st.opcode, op::QUERY_HCA_CAP);
	EXPECT_EQ(res.op_mod, 1);
	EXPECT_EQ(res.st.status, 0);
	EXPECT_EQ(image, h.emu.cap_cur(0));
	// A capability type the profile lacks (CRYPTO, prm-notes-caps.rst): the firmware's answer, not an errno.
	EXPECT_EQ(cxprm_core_query_caps(core, 0x1a, 1, image.data(), &res), -121);
	EXPECT_EQ(res.st.delivery, 0);
	EXPECT_EQ(res.st.status, 0x03);
	EXPECT_NE(res.st.syndrome, 0u);

	// Eswitch: a plain PF is no ECPF eswitch manager (A8): refused
	// without asking firmware.  EcpfEswAndInfo has the BlueField side.
	cxprm_esw_functions esw;
	EXPECT_EQ(info.ecpf, 0u);
	EXPECT_EQ(cxprm_core_is_ecpf_esw_manager(core), 0);
	uint64_t esw_cmds = h.emu.opcode_count(op::QUERY_ESW_FUNCTIONS);
	EXPECT_EQ(cxprm_core_query_esw(core, &esw, 4, &res), -95); /* EOPNOTSUPP */
	EXPECT_EQ(h.emu.opcode_count(op::QUERY_ESW_FUNCTIONS), esw_cmds);

	// DCT life cycle and the drained event, on a file's PD, CQ and SRQ.
	cxprm_core_objs *objs = nullptr;
	ASSERT_EQ(cxprm_core_objs_create(core, &objs), 0);
	test::DctRefs refs = test::capi_dct_refs(core, objs);
	ASSERT_TRUE(refs.ok());
	cxprm_dctc ctx = refs.basic<cxprm_dctc>();
	ctx.dc_access_key = 0x1122334455667788ull;
	ctx.rre = ctx.rwe = 1;
	uint32_t dctn = 0;
	ASSERT_EQ(cxprm_core_dct_create(core, &ctx, &dctn, &res), 0);
	EXPECT_EQ(res.st.opcode, op::CREATE_DCT);
	EXPECT_EQ(h.emu.dct_count(), 1u);
	cxprm_dctc q{};
	ASSERT_EQ(cxprm_core_dct_query(core, dctn, &q, &res), 0);
	EXPECT_EQ(q.pd, refs.pd);
	EXPECT_EQ(q.cqn, refs.cqn);
	EXPECT_EQ(q.dc_access_key, 0x1122334455667788ull);
	EXPECT_EQ(q.mtu, 5);
	EXPECT_EQ(q.rwe, 1);
	EXPECT_EQ(q.state, 0);
	ASSERT_EQ(cxprm_core_dct_drain(core, dctn, &res), 0);
	ASSERT_TRUE(pump([&] { return count_events(0x1c) == 1; }));
	{
		std::lock_guard<std::mutex> lk(seen.mu);
		for (auto &e : seen.events) {
			if (e.type == 0x1c) { // dct_number: bits 0xc8..0xdf of event_data
				EXPECT_EQ((uint32_t)(e.data[25] << 16 | e.data[26] << 8 | e.data[27]), dctn);
			}
		}
	}
	ASSERT_EQ(cxprm_core_dct_query(core, dctn, &q, &res), 0);
	EXPECT_EQ(q.state, 2);
	ASSERT_EQ(cxprm_core_dct_destroy(core, dctn, &res), 0);
	EXPECT_EQ(h.emu.dct_count(), 0u);
	EXPECT_EQ(cxprm_core_dct_destroy(core, dctn, &res), -121);
	EXPECT_EQ(res.st.status, 0x05); // BAD_RES
	ctx.mtu = 9;                 // does not fit dctc.mtu (3 bits): nothing sent
	EXPECT_EQ(cxprm_core_dct_create(core, &ctx, &dctn, &res), -22);

	// NVMF: attach through raw on the file's XRQ and backend, counters
	// through the typed query, detach through raw.
	test::NvmfRefs x = test::capi_nvmf_refs(core, objs, refs, h.emu);
	ASSERT_TRUE(x.ok());
	uint32_t xrqn = x.xrqn;
	cxprm_nvmf_ns ns{};
	ns.xrqn = xrqn;
	ns.nsid = 7;
	EXPECT_EQ(cxprm_core_query_nvmf_ns(core, &ns, &res), -121);
	EXPECT_EQ(ns.st.status, 0x05);
	EXPECT_EQ(res.st.status, 0x05);
	{
		auto in = cmd_in(op::ATTACH_NVMF_NAMESPACE, 0, 64);
		put_be32(in, 8, xrqn);
		put_be32(in, 12, 7);
		put_be32(in, 16, 1); // the SSD's namespace
		put_be32(in, 20, 512u << 16 | x.backend);
		std::vector<uint8_t> out(16);
		ASSERT_EQ(cxprm_core_raw(core, in.data(), in.size(), out.data(), out.size(), &res, nullptr), 0);
		EXPECT_EQ(res.st.opcode, op::ATTACH_NVMF_NAMESPACE);
	}
	ASSERT_TRUE(h.emu.simulate_nvmf_io(xrqn, 7, 5, 3, 8));
	ASSERT_EQ(cxprm_core_query_nvmf_ns(core, &ns, &res), 0);
	EXPECT_EQ(ns.st.opcode, op::QUERY_NVMF_NAMESPACE_CONTEXT);
	EXPECT_EQ(ns.read_cmds, 5u);
	EXPECT_EQ(ns.write_cmds, 3u);
	EXPECT_EQ(ns.read_blocks, 40u);
	{
		auto in = cmd_in(op::DETACH_NVMF_NAMESPACE, 0, 16);
		put_be32(in, 8, xrqn);
		put_be32(in, 12, 7);
		std::vector<uint8_t> out(16);
		ASSERT_EQ(cxprm_core_raw(core, in.data(), in.size(), out.data(), out.size(), &res, nullptr), 0);
	}
	EXPECT_EQ(cxprm_core_objs_destroy(core, objs, nullptr), 0u); // the file closes
	EXPECT_EQ(h.emu.object_counts().total(), 0u);

	// Raw with capture: QUERY_HCA_CAP's 4112-byte output is 8 blocks.
	{
		auto in = cmd_in(op::QUERY_HCA_CAP, 1, 16);
		std::vector<uint8_t> out(16 + 4096);
		std::vector<uint8_t> blocks(16 * CXPRM_MAILBOX_BYTES);
		cxprm_core_capture cap{};
		cap.blocks = blocks.data();
		cap.blocks_cap = 16;
		ASSERT_EQ(cxprm_core_raw(core, in.data(), in.size(), out.data(), out.size(), &res, &cap), 0);
		EXPECT_EQ(cap.hdr.in_blocks, 0u);
		EXPECT_EQ(cap.hdr.out_blocks, 8u);
		EXPECT_EQ(cap.hdr.truncated, 0u);
		EXPECT_EQ(cap.hdr.entry_posted[63] & 1, 1);    // handed to hardware
		EXPECT_EQ(cap.hdr.entry_completed[63] & 1, 0); // handed back
		EXPECT_EQ(std::vector<uint8_t>(out.begin() + 16, out.end()), h.emu.cap_cur(0));
		// The first output block carries bytes 16..527 of the output.
		EXPECT_TRUE(std::equal(blocks.begin(), blocks.begin() + 512, out.begin() + 16));
		cap.blocks_cap = 2;
		ASSERT_EQ(cxprm_core_raw(core, in.data(), in.size(), out.data(), out.size(), &res, &cap), 0);
		EXPECT_EQ(cap.hdr.out_blocks, 2u);
		EXPECT_EQ(cap.hdr.truncated, 1u);
		EXPECT_EQ(cxprm_core_raw(core, in.data(), 8, out.data(), out.size(), &res, nullptr), -22);
	}

	// Page request: firmware wants 8 more, the service gives them.
	ASSERT_TRUE(h.emu.request_pages(8));
	ASSERT_TRUE(pump([&] { return h.emu.pages_held() == 40; }));
	cxprm_core_get_info(core, &info);
	EXPECT_EQ(info.pages_given, 40u);
	cxprm_core_event_stats es;
	cxprm_core_events_stats(core, &es);
	EXPECT_EQ(es.page_requests, 1u);
	EXPECT_EQ(es.pages_requested, 8);
	EXPECT_EQ(es.by_type[0x0e], 0u); // a plain PF: not subscribed (A8)

	// Statistics.
	std::vector<cxprm_opcode_stats> st(CXPRM_CORE_MAX_OPCODES);
	uint64_t total = 0;
	uint32_t n = cxprm_core_stats(core, st.data(), st.size(), &total);
	ASSERT_GT(n, 5u);
	EXPECT_GE(total, info.commands);
	bool seen = false;
	for (uint32_t i = 0; i < n; i++) {
		if (i) {
			EXPECT_LT(st[i - 1].opcode, st[i].opcode);
		}
		if (st[i].opcode == op::QUERY_HCA_CAP) {
			seen = true;
			EXPECT_GE(st[i].count, 5u);
			EXPECT_EQ(st[i].errors, 1u);
			EXPECT_EQ(st[i].last_status, 0x03);
			EXPECT_EQ(st[i].last_errno, -121);
			EXPECT_LE(st[i].lat_min_ns, st[i].lat_avg_ns);
			EXPECT_LE(st[i].lat_avg_ns, st[i].lat_max_ns);
		}
	}
	EXPECT_TRUE(seen);
	std::vector<cxprm_core_cmd_record> last(CXPRM_CORE_LAST_CMDS);
	n = cxprm_core_last_cmds(core, last.data(), 4);
	ASSERT_EQ(n, 4u);
	EXPECT_LT(last[0].seq, last[3].seq);

	// The debugfs texts.
	std::string t = text(CXPRM_TEXT_CMD_STATS);
	EXPECT_NE(t.find("QUERY_HCA_CAP(0x100)"), std::string::npos) << t;
	EXPECT_NE(t.find("BAD_PARAM_ERR"), std::string::npos) << t;
	t = text(CXPRM_TEXT_CAPS);
	EXPECT_NE(t.find("log_max_qp"), std::string::npos) << t;
	EXPECT_NE(t.find("cmdif_checksum"), std::string::npos) << t;
	t = text(CXPRM_TEXT_CMDQ);
	EXPECT_NE(t.find("slot 0: owner sw, delivery OK(0x00)"), std::string::npos) << t;
	EXPECT_NE(t.find("slot 31: "), std::string::npos) << t;
	EXPECT_NE(t.find("  0030: "), std::string::npos) << t;
	t = text(CXPRM_TEXT_LAST_CMDS);
	EXPECT_NE(t.find("MANAGE_PAGES(0x108)"), std::string::npos) << t;
	t = text(CXPRM_TEXT_EQ);
	EXPECT_NE(t.find("PAGE_REQUEST(0x0b)"), std::string::npos) << t;
	EXPECT_EQ(t.find("ESW_FUNCTIONS_CHANGED(0x0e)"), std::string::npos) << t;
	t = text(CXPRM_TEXT_PAGES);
	EXPECT_NE(t.find("given        40"), std::string::npos) << t;
	uint32_t per = 1u << (h.uh.page_shift() - 12); // this system's page size
	EXPECT_NE(t.find("host pages   " + std::to_string((40 + per - 1) / per) + " (" + std::to_string(per) +
			 " firmware pages each)"),
		  std::string::npos)
		<< t;
	t = text(CXPRM_TEXT_HEALTH);
	EXPECT_NE(t.find("state: UP"), std::string::npos) << t;
	EXPECT_NE(t.find("bring-up: OK, ISSI 1"), std::string::npos) << t;
	EXPECT_NE(t.find("INIT_HCA"), std::string::npos) << t;
	// A small buffer is cut, NUL-terminated, and says so.
	char small[64];
	int trunc = 0;
	size_t len = cxprm_core_format(core, CXPRM_TEXT_CMDQ, small, sizeof(small), &trunc);
	EXPECT_EQ(trunc, 1);
	EXPECT_EQ(len, sizeof(small) - 1);
	EXPECT_EQ(small[len], 0);

	// Teardown: every page back.
	cxprm_core_teardown_report rep = teardown(true, 40, 40, 0);
	EXPECT_EQ(rep.pages_freed, 0u);
	EXPECT_GE(rep.steps, 3u);
	EXPECT_EQ(h.emu.pages_held(), 0u);
	EXPECT_EQ(h.emu.hca_state(), emu::HcaState::DISABLED);
	EXPECT_EQ(h.emu.eq_count(), 0u);
	EXPECT_EQ(h.emu.uar_count(), 0u);
	cxprm_core_get_info(core, &info);
	EXPECT_EQ(info.state, (uint32_t)CXPRM_CORE_DOWN);
	EXPECT_EQ(info.pages_given, 40u);
	EXPECT_EQ(info.pages_reclaimed, 40u);
	EXPECT_EQ(info.cmdq_entries, 0u);
	EXPECT_EQ(info.async_eqn, ~0u);
	t = text(CXPRM_TEXT_HEALTH);
	EXPECT_NE(t.find("-- teardown --"), std::string::npos) << t;
	EXPECT_NE(t.find("DISABLE_HCA"), std::string::npos) << t;
	t = text(CXPRM_TEXT_CMD_STATS);
	EXPECT_NE(t.find("queue down"), std::string::npos) << t;
	// Commands after teardown fail cleanly.
	EXPECT_LT(cxprm_core_query_caps(core, 0, 0, image.data(), &res), 0);
	EXPECT_EQ(cxprm_core_events_poll(core, 16), 0u);
}

TEST_F(CapiTest, CommandEvents)
{
	cxprm_core_config cfg = quick_config();
	ASSERT_EQ(cxprm_core_bringup(core, &cfg), 0);
	ASSERT_EQ(start_events(true), 0);
	cxprm_core_info info;
	cxprm_core_get_info(core, &info);
	EXPECT_EQ(info.command_events, 1u);

	// A poller plays the shim's worker while commands wait for CMD events.
	std::atomic<bool> stop{false};
	std::thread poller([&] {
		while (!stop) {
			cxprm_core_events_poll(core, 128);
			std::this_thread::sleep_for(std::chrono::microseconds(200));
		}
	});
	std::vector<uint8_t> image(CXPRM_CORE_CAP_BYTES);
	cxprm_core_result res;
	for (int i = 0; i < 20; i++)
		ASSERT_EQ(cxprm_core_query_caps(core, 0, i & 1, image.data(), &res), 0);
	stop = true;
	poller.join();
	cxprm_core_event_stats es;
	cxprm_core_events_stats(core, &es);
	EXPECT_GE(es.cmd_completions, 20u);
	EXPECT_NE(es.subscribed[0] & (1ull << 0x0a), 0u);
	EXPECT_NE(text(CXPRM_TEXT_EQ).find("command completion: CMD events"), std::string::npos);

	cxprm_core_teardown_report rep;
	cxprm_core_teardown(core, &rep);
	EXPECT_EQ(rep.err, 0);
	EXPECT_EQ(rep.pages_reclaimed, rep.pages_given);
	EXPECT_EQ(h.emu.pages_held(), 0u);
}

TEST_F(CapiTest, FailedBringupKeepsTheTrace)
{
	h.emu.faults().only_opcode = op::INIT_HCA;
	h.emu.faults().delivery_status = 0x06; // FW_ERR
	h.emu.faults().delivery_status_count = 1;
	cxprm_core_config cfg = quick_config();
	EXPECT_EQ(cxprm_core_bringup(core, &cfg), -5); // EIO: delivery failure
	cxprm_core_info info;
	cxprm_core_get_info(core, &info);
	EXPECT_EQ(info.state, (uint32_t)CXPRM_CORE_ERROR);
	EXPECT_EQ(info.cmdq_entries, 0u);
	EXPECT_EQ(h.emu.pages_held(), 0u);
	std::string t = text(CXPRM_TEXT_HEALTH);
	EXPECT_NE(t.find("bring-up: FAILED at INIT_HCA: EIO"), std::string::npos) << t;
	EXPECT_NE(t.find("delivery FW_ERR"), std::string::npos) << t;
	EXPECT_NE(text(CXPRM_TEXT_CMD_STATS).find("queue down"), std::string::npos);
	EXPECT_NE(text(CXPRM_TEXT_CAPS).find("cmdif_checksum"), std::string::npos);
	EXPECT_NE(start_events(), 0);
	cxprm_core_teardown_report rep;
	cxprm_core_teardown(core, &rep); // nothing to do
	EXPECT_EQ(rep.steps, 0u);
	// The unwind took every page back (TAKE before INIT_HCA): nothing is
	// stranded for the host to free.
	EXPECT_EQ(cxprm_core_release_stranded(core), 0u);
	// A second bring-up works.
	h.emu.faults().clear_command_faults();
	ASSERT_EQ(cxprm_core_bringup(core, &cfg), 0);
	cxprm_core_get_info(core, &info);
	EXPECT_EQ(info.state, (uint32_t)CXPRM_CORE_UP);
	cxprm_core_teardown(core, &rep);
	EXPECT_EQ(rep.pages_reclaimed, rep.pages_given);
}

// INIT_HCA never answers: bring-up unwinds, but the firmware still owns
// that command's queue entry and mailboxes.  The report of the (empty)
// teardown after it says so, and release frees them: what the shim does
// at remove after a failed probe.
TEST_F(CapiTest, FailedBringupWithALostAnswerKeepsItsQueueMemory)
{
	h.emu.faults().only_opcode = op::INIT_HCA;
	h.emu.faults().once = true;
	h.emu.faults().never_complete = true;
	cxprm_core_config cfg = quick_config();
	cfg.cmd_timeout_ns = 200ull * 1000 * 1000;
	EXPECT_EQ(cxprm_core_bringup(core, &cfg), -110); // ETIMEDOUT
	cxprm_core_teardown_report rep;
	cxprm_core_teardown(core, &rep);
	EXPECT_EQ(rep.steps, 0u);
	// The HCA may be initialised (the answer was lost, not the command):
	// DISABLE_HCA is refused, so the boot pages stay lent too.
	EXPECT_NE(text(CXPRM_TEXT_HEALTH).find("DISABLE_HCA           EREMOTEIO"), std::string::npos);
	EXPECT_GT(rep.pages_stranded, 0u);
	EXPECT_EQ(rep.cmdq_stranded, 3u); // queue page, INIT_HCA's two chains
	EXPECT_EQ(cxprm_core_state(core), (int)CXPRM_CORE_ERROR);
	EXPECT_EQ(h.uh.dma_live(), rep.pages_stranded + rep.cmdq_stranded);
	// The host resets the function, then frees.
	h.emu.function_reset();
	EXPECT_EQ(cxprm_core_release_stranded(core), rep.pages_stranded);
	EXPECT_EQ(h.uh.dma_live(), 0u);
	// And the function can be brought up again.
	h.emu.faults().clear_command_faults();
	ASSERT_EQ(cxprm_core_bringup(core, &cfg), 0);
	cxprm_core_teardown(core, &rep);
	EXPECT_EQ(rep.pages_reclaimed, rep.pages_given);
}

TEST_F(CapiTest, DeadFirmwareStrandsPagesUntilReleased)
{
	cxprm_core_config cfg = quick_config();
	ASSERT_EQ(cxprm_core_bringup(core, &cfg), 0);
	ASSERT_EQ(start_events(), 0);
	h.emu.faults().crash = true;
	// The emulator's thread crashes on its next step: waited for with a
	// bound no loaded host reaches.
	cxprm_core_info info;
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	do {
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
		cxprm_core_get_info(core, &info);
	} while (info.state != (uint32_t)CXPRM_CORE_ERROR && std::chrono::steady_clock::now() < end);
	EXPECT_EQ(info.state, (uint32_t)CXPRM_CORE_ERROR);
	EXPECT_EQ(info.health_syndrome, 1u);
	std::vector<uint8_t> image(CXPRM_CORE_CAP_BYTES);
	cxprm_core_result res;
	EXPECT_EQ(cxprm_core_query_caps(core, 0, 0, image.data(), &res), -112); // EHOSTDOWN: dead firmware
	EXPECT_NE(text(CXPRM_TEXT_HEALTH).find("FW_INTERNAL_ERR"), std::string::npos);

	teardown(false, 32, 0, 32);
	cxprm_core_get_info(core, &info);
	EXPECT_EQ(info.state, (uint32_t)CXPRM_CORE_ERROR);
	EXPECT_NE(text(CXPRM_TEXT_PAGES).find("stranded     32"), std::string::npos) << text(CXPRM_TEXT_PAGES);
	// The host reset the function: now the pages may go.
	EXPECT_EQ(cxprm_core_release_stranded(core), 32u);
	EXPECT_EQ(cxprm_core_release_stranded(core), 0u);
}

TEST_F(CapiTest, DestroyWhileUpTearsDown)
{
	cxprm_core_config cfg = quick_config();
	ASSERT_EQ(cxprm_core_bringup(core, &cfg), 0);
	ASSERT_EQ(start_events(), 0);
	cxprm_core_destroy(core);
	core = nullptr;
	EXPECT_EQ(h.emu.pages_held(), 0u);
	EXPECT_EQ(h.emu.hca_state(), emu::HcaState::DISABLED);
}

} // namespace

// A3, A8: an ECPF reports itself in the info and is the one function that
// queries the eswitch and gets its change events.
TEST(CapiEcpfTest, EcpfEswAndInfo)
{
	test::Harness h{small_profile(emu::Profile::bluefield3())};
	h.emu.start();
	cxprm_core *core = nullptr;
	ASSERT_EQ(cxprm_core_create(h.host(), &core), 0);
	cxprm_core_config c = quick_config();
	ASSERT_EQ(cxprm_core_bringup(core, &c), 0);
	cxprm_core_info info;
	cxprm_core_get_info(core, &info);
	EXPECT_EQ(info.ecpf, 1u);
	EXPECT_EQ(info.page_functions, 1u);
	EXPECT_EQ(cxprm_core_is_ecpf_esw_manager(core), 1);
	std::atomic<int> changed{0};
	cxprm_core_events_config ec{};
	ec.listener = [](void *ctx, uint8_t type, uint8_t, const uint8_t *) {
		if (type == 0x0e)
			++*static_cast<std::atomic<int> *>(ctx);
	};
	ec.listener_ctx = &changed;
	ASSERT_EQ(cxprm_core_events_start(core, &ec), 0);
	cxprm_esw_functions esw;
	cxprm_core_result res;
	ASSERT_EQ(cxprm_core_query_esw(core, &esw, 4, &res), 0);
	EXPECT_EQ(esw.host_total_vfs, h.emu.profile().esw.total_vfs);
	EXPECT_EQ(esw.host_num_of_vfs, 0);
	EXPECT_EQ(esw.sf_enable[0], 0u);
	EXPECT_EQ(esw.st.opcode, op::QUERY_ESW_FUNCTIONS);
	ASSERT_TRUE(h.emu.set_num_vfs(3));
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
	while (!changed && std::chrono::steady_clock::now() < end) {
		cxprm_core_events_poll(core, 128);
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
	}
	EXPECT_EQ(changed.load(), 1);
	ASSERT_EQ(cxprm_core_query_esw(core, &esw, 0, &res), 0);
	EXPECT_EQ(esw.host_num_of_vfs, 3);
	cxprm_core_destroy(core);
	h.emu.stop();
	EXPECT_EQ(h.uh.dma_live(), 0u);
	EXPECT_EQ(h.uh.mem_live(), 0u);
}
