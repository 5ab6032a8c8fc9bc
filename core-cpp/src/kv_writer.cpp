// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Fixed-capacity key/value text writer for the offline decoder. */
#include "cxprm/commands/kv.h"

#include "cxprm/text.h"

namespace cxprm::cmd {

namespace {

bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Marks a cut value with a trailing "...". */
void finish(Text &t, char *b)
{
	if (t.truncated())
		for (u32 i = Kv::VAL_MAX - 4; i < Kv::VAL_MAX - 1; i++)
			b[i] = '.';
}

} // namespace

char *KvWriter::slot(const char *key)
{
	if (n_ >= cap_) {
		dropped_++;
		return nullptr;
	}
	items_[n_].key = key;
	items_[n_].val[0] = 0;
	return items_[n_++].val;
}

void KvWriter::dec(const char *key, u64 v)
{
	if (char *b = slot(key))
		Text(b, Kv::VAL_MAX).dec(v);
}

void KvWriter::sdec(const char *key, s64 v)
{
	if (char *b = slot(key))
		Text(b, Kv::VAL_MAX).sdec(v);
}

void KvWriter::hex(const char *key, u64 v)
{
	if (char *b = slot(key))
		Text(b, Kv::VAL_MAX).hex(v);
}

void KvWriter::text(const char *key, const char *s)
{
	if (char *b = slot(key)) {
		Text t(b, Kv::VAL_MAX);
		t.str(s ? s : "");
		finish(t, b);
	}
}

void KvWriter::str(const char *key, const u8 *p, u32 n)
{
	if (char *b = slot(key)) {
		Text t(b, Kv::VAL_MAX);
		for (u32 i = 0; i < n && p[i]; i++)
			t.chr(p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '.');
		finish(t, b);
	}
}

void KvWriter::hexbytes(const char *key, const u8 *p, u32 n)
{
	if (char *b = slot(key)) {
		Text t(b, Kv::VAL_MAX);
		t.hexbytes(p, n, 0);
		finish(t, b);
	}
}

const char *KvWriter::find(const char *key) const
{
	for (u32 i = 0; i < n_; i++)
		if (same(items_[i].key, key))
			return items_[i].val;
	return nullptr;
}

} // namespace cxprm::cmd
