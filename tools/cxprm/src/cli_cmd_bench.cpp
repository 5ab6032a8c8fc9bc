// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm bench connect DEV --count N: the firmware command time of setting
// up connections, RC QP path (CREATE_QP, RST2INIT, INIT2RTR, RTR2RTS)
// against DCT (CREATE_DCT), on a PD, CQ and SRQ of the bench's own.
#include <algorithm>
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
	{"batch", 'b', "N", "connections alive at once (default 32, at most 60)"},
};

const CommandSpec spec = {
	"bench connect",
	"DEV [--count N] [--batch N]",
	"time connection setup: N RC QPs through RTS against N DCTs",
	"Creates a PD, a CQ and an SRQ, then N RC QPs, each taken through RST2INIT,\n"
	"INIT2RTR and RTR2RTS (QP_MODIFY; a loopback path on port 1), and N DCTs\n"
	"(CREATE_DCT) on them, and prints per connection: commands, firmware\n"
	"command time (the driver's doorbell-to-completion latency of each\n"
	"command, summed over the connection's commands) and wall time (the\n"
	"ioctls as this process sees them), mean, p50 and p99.  Connections are\n"
	"made --batch at a time (default 32: DCT tables hold 64 per file and per\n"
	"emulated device) and torn down (QPs destroyed; DCTs drained, then\n"
	"destroyed) before the next batch; teardown is not timed.  Everything is\n"
	"destroyed at the end.  The seed's reference (1000 RoCE connections on a\n"
	"ConnectX): RC about 12 us per connection, DCT about 4 us.  Needs\n"
	"CAP_NET_ADMIN.",
	kOpts,
	1,
	1,
	true,
};

using Clock = std::chrono::steady_clock;

long long ns_since(Clock::time_point t0)
{
	return (long long)std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}

// One row: per-connection firmware and wall nanoseconds.
struct Row {
	const char *path;
	unsigned cmds;
	std::vector<long long> fw, wall;
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
		: f_(f), set_(f, [this](const char *, const ObjSet::Obj &, const FwResult &r, const cxprm_qp_modify *) {
			  fw_ns_ += (long long)r.latency_ns;
		  })
	{
		pd_ = set_.pd();
		cqn_ = set_.cq(10);
		srqn_ = set_.srq(pd_, 6);
	}

	void rc_batch(unsigned n, Row &row)
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
			row.fw.push_back(fw_ns_);
			qps.push_back(qpn);
		}
		for (uint32_t qpn : qps)
			set_.destroy(CXPRM_OBJ_QP, qpn);
	}

	void dct_batch(unsigned n, Row &row)
	{
		std::vector<uint32_t> dcts;
		for (unsigned i = 0; i < n; i++) {
			cxprm_dct d = blank(0);
			d.ctx.pd = pd_;
			d.ctx.cqn = cqn_;
			d.ctx.srqn_xrqn = srqn_;
			d.ctx.mtu = 3;
			d.ctx.port = 1;
			d.ctx.rre = d.ctx.rwe = 1;
			Clock::time_point t0 = Clock::now();
			f_.dct_create(d);
			row.wall.push_back(ns_since(t0));
			FwResult r = FwResult::from(d.st);
			check_fw(r, "CREATE_DCT");
			row.fw.push_back((long long)r.latency_ns);
			dcts.push_back(d.dctn);
		}
		teardown(dcts);
	}

	// The bench's PD, CQ and SRQ.
	void finish() { set_.destroy_all(); }

private:
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
	ObjSet set_;
	uint32_t pd_ = 0, cqn_ = 0, srqn_ = 0;
};

int run(Ctx &ctx, const Args &args)
{
	unsigned count = (unsigned)args.num("count", 100000, 100);
	unsigned batch = (unsigned)args.num("batch", 60, 32);
	if (!count || !batch)
		args.fail("--count and --batch must be at least 1");
	DevPath p = dev_arg(args);
	auto fp = open_device(p);
	DevFile &f = *fp;
	Row rc = {"RC QP", 4, {}, {}}, dct = {"DCT", 1, {}, {}};
	{
		Bench b(f);
		for (unsigned done = 0; done < count; done += batch)
			b.rc_batch(std::min(batch, count - done), rc);
		for (unsigned done = 0; done < count; done += batch)
			b.dct_batch(std::min(batch, count - done), dct);
		b.finish();
	}
	if (args.json()) {
		Json j = Json::object();
		j.set("pci_addr", p.bdf);
		j.set("count", count);
		j.set("batch", batch);
		Json rows = Json::array();
		for (const Row *r : {&rc, &dct}) {
			Json o = Json::object();
			o.set("path", r->path);
			o.set("connections", (uint64_t)r->fw.size());
			o.set("commands_per_connection", r->cmds);
			o.set_json("fw_ns", summary_json(summarize(r->fw)));
			o.set_json("wall_ns", summary_json(summarize(r->wall)));
			rows.push_json(o);
		}
		j.set_json("rows", rows);
		print_json(ctx, j);
		return 0;
	}
	ctx.out << "bench connect " << p.bdf << ": " << count << " connections of each kind, " << batch
		<< " at a time; per connection, microseconds\n";
	Table t({{"PATH"}, {"CONNS", true}, {"CMDS/CONN", true}, {"FW MEAN", true}, {"FW P50", true},
		 {"FW P99", true}, {"WALL MEAN", true}, {"WALL P50", true}, {"WALL P99", true}});
	for (const Row *r : {&rc, &dct}) {
		Summary fw = summarize(r->fw), wall = summarize(r->wall);
		t.row({r->path, std::to_string(r->fw.size()), std::to_string(r->cmds), us(fw.mean), us((double)fw.p50),
		       us((double)fw.p99), us(wall.mean), us((double)wall.p50), us((double)wall.p99)});
	}
	t.print(ctx.out);
	return 0;
}

} // namespace

const Command cmd_bench_connect = {&spec, run};

} // namespace cxprm::tool
