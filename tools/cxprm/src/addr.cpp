// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// GIDs and MACs on the command line (addr.h).
#include "addr.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>

#include "errors.h"
#include "hex.h"

namespace cxprm::tool {

namespace {

bool all_hex(const std::string &s)
{
	return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

} // namespace

Gid parse_gid(const std::string &s, const std::string &what)
{
	Gid g{};
	if (s.size() == 32 && all_hex(s)) {
		Bytes b = parse_hex(s, what);
		std::copy(b.begin(), b.end(), g.begin());
		return g;
	}
	if (inet_pton(AF_INET6, s.c_str(), g.data()) == 1)
		return g;
	uint8_t v4[4];
	if (inet_pton(AF_INET, s.c_str(), v4) == 1) {
		g[10] = g[11] = 0xff;
		std::copy(v4, v4 + 4, g.begin() + 12);
		return g;
	}
	throw UsageError(what + ": '" + s + "' is not a GID (IPv6 address, IPv4 address or 32 hex digits)");
}

Mac parse_mac(const std::string &s, const std::string &what)
{
	Mac m{};
	bool ok = s.size() == 17;
	std::string digits;
	for (size_t i = 0; ok && i < s.size(); i++)
		if (i % 3 == 2)
			ok = s[i] == ':' || s[i] == '-';
		else
			digits += s[i];
	if (!ok || !all_hex(digits))
		throw UsageError(what + ": '" + s + "' is not a MAC address (aa:bb:cc:dd:ee:ff)");
	Bytes b = parse_hex(digits, what);
	std::copy(b.begin(), b.end(), m.begin());
	return m;
}

std::string gid_text(const Gid &g)
{
	char b[INET6_ADDRSTRLEN];
	return inet_ntop(AF_INET6, g.data(), b, sizeof(b)) ? b : to_hex(g.data(), g.size());
}

std::string mac_text(const Mac &m)
{
	std::string s;
	for (uint8_t b : m) {
		// Piecewise, not ":" + std::string: GCC 12 -Wrestrict (PR 105329).
		s += s.empty() ? "" : ":";
		s += to_hex(&b, 1);
	}
	return s;
}

} // namespace cxprm::tool
