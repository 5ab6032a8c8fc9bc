// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-bench-pipeline: commands in flight against firmware that takes
// time.  The core's command engine (a brought-up cxprm::Device, polling
// completion) drives the in-process emulator on its own thread with the
// firmware latency model on (Profile::latency: K engines, QUERY_PAGES
// L us).  N threads send QUERY_PAGES back to back for SECONDS each, for
// N = 1, 2, 4, 8, 16, 32; the ideal is min(N, K, regular slots) / L.
//
//   cxprm-bench-pipeline [SECONDS] [ENGINES] [QUERY_PAGES_US (5000)] [busy]
//
// busy: the host gets a yield op (sched_yield), so the engine busy-polls
// each completion for its first 5 ms, as the kernel's engine does with
// cond_resched(); without it the userspace host's engine sleeps an eighth
// of the time waited after a 10 us spin.
//
// Prints "pipelined N <commands/s> <ideal/s> <ratio> | ..." lines: after
// the bar, where a command's time went (the emulator's LatencyCounters)
// and the CPU use and context switches of the run; "#" lines give the
// CPUs online and the load average.
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cxprm/commands/pages.h"
#include "bringup.h"
#include "cxprm/device.h"
#include "cxprm/errors.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm_emu/emulator.h"
#include "emu_platform.h"
#include "user_host.h"

using namespace cxprm;
using clk = std::chrono::steady_clock;

namespace {

// Where the time of the window's commands went, per command (us), from
// the emulator's latency counters (latency.h, LatencyCounters).
struct Split {
	double engine_wait = 0, late = 0, slot_idle = 0;
};

Split split(const emu::LatencyCounters &a, const emu::LatencyCounters &b)
{
	Split s;
	double n = (double)(b.served - a.served), r = (double)(b.slot_reuses - a.slot_reuses);
	if (n > 0) {
		s.engine_wait = (double)(b.engine_wait_ns - a.engine_wait_ns) / n / 1e3;
		s.late = (double)(b.late_ns - a.late_ns) / n / 1e3;
	}
	if (r > 0)
		s.slot_idle = (double)(b.slot_idle_ns - a.slot_idle_ns) / r / 1e3;
	return s;
}

// Context switches of this process so far: voluntary, involuntary.
void ctx_switches(long *vol, long *invol)
{
	struct rusage ru {};
	getrusage(RUSAGE_SELF, &ru);
	*vol = ru.ru_nvcsw;
	*invol = ru.ru_nivcsw;
}

// Commands/s from n threads for 'secs'; -1 if a command failed.
double run(Cmdq &q, emu::Emulator &em, unsigned n, double secs, Split *sp, double *cpu, long *vol, long *invol)
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
	emu::LatencyCounters c0 = em.counters().latency;
	long v0, i0, v1, i1;
	ctx_switches(&v0, &i0);
	std::clock_t cpu0 = std::clock();
	std::this_thread::sleep_for(std::chrono::duration<double>(secs));
	u64 after = q.stats_total();
	double dt = std::chrono::duration<double>(clk::now() - t0).count();
	*cpu = (double)(std::clock() - cpu0) / CLOCKS_PER_SEC / dt;
	ctx_switches(&v1, &i1);
	*sp = split(c0, em.counters().latency);
	*vol = (long)((double)(v1 - v0) / dt);
	*invol = (long)((double)(i1 - i0) / dt);
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
	// 5 ms, not the model's 20 us: long enough that the waiting threads
	// sleep and the figure measures the driver, not how a few shared CPUs
	// share out spinning threads (Documentation/performance-emulator.rst).
	prof.latency.per_opcode_us[prm::op::QUERY_PAGES] = argc > 3 ? (uint32_t)std::atoi(argv[3]) : 5000;
	bool busy = argc > 4 && std::string(argv[4]) == "busy";
	if (secs <= 0 || prof.latency.engines < 1 || prof.latency.engines > 32 || (argc > 4 && !busy)) {
		std::fprintf(stderr, "usage: cxprm-bench-pipeline [SECONDS] [ENGINES 1..32] [QUERY_PAGES_US] [busy]\n");
		return 2;
	}
	hosted::UserHost::Options o;
	o.waiters = false; // the engine polls
	hosted::UserHost uh(o);
	hosted::EmuPlatform plat(uh);
	emu::Emulator em(plat, prof);
	em.start();
	cxprm_host_ops ops = *uh.host()->ops;
	if (busy)
		ops.yield = [](void *) { sched_yield(); };
	cxprm_host host{&ops, uh.host()->ctx};
	auto dev = bench::bring_up(&host, "cxprm-bench-pipeline");
	if (!dev)
		return 1;
	Cmdq &q = dev->cmdq();
	const double L = (double)prof.latency.service_ns(prm::op::QUERY_PAGES) / 1e9;
	const unsigned K = prof.latency.engines, slots = q.entries() - 1; // the last: MANAGE_PAGES
	double load[3] = {};
	if (getloadavg(load, 3) < 0)
		load[0] = -1;
	std::printf("# K %u engines, QUERY_PAGES %.0f us, %u regular slots, %.2f s per N, %s\n", K, L * 1e6, slots,
		    secs, busy ? "busy-polling 5 ms (yield)" : "polling: 10 us spin, then sleeps");
	std::printf("# %ld CPUs online, load average %.2f (1 min)\n", sysconf(_SC_NPROCESSORS_ONLN), load[0]);
	std::printf("# columns: N cmds/s ideal ratio | per command (us): engine-wait late slot-idle"
		    " | CPUs busy, context switches/s voluntary involuntary\n");
	int bad = 0;
	for (unsigned n = 1; n <= 32; n *= 2) {
		Split sp;
		double cpu;
		long vol, invol;
		double r = run(q, em, n, secs, &sp, &cpu, &vol, &invol);
		if (r < 0) {
			std::fprintf(stderr, "cxprm-bench-pipeline: a command failed at N = %u\n", n);
			bad = 1;
			break;
		}
		double ideal = std::min({n, K, slots}) / L;
		std::printf("pipelined %u %.0f %.0f %.3f | %.1f %.1f %.1f | %.2f %ld %ld\n", n, r, ideal, r / ideal,
			    sp.engine_wait, sp.late, sp.slot_idle, cpu, vol, invol);
		std::fflush(stdout);
	}
	dev->teardown();
	em.stop();
	return bad;
}
