// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "dma_proof.h"

#include <cstring>
#include <vector>

namespace cxprm::emud {

namespace {

uint32_t fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 0x811c9dc5u;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x01000193u;
	}
	return h;
}

} // namespace

// Init-segment dwords are big-endian.
uint32_t DmaProof::rd(uint32_t off) const
{
	return __builtin_bswap32(__atomic_load_n(reinterpret_cast<uint32_t *>(plat_.bar() + off), __ATOMIC_ACQUIRE));
}

void DmaProof::wr(uint32_t off, uint32_t v)
{
	__atomic_store_n(reinterpret_cast<uint32_t *>(plat_.bar() + off), __builtin_bswap32(v), __ATOMIC_RELEASE);
}

bool DmaProof::poll()
{
	if (rd(MAGIC) != MAGIC_VAL || rd(ACK_MAGIC) == ACK_MAGIC_VAL)
		return false;
	uint64_t gpa = (uint64_t)rd(DMA_HI) << 32 | rd(DMA_LO);
	uint32_t len = rd(DMA_LEN);
	static const char str[] = "CXPRM-DMA-PROOF";
	std::vector<uint8_t> buf(len <= MAX_LEN ? len : 0);
	if (len < sizeof(str) || len > MAX_LEN || !plat_.dma_read(gpa, buf.data(), len)) {
		log_.info("DMA proof: gpa 0x%llx len %u is outside guest RAM", (unsigned long long)gpa, len);
		wr(ACK, 0);
		wr(ACK_MAGIC, ACK_MAGIC_VAL);
		served_++;
		return true;
	}
	unsigned good = 0, total = 0;
	for (uint32_t i = sizeof(str) / 4; i < len / 4; i++) {
		uint32_t v;
		std::memcpy(&v, buf.data() + 4 * i, 4);
		good += v == (PATTERN_BASE | i);
		total++;
	}
	uint64_t off = 0;
	plat_.layout().to_offset(gpa, len, &off);
	uint32_t first, last, h = fnv1a(buf.data(), len);
	std::memcpy(&first, buf.data() + sizeof(str) / 4 * 4, 4);
	std::memcpy(&last, buf.data() + (len / 4 - 1) * 4, 4);
	log_.info("DMA proof: guest-phys 0x%llx (RAM file offset 0x%llx) len %u: \"%.*s\", pattern dwords %u/%u ok, "
		  "first 0x%08x last 0x%08x, fnv1a 0x%08x",
		  (unsigned long long)gpa, (unsigned long long)off, len, (int)strnlen((const char *)buf.data(), sizeof(str)),
		  (const char *)buf.data(), good, total, first, last, h);
	wr(ACK, h);
	wr(ACK_MAGIC, ACK_MAGIC_VAL);
	served_++;
	return true;
}

} // namespace cxprm::emud
