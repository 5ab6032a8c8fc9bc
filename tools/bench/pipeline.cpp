// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-bench-pipeline: commands in flight against firmware that takes
// time.  The core's command engine (a brought-up cxprm::Device, polling
// completion) drives the in-process emulator on its own thread with the
// firmware latency model on (Profile::latency: K engines, QUERY_PAGES
// L us).  N threads send QUERY_PAGES back to back for SECONDS each, for
// N = 1, 2, 4, 8, 16, 32; the ideal is min(N, K, regular slots) / L.
//
//   cxprm-bench-pipeline [SECONDS] [ENGINES] [QUERY_PAGES_US]
//
// Prints "pipelined N <commands/s> <ideal/s> <ratio>" lines.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "cxprm/commands/pages.h"
#include "cxprm/device.h"
#include "cxprm/errors.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm_emu/emulator.h"
#include "emu_platform.h"
#include "user_host.h"

using namespace cxprm;
using clk = std::chrono::steady_clock;

namespace {

// Commands/s from n threads for 'secs'; -1 if a command failed.
double run(Cmdq &q, unsigned n, double secs)
{
	std::atomic<bool> go{false}, stop{false}, failed{false};
	std::atomic<long> total{0};
	std::vector<std::thread> th;
	for (unsigned i = 0; i < n; i++)
		th.emplace_back([&] {
			while (!go.load())
				std::this_thread::yield();
			long k = 0;
			while (!stop.load(std::memory_order_relaxed)) {
				cmd::PagesQuery p{};
				if (cmd::query_pages(q, cmd::PagesKind::REGULAR, cmd::FunctionRef{}, &p)) {
					failed = true;
					break;
				}
				k++;
			}
			total += k;
		});
	// A short warm-up, then the window: what the engine counted in it.
	go = true;
	std::this_thread::sleep_for(std::chrono::milliseconds(20));
	auto t0 = clk::now();
	u64 before = q.stats_total();
	std::this_thread::sleep_for(std::chrono::duration<double>(secs));
	u64 after = q.stats_total();
	double dt = std::chrono::duration<double>(clk::now() - t0).count();
	stop = true;
	for (auto &t : th)
		t.join();
	return failed ? -1 : (double)(after - before) / dt;
}

} // namespace

int main(int argc, char **argv)
{
	double secs = argc > 1 ? std::atof(argv[1]) : 1.0;
	emu::Profile prof = emu::Profile::connectx7();
	prof.nvmf.auto_io_ms = 0;
	prof.boot_pages = prof.init_pages = 64; // bring-up in milliseconds
	prof.latency.enabled = true;
	if (argc > 2)
		prof.latency.engines = (uint32_t)std::atoi(argv[2]);
	if (argc > 3)
		prof.latency.per_opcode_us[prm::op::QUERY_PAGES] = (uint32_t)std::atoi(argv[3]);
	if (secs <= 0 || prof.latency.engines < 1 || prof.latency.engines > 32) {
		std::fprintf(stderr, "usage: cxprm-bench-pipeline [SECONDS] [ENGINES 1..32] [QUERY_PAGES_US]\n");
		return 2;
	}
	hosted::UserHost::Options o;
	o.waiters = false; // the engine polls
	hosted::UserHost uh(o);
	hosted::EmuPlatform plat(uh);
	emu::Emulator em(plat, prof);
	em.start();
	auto dev = std::make_unique<Device>();
	int rc = dev->bringup(uh.host(), BringupConfig{});
	if (rc) {
		std::fprintf(stderr, "cxprm-bench-pipeline: bring-up failed: %s\n", err_name(rc));
		return 1;
	}
	Cmdq &q = dev->cmdq();
	const double L = (double)prof.latency.service_ns(prm::op::QUERY_PAGES) / 1e9;
	const unsigned K = prof.latency.engines, slots = q.entries() - 1; // the last: MANAGE_PAGES
	std::printf("# K %u engines, QUERY_PAGES %.0f us, %u regular slots, %.2f s per N\n", K, L * 1e6, slots, secs);
	int bad = 0;
	for (unsigned n = 1; n <= 32; n *= 2) {
		double r = run(q, n, secs);
		if (r < 0) {
			std::fprintf(stderr, "cxprm-bench-pipeline: a command failed at N = %u\n", n);
			bad = 1;
			break;
		}
		double ideal = std::min({n, K, slots}) / L;
		std::printf("pipelined %u %.0f %.0f %.3f\n", n, r, ideal, r / ideal);
		std::fflush(stdout);
	}
	dev->teardown();
	em.stop();
	return bad;
}
