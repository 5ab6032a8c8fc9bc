// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-bench: Google Benchmark cases of the command path against the
// in-process emulator answering inside the doorbell write (rig.h).
//
//   QueryPages           inline-only command (QUERY_PAGES: 16 bytes each way)
//   QueryIssi            112 bytes out: one output mailbox block
//   QueryHcaCap          4 KiB out through 8 mailbox blocks, decoded
//   InFlight/threads:N   QUERY_PAGES from N threads at once
//   ManagePagesGive/K    2^18 pages (1 GiB of 4 KiB pages), K per command
//
// The single-thread cases report emu_ns, the part of a command spent inside the emulator
// (already in the CPU time): the driver's own cost is cpu - emu_ns.
//
//   cxprm-bench --count qpages|issi|caps|capimage|pages N
//
// runs N commands (pages: N GIVEs of 2^18 pages) without the benchmark
// library, for valgrind (callgrind instruction counts, DHAT bytes written).
// capimage is QUERY_HCA_CAP into the caller's image, not decoded: the
// call CXPRM_IOC_QUERY_CAPS and the bring-up make (caps decodes into a
// 4 KiB image it allocates).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "cxprm/commands/hca.h"
#include "cxprm/commands/issi.h"
#include "cxprm/commands/pages.h"
#include "cxprm/errors.h"
#include "rig.h"

using namespace cxprm;
using cxprm::bench::Rig;

