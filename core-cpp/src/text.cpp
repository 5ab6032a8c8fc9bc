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

/* ---- column helpers for tables (debugfs texts) ---- */

/* Spaces up to 'width' columns from 'from'; at least one after the text. */
void pad(Text &t, usize from, u32 width)
{
	do {
		t.chr(' ');
	} while (t.len() - from < width && !t.truncated());
}

void col(Text &t, const char *s, u32 width)
{
	usize from = t.len();
	t.str(s);
	pad(t, from, width);
}

void col_dec(Text &t, u64 v, u32 width)
{
	usize from = t.len();
	t.dec(v);
	pad(t, from, width);
}

void col_hex(Text &t, u64 v, u32 width, u32 digits)
{
	usize from = t.len();
	t.hex(v, digits);
	pad(t, from, width);
}

/* ns as microseconds with three decimals: 12.345 */
void usec(Text &t, u64 ns)
{
	t.dec(ns / 1000).chr('.');
	u32 frac = (u32)(ns % 1000);
	t.chr((char)('0' + frac / 100)).chr((char)('0' + frac / 10 % 10)).chr((char)('0' + frac % 10));
}

void col_usec(Text &t, u64 ns, u32 width)
{
	usize from = t.len();
	usec(t, ns);
	pad(t, from, width);
}

/* 16 bytes per line: "  0000: 00 11 ..." */
void hexdump(Text &t, const u8 *p, u32 n, const char *indent)
{
	for (u32 off = 0; off < n; off += 16) {
		t.str(indent);
		u32 v = off;
		for (int s = 12; s >= 0; s -= 4)
			t.chr("0123456789abcdef"[(v >> s) & 0xf]);
		t.str(": ");
		t.hexbytes(p + off, min_of<u32>(16, n - off));
		t.chr('\n');
	}
}

} // namespace cxprm
