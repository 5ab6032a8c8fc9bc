// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Fuzz target: the event-queue consumer (eq_ring.cpp: owner bit, phase,
// wrap, consumer index, doorbells) and the event dispatch (events.cpp:
// CMD completion vectors, PAGE_REQUEST accounting and service(), the
// listener), through the C facade the kernel shim uses (capi.h).
//
// Each input brings a device up against the synchronous fake device
// (capi: bringup, events_start with every event type subscribed, command
// completion by polling or by CMD events), then runs a list of operations
// from the input: firmware writes well-formed event entries of any type
// and payload, or 64 arbitrary bytes anywhere in the ring (owner bits
// included); the core polls with any budget, services page requests, runs
// commands, formats its debugfs texts into buffers of any size.  At the
// end: optionally the firmware dies or the device goes away, then teardown
// and destroy, and nothing may be left (DMA memory, allocations, locks),
// nor pages firmware was lent and the core forgot.  Firmware may also lie
// about pages (addresses never given or returned twice, counts beyond the
// answer): the core must neither free what it does not own nor hang.
#include <cstring>
#include <vector>

#include "fake_host.h"
#include "fuzz_input.h"

#include "cxprm/capi.h"
#include "cxprm/prm/adapter.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using cxprm::fuzz::FakeHost;
using cxprm::fuzz::FuzzInput;