namespace {

constexpr uint32_t kPages = 1u << 18;
constexpr uint32_t kMaxMsg = 16 + 4096 * 512; // the emulator's limit: one 2^18-page GIVE

Rig &rig()
{
	static Rig *r = new Rig(kMaxMsg); // never destroyed: threads may still run at exit
	return *r;
}

// Fresh fake page addresses for each GIVE (firmware refuses a page twice).
uint64_t g_next_page = bench::FAKE_PAGES_BUS;

void fill_pages(std::vector<uint64_t> &pas)
{
	for (auto &pa : pas) {
		pa = g_next_page;
		g_next_page += 4096;
	}
}

__attribute__((noinline)) int bench_one_qpages(Cmdq &q)
{
	cmd::PagesQuery p{};
	return cmd::query_pages(q, cmd::PagesKind::REGULAR, cmd::FunctionRef{}, &p);
}

__attribute__((noinline)) int bench_one_issi(Cmdq &q)
{
	cmd::IssiInfo info{};
	return cmd::query_issi(q, &info);
}

__attribute__((noinline)) int bench_one_caps(Cmdq &q, cmd::GeneralCaps *caps)
{
	return cmd::query_general_caps(q, prm::cap::CUR, caps);
}

__attribute__((noinline)) int bench_one_capimage(Cmdq &q, uint8_t *image)
{
	return cmd::query_hca_cap(q, prm::cap::GENERAL, prm::cap::CUR, image);
}

__attribute__((noinline)) int bench_one_pages(Cmdq &q, const std::vector<uint64_t> &pas, uint32_t per_cmd)
{
	for (uint32_t i = 0; i < pas.size(); i += per_cmd) {
		uint32_t n = (uint32_t)std::min<size_t>(per_cmd, pas.size() - i);
		int err = cmd::manage_pages_give(q, cmd::FunctionRef{}, pas.data() + i, n);
		if (err)
			return err;
	}
	return OK;
}

void report_emu(benchmark::State &st, uint64_t emu0, double per)
{
	st.counters["emu_ns"] = benchmark::Counter((double)(Rig::thread_emu_ns() - emu0) / per,
						   benchmark::Counter::kAvgThreads);
}

// One command at a time, one(q) each: nonzero is a failure (failed).
template <class One> void bench_serial(benchmark::State &st, One one, const char *failed)
{
	Cmdq &q = rig().cmdq();
	uint64_t emu0 = Rig::thread_emu_ns();
	for (auto _ : st)
		if (one(q))
			st.SkipWithError(failed);
	report_emu(st, emu0, (double)st.iterations());
	st.SetItemsProcessed(st.iterations());
}

void BM_QueryPages(benchmark::State &st) { bench_serial(st, bench_one_qpages, "QUERY_PAGES failed"); }
BENCHMARK(BM_QueryPages);

void BM_QueryIssi(benchmark::State &st) { bench_serial(st, bench_one_issi, "QUERY_ISSI failed"); }
BENCHMARK(BM_QueryIssi);

void BM_QueryHcaCap(benchmark::State &st)
{
	auto caps = std::make_unique<cmd::GeneralCaps>();
	bench_serial(st, [&caps](Cmdq &q) { return bench_one_caps(q, caps.get()); }, "QUERY_HCA_CAP failed");
	st.SetBytesProcessed(st.iterations() * 4096);
}
BENCHMARK(BM_QueryHcaCap);

// N threads, one command each in flight (the queue has 31 regular slots).
// No emu_ns here: with threads it would count waiting for the emulator's
// lock while another thread's doorbell is being answered.
void BM_InFlight(benchmark::State &st)
{
	Cmdq &q = rig().cmdq();
	for (auto _ : st)
		if (bench_one_qpages(q))
			st.SkipWithError("QUERY_PAGES failed");
	st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_InFlight)->ThreadRange(1, 32)->UseRealTime();

void BM_ManagePagesGive(benchmark::State &st)
{
	Cmdq &q = rig().cmdq();
	const uint32_t per_cmd = (uint32_t)st.range(0);
	std::vector<uint64_t> pas(kPages);
	uint64_t emu0 = Rig::thread_emu_ns();
	for (auto _ : st) {
		st.PauseTiming();
		fill_pages(pas);
		st.ResumeTiming();
		if (bench_one_pages(q, pas, per_cmd))
			st.SkipWithError("MANAGE_PAGES failed");
	}
	report_emu(st, emu0, (double)st.iterations());
	st.counters["pages"] = kPages;
	st.counters["commands"] = (double)((kPages + per_cmd - 1) / per_cmd);
	st.counters["floor_bytes"] = 8.0 * kPages;
	st.SetBytesProcessed(st.iterations() * 8ll * kPages);
}
// One command of 2^18 pages, and the default engine limit (16 + 256 * 512
// bytes a message: 16382 pages a command, as PageTracker would chunk).
BENCHMARK(BM_ManagePagesGive)->Arg(kPages)->Arg(16382)->Iterations(8)->Unit(benchmark::kMillisecond);

__attribute__((noinline)) int count_mode(const char *what, long n)
{
	Rig &r = rig();
	if (r.bringup_err)
		return 1;
	Cmdq &q = r.cmdq();
	int err = OK;
	if (!std::strcmp(what, "qpages")) {
		for (long i = 0; i < n && !err; i++)
			err = bench_one_qpages(q);
	} else if (!std::strcmp(what, "issi")) {
		for (long i = 0; i < n && !err; i++)
			err = bench_one_issi(q);
	} else if (!std::strcmp(what, "caps")) {
		auto caps = std::make_unique<cmd::GeneralCaps>();
		for (long i = 0; i < n && !err; i++)
			err = bench_one_caps(q, caps.get());
	} else if (!std::strcmp(what, "capimage")) {
		std::vector<uint8_t> image(cmd::CAP_IMAGE_BYTES);
		for (long i = 0; i < n && !err; i++)
			err = bench_one_capimage(q, image.data());
	} else if (!std::strcmp(what, "pages")) {
		std::vector<uint64_t> pas(kPages);
		for (long i = 0; i < n && !err; i++) {
			fill_pages(pas);
			err = bench_one_pages(q, pas, kPages);
		}
	} else {
		std::fprintf(stderr, "cxprm-bench: --count qpages|issi|caps|capimage|pages N\n");
		return 2;
	}
	if (err) {
		std::fprintf(stderr, "cxprm-bench: %s failed: %d\n", what, err);
		return 1;
	}
	std::printf("%s x %ld: ok, emulator %.0f ns\n", what, n, (double)Rig::thread_emu_ns());
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc == 4 && !std::strcmp(argv[1], "--count"))
		return count_mode(argv[2], std::atol(argv[3]));
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	if (rig().bringup_err)
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
