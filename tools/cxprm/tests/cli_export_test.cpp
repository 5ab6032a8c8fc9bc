// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm export: its output parsed strictly as the Prometheus text exposition
// format (version 0.0.4, what node-exporter's textfile collector reads):
// every family HELP then TYPE once, before its samples, samples of a family
// together, valid metric and label names, label values with only the \\ \"
// \n escapes, float values, counters named *_total, no series twice.
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "cli_run.h"

namespace cxprm::tool::test {
namespace {

struct Series {
	std::string name;
	std::map<std::string, std::string> labels;
	double value;
};

// Parses text strictly; a failure is an ADD_FAILURE naming the line.
std::vector<Series> parse_prom(const std::string &text, std::map<std::string, std::string> *types)
{
	std::vector<Series> out;
	EXPECT_TRUE(!text.empty() && text.back() == '\n') << "output must end with a newline";
	static const std::regex help(R"(# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (\S.*))");
	static const std::regex type(R"(# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped))");
	static const std::regex sample(R"(([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+))");
	static const std::regex label(R"(([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)\"(,|$))");
	std::set<std::string> helped, done, seen;
	std::string current;
	std::istringstream in(text);
	std::string l;
	int n = 0;
	while (std::getline(in, l)) {
		n++;
		std::smatch m;
		if (std::regex_match(l, m, help)) {
			EXPECT_TRUE(helped.insert(m[1]).second) << "line " << n << ": second HELP for " << m[1];
			EXPECT_FALSE(done.count(m[1])) << "line " << n;
			if (!current.empty())
				done.insert(current);
			current = m[1];
		} else if (std::regex_match(l, m, type)) {
			EXPECT_EQ(m[1], current) << "line " << n << ": TYPE not right after its HELP";
			EXPECT_FALSE(types->count(m[1])) << "line " << n << ": second TYPE";
			(*types)[m[1]] = m[2];
			if (m[2] == "counter") {
				EXPECT_TRUE(std::regex_search(std::string(m[1]), std::regex("_total$"))) << m[1];
			}
		} else if (std::regex_match(l, m, sample)) {
			Series s{m[1], {}, 0};
			EXPECT_EQ(s.name, current) << "line " << n << ": sample outside its family";
			EXPECT_TRUE(types->count(s.name)) << "line " << n << ": sample before TYPE";
			std::string ls = m[3];
			std::smatch lm;
			while (!ls.empty()) {
				if (!std::regex_search(ls, lm, label) || lm.position(0) != 0) {
					ADD_FAILURE() << "line " << n << ": bad labels '" << ls << "'";
					break;
				}
				EXPECT_TRUE(s.labels.emplace(lm[1], lm[2]).second) << "line " << n << ": label twice";
				ls = lm.suffix();
			}
			char *end = nullptr;
			std::string v = m[4];
			s.value = std::strtod(v.c_str(), &end);
			EXPECT_TRUE(end && *end == 0 && !v.empty()) << "line " << n << ": value '" << v << "'";
			EXPECT_TRUE(seen.insert(l.substr(0, l.rfind(' '))).second) << "line " << n << ": series twice";
			out.push_back(s);
		} else {
			ADD_FAILURE() << "line " << n << ": not the text format: '" << l << "'";
		}
	}
	return out;
}

const Series *find(const std::vector<Series> &v, const std::string &name,
		   const std::map<std::string, std::string> &labels)
{
	for (const Series &s : v) {
		bool ok = s.name == name;
		for (const auto &kv : labels)
			ok = ok && s.labels.count(kv.first) && s.labels.at(kv.first) == kv.second;
		if (ok)
			return &s;
	}
	return nullptr;
}

TEST_F(DevDir, ExportPrometheus)
{
	fake("0000:00:03.0");
	fake("0000:00:04.0", "profile=connectx5\n");
	Result r = cli({"export", "--ns", "0x80:1", "--ns", "0x80:9"});
	// nsid 9 does not exist: reported, the rest exported, exit 3.
	EXPECT_EQ(r.rc, 3) << r.err;
	EXPECT_NE(r.err.find("NVMF_NS_UNKNOWN_QUERY"), std::string::npos) << r.err;
	std::map<std::string, std::string> types;
	std::vector<Series> v = parse_prom(r.out, &types);
	EXPECT_EQ(types["cxprm_command_total"], "counter");
	EXPECT_EQ(types["cxprm_pages_held"], "gauge");
	EXPECT_EQ(types["cxprm_nvmf_read_commands_total"], "counter");
	for (const char *d : {"0000:00:03.0", "0000:00:04.0"}) {
		const Series *up = find(v, "cxprm_up", {{"device", d}});
		ASSERT_TRUE(up) << d;
		EXPECT_EQ(up->value, 1);
		const Series *c = find(v, "cxprm_command_total", {{"device", d}, {"opcode", "QUERY_HCA_CAP"}});
		ASSERT_TRUE(c) << d;
		EXPECT_GE(c->value, 2);
		const Series *e = find(v, "cxprm_command_errors_total", {{"device", d}, {"opcode", "QUERY_HCA_CAP"}});
		ASSERT_TRUE(e);
		EXPECT_EQ(e->value, 0);
		const Series *lat = find(v, "cxprm_command_latency_max_seconds", {{"device", d}, {"opcode", "INIT_HCA"}});
		ASSERT_TRUE(lat);
		EXPECT_GT(lat->value, 0);
		EXPECT_LT(lat->value, 60);
		const Series *p = find(v, "cxprm_pages_held", {{"device", d}});
		ASSERT_TRUE(p);
		EXPECT_GT(p->value, 0);
		EXPECT_EQ(find(v, "cxprm_health_syndrome", {{"device", d}})->value, 0);
	}
	const Series *rd = find(v, "cxprm_nvmf_read_commands_total", {{"device", "0000:00:03.0"}, {"namespace", "0x80:1"}});
	ASSERT_TRUE(rd);
	EXPECT_EQ(rd->value, 10);
	EXPECT_EQ(find(v, "cxprm_nvmf_namespace_up", {{"device", "0000:00:03.0"}, {"namespace", "0x80:9"}})->value, 0);
	EXPECT_EQ(find(v, "cxprm_nvmf_read_commands_total", {{"namespace", "0x80:9"}}), nullptr);
}

TEST_F(DevDir, ExportDeviceDownAndTextfile)
{
	fake("0000:00:03.0");
	std::ofstream(dir_ + "/0000:00:05.0") << "not a cxprm device\n";
	Result r = cli({"export", "--textfile", dir_});
	EXPECT_EQ(r.rc, 2);
	EXPECT_EQ(r.out, "");
	std::ifstream f(dir_ + "/cxprm.prom");
	std::stringstream text;
	text << f.rdbuf();
	std::map<std::string, std::string> types;
	std::vector<Series> v = parse_prom(text.str(), &types);
	EXPECT_EQ(find(v, "cxprm_up", {{"device", "0000:00:05.0"}})->value, 0);
	EXPECT_EQ(find(v, "cxprm_up", {{"device", "0000:00:03.0"}})->value, 1);
	EXPECT_EQ(find(v, "cxprm_command_total", {{"device", "0000:00:05.0"}}), nullptr);
	EXPECT_EQ(cli({"export", "--ns", "80"}).rc, 1);
	EXPECT_NE(cli({"export", "--textfile", dir_ + "/no/such"}).rc, 0);
}

} // namespace
} // namespace cxprm::tool::test
