// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// cxprm export: the Prometheus text format (node-exporter textfile
// collector) of every device: health, pages, per-opcode command counts,
// errors and latencies, NVMF namespace counters.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <ostream>
#include <sstream>
#include <unistd.h>

#include "commands.h"
#include "errors.h"
#include "fwstatus.h"
#include "hex.h"
#include "names.h"

namespace cxprm::tool {

namespace {

const CommandSpec spec = {
	.name = "export",
	.synopsis = "[DEV...] [--ns XRQ:NSID]... [--textfile DIR]",
	.summary = "Prometheus metrics of the adapters (node-exporter textfile format)",
	.description =
		"Every DEV given, else every device in /dev/cxprm: state, health\n"
		"syndrome, firmware pages held, per-opcode command counts, errors and\n"
		"latencies (CXPRM_IOC_STATS), and the counters of each NVMF namespace\n"
		"named with --ns (QUERY_NVMF_NAMESPACE_CONTEXT).  Labels: device (PCI\n"
		"address), opcode (PRM name), namespace (0xXRQ:NSID).  --textfile writes\n"
		"DIR/cxprm.prom atomically (a temporary file renamed) for node-exporter's\n"
		"--collector.textfile.directory.  A device that cannot be read is left\n"
		"out with cxprm_up 0 and makes the exit code 2.  Needs CAP_NET_ADMIN.",
	.opts = {
		{"ns", 0, "XRQ:NSID", "an NVMF namespace to export, on every device", true},
		{"textfile", 0, "DIR", "write DIR/cxprm.prom instead of standard output"},
	},
	.max_pos = 64,
};

struct Sample {
	std::string labels; // {device="...",...}
	std::string value;
};

struct Family {
	const char *type;
	std::string help;
	std::vector<Sample> samples;
};

// Metric families in the order they were first used.
class Metrics {
public:
	void add(const std::string &name, const char *type, const std::string &help,
		 const std::vector<std::pair<std::string, std::string>> &labels, const std::string &value)
	{
		auto it = fam_.find(name);
		if (it == fam_.end()) {
			order_.push_back(name);
			it = fam_.emplace(name, Family{type, help, {}}).first;
		}
		std::string l;
		for (const auto &kv : labels)
			l += (l.empty() ? "{" : ",") + kv.first + "=\"" + escape(kv.second) + "\"";
		if (!l.empty())
			l += "}";
		it->second.samples.push_back({l, value});
	}
	void add(const std::string &name, const char *type, const std::string &help,
		 const std::vector<std::pair<std::string, std::string>> &labels, uint64_t value)
	{
		add(name, type, help, labels, std::to_string(value));
	}
	void merge(const Metrics &o)
	{
		for (const std::string &n : o.order_) {
			const Family &f = o.fam_.at(n);
			for (const Sample &smp : f.samples) {
				auto it = fam_.find(n);
				if (it == fam_.end()) {
					order_.push_back(n);
					it = fam_.emplace(n, Family{f.type, f.help, {}}).first;
				}
				it->second.samples.push_back(smp);
			}
		}
	}
	std::string text() const
	{
		std::ostringstream o;
		for (const std::string &n : order_) {
			const Family &f = fam_.at(n);
			o << "# HELP " << n << " " << f.help << "\n# TYPE " << n << " " << f.type << "\n";
			for (const Sample &s : f.samples)
				o << n << s.labels << " " << s.value << "\n";
		}
		return o.str();
	}

private:
	static std::string escape(const std::string &v)
	{
		std::string o;
		for (char c : v) {
			if (c == '\\' || c == '"')
				o += '\\';
			if (c == '\n') {
				o += "\\n";
				continue;
			}
			o += c;
		}
		return o;
	}
	std::map<std::string, Family> fam_;
	std::vector<std::string> order_;
};

using Labels = std::vector<std::pair<std::string, std::string>>;

std::string seconds(uint64_t ns)
{
	char b[40];
	std::snprintf(b, sizeof(b), "%.9g", (double)ns / 1e9);
	return b;
}

void export_stats(Metrics &m, DevFile &f, const std::string &dev)
{
	std::vector<cxprm_opcode_stats> v(1024);
	cxprm_stats s;
	std::memset(&s, 0, sizeof(s));
	s.capacity = (uint32_t)v.size();
	s.entries = (uint64_t)(uintptr_t)v.data();
	f.stats(s);
	v.resize(std::min<size_t>(s.count, v.size()));
	for (const auto &e : v) {
		Labels l{{"device", dev}, {"opcode", opcode_label(e.opcode)}};
		m.add("cxprm_command_total", "counter", "Firmware commands completed, any result.", l, e.count);
		m.add("cxprm_command_errors_total", "counter",
		      "Firmware commands that failed (status, delivery or errno).", l, e.errors);
		m.add("cxprm_command_latency_min_seconds", "gauge", "Fastest command, doorbell to ownership back.",
		      l, seconds(e.lat_min_ns));
		m.add("cxprm_command_latency_avg_seconds", "gauge", "Mean command latency, doorbell to ownership back.",
		      l, seconds(e.lat_avg_ns));
		m.add("cxprm_command_latency_max_seconds", "gauge", "Slowest command, doorbell to ownership back.",
		      l, seconds(e.lat_max_ns));
	}
}

void export_ns(Metrics &m, DevFile &f, const Labels &l, uint32_t xrq, uint32_t nsid)
{
	cxprm_nvmf_ns n = f.nvmf_ns(xrq, nsid);
	FwResult r = FwResult::from(n.st);
	check_fw(r, "QUERY_NVMF_NAMESPACE_CONTEXT xrq " + std::to_string(xrq) + " nsid " + std::to_string(nsid));
	const struct {
		const char *name, *help;
		uint64_t v;
	} counters[] = {
		{"read_commands", "NVMe read commands", n.read_cmds},
		{"read_blocks", "blocks read", n.read_blocks},
		{"write_commands", "NVMe write commands", n.write_cmds},
		{"write_blocks", "blocks written", n.write_blocks},
		{"write_inline_commands", "NVMe writes with inline data", n.write_inline_cmds},
		{"flush_commands", "NVMe flush commands", n.flush_cmds},
		{"error_commands", "NVMe commands that failed", n.error_cmds},
		{"backend_error_commands", "commands the backend failed", n.backend_error_cmds},
	};
	for (const auto &c : counters)
		m.add(std::string("cxprm_nvmf_") + c.name + "_total", "counter",
		      std::string("NVMF namespace: ") + c.help + ".", l, c.v);
	m.add("cxprm_nvmf_queue_depth", "gauge", "NVMF namespace: commands outstanding now.", l, n.current_q_depth);
}

void parse_ns(const Args &args, const std::string &s, uint32_t *xrq, uint32_t *nsid)
{
	size_t c = s.find(':');
	if (c == std::string::npos)
		args.fail("--ns wants XRQ:NSID, not '" + s + "'");
	*xrq = (uint32_t)parse_num(s.substr(0, c), "--ns XRQ", 0xffffff);
	*nsid = (uint32_t)parse_num(s.substr(c + 1), "--ns NSID", 0xffffffff);
}

void write_textfile(const std::string &dir, const std::string &text)
{
	std::string tmp = dir + "/.cxprm.prom." + std::to_string(getpid());
	std::string dst = dir + "/cxprm.prom";
	FILE *f = std::fopen(tmp.c_str(), "w");
	if (!f)
		throw OsError("cannot write " + tmp + ": " + std::strerror(errno));
	bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
	ok = std::fclose(f) == 0 && ok;
	if (!ok || std::rename(tmp.c_str(), dst.c_str()) != 0) {
		int e = errno;
		std::remove(tmp.c_str());
		throw OsError("cannot write " + dst + ": " + std::strerror(e));
	}
}

int run(Ctx &ctx, const Args &args)
{
	std::vector<std::pair<uint32_t, uint32_t>> nss;
	for (const std::string &s : args.all("ns")) {
		uint32_t x, n;
		parse_ns(args, s, &x, &n);
		nss.emplace_back(x, n);
	}
	std::vector<DevPath> devs;
	for (const std::string &a : args.pos())
		devs.push_back(resolve_device(a));
	std::vector<std::string> names;
	if (args.pos().empty() && device_names(&names))
		for (const std::string &n : names)
			devs.push_back({n, dev_dir() + "/" + n});

	Metrics m;
	int rc = EXIT_OK;
	const char *up_help = "1 when the device answered, else 0.";
	for (const DevPath &p : devs) {
		Labels dl{{"device", p.bdf}};
		Metrics dm; // this device's, merged only when it answered
		try {
			auto fp = open_device(p);
			DevFile &f = *fp;
			cxprm_info i = f.info();
			dm.add("cxprm_up", "gauge", up_help, dl, 1);
			dm.add("cxprm_device_state", "gauge", "enum cxprm_state: 0 down, 1 up, 2 error, 3 gone.", dl,
			       i.state);
			dm.add("cxprm_health_syndrome", "gauge", "Health buffer syndrome, 0 = healthy.", dl,
			       i.health_syndrome);
			dm.add("cxprm_pages_held", "gauge", "Firmware pages the driver has given and not reclaimed.",
			       dl, i.pages_given - i.pages_reclaimed);
			dm.add("cxprm_pages_given_total", "counter", "Firmware pages given.", dl, i.pages_given);
			dm.add("cxprm_pages_reclaimed_total", "counter", "Firmware pages reclaimed.", dl,
			       i.pages_reclaimed);
			export_stats(dm, f, p.bdf);
			for (const auto &ns : nss) {
				Labels nl{{"device", p.bdf},
					  {"namespace", hex_num(ns.first) + ":" + std::to_string(ns.second)}};
				Metrics nm;
				try {
					export_ns(nm, f, nl, ns.first, ns.second);
					nm.add("cxprm_nvmf_namespace_up", "gauge", "1 when the namespace was read, else 0.",
					       nl, 1);
				} catch (const Failure &e) {
					nm = Metrics();
					nm.add("cxprm_nvmf_namespace_up", "gauge", "1 when the namespace was read, else 0.",
					       nl, 0);
					ctx.err << "cxprm: " << p.bdf << ": " << e.what() << "\n";
					rc = std::max(rc, e.code());
				}
				dm.merge(nm);
			}
			m.merge(dm);
		} catch (const Failure &e) {
			rc = std::max(rc, e.code());
			m.add("cxprm_up", "gauge", up_help, dl, 0);
			ctx.err << "cxprm: " << e.what() << "\n";
		}
	}
	std::string text = m.text();
	if (args.has("textfile"))
		write_textfile(args.str("textfile"), text);
	else
		ctx.out << text;
	return rc;
}

} // namespace

const Command cmd_export = {&spec, run};

} // namespace cxprm::tool
