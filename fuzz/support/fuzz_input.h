// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Reading a fuzz input as a stream of fields: big-endian integers and byte
// runs; past the end everything reads as zero, so every input is valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cxprm::fuzz {

class FuzzInput {
public:
	FuzzInput(const uint8_t *data, size_t size) : p_(data), n_(size) {}

	size_t left() const { return n_ - at_; }
	bool empty() const { return at_ >= n_; }

	uint8_t u8() { return at_ < n_ ? p_[at_++] : 0; }
	uint16_t u16() { return (uint16_t)(u8() << 8 | u8()); }
	uint32_t u32() { return (uint32_t)u16() << 16 | u16(); }
	uint64_t u64() { return (uint64_t)u32() << 32 | u32(); }
	bool bit() { return u8() & 1; }

	// Up to n bytes (fewer at the end of the input).
	std::vector<uint8_t> bytes(size_t n)
	{
		size_t k = n < left() ? n : left();
		std::vector<uint8_t> v(p_ + at_, p_ + at_ + k);
		at_ += k;
		return v;
	}
	// Fills dst[0, n): input bytes first, zeros after the end.
	void fill(uint8_t *dst, size_t n)
	{
		for (size_t i = 0; i < n; i++)
			dst[i] = u8();
	}
	// Whatever is left.
	std::vector<uint8_t> rest() { return bytes(left()); }

private:
	const uint8_t *p_;
	size_t n_;
	size_t at_ = 0;
};

// A broken invariant: print it and abort, so libFuzzer (and the replay
// test) reports the input as a crash.
#define FUZZ_CHECK(cond)                                                              \
	do {                                                                          \
		if (!(cond)) {                                                        \
			std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
				     #cond);                                          \
			std::abort();                                                 \
		}                                                                     \
	} while (0)

} // namespace cxprm::fuzz
