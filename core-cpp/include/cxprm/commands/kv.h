/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A fixed-capacity writer of text key/value pairs: what the offline decoder
 * (decode.h) fills for `cxprm decode`.  No allocation: the caller gives the
 * storage (KvBuffer<N> bundles it).  Keys are static strings (field names);
 * values are formatted into each entry's own bytes.  Entries beyond the
 * capacity are counted in dropped(), values longer than VAL_MAX - 1 bytes
 * are cut and end in "...".
 */
#pragma once

#include "../types.h"

namespace cxprm::cmd {

struct Kv {
	static constexpr u32 VAL_MAX = 80;
	const char *key;
	char val[VAL_MAX];
};

class KvWriter {
public:
	KvWriter(Kv *items, u32 capacity) : items_(items), cap_(capacity) {}
	KvWriter(const KvWriter &) = delete;
	KvWriter &operator=(const KvWriter &) = delete;

	void dec(const char *key, u64 v);          /* 1234 */
	void sdec(const char *key, s64 v);         /* -12 */
	void hex(const char *key, u64 v);          /* 0x4d2 */
	void text(const char *key, const char *s); /* as is */
	/* Bytes as a string up to the first NUL; non-printables become '.'. */
	void str(const char *key, const u8 *p, u32 n);
	/* Bytes as hex digits, "0011aa..." */
	void hexbytes(const char *key, const u8 *p, u32 n);

	u32 count() const { return n_; }
	u32 dropped() const { return dropped_; }
	const Kv &at(u32 i) const { return items_[i]; }
	/* The value stored for key, or null. */
	const char *find(const char *key) const;
	void reset() { n_ = dropped_ = 0; }

private:
	char *slot(const char *key);

	Kv *items_;
	u32 cap_;
	u32 n_ = 0;
	u32 dropped_ = 0;
};

/* A KvWriter with its own storage for N entries. */
template <u32 N> class KvBuffer : public KvWriter {
public:
	KvBuffer() : KvWriter(store_, N) {}

private:
	Kv store_[N];
};

} // namespace cxprm::cmd
