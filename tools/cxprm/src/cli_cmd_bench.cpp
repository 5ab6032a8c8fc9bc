// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm bench connect DEV --count N: the firmware command time and the
// rate of setting up connections, RC QP path (CREATE_QP, RST2INIT,
// INIT2RTR, RTR2RTS) against DCT (CREATE_DCT), on a PD, CQ and SRQ of the
// bench's own; one ioctl at a time (serial) and a batch of connections
// per CXPRM_IOC_BATCH (batch: their commands in flight together).
#include <algorithm>
#include <unordered_map>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <poll.h>

#include "commands.h"
#include "errors.h"
#include "fwstatus.h"
#include "hex.h"
#include "obj_set.h"
#include "signals.h"
#include "table.h"

namespace cxprm::tool {

namespace {

const std::vector<Opt> kOpts = {
	{"count", 'n', "N", "connections of each kind (default 100, at most 100000)"},
	{"batch", 'b', "N", "connections a group (default 32, at most 60)"},
	{"mode", 'm', "MODE", "serial, batch or both (default both)"},
};

const CommandSpec spec = {
	.name = "bench connect",
	.synopsis = "DEV [--count N] [--batch N] [--mode serial|batch|both]",
	.summary = "time connection setup: N RC QPs through RTS against N DCTs",
	.description =
		"Creates a PD, a CQ and an SRQ, then N RC QPs, each taken through RST2INIT,\n"
		"INIT2RTR and RTR2RTS (QP_MODIFY; a loopback path on port 1), and N DCTs\n"
		"(CREATE_DCT) on them, and prints per connection: commands, firmware\n"
		"command time (the driver's doorbell-to-completion latency of each\n"
		"command, summed over the connection's commands) and wall time (the\n"
		"ioctls as this process sees them), mean, p50 and p99, and the rate\n"
		"(connections per second of timed wall time).  Connections are made in\n"
		"groups of --batch (default 32: DCT tables hold 64 per file and per\n"
		"emulated device), each torn down (QPs destroyed; DCTs drained, then\n"
		"destroyed) once made; teardown is not timed.  serial: one ioctl at a\n"
		"time; batch: CXPRM_IOC_BATCH, the commands in flight together: a\n"
		"group's DCT creates in one; for RC QPs a pipeline, each batch holding\n"
		"one group's creates and one transition each of the three groups\n"
		"before it (up to four groups alive); a connection's wall time is then\n"
		"that of its batches.  Everything is destroyed at the end.  The\n"
		"seed's reference (1000 RoCE connections on a ConnectX): RC about 12 us\n"
		"per connection, DCT about 4 us.  Needs CAP_NET_ADMIN.",
	.opts = kOpts,
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

using Clock = std::chrono::steady_clock;

long long ns_since(Clock::time_point t0)
{
	return (long long)std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}

// One row: per-connection firmware and wall nanoseconds.
struct Row {
	const char *path;
	const char *mode;
	unsigned cmds;
	std::vector<long long> fw, wall;
	long long timed_ns = 0; // the timed steps' wall, all batches
};

struct Summary {
	double mean;
	long long p50, p99;
};

Summary summarize(std::vector<long long> v)
{
	Summary s = {0, 0, 0};
	if (v.empty())
		return s;
	std::sort(v.begin(), v.end());
	long long sum = 0;
	for (long long x : v)
		sum += x;
	s.mean = (double)sum / (double)v.size();
	auto rank = [&v](double q) { // nearest rank
		size_t k = (size_t)((q * (double)v.size()) + 0.999999);
		return v[std::min(v.size(), std::max<size_t>(k, 1)) - 1];
	};
	s.p50 = rank(0.50);
	s.p99 = rank(0.99);
	return s;
}

Json summary_json(const Summary &s)
{
	Json j = Json::object();
	j.set("mean", (uint64_t)(s.mean + 0.5));
	j.set("p50", (uint64_t)s.p50);
	j.set("p99", (uint64_t)s.p99);
	return j;
}

std::string us(double ns)
{
	char b[32];
	std::snprintf(b, sizeof(b), "%.2f", ns / 1000.0);
	return b;
}

class Bench {
public:
	explicit Bench(DevFile &f)
		: f_(f), set_(f, [this](const char *, const ObjSet::Obj &o, const FwResult &r, const cxprm_qp_modify *) {
			  fw_ns_ += (long long)r.latency_ns;
			  if (per_)
				  per_->push_back({o.id, (long long)r.latency_ns});
		  })
	{
		pd_ = set_.pd();
		cqn_ = set_.cq(10);
		srqn_ = set_.srq(pd_, 6);
	}

	void rc_serial(unsigned n, Row &row)
	{
		std::vector<uint32_t> qps;
		for (unsigned i = 0; i < n; i++) {
			fw_ns_ = 0;
			Clock::time_point t0 = Clock::now();
			uint32_t qpn = set_.rc_qp(pd_, cqn_, srqn_);
			cxprm_qp_modify loopback = qp_path(qpn);
			for (uint32_t t : {CXPRM_QP_RST2INIT, CXPRM_QP_INIT2RTR, CXPRM_QP_RTR2RTS})
				set_.modify_qp(qpn, t, loopback);
			row.wall.push_back(ns_since(t0));
			row.timed_ns += row.wall.back();
			row.fw.push_back(fw_ns_);
			qps.push_back(qpn);
		}
		for (uint32_t qpn : qps)
			set_.destroy(CXPRM_OBJ_QP, qpn);
	}

	/*
	 * The connections in groups of b, pipelined: batch t holds group t's
	 * creates and one transition each of groups t-1, t-2 and t-3 (an RC
	 * connection's four commands depend on each other, so each is in the
	 * batch after the one before).  Four batches of one step each per
	 * group left the engines idle at every batch's end, and the creates'
	 * batch was this task's to build while the engines waited; here a
	 * batch carries four groups' work, the creates among the transitions.
	 * Timed: building each batch, the ioctl, its results.  Untimed: the
	 * finished group's teardown, one QP at a time (a batch of QP destroys
	 * runs on the host's thread pool, not posted yet: batch.rst; under
	 * Linux's fair scheduler the next timed batch then ran at 0.6 of the
	 * model's bound instead of 0.8: performance.rst, figure 6).
	 */
	void rc_batched(unsigned count, unsigned b, Row &row)
	{
		static constexpr uint32_t kStep[] = {CXPRM_QP_RST2INIT, CXPRM_QP_INIT2RTR, CXPRM_QP_RTR2RTS};
		unsigned groups = (count + b - 1) / b;
		std::vector<std::vector<uint32_t>> qps(groups);
		std::vector<long long> wall(groups, 0);
		std::unordered_map<uint32_t, long long> fw; // per QP, summed past each timed span
		std::vector<cxprm_qp_modify> steps;
		per_cmd_.reserve(4 * (size_t)b);
		for (unsigned t = 0; t < groups + 3; t++) {
			unsigned first = t >= 3 ? t - 3 : 0, last = std::min(t, groups);
			Clock::time_point t0 = Clock::now();
			steps.clear();
			for (unsigned g = first; g < last; g++) // oldest group first
				for (uint32_t qpn : qps[g]) {
					steps.push_back(qp_path(qpn));
					steps.back().qpn = qpn;
					steps.back().transition = kStep[t - g - 1];
				}
			unsigned creates = t < groups ? std::min(b, count - t * b) : 0;
			per_ = &per_cmd_;
			std::vector<uint32_t> made = set_.qp_batch(pd_, cqn_, srqn_, creates, steps);
			per_ = nullptr;
			long long ns = ns_since(t0);
			row.timed_ns += ns;
			if (creates)
				qps[t] = std::move(made);
			for (unsigned g = first; g <= std::min(t, groups - 1); g++)
				wall[g] += ns;
			for (const auto &c : per_cmd_)
				fw[c.first] += c.second;
			per_cmd_.clear();
			if (t < 3)
				continue;
			for (uint32_t qpn : qps[t - 3]) { // group t-3 is connected
				row.wall.push_back(wall[t - 3]);
				row.fw.push_back(fw[qpn]);
				fw.erase(qpn);
				set_.destroy(CXPRM_OBJ_QP, qpn);
			}
		}
	}

	// A step made for each group of b connections in turn.
	template <void (Bench::*F)(unsigned, Row &)> void each(unsigned count, unsigned b, Row &row)
	{
		for (unsigned done = 0; done < count; done += b)
			(this->*F)(std::min(b, count - done), row);
	}

	void dct_serial(unsigned n, Row &row)
	{
		std::vector<uint32_t> dcts;
		for (unsigned i = 0; i < n; i++) {
			cxprm_dct d = new_dct();
			Clock::time_point t0 = Clock::now();
			f_.dct_create(d);
			row.wall.push_back(ns_since(t0));
			row.timed_ns += row.wall.back();
			FwResult r = FwResult::from(d.st);
			check_fw(r, "CREATE_DCT");
			row.fw.push_back((long long)r.latency_ns);
			dcts.push_back(d.dctn);
		}
		teardown(dcts);
	}

	// One batch of n creates.
	void dct_batched(unsigned n, Row &row)
	{
		std::vector<cxprm_dct> d(n, new_dct());
		std::vector<cxprm_batch_op> ops;
		for (cxprm_dct &x : d)
			ops.push_back({CXPRM_IOC_DCT_CREATE, 0, (uint64_t)(uintptr_t)&x});
		Clock::time_point t0 = Clock::now();
		f_.batch(ops);
		long long wall = ns_since(t0);
		row.timed_ns += wall;
		std::vector<uint32_t> dcts;
		for (size_t i = 0; i < n; i++)
			if (!ops[i].result && !d[i].st.status)
				dcts.push_back(d[i].dctn);
		try {
			check_batch(f_, ops, "CXPRM_IOC_DCT_CREATE");
		} catch (...) {
			teardown(dcts);
			throw;
		}
		for (size_t i = 0; i < n; i++) {
			FwResult r = FwResult::from(d[i].st);
			if (r.status)
				teardown(dcts);
			check_fw(r, "CREATE_DCT");
			row.wall.push_back(wall);
			row.fw.push_back((long long)r.latency_ns);
		}
		teardown(dcts);
	}

	// The bench's PD, CQ and SRQ.
	void finish() { set_.destroy_all(); }

private:
	cxprm_dct new_dct() const
	{
		cxprm_dct d = blank(0);
		d.ctx.pd = pd_;
		d.ctx.cqn = cqn_;
		d.ctx.srqn_xrqn = srqn_;
		d.ctx.mtu = 3;
		d.ctx.port = 1;
		d.ctx.rre = d.ctx.rwe = 1;
		return d;
	}

	static cxprm_dct blank(uint32_t dctn)
	{
		cxprm_dct d;
		std::memset(&d, 0, sizeof(d));
		d.dctn = dctn;
		return d;
	}

	void fw(void (DevFile::*call)(cxprm_dct &), cxprm_dct &d, const char *what)
	{
		(f_.*call)(d);
		check_fw(FwResult::from(d.st), std::string(what) + " " + hex_num(d.dctn));
	}

	// Drain all, then destroy each once QUERY_DCT says DRAINED.
	void teardown(std::vector<uint32_t> dcts)
	{
		for (uint32_t n : dcts) {
			cxprm_dct d = blank(n);
			fw(&DevFile::dct_drain, d, "DRAIN_DCT");
		}
		long long deadline = now_ms() + 10000;
		while (!dcts.empty()) {
			std::vector<uint32_t> left;
			for (uint32_t n : dcts) {
				cxprm_dct d = blank(n);
				fw(&DevFile::dct_query, d, "QUERY_DCT");
				if (d.ctx.state != 2) {
					left.push_back(n);
					continue;
				}
				d = blank(n);
				fw(&DevFile::dct_destroy, d, "DESTROY_DCT");
			}
			std::vector<cxprm_event> ev; // DCT_DRAINED records: not needed
			f_.read_events(ev, left.empty() ? 0 : 1);
			if (!left.empty() && now_ms() > deadline)
				throw TimeoutError("bench: " + std::to_string(left.size()) + " DCT(s) not drained after 10 s");
			dcts.swap(left);
		}
	}

	DevFile &f_;
	long long fw_ns_ = 0;
	// A batch's commands' firmware times as they end (QP, ns), in the timed
	// span; summed per QP after it.
	std::vector<std::pair<uint32_t, long long>> per_cmd_;
	std::vector<std::pair<uint32_t, long long>> *per_ = nullptr;
	ObjSet set_;
	uint32_t pd_ = 0, cqn_ = 0, srqn_ = 0;
};

double rate(const Row &r)
{
	return r.timed_ns ? (double)r.fw.size() * 1e9 / (double)r.timed_ns : 0.0;
}

int run(Ctx &ctx, const Args &args)
{
	unsigned count = (unsigned)args.num("count", 100000, 100);
	unsigned batch = (unsigned)args.num("batch", 60, 32);
	std::string mode = args.str("mode", "both");
	if (!count || !batch)
		args.fail("--count and --batch must be at least 1");
	if (mode != "serial" && mode != "batch" && mode != "both")
		args.fail("--mode is serial, batch or both");
	bool serial = mode != "batch", batched = mode != "serial";
	DevPath p = dev_arg(args);
	auto fp = open_device(p);
	DevFile &f = *fp;
	std::vector<Row> rows;
	{
		Bench b(f);
		using Step = void (Bench::*)(unsigned, unsigned, Row &);
		struct Kind {
			const char *path, *mode;
			unsigned cmds;
			Step step;
			bool on;
		} kinds[] = {{"RC QP", "serial", 4, &Bench::each<&Bench::rc_serial>, serial},
			     {"RC QP", "batch", 4, &Bench::rc_batched, batched},
			     {"DCT", "serial", 1, &Bench::each<&Bench::dct_serial>, serial},
			     {"DCT", "batch", 1, &Bench::each<&Bench::dct_batched>, batched}};
		for (const Kind &k : kinds) {
			if (!k.on)
				continue;
			rows.push_back({k.path, k.mode, k.cmds, {}, {}});
			(b.*k.step)(count, batch, rows.back());
		}
		b.finish();
	}
	// A batch row's speedup: its rate over the serial row's of its path.
	auto speedup = [&](const Row &r) {
		for (const Row &o : rows)
			if (&o != &r && !std::strcmp(o.path, r.path) && !std::strcmp(r.mode, "batch") && rate(o) > 0)
				return rate(r) / rate(o);
		return 0.0;
	};
	if (args.json()) {
		Json j = Json::object();
		j.set("pci_addr", p.bdf);
		j.set("count", count);
		j.set("batch", batch);
		j.set("mode", mode);
		Json out = Json::array();
		for (const Row &r : rows) {
			Json o = Json::object();
			o.set("path", r.path);
			o.set("mode", r.mode);
			o.set("connections", (uint64_t)r.fw.size());
			o.set("commands_per_connection", r.cmds);
			o.set("timed_ns", (uint64_t)r.timed_ns);
			o.set("per_second", (uint64_t)(rate(r) + 0.5));
			if (speedup(r) > 0)
				o.set("speedup_milli", (uint64_t)(speedup(r) * 1000 + 0.5));
			o.set_json("fw_ns", summary_json(summarize(r.fw)));
			o.set_json("wall_ns", summary_json(summarize(r.wall)));
			out.push_json(o);
		}
		j.set_json("rows", out);
		print_json(ctx, j);
		return 0;
	}
	ctx.out << "bench connect " << p.bdf << ": " << count << " connections of each kind, " << batch
		<< " at a time; per connection, microseconds\n";
	Table t({{"PATH"}, {"MODE"}, {"CONNS", true}, {"CMDS/CONN", true}, {"CONN/S", true}, {"XSERIAL", true},
		 {"FW MEAN", true}, {"FW P50", true}, {"FW P99", true}, {"WALL MEAN", true}, {"WALL P50", true},
		 {"WALL P99", true}});
	for (const Row &r : rows) {
		Summary fw = summarize(r.fw), wall = summarize(r.wall);
		char rs[32], sp[32] = "-";
		std::snprintf(rs, sizeof(rs), "%.0f", rate(r));
		if (speedup(r) > 0)
			std::snprintf(sp, sizeof(sp), "%.2f", speedup(r));
		t.row({r.path, r.mode, std::to_string(r.fw.size()), std::to_string(r.cmds), rs, sp, us(fw.mean),
		       us((double)fw.p50), us((double)fw.p99), us(wall.mean), us((double)wall.p50),
		       us((double)wall.p99)});
	}
	t.print(ctx.out);
	return 0;
}

} // namespace

const Command cmd_bench_connect = {&spec, run};

} // namespace cxprm::tool
