// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Hex text parsing and printing (hex.h).
#include "hex.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "errors.h"

namespace cxprm::tool {

namespace {

int digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

// "0010:" at the start of a line followed by whitespace: a dump offset.
bool dump_offset(const std::string &line, size_t *pos, uint64_t *off)
{
	size_t i = 0;
	while (i < line.size() && std::isspace((unsigned char)line[i]))
		i++;
	size_t start = i;
	if (line.compare(i, 2, "0x") == 0)
		i += 2;
	size_t digits = i;
	uint64_t v = 0;
	while (i < line.size() && digit(line[i]) >= 0)
		v = v * 16 + (uint64_t)digit(line[i++]);
	if (i == digits || i >= line.size() || line[i] != ':')
		return false;
	if (i + 1 < line.size() && !std::isspace((unsigned char)line[i + 1]))
		return false;
	(void)start;
	*pos = i + 1;
	*off = v;
	return true;
}

} // namespace

Bytes parse_hex(const std::string &text, const std::string &what)
{
	Bytes out;
	std::istringstream in(text);
	std::string line;
	int lineno = 0;
	bool star = false;       // previous line was "*"
	Bytes last_line;         // bytes of the previous dump line
	while (std::getline(in, line)) {
		lineno++;
		if (size_t h = line.find('#'); h != std::string::npos)
			line.erase(h);
		std::string trimmed;
		for (char c : line)
			if (!std::isspace((unsigned char)c))
				trimmed += c;
		if (trimmed == "*") {
			star = true;
			continue;
		}
		size_t pos = 0;
		uint64_t off;
		bool has_off = dump_offset(line, &pos, &off);
		if (has_off) {
			// A "*" before it repeats the last line up to the offset: a
			// few bytes of text must not ask for gigabytes.
			if (off > kMaxDumpBytes)
				throw UsageError(what + ": line " + std::to_string(lineno) + ": dump offset " +
						 hex_num(off) + " is beyond " + hex_num(kMaxDumpBytes) +
						 " bytes, more than any message");
			if (star && !last_line.empty())
				while (out.size() + last_line.size() <= off)
					out.insert(out.end(), last_line.begin(), last_line.end());
			if (off != out.size())
				throw UsageError(what + ": line " + std::to_string(lineno) +
						 ": dump offset " + hex_num(off) + " does not follow the bytes before it (" +
						 hex_num(out.size()) + ")");
		}
		star = false;
		size_t before = out.size();
		int hi = -1;
		for (size_t i = pos; i < line.size(); i++) {
			char c = line[i];
			if (std::isspace((unsigned char)c) || c == ',' || c == '_') {
				continue;
			}
			if (c == '0' && i + 1 < line.size() && (line[i + 1] == 'x' || line[i + 1] == 'X') && hi < 0) {
				i++;
				continue;
			}
			int d = digit(c);
			if (d < 0)
				throw UsageError(what + ": line " + std::to_string(lineno) + ": '" +
						 std::string(1, c) + "' is not a hex digit");
			if (hi < 0) {
				hi = d;
			} else {
				out.push_back((uint8_t)(hi << 4 | d));
				hi = -1;
			}
		}
		if (hi >= 0)
			throw UsageError(what + ": line " + std::to_string(lineno) +
					 ": odd number of hex digits (two make a byte)");
		last_line.assign(out.begin() + (long)before, out.end());
	}
	return out;
}

Bytes load_bytes(const std::string &arg, const std::string &what)
{
	if (arg.rfind("@bin:", 0) == 0) {
		std::string path = arg.substr(5);
		std::ifstream f(path, std::ios::binary);
		if (!f)
			throw OsError(what + ": cannot read " + path);
		return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
	}
	if (arg.rfind("@", 0) == 0) {
		std::string path = arg.substr(1);
		std::stringstream ss;
		if (path == "-") {
			ss << std::cin.rdbuf();
		} else {
			std::ifstream f(path);
			if (!f)
				throw OsError(what + ": cannot read " + path);
			ss << f.rdbuf();
		}
		return parse_hex(ss.str(), what + " (" + path + ")");
	}
	return parse_hex(arg, what);
}

std::vector<std::string> hexdump(const uint8_t *p, size_t n, bool compress)
{
	std::vector<std::string> lines;
	int width = n > 0x10000 ? 8 : 4;
	bool starred = false;
	for (size_t off = 0; off < n; off += 16) {
		size_t len = n - off < 16 ? n - off : 16;
		bool last = off + 16 >= n;
		if (compress && off >= 16 && !last && len == 16) {
			bool same = true;
			for (size_t i = 0; i < 16 && same; i++)
				same = p[off + i] == p[off - 16 + i];
			if (same) {
				if (!starred)
					lines.push_back("*");
				starred = true;
				continue;
			}
		}
		starred = false;
		char buf[32];
		std::snprintf(buf, sizeof(buf), "%0*zx:", width, off);
		std::string line = buf;
		for (size_t i = 0; i < len; i++) {
			if (i % 4 == 0)
				line += ' ';
			std::snprintf(buf, sizeof(buf), "%02x", p[off + i]);
			line += buf;
		}
		lines.push_back(line);
	}
	return lines;
}

std::vector<std::string> hex_lines(const uint8_t *p, size_t n)
{
	std::vector<std::string> lines;
	for (size_t off = 0; off < n; off += 16)
		lines.push_back(to_hex(p + off, n - off < 16 ? n - off : 16));
	return lines;
}

std::string to_hex(const uint8_t *p, size_t n)
{
	static const char d[] = "0123456789abcdef";
	std::string s;
	s.reserve(n * 2);
	for (size_t i = 0; i < n; i++) {
		s += d[p[i] >> 4];
		s += d[p[i] & 15];
	}
	return s;
}

std::string hex_num(uint64_t v)
{
	char buf[24];
	std::snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	return buf;
}

} // namespace cxprm::tool
