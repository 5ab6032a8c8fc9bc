// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A strict little JSON parser: reads saved probes back (probe --diff), and
// in the tests proves the tool's output is valid JSON (RFC 8259: no
// trailing commas, no duplicate keys, escapes) and gives them a tree to
// look into.  Throws std::runtime_error.
#pragma once

#include <cctype>
#include <stdexcept>
#include <string>

#include "json.h"

namespace cxprm::tool {

class JsonParser {
public:
	static Json parse(const std::string &s)
	{
		JsonParser p(s);
		p.ws();
		Json v = p.value();
		p.ws();
		if (p.i_ != s.size())
			p.fail("trailing characters");
		return v;
	}

private:
	explicit JsonParser(const std::string &s) : s_(s) {}

	[[noreturn]] void fail(const std::string &m)
	{
		throw std::runtime_error("JSON: " + m + " at offset " + std::to_string(i_) + ": " +
					 s_.substr(i_ > 20 ? i_ - 20 : 0, 40));
	}
	void ws()
	{
		while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r'))
			i_++;
	}
	char peek() { return i_ < s_.size() ? s_[i_] : '\0'; }
	void expect(char c)
	{
		if (peek() != c)
			fail(std::string("expected '") + c + "'");
		i_++;
	}
	bool word(const char *w)
	{
		size_t n = std::char_traits<char>::length(w);
		if (s_.compare(i_, n, w) != 0)
			return false;
		i_ += n;
		return true;
	}
	std::string string()
	{
		expect('"');
		std::string out;
		for (;;) {
			if (i_ >= s_.size())
				fail("unterminated string");
			char c = s_[i_++];
			if (c == '"')
				return out;
			if ((unsigned char)c < 0x20)
				fail("control character in string");
			if (c != '\\') {
				out += c;
				continue;
			}
			char e = s_[i_++];
			switch (e) {
			case '"': out += '"'; break;
			case '\\': out += '\\'; break;
			case '/': out += '/'; break;
			case 'b': out += '\b'; break;
			case 'f': out += '\f'; break;
			case 'n': out += '\n'; break;
			case 'r': out += '\r'; break;
			case 't': out += '\t'; break;
			case 'u': {
				if (i_ + 4 > s_.size())
					fail("short \\u escape");
				for (int k = 0; k < 4; k++)
					if (!std::isxdigit((unsigned char)s_[i_ + k]))
						fail("bad \\u escape");
				unsigned cp = std::stoul(s_.substr(i_, 4), nullptr, 16);
				i_ += 4;
				if (cp < 0x80) {
					out += (char)cp;
				} else if (cp < 0x800) {
					out += (char)(0xc0 | cp >> 6);
					out += (char)(0x80 | (cp & 0x3f));
				} else {
					out += (char)(0xe0 | cp >> 12);
					out += (char)(0x80 | (cp >> 6 & 0x3f));
					out += (char)(0x80 | (cp & 0x3f));
				}
				break;
			}
			default: fail("bad escape");
			}
		}
	}
	Json number()
	{
		size_t st = i_;
		bool neg = peek() == '-';
		if (neg)
			i_++;
		if (!std::isdigit((unsigned char)peek()))
			fail("bad number");
		if (peek() == '0' && i_ + 1 < s_.size() && std::isdigit((unsigned char)s_[i_ + 1]))
			fail("leading zero");
		while (std::isdigit((unsigned char)peek()))
			i_++;
		if (peek() == '.' || peek() == 'e' || peek() == 'E')
			fail("the tool prints integers only");
		std::string t = s_.substr(st, i_ - st);
		return neg ? Json::snum(std::stoll(t)) : Json::num(std::stoull(t));
	}
	// An object's or array's items after its opening character, each read
	// by item(), separated by commas, up to close.
	template <class Item> void items(char close, Item item)
	{
		i_++;
		ws();
		if (peek() == close) {
			i_++;
			return;
		}
		for (;;) {
			ws();
			item();
			ws();
			if (peek() == ',') {
				i_++;
				continue;
			}
			expect(close);
			return;
		}
	}
	Json value()
	{
		char c = peek();
		if (c == '{') {
			Json o = Json::object();
			items('}', [&] {
				std::string k = string();
				if (o.get(k))
					fail("duplicate key " + k);
				ws();
				expect(':');
				ws();
				o.set_json(k, value());
			});
			return o;
		}
		if (c == '[') {
			Json a = Json::array();
			items(']', [&] { a.push_json(value()); });
			return a;
		}
		if (c == '"')
			return Json::str(string());
		if (word("true"))
			return Json::boolean(true);
		if (word("false"))
			return Json::boolean(false);
		if (word("null"))
			return Json();
		return number();
	}

	const std::string &s_;
	size_t i_ = 0;
};

} // namespace cxprm::tool
