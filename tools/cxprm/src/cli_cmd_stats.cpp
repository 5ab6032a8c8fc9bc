// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm stats DEV: per-opcode command counts and latencies (CXPRM_IOC_STATS).
#include <ostream>
#include <algorithm>
#include <cstring>
#include <vector>

#include "commands.h"
#include "names.h"

#include "cxprm/cmd_stats_text.h"
#include "cxprm/status.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	.name = "stats",
	.synopsis = "DEV",
	.summary = "per-opcode command counts, errors and latencies (CXPRM_IOC_STATS)",
	.description =
		"Counts every command the driver completed since it bound the device (any\n"
		"result).  Latency: doorbell to ownership back.  'last_error' is the last\n"
		"failure of that opcode: its errno, then the delivery status or the\n"
		"firmware status and syndrome.  The table is debugfs cmd_stats' table.\n"
		"Needs CAP_NET_ADMIN.",
	.min_pos = 1,
	.max_pos = 1,
	.json = true,
};

int run(Ctx &ctx, const Args &args)
{
	auto [p, f, file] = open_dev_arg(args);
	std::vector<cxprm_opcode_stats> v;
	cxprm_stats s;
	for (uint32_t cap = 1024;; cap *= 2) { // the driver tracks far fewer opcodes
		v.assign(cap, cxprm_opcode_stats{});
		std::memset(&s, 0, sizeof(s));
		s.capacity = cap;
		s.entries = (uint64_t)(uintptr_t)v.data();
		f.stats(s);
		if (s.count < cap || cap >= 65536)
			break;
	}
	v.resize(std::min<size_t>(s.count, v.size()));
	std::sort(v.begin(), v.end(), [](const auto &a, const auto &b) { return a.opcode < b.opcode; });

	if (args.json()) {
		Json j = Json::object();
		j.set("pci_addr", p.bdf);
		j.set("total", s.total);
		Json ops = Json::array();
		for (const auto &e : v) {
			Json o = Json::object();
			o.set("opcode", e.opcode);
			o.set("name", opcode_label(e.opcode));
			o.set("count", e.count);
			o.set("errors", e.errors);
			o.set("last_status", cmd_status_name(e.last_status));
			o.set("last_status_code", e.last_status);
			o.set("last_syndrome", e.last_syndrome);
			o.set("last_delivery", delivery_status_name(e.last_delivery));
			o.set("last_delivery_code", e.last_delivery);
			o.set("last_errno", e.last_errno);
			o.set("last_errno_name", e.last_errno ? errno_name(e.last_errno < 0 ? -e.last_errno : e.last_errno) : "");
			o.set("lat_min_ns", e.lat_min_ns);
			o.set("lat_avg_ns", e.lat_avg_ns);
			o.set("lat_max_ns", e.lat_max_ns);
			ops.push_json(o);
		}
		j.set_json("opcodes", ops);
		print_json(ctx, j);
		return 0;
	}
	// The table debugfs cmd_stats shows too (core-cpp/src/cmd_stats_text.cpp).
	std::vector<char> buf(cmd_stats_table_bytes((uint32_t)v.size()) + 64);
	Text t(buf.data(), buf.size());
	cmd_stats_total(t, s.total);
	t.chr('\n');
	cmd_stats_table(t, v.data(), (uint32_t)v.size());
	ctx.out << p.bdf << ": " << t.c_str();
	return 0;
}

} // namespace

const Command cmd_stats = {&spec, run};

} // namespace cxprm::tool
