// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Hex text in and out.
//
// Input (parse_hex, load_bytes): hex digits; whitespace, ',' and '_'
// separate nothing but are skipped; a token may start with 0x; '#' starts a
// comment to the end of the line.  Two digits make a byte, so "0000000a"
// and "00 00 00 0a" are the same four bytes (an odd count is an error).
// Lines in the format hexdump() prints ("0010: 00000000 ...", "*") are
// read back exactly, so a saved dump is valid input; a dump offset beyond
// kMaxDumpBytes (1 MiB, eight times the largest command message) is an error,
// so "*" cannot expand a few bytes of text into gigabytes.
//
// load_bytes(arg): "@FILE" reads hex text from FILE ("@-" = stdin),
// "@bin:FILE" reads FILE as raw bytes, anything else is hex text itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cxprm::tool {

using Bytes = std::vector<uint8_t>;

inline constexpr uint64_t kMaxDumpBytes = 1u << 20;

// Throws UsageError naming 'what' (the option) on bad input.
Bytes parse_hex(const std::string &text, const std::string &what);
Bytes load_bytes(const std::string &arg, const std::string &what);

// "0010: 00000000 00000000 00000000 00000000": 16 bytes a line in
// big-endian dwords (as the PRM numbers them).  With compress, runs of
// identical lines collapse to "*"; the last line is always printed.
std::vector<std::string> hexdump(const uint8_t *p, size_t n, bool compress = true);
// 16 bytes per string, plain digits (for JSON: diffable line by line).
std::vector<std::string> hex_lines(const uint8_t *p, size_t n);
// All bytes as one plain hex string.
std::string to_hex(const uint8_t *p, size_t n);
// "0x1a" style.
std::string hex_num(uint64_t v);

} // namespace cxprm::tool
