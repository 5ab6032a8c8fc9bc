// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Network addresses on the command line (qp connect): GIDs and MACs.
// Both throw UsageError naming 'what' (the option) on bad text.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace cxprm::tool {

using Gid = std::array<uint8_t, 16>;
using Mac = std::array<uint8_t, 6>;

// A GID: IPv6 text ("fe80::1", "::ffff:10.0.0.1"), an IPv4 address
// ("10.0.0.1", mapped as ::ffff:10.0.0.1, the RoCE v2 GID of an IPv4
// interface address) or 32 hex digits (network order).
Gid parse_gid(const std::string &s, const std::string &what);
// "aa:bb:cc:dd:ee:ff" (or with '-'): six bytes of two hex digits each.
Mac parse_mac(const std::string &s, const std::string &what);

// IPv6 text ("fe80::1", "::ffff:10.0.0.1", "::") and "aa:bb:cc:dd:ee:ff".
std::string gid_text(const Gid &g);
std::string mac_text(const Mac &m);

} // namespace cxprm::tool