namespace {

struct Seen {
	uint64_t events = 0;
};

void listener(void *ctx, cxprm_u8 type, cxprm_u8 sub_type, const cxprm_u8 *data)
{
	Seen *s = static_cast<Seen *>(ctx);
	uint8_t copy[CXPRM_CORE_EQE_DATA];
	std::memcpy(copy, data, sizeof(copy)); // the whole payload is readable
	(void)type;
	(void)sub_type;
	s->events++;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzInput in(data, size);
	uint8_t cfgb = in.u8();
	FakeHost dev(2u << 20);
	cxprm_core *core = nullptr;
	FUZZ_CHECK(cxprm_core_create(dev.host(), &core) == 0);
	cxprm_core_config cfg{};
	cfg.cmd_timeout_ns = 20ull * 1000 * 1000;
	cfg.init_timeout_ns = 10ull * 1000 * 1000;
	cfg.reclaim_timeout_ns = 10ull * 1000 * 1000;
	cfg.pages_per_command = (cfgb & 0x80) ? 3 : 0;
	FUZZ_CHECK(cxprm_core_bringup(core, &cfg) == 0);

	Seen seen;
	cxprm_core_events_config ec{};
	ec.log_eq_size = (uint8_t)(1 + (cfgb >> 1) % 8); // 2..256 entries
	ec.command_events = cfgb & 1;
	for (auto &w : ec.extra_mask)
		w = ~0ull;
	ec.listener = listener;
	ec.listener_ctx = &seen;
	FUZZ_CHECK(cxprm_core_events_start(core, &ec) == 0);
	FUZZ_CHECK(dev.eq_created());

	// Firmware that lies about pages (cfg bit 6): MANAGE_PAGES TAKE answers
	// carry addresses from the input (never given, or twice) and counts
	// beyond what was asked; QUERY_PAGES claims pages it does not have.
	if (cfgb & 0x40) {
		dev.handler = [&](FakeHost::Command &c) {
			prm::CRef<prm::cmd_in> h(c.in.data());
			if (prm::get<prm::cmd_in::opcode>(h) == prm::op::QUERY_PAGES && (in.u8() & 1) &&
			    c.out.size() >= prm::query_pages_out::size_bytes)
				prm::set<prm::query_pages_out::num_pages>(
					prm::Ref<prm::query_pages_out>(c.out.data()), (uint32_t)-(int32_t)(in.u8() % 9));
			if (prm::get<prm::cmd_in::opcode>(h) != prm::op::MANAGE_PAGES ||
			    prm::get<prm::cmd_in::op_mod>(h) != prm::manage_pages_op::TAKE ||
			    c.out.size() < prm::manage_pages_out::size_bytes)
				return;
			prm::Ref<prm::manage_pages_out> o(c.out.data());
			uint32_t room = prm::manage_pages_out_pas::entries_in((uint32_t)c.out.size());
			uint32_t lies = in.u8() % 4;
			for (uint32_t i = 0; i < lies && i < room; i++)
				prm::set_pas<prm::manage_pages_out_pas>(o, in.u8() % (room ? room : 1),
									FakeHost::kBusBase + ((uint64_t)in.u16() << 12));
			if (in.u8() & 1)
				prm::set<prm::manage_pages_out::output_num_entries>(o, in.u16());
		};
	}

	std::vector<char> text;
	bool broken = false; // firmware died or the device went away
	for (int op = 0; op < 96 && !in.empty(); op++) {
		uint8_t kind = in.u8();
		if (kind == 0xff) { // the end: firmware dies, or the device goes (then teardown)
			broken = true;
			if (in.u8() & 1)
				dev.set_gone(true);
			else
				dev.set_fw_dead(true);
			break;
		}
		switch (kind % 8) {
		case 0: { // a well-formed entry of any type
			uint8_t type = in.u8(), sub = in.u8(), payload[28];
			in.fill(payload, sizeof(payload));
			dev.post_eqe(type, sub, payload);
			break;
		}
		case 1: { // a page request (give or take back)
			uint8_t payload[28] = {};
			int32_t n = (kind & 0x80) ? (int32_t)in.u32() : (int16_t)in.u16();
			prm::Ref<prm::pages_req_event> r(payload);
			prm::set<prm::pages_req_event::function_id>(r, in.u8() & 1);
			prm::set<prm::pages_req_event::num_pages>(r, (uint32_t)n);
			dev.post_eqe(prm::event::PAGE_REQUEST, 0, payload);
			break;
		}
		case 2: { // 64 arbitrary bytes anywhere in the ring
			uint8_t raw[64];
			uint32_t idx = in.u16();
			in.fill(raw, sizeof(raw));
			dev.write_eqe_raw(idx, raw);
			break;
		}
		case 3: {
			uint32_t budget = in.u8();
			uint32_t n = cxprm_core_events_poll(core, budget);
			FUZZ_CHECK(n <= budget);
			break;
		}
		case 4:
			(void)cxprm_core_events_service(core);
			break;
		case 5: { // a command: completes by polling or by a CMD event
			uint8_t cin[16] = {}, cout[prm::query_adapter_out::size_bytes];
			cin[0] = prm::op::QUERY_ADAPTER >> 8;
			cin[1] = prm::op::QUERY_ADAPTER & 0xff;
			dev.command_events = !(kind & 0x80);
			cxprm_core_result res;
			int err = cxprm_core_raw(core, cin, sizeof(cin), cout, sizeof(cout), &res, nullptr);
			FUZZ_CHECK(err == 0 || err == -110 || err == -112 || err == -19 || err == -71);
			dev.command_events = true;
			break;
		}
		case 6: { // debugfs text into a buffer of any size
			size_t cap = (size_t)in.u16() % 20000;
			text.assign(cap + 1, '\x7f');
			int trunc = 0;
			size_t len = cxprm_core_format(core, in.u8() % CXPRM_TEXT_COUNT,
						       cap ? text.data() : nullptr, cap, &trunc);
			FUZZ_CHECK(cap ? len < cap && text[len] == 0 : len == 0);
			FUZZ_CHECK(text[cap] == '\x7f'); // nothing past the buffer
			break;
		}
		case 7: {
			cxprm_core_event_stats st;
			cxprm_core_events_stats(core, &st);
			FUZZ_CHECK(st.running == 1 && st.log_size == ec.log_eq_size);
			FUZZ_CHECK(st.consumer_index == (uint32_t)seen.events && st.total == seen.events);
			break;
		}
		}
	}
	cxprm_core_teardown_report rep;
	cxprm_core_teardown(core, &rep);
	if (!broken && !(cfgb & 0x40))
		FUZZ_CHECK(rep.pages_stranded == 0 && rep.err == 0);
	// Pages a dead firmware kept: the host resets the function, then the
	// core frees them; none may be forgotten.
	FUZZ_CHECK(cxprm_core_release_stranded(core) == rep.pages_stranded);
	cxprm_core_destroy(core);
	FUZZ_CHECK(dev.dma_live() == 0);
	FUZZ_CHECK(dev.mem_live() == 0);
	FUZZ_CHECK(dev.locks_live() == 0);
	return 0;
}
