/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A bounded text writer for the core: log messages, decoded outputs and
 * debugfs text without printf (the freestanding core has no C library).
 * Output is always NUL-terminated and silently truncated at capacity;
 * truncated() tells whether anything was lost.
 */
#pragma once

#include "types.h"

namespace cxprm {

class Text {
public:
	Text(char *buf, usize cap) : buf_(buf), cap_(cap) { if (cap_) buf_[0] = 0; }

	Text &str(const char *s);
	Text &chr(char c);
	Text &dec(u64 v);
	Text &sdec(s64 v);
	/* 0x-prefixed hex; digits = minimum number of digits (0: as needed). */
	Text &hex(u64 v, u32 digits = 0);
	/* Two hex digits per byte, separated by 'sep' when nonzero. */
	Text &hexbytes(const void *p, usize n, char sep = ' ');

	const char *c_str() const { return cap_ ? buf_ : ""; }
	usize len() const { return len_; }
	bool truncated() const { return truncated_; }
	void clear() { len_ = 0; truncated_ = false; if (cap_) buf_[0] = 0; }

private:
	char *buf_;
	usize cap_;
	usize len_ = 0;
	bool truncated_ = false;
};

/*
 * Column helpers for tables (debugfs texts): each writes its value and pads
 * with spaces to 'width' columns counted from where it started, always at
 * least one space.
 */
void pad(Text &t, usize from, u32 width);
void col(Text &t, const char *s, u32 width);
void col_dec(Text &t, u64 v, u32 width);
void col_hex(Text &t, u64 v, u32 width, u32 digits = 0);
/* ns as microseconds with three decimals: 12.345 */
void usec(Text &t, u64 ns);
void col_usec(Text &t, u64 ns, u32 width);
/* 16 bytes per line: "<indent>0000: 00 11 ..." */
void hexdump(Text &t, const u8 *p, u32 n, const char *indent);

} // namespace cxprm
