// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "init_segment.h"

#include <cstring>

#include "cxprm/prm/transport.h"

namespace cxprm::emu {

using iseg = prm::initial_seg;
using hb = prm::health_buffer;

namespace {
constexpr uint32_t HEALTH = iseg::health_buffer::offset / 8; // health_buffer base in the BAR

// A timeout in the init-segment encoding (Linux lib/tout.c): unit in bits
// 31:29 (0 ms, 1 s, 2 min, 3 h), value in bits 19:0.  0 stays 0.
uint32_t encode_iseg_to(uint32_t ms)
{
	if (ms <= prm::ISEG_TO_VALUE_MASK)
		return ms;
	uint32_t s = (ms + 999) / 1000;
	if (s <= prm::ISEG_TO_VALUE_MASK)
		return 1u << prm::ISEG_TO_UNIT_SHIFT | s;
	return 2u << prm::ISEG_TO_UNIT_SHIFT | ((s + 59) / 60);
}
} // namespace

void InitSegment::reset(bool initializing, bool exclusive)
{
	if (exclusive)
		std::memset(bar_.raw(), 0, bar_.size() & ~(size_t)3);
	else
		for (size_t off = 0; off + 4 <= bar_.size(); off += 4)
			bar_.write32((uint32_t)off, 0);

	bar_.set<iseg::fw_rev_major>(prof_.fw_rev.major);
	bar_.set<iseg::fw_rev_minor>(prof_.fw_rev.minor);
	bar_.set<iseg::fw_rev_subminor>(prof_.fw_rev.subminor);
	bar_.set<iseg::cmd_interface_rev>(prof_.cmdif_rev);
	bar_.set<iseg::log_cmdq_size>(prof_.log_cmdq_size);
	bar_.set<iseg::log_cmdq_stride>(prof_.log_cmdq_stride);
	bar_.set<iseg::nic_interface>(0); // FULL_DRIVER
	bar_.set<iseg::initializing>(initializing ? 1 : 0);
	// Same dword, bit 23 (Linux mlx5_read_embedded_cpu).
	bar_.set<iseg::embedded_cpu>(prof_.functions.embedded_cpu ? 1 : 0);
	// Bit 30: the driver may ask a crashed firmware to reset (Linux
	// health.c reset_fw_if_needed, device.h MLX5_FW_RESET_SUPPORTED_OFFSET).
	bar_.set<iseg::fw_reset_supported>(prof_.fw_reset_supported ? 1 : 0);
	bar_.set<iseg::cmd_exec_to>(encode_iseg_to(prof_.cmd_exec_to_ms));
	bar_.set<iseg::cmd_q_init_to>(encode_iseg_to(prof_.cmd_q_init_to_ms));

	uint32_t ver = (uint32_t)(prof_.fw_rev.major & 0xff) << 24 | (uint32_t)(prof_.fw_rev.minor & 0xff) << 16 |
		       (prof_.fw_rev.subminor & 0xffff);
	bar_.set<hb::fw_version>(ver, HEALTH);
	bar_.set<hb::hw_id>(prof_.device_id, HEALTH);
}

void InitSegment::clear_initializing() { bar_.set<iseg::initializing>(0); }

void InitSegment::set_initializing() { bar_.set<iseg::initializing>(1); }

bool InitSegment::initializing() const { return bar_.get<iseg::initializing>() != 0; }

void InitSegment::tick_health()
{
	uint32_t c = bar_.get<iseg::health_counter>();
	bar_.set<iseg::health_counter>((c + 1) & 0xffffff);
}

uint32_t InitSegment::health_counter() const { return bar_.get<iseg::health_counter>(); }

void InitSegment::set_health_error(uint8_t synd)
{
	bar_.set<hb::synd>(synd, HEALTH);
	bar_.set<hb::ext_synd>(0x1, HEALTH);
	bar_.set<hb::valid>(1, HEALTH);
	bar_.set<hb::rfr>(1, HEALTH);
	bar_.set<hb::severity>(2, HEALTH); // CRIT
	if (prof_.crash_copies_iseg_syndrome)
		bar_.set<iseg::health_syndrome>(synd);
}

void InitSegment::set_health_warning(uint8_t synd)
{
	if (bar_.get<hb::rfr>(HEALTH))
		return; // fatal already: that syndrome stays
	bar_.set<hb::synd>(synd, HEALTH);
	bar_.set<hb::ext_synd>(synd ? 0x2 : 0, HEALTH);
	bar_.set<hb::valid>(synd ? 1 : 0, HEALTH);
	bar_.set<hb::severity>(synd ? 4 : 0, HEALTH); // WARNING
}

uint8_t InitSegment::health_synd() const { return (uint8_t)bar_.get<hb::synd>(HEALTH); }

void InitSegment::set_nic_interface(uint8_t state)
{
	// Three bits, 10:8 of the cmdq_phy_addr_31_12 dword, as Linux reads
	// them (mlx5_get_nic_state); mlx5_ifc.h names only the low two.
	uint32_t off = prm::dword_byte_offset<iseg::nic_interface>();
	bar_.update32(off, 0x7u << 8, (uint32_t)(state & 7) << 8);
}

void InitSegment::fill_gone()
{
	for (size_t off = 0; off + 4 <= bar_.size(); off += 4)
		bar_.write32((uint32_t)off, 0xffffffffu);
}

void InitSegment::enforce_geometry()
{
	uint32_t off = prm::dword_byte_offset<iseg::log_cmdq_size>();
	static_assert(prm::dword_byte_offset<iseg::log_cmdq_size>() ==
		      prm::dword_byte_offset<iseg::log_cmdq_stride>());
	uint32_t v = bar_.read32(off);
	if (prm::from_dword<iseg::log_cmdq_size>(v) == prof_.log_cmdq_size &&
	    prm::from_dword<iseg::log_cmdq_stride>(v) == prof_.log_cmdq_stride)
		return;
	uint32_t mask = prm::to_dword<iseg::log_cmdq_size>(~0u) | prm::to_dword<iseg::log_cmdq_stride>(~0u);
	uint32_t bits = prm::to_dword<iseg::log_cmdq_size>(prof_.log_cmdq_size) |
			prm::to_dword<iseg::log_cmdq_stride>(prof_.log_cmdq_stride);
	bar_.update32(off, mask, bits);
}

uint64_t InitSegment::cmdq_base() const
{
	uint64_t hi = bar_.get<iseg::cmdq_phy_addr_63_32>();
	uint64_t lo = bar_.get<iseg::cmdq_phy_addr_31_12>();
	return hi << 32 | lo << 12;
}

uint8_t InitSegment::nic_interface() const
{
	return (uint8_t)((bar_.read32(prm::dword_byte_offset<iseg::nic_interface>()) >> 8) & 7);
}

uint32_t InitSegment::take_doorbell()
{
	return bar_.exchange32(prm::dword_byte_offset<iseg::command_doorbell_vector>(), 0);
}

} // namespace cxprm::emu
