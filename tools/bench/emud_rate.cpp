// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-bench-emud: the userspace reference for the guest's ioctl rate.
// The core (a brought-up cxprm::Device) drives a running cxprm-emud over
// the same two shared files QEMU would map (guest RAM, ivshmem BAR), with
// polling completion, and counts commands per second for the two commands
// the guest program (ioctl_rate.c) sends:
//
//   caps  QUERY_HCA_CAP(GENERAL, CUR), decoded (the CXPRM_IOC_QUERY_CAPS path)
//   raw   QUERY_PAGES(REGULAR) as raw bytes through Cmdq::exec (CXPRM_IOC_RAW)
//
// and then the daemon's turnaround, doorbell to completion, for QUERY_PAGES
// sent one at a time, with the engine spinning on the owner bit (no sleep
// of its own in the figure): the engine's CmdResult::latency_ns.
//
//   cxprm-bench-emud RAM_FILE BAR_FILE [SECONDS]
//
// The daemon must already be running on the files (tools/bench/bench.sh
// starts it); the RAM file is used from 1 MiB on.  Prints
// "userspace-emud <name> <commands/s>" lines and "userspace-emud
// turnaround <median us> <p99 us> <commands>".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "cxprm/commands/common.h"
#include "cxprm/commands/hca.h"
#include "bringup.h"
#include "cxprm/device.h"
#include "cxprm/errors.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "file_host.h"
#include "file_platform.h"
#include "guest_ram.h"

using namespace cxprm;

namespace {

using clk = std::chrono::steady_clock;

template <class Fn> double rate(double seconds, Fn &&fn)
{
	long n = 0;
	auto t0 = clk::now();
	auto end = t0 + std::chrono::duration_cast<clk::duration>(std::chrono::duration<double>(seconds));
	while (clk::now() < end) {
		for (int i = 0; i < 16; i++)
			if (fn())
				return -1;
		n += 16;
	}
	return n / std::chrono::duration<double>(clk::now() - t0).count();
}

// The host's sleep as a spin on its clock: the engine never gives the
// CPU away while it waits, so the latency it records is the daemon's.
void spin_us(void *ctx, cxprm_u32 us)
{
	(void)ctx;
	auto end = clk::now() + std::chrono::microseconds(us);
	while (clk::now() < end) {
	}
}

// QUERY_PAGES one at a time for 'seconds': doorbell-to-completion in us.
bool turnaround(Cmdq &q, const u8 *in, u32 inlen, double seconds, std::vector<double> *lat)
{
	u8 out[16];
	auto end = clk::now() + std::chrono::duration_cast<clk::duration>(std::chrono::duration<double>(seconds));
	while (clk::now() < end) {
		CmdResult res{};
		if (q.exec(in, inlen, out, sizeof(out), &res))
			return false;
		lat->push_back((double)res.st.latency_ns / 1000.0);
	}
	return !lat->empty();
}

} // namespace

int main(int argc, char **argv)
{
	if (argc < 3) {
		std::fprintf(stderr, "usage: cxprm-bench-emud RAM_FILE BAR_FILE [SECONDS]\n");
		return 2;
	}
	double secs = argc > 3 ? std::atof(argv[3]) : 3.0;
	emud::MappedFile ram, bar;
	std::string err;
	if (!ram.open(argv[1], &err) || !bar.open(argv[2], &err)) {
		std::fprintf(stderr, "cxprm-bench-emud: %s\n", err.c_str());
		return 1;
	}
	emud::GuestRam layout(ram.size(), emud::GuestRam::q35_below_4g(ram.size()));
	emud::test::FileHost fh(ram.data(), layout, bar.data(), bar.size(), 1u << 20);
	// The host's own ops, switched to spinning for the turnaround.
	cxprm_host_ops ops = *fh.host()->ops;
	const cxprm_host host{&ops, fh.host()->ctx};
	auto dev = bench::bring_up(&host, "cxprm-bench-emud");
	if (!dev)
		return 1;
	Cmdq &q = dev->cmdq();

	auto caps = std::make_unique<cmd::GeneralCaps>();
	double caps_rate = rate(secs, [&] { return cmd::query_general_caps(q, prm::cap::CUR, caps.get()); });

	u8 in[prm::query_pages_in::size_bytes], out[16];
	cmd::begin_in<prm::query_pages_in>(in, prm::op::QUERY_PAGES, 3 /* REGULAR */);
	double raw_rate = rate(secs, [&] { return q.exec(in, sizeof(in), out, sizeof(out)); });

	ops.relax = [](void *) {};
	ops.sleep_us = [](void *ctx, cxprm_u32 us) { spin_us(ctx, us); };
	std::vector<double> lat;
	bool lat_ok = turnaround(q, in, sizeof(in), secs, &lat);

	dev->teardown();
	if (caps_rate < 0 || raw_rate < 0 || !lat_ok) {
		std::fprintf(stderr, "cxprm-bench-emud: a command failed\n");
		return 1;
	}
	std::printf("userspace-emud caps %.0f\nuserspace-emud raw %.0f\n", caps_rate, raw_rate);
	std::sort(lat.begin(), lat.end());
	std::printf("userspace-emud turnaround %.2f %.2f %zu\n", lat[lat.size() / 2], lat[lat.size() * 99 / 100],
		    lat.size());
	return 0;
}
