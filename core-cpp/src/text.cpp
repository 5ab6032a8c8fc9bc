// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cxprm/text.h"

namespace cxprm {

Text &Text::chr(char c)
{
	if (len_ + 1 < cap_) {
		buf_[len_++] = c;
		buf_[len_] = 0;
	} else {
		truncated_ = true;
	}
	return *this;
}

Text &Text::str(const char *s)
{
	while (s && *s)
		chr(*s++);
	return *this;
}

Text &Text::dec(u64 v)
{
	char d[20];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		chr(d[--n]);
	return *this;
}

Text &Text::sdec(s64 v)
{
	if (v < 0) {
		chr('-');
		return dec((u64)0 - (u64)v);
	}
	return dec((u64)v);
}

Text &Text::hex(u64 v, u32 digits)
{
	static constexpr char xd[] = "0123456789abcdef";
	char d[16];
	u32 n = 0;

	do {
		d[n++] = xd[v & 0xf];
		v >>= 4;
	} while (v);
	while (n < digits && n < 16)
		d[n++] = '0';
	str("0x");
	while (n)
		chr(d[--n]);
	return *this;
}

Text &Text::hexbytes(const void *p, usize n, char sep)
{
	static constexpr char xd[] = "0123456789abcdef";
	const u8 *b = (const u8 *)p;

	for (usize i = 0; i < n; i++) {
		if (i && sep)
			chr(sep);
		chr(xd[b[i] >> 4]);
		chr(xd[b[i] & 0xf]);
	}
	return *this;
}

} // namespace cxprm
