// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The in-process test rig: a userspace host (DMA arena + BAR bytes) with the
// firmware emulator behind it, and the core's command engine in front.
// The emulator sees exactly what a device would: the BAR and DMA by bus
// address.
#pragma once

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "cxprm/capi.h"
#include "cxprm/cmdq.h"
#include "cxprm/commands/hca.h"
#include "cxprm/device.h"
#include "cxprm/prm/transport.h"
#include "cxprm_emu/emulator.h"
#include "emu_platform.h"
#include "user_host.h"

namespace cxprm::test {

// CTest's *_lenient runs set CXPRM_EMU_LENIENT=1: every profile a rig
// builds gets Profile::make_lenient(), so the same suite shows the driver
// working against the strict defaults and against their alternatives.
inline bool lenient_run()
{
	const char *e = std::getenv("CXPRM_EMU_LENIENT");
	return e && *e && std::strcmp(e, "0") != 0;
}

inline emu::Profile as_run(emu::Profile p)
{
	if (lenient_run())
		p.make_lenient();
	return p;
}

class Harness {
public:
	explicit Harness(emu::Profile profile = emu::Profile::connectx7(), size_t dma_bytes = 64u << 20)
		: uh(dma_bytes), plat(uh), emu(plat, as_run(std::move(profile)))
	{
	}
	~Harness()
	{
		cmdq.fini();
		emu.stop();
	}

	const cxprm_host *host() const { return uh.host(); }

	// Starts the emulator thread and waits (bounded generously: the thread
	// may run late on a loaded host) for 'initializing' to clear.
	bool start_device(std::chrono::milliseconds limit = std::chrono::seconds(20))
	{
		emu.start();
		auto end = std::chrono::steady_clock::now() + limit;
		while (std::chrono::steady_clock::now() < end) {
			uint32_t v = uh.ioread32be(prm::iseg::INITIALIZING);
			if (!prm::from_dword<prm::initial_seg::initializing>(v))
				return true;
			std::this_thread::sleep_for(std::chrono::microseconds(200));
		}
		return false;
	}

	// Device started, the command queue programmed, and (as a driver
	// does after the address write, Device::wait_cmdq_init) the emulator
	// has taken the address and cleared 'initializing' again.
	int start(const CmdqConfig &cfg = {})
	{
		if (!start_device())
			return E_TIMEDOUT;
		int err = cmdq.init(uh.host(), cfg);
		if (err)
			return err;
		return wait_queue_taken() ? OK : E_TIMEDOUT;
	}

	bool wait_queue_taken(std::chrono::milliseconds limit = std::chrono::seconds(20))
	{
		auto end = std::chrono::steady_clock::now() + limit;
		while (emu.cmdq_address() != cmdq.queue_page().bus || emu.initializing()) {
			if (std::chrono::steady_clock::now() > end)
				return false;
			std::this_thread::sleep_for(std::chrono::microseconds(100));
		}
		return true;
	}

	hosted::UserHost uh;
	hosted::EmuPlatform plat;
	emu::Emulator emu;
	Health health;
	Cmdq cmdq{health};
};

// Command checksums on (A1): the firmware's CUR cmdif_checksum set by
// SET_HCA_CAP, and the queue signing and verifying.  False on a failure.
inline bool checksums_on(Harness &h)
{
	std::vector<uint8_t> image(cmd::CAP_IMAGE_BYTES);
	if (cmd::query_hca_cap(h.cmdq, prm::cap::GENERAL, prm::cap::CUR, image.data()) != OK)
		return false;
	prm::set<prm::cmd_hca_cap::cmdif_checksum>(prm::Ref<prm::cmd_hca_cap>(image.data()), 3);
	if (cmd::set_hca_cap(h.cmdq, prm::cap::GENERAL, image.data()) != OK || !h.emu.checksums_enabled())
		return false;
	CmdqConfig c = h.cmdq.config();
	c.verify_signatures = true;
	h.cmdq.set_config(c);
	return true;
}

// A profile that comes up fast: few boot/init pages, no NVMF traffic.
inline emu::Profile small_profile(emu::Profile p = emu::Profile::connectx7())
{
	p.boot_pages = 16;
	p.init_pages = 16;
	p.nvmf.auto_io_ms = 0;
	return p;
}

// The events a listener saw, in order; listeners run on other threads,
// so readers hold mu.
struct SeenEvents {
	struct Event {
		uint8_t type, sub_type;
		std::vector<uint8_t> data;
	};
	std::mutex mu;
	std::vector<Event> events;

	void add(uint8_t type, uint8_t sub_type, const uint8_t *data, size_t n)
	{
		std::lock_guard<std::mutex> lk(mu);
		events.push_back({type, sub_type, std::vector<uint8_t>(data, data + n)});
	}
	size_t count(uint8_t type)
	{
		std::lock_guard<std::mutex> lk(mu);
		size_t n = 0;
		for (auto &e : events)
			n += e.type == type;
		return n;
	}
};

// What every dctc the emulator accepts sets: its pd, cqn and srqn (which
// must exist: support/objects.h makes them), mtu 5 (4096), port 1.  C is
// cmd::DctContext or the UAPI's cxprm_dctc (the same member names).
template <class C> void set_dct_required(C &c, uint32_t pd, uint32_t cqn, uint32_t srqn)
{
	c.pd = pd;
	c.cqn = cqn;
	c.srqn_xrqn = srqn;
	c.mtu = 5;
	c.port = 1;
}

// A bring-up config for tests: 2 s per command, 5 s for 'initializing',
// polled every 200 us, and reclaim_ms for firmware to give pages back.
inline BringupConfig quick_config(uint64_t reclaim_ms = 500)
{
	constexpr uint64_t ms = 1000 * 1000;
	BringupConfig cfg;
	cfg.cmdq.timeout_ns = 2000 * ms;
	cfg.init_timeout_ns = 5000 * ms;
	cfg.init_poll_us = 200;
	cfg.reclaim_timeout_ns = reclaim_ms * ms;
	return cfg;
}

// Bring-up parameters of the C facade's tests: short timeouts (command
// and page reclaim, in ms), so that a hang fails fast.
inline cxprm_core_config quick_capi_config(uint64_t cmd_ms = 2000, uint64_t reclaim_ms = 500)
{
	constexpr uint64_t MS = 1000 * 1000;
	cxprm_core_config c{};
	c.cmd_timeout_ns = cmd_ms * MS;
	c.init_timeout_ns = 5000 * MS;
	c.reclaim_timeout_ns = reclaim_ms * MS;
	return c;
}

} // namespace cxprm::test
