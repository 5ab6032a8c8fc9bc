// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Command-line parsing (cli.h).
#include "cli.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "errors.h"

namespace cxprm::tool {

namespace {

const Opt kHelp = {"help", 'h', nullptr, "show this help and exit"};
const Opt kJson = {"json", 'j', nullptr, "JSON output (stable keys, see README)"};

const Opt *find_long(const CommandSpec &spec, const std::string &name)
{
	if (name == "help")
		return &kHelp;
	if (spec.json && name == "json")
		return &kJson;
	for (const Opt &o : spec.opts)
		if (name == o.name)
			return &o;
	return nullptr;
}

const Opt *find_short(const CommandSpec &spec, char c)
{
	if (c == 'h')
		return &kHelp;
	if (spec.json && c == 'j')
		return &kJson;
	for (const Opt &o : spec.opts)
		if (o.short_name && o.short_name == c)
			return &o;
	return nullptr;
}

} // namespace

bool looks_numeric(const std::string &s)
{
	if (s.empty())
		return false;
	size_t i = 0;
	bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	if (hex)
		i = 2;
	for (; i < s.size(); i++) {
		char c = s[i];
		bool ok = (c >= '0' && c <= '9') ||
			  (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
		if (!ok)
			return false;
	}
	return true;
}

uint64_t parse_num(const std::string &s, const std::string &what, uint64_t max)
{
	if (!looks_numeric(s))
		throw UsageError(what + ": '" + s + "' is not a number (decimal or 0x hex)");
	bool hex = s.size() > 2 && (s[1] == 'x' || s[1] == 'X');
	errno = 0;
	char *end = nullptr;
	unsigned long long v = std::strtoull(s.c_str() + (hex ? 2 : 0), &end, hex ? 16 : 10);
	if (errno == ERANGE || v > max) {
		std::ostringstream m;
		m << what << ": " << s << " is out of range (at most " << max;
		if (max > 9)
			m << std::hex << ", 0x" << max;
		m << ")";
		throw UsageError(m.str());
	}
	return v;
}

int parse_seconds_ms(const std::string &s, const std::string &what)
{
	size_t dot = s.find('.');
	std::string whole = s.substr(0, dot), frac = dot == std::string::npos ? "" : s.substr(dot + 1);
	bool ok = !s.empty() && (whole.empty() || looks_numeric(whole)) && (frac.empty() || looks_numeric(frac)) &&
		  whole.find('x') == std::string::npos && frac.find('x') == std::string::npos && s != ".";
	if (!ok)
		throw UsageError(what + ": '" + s + "' is not a number of seconds (e.g. 5 or 0.5)");
	uint64_t ms = whole.empty() ? 0 : parse_num(whole, what, 86400) * 1000;
	frac.resize(3, '0');
	ms += std::stoul(frac.substr(0, 3));
	return (int)ms;
}

Args::Args(const CommandSpec &spec, const std::vector<std::string> &argv) : spec_(&spec)
{
	bool opts_done = false;
	for (size_t i = 0; i < argv.size(); i++) {
		const std::string &a = argv[i];
		if (opts_done || a.size() < 2 || a[0] != '-' || looks_numeric(a.substr(1))) {
			pos_.push_back(a);
			continue;
		}
		if (a == "--") {
			opts_done = true;
			continue;
		}
		const Opt *o;
		std::string shown, value;
		bool inline_value = false;
		if (a[1] == '-') {
			std::string name = a.substr(2);
			if (size_t eq = name.find('='); eq != std::string::npos) {
				value = name.substr(eq + 1);
				name.erase(eq);
				inline_value = true;
			}
			shown = "--" + name;
			o = find_long(spec, name);
		} else {
			if (a.size() != 2)
				fail("unknown option '" + a + "' (short options take one letter)");
			shown = a;
			o = find_short(spec, a[1]);
		}
		if (!o)
			fail("unknown option '" + shown + "'");
		if (o == &kHelp) {
			help_ = true;
			continue;
		}
		if (!o->metavar) {
			if (inline_value)
				fail("option '" + shown + "' takes no value");
			values_[o->name].push_back("");
			continue;
		}
		if (!inline_value) {
			if (i + 1 >= argv.size())
				fail("option '" + shown + "' needs a value (" + o->metavar + ")");
			value = argv[++i];
		}
		auto &v = values_[o->name];
		if (!v.empty() && !o->repeat)
			fail("option '--" + std::string(o->name) + "' given twice");
		v.push_back(value);
	}
	if (help_)
		return;
	if (pos_.size() < spec.min_pos)
		fail(std::string("missing argument: ") + spec.synopsis);
	if (pos_.size() > spec.max_pos)
		fail("unexpected argument '" + pos_[spec.max_pos] + "'");
}

std::string Args::str(const std::string &name, const std::string &def) const
{
	auto it = values_.find(name);
	return it == values_.end() ? def : it->second.back();
}

std::vector<std::string> Args::all(const std::string &name) const
{
	auto it = values_.find(name);
	return it == values_.end() ? std::vector<std::string>{} : it->second;
}

uint64_t Args::num(const std::string &name, uint64_t max, uint64_t def) const
{
	if (!has(name))
		return def;
	try {
		return parse_num(str(name), "--" + name, max);
	} catch (const UsageError &e) {
		fail(e.what());
	}
}

int Args::seconds_ms(const std::string &name, int def) const
{
	if (!has(name))
		return def;
	try {
		return parse_seconds_ms(str(name), "--" + name);
	} catch (const UsageError &e) {
		fail(e.what());
	}
}

void Args::fail(const std::string &msg) const
{
	throw UsageError(std::string(spec_->name) + ": " + msg, spec_->name);
}

std::string usage_text(const CommandSpec &spec)
{
	std::ostringstream o;
	o << "usage: cxprm " << spec.name << (spec.synopsis[0] ? " " : "") << spec.synopsis << "\n\n"
	  << spec.summary << "\n";
	if (spec.description && spec.description[0]) {
		std::string d = spec.description;
		while (!d.empty() && d.back() == '\n')
			d.pop_back();
		o << "\n" << d << "\n";
	}
	std::vector<const Opt *> all;
	for (const Opt &op : spec.opts)
		all.push_back(&op);
	if (spec.json)
		all.push_back(&kJson);
	all.push_back(&kHelp);
	std::vector<std::string> left;
	size_t w = 0;
	for (const Opt *op : all) {
		std::string l = op->short_name ? std::string("-") + op->short_name + ", " : "    ";
		l += std::string("--") + op->name;
		if (op->metavar)
			l += std::string(" ") + op->metavar;
		w = std::max(w, l.size());
		left.push_back(l);
	}
	o << "\noptions:\n";
	for (size_t i = 0; i < all.size(); i++) {
		o << "  " << left[i] << std::string(w - left[i].size() + 2, ' ') << all[i]->help;
		if (all[i]->repeat)
			o << " (repeatable)";
		o << "\n";
	}
	return o.str();
}

} // namespace cxprm::tool
