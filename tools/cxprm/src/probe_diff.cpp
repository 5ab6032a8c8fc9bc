// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Field-level difference of two saved probes (probe_diff.h).
#include "probe_diff.h"

#include <algorithm>
#include <stdexcept>

namespace cxprm::tool {

namespace {

const char *ABSENT = "(absent)";

std::string text(const Json *v)
{
	if (!v)
		return ABSENT;
	switch (v->kind()) {
	case Json::Kind::STR: return v->as_str();
	case Json::Kind::UINT: return std::to_string(v->as_uint());
	case Json::Kind::INT: return std::to_string(v->as_int());
	default: return v->dump(false);
	}
}

bool same(const Json *a, const Json *b)
{
	if (!a || !b)
		return a == b;
	return a->dump(false) == b->dump(false);
}

void note(std::vector<ProbeChange> &v, const std::string &field, const Json *a, const Json *b)
{
	if (!same(a, b))
		v.push_back({field, text(a), text(b)});
}

// Keys of a's object, then those only in b's (either may be null).
std::vector<std::string> keys(const Json *a, const Json *b)
{
	std::vector<std::string> k;
	for (const Json *o : {a, b}) {
		if (!o || o->kind() != Json::Kind::OBJ)
			continue;
		for (const auto &m : o->members())
			if (o == a || !a || !a->get(m.first))
				k.push_back(m.first);
	}
	return k;
}

const Json *member(const Json *o, const std::string &k) { return o && o->kind() == Json::Kind::OBJ ? o->get(k) : nullptr; }

// The status in words: "OK", "BAD_PARAM_ERR syndrome 0x..." (the keys that identify it).
Json status_key(const Json *st)
{
	Json s = Json::object();
	for (const char *k : {"delivery", "status", "syndrome"})
		if (const Json *v = member(st, k))
			s.set_json(k, *v);
	return s;
}

size_t bytes_differ(const Json *a, const Json *b)
{
	std::string x, y;
	for (const Json *o : {a, b}) {
		std::string &s = o == a ? x : y;
		if (o && o->kind() == Json::Kind::ARR)
			for (const Json &l : o->items())
				s += l.as_str();
	}
	size_t n = 0, len = std::max(x.size(), y.size());
	for (size_t i = 0; i < len; i += 2)
		if ((i < x.size() ? x.substr(i, 2) : "") != (i < y.size() ? y.substr(i, 2) : ""))
			n++;
	return n;
}

const Json &checked(const Json &p, const char *which)
{
	const Json *d = member(&p, "device"), *c = member(&p, "commands");
	if (!d || d->kind() != Json::Kind::OBJ || !c || c->kind() != Json::Kind::ARR)
		throw std::runtime_error(std::string(which) + " is not a saved probe (no \"device\" and \"commands\")");
	for (const Json &e : c->items())
		if (!member(&e, "name") || member(&e, "name")->kind() != Json::Kind::STR)
			throw std::runtime_error(std::string(which) + ": a command without a \"name\"");
	return p;
}

const Json *find_cmd(const Json &p, const std::string &name)
{
	for (const Json &e : p.get("commands")->items())
		if (e.get("name")->as_str() == name)
			return &e;
	return nullptr;
}

ProbeCmdDiff cmd_diff(const std::string &name, const Json *a, const Json *b)
{
	ProbeCmdDiff d{name, a ? (b ? "" : "a") : "b", {}};
	if (!a || !b)
		return d;
	for (const char *k : {"opcode", "op_mod", "params", "error", "outlen", "decoder"})
		note(d.changes, k, member(a, k), member(b, k));
	Json sa = status_key(member(a, "status")), sb = status_key(member(b, "status"));
	note(d.changes, "status", member(a, "status") ? &sa : nullptr, member(b, "status") ? &sb : nullptr);
	const Json *da = member(a, "decoded"), *db = member(b, "decoded");
	for (const std::string &k : keys(da, db))
		note(d.changes, k, member(da, k), member(db, k));
	if (size_t n = bytes_differ(member(a, "output"), member(b, "output")))
		d.changes.push_back({"output bytes", "", std::to_string(n) + " differ"});
	return d;
}

} // namespace

ProbeDiff probe_diff(const Json &a, const Json &b)
{
	checked(a, "A");
	checked(b, "B");
	ProbeDiff d;
	const Json *da = a.get("device"), *db = b.get("device");
	for (const std::string &k : keys(da, db))
		note(d.device, k, da->get(k), db->get(k));
	std::vector<std::string> names;
	for (const Json *p : {&a, &b})
		for (const Json &e : p->get("commands")->items()) {
			const std::string &n = e.get("name")->as_str();
			if (p == &a || !find_cmd(a, n))
				names.push_back(n);
		}
	for (const std::string &n : names) {
		ProbeCmdDiff c = cmd_diff(n, find_cmd(a, n), find_cmd(b, n));
		if (!c.only_in.empty() || !c.changes.empty())
			d.commands.push_back(std::move(c));
	}
	return d;
}

std::vector<std::string> probe_diff_lines(const ProbeDiff &d, const std::string &name_a, const std::string &name_b)
{
	std::vector<std::string> out = {"--- A " + name_a, "+++ B " + name_b};
	auto changes = [&](const std::vector<ProbeChange> &v) {
		for (const ProbeChange &c : v)
			out.push_back("  " + c.field + ": " + (c.a.empty() ? c.b : c.a + " \u2192 " + c.b));
	};
	if (!d.device.empty()) {
		out.push_back("device:");
		changes(d.device);
	}
	for (const ProbeCmdDiff &c : d.commands) {
		if (!c.only_in.empty()) {
			out.push_back(std::string("only in ") + (c.only_in == "a" ? "A" : "B") + ": " + c.name);
			continue;
		}
		out.push_back(c.name + ":");
		changes(c.changes);
	}
	if (d.identical())
		out.push_back("identical");
	return out;
}

Json probe_diff_json(const ProbeDiff &d, const std::string &name_a, const std::string &name_b)
{
	auto list = [](const std::vector<ProbeChange> &v) {
		Json l = Json::array();
		for (const ProbeChange &c : v) {
			Json o = Json::object();
			o.set("field", c.field);
			o.set("a", c.a);
			o.set("b", c.b);
			l.push_json(o);
		}
		return l;
	};
	Json j = Json::object();
	j.set("identical", d.identical());
	j.set("a", name_a);
	j.set("b", name_b);
	j.set_json("device", list(d.device));
	Json cmds = Json::array();
	for (const ProbeCmdDiff &c : d.commands) {
		Json o = Json::object();
		o.set("name", c.name);
		if (!c.only_in.empty())
			o.set("only_in", c.only_in);
		o.set_json("changes", list(c.changes));
		cmds.push_json(o);
	}
	j.set_json("commands", cmds);
	return j;
}

} // namespace cxprm::tool
