// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the adapter's firmware model (nvmf_backend_io.cpp) and the NVMe
// device model (nvme_ssd_model.cpp) exchange: NVMe queue entries and
// doorbell values, little-endian (NVMe 1.4, 1.5 "byte order"), and the
// entry sizes (SQE 64, CQE 16 bytes).
#pragma once

#include <cstdint>

namespace cxprm::emu::nvme {

constexpr uint32_t SQE_BYTES = 64, CQE_BYTES = 16;

inline uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
inline uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }
inline void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}
inline void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

} // namespace cxprm::emu::nvme
