// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The tiny JSON writer (json.h).
#include "json.h"

#include <cstdio>

namespace cxprm::tool {

Json &Json::set_json(const std::string &key, Json v)
{
	if (kind_ == Kind::NUL)
		kind_ = Kind::OBJ;
	for (auto &m : members_)
		if (m.first == key) {
			m.second = std::move(v);
			return *this;
		}
	members_.emplace_back(key, std::move(v));
	return *this;
}

Json &Json::push_json(Json v)
{
	if (kind_ == Kind::NUL)
		kind_ = Kind::ARR;
	items_.push_back(std::move(v));
	return *this;
}

const Json *Json::get(const std::string &key) const
{
	for (const auto &m : members_)
		if (m.first == key)
			return &m.second;
	return nullptr;
}

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 if invalid.
size_t utf8_len(const std::string &s, size_t i)
{
	unsigned char c = (unsigned char)s[i];
	size_t n;
	unsigned min;
	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0)
		n = 2, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		n = 3, min = 0x800;
	else if ((c & 0xf8) == 0xf0)
		n = 4, min = 0x10000;
	else
		return 0;
	if (i + n > s.size())
		return 0;
	unsigned cp = c & (0x7f >> n);
	for (size_t k = 1; k < n; k++) {
		unsigned char cc = (unsigned char)s[i + k];
		if ((cc & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (cc & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void indent(std::string &out, int depth)
{
	out += '\n';
	out.append((size_t)depth * 2, ' ');
}

} // namespace

std::string json_quote(const std::string &s)
{
	std::string out = "\"";
	for (size_t i = 0; i < s.size();) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': out += "\\\""; i++; continue;
		case '\\': out += "\\\\"; i++; continue;
		case '\n': out += "\\n"; i++; continue;
		case '\r': out += "\\r"; i++; continue;
		case '\t': out += "\\t"; i++; continue;
		case '\b': out += "\\b"; i++; continue;
		case '\f': out += "\\f"; i++; continue;
		default: break;
		}
		if (c < 0x20 || c == 0x7f) {
			char buf[8];
			std::snprintf(buf, sizeof(buf), "\\u%04x", c);
			out += buf;
			i++;
			continue;
		}
		size_t n = utf8_len(s, i);
		if (!n) {
			out += "\\ufffd";
			i++;
			continue;
		}
		out.append(s, i, n);
		i += n;
	}
	out += '"';
	return out;
}

namespace {
// An array's or object's n items between open and close, each written by
// item(i): one a line a level deeper when pretty, else ", " between them.
template <class Item>
void write_list(std::string &out, bool pretty, int depth, char open, char close, size_t n, Item item)
{
	out += open;
	for (size_t i = 0; i < n; i++) {
		if (i)
			out += pretty ? "," : ", ";
		if (pretty)
			indent(out, depth + 1);
		item(i);
	}
	if (pretty && n)
		indent(out, depth);
	out += close;
}
} // namespace

void Json::write(std::string &out, bool pretty, int depth) const
{
	switch (kind_) {
	case Kind::NUL: out += "null"; return;
	case Kind::BOOL: out += u_ ? "true" : "false"; return;
	case Kind::UINT: out += std::to_string(u_); return;
	case Kind::INT: out += std::to_string(i_); return;
	case Kind::STR: out += json_quote(s_); return;
	case Kind::ARR:
		write_list(out, pretty, depth, '[', ']', items_.size(),
			   [&](size_t i) { items_[i].write(out, pretty, depth + 1); });
		return;
	case Kind::OBJ:
		write_list(out, pretty, depth, '{', '}', members_.size(), [&](size_t i) {
			out += json_quote(members_[i].first);
			out += ": ";
			members_[i].second.write(out, pretty, depth + 1);
		});
		return;
	}
}

std::string Json::dump(bool pretty) const
{
	std::string out;
	write(out, pretty, 0);
	return out;
}

} // namespace cxprm::tool
