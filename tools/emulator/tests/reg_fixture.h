// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The ACCESS_REG test fixture of reg_test.cpp and reg_port_test.cpp: a
// register message by id, its register data, an emulator and a driver.
#pragma once

#include "cxprm/prm/reg.h"
#include "test_driver.h"

namespace cxprm::emu::test {

namespace rid = prm::reg_id;
namespace aop = prm::access_reg_op;

inline Msg reg_msg(uint16_t id, uint16_t op_mod, uint32_t reg_bytes)
{
	Msg m = make_in<prm::access_register_in>(op::ACCESS_REG, op_mod, reg_bytes);
	prm::set<prm::access_register_in::register_id>(m.as<prm::access_register_in>(), id);
	return m;
}

inline uint8_t *reg_data(Msg &m) { return m.b.data() + prm::access_register_in::size_bytes; }
inline const uint8_t *reg_data(const Answer &a) { return a.out.data() + prm::access_register_out::size_bytes; }

struct RegTest : ::testing::Test {
	FakePlatform plat{32u << 20};
	Profile prof = quiet();
	std::unique_ptr<Emulator> emu;
	std::unique_ptr<TestDriver> drv;
	void start()
	{
		emu = std::make_unique<Emulator>(plat, prof);
		drv = std::make_unique<TestDriver>(plat, *emu);
		drv->init_queue();
	}
	void SetUp() override {}
	Answer access(const Msg &m, uint32_t reg_bytes)
	{
		return drv->exec(m, prm::access_register_out::size_bytes + reg_bytes);
	}
	void enable() { ASSERT_EQ(drv->run<prm::enable_hca_out>(make_in<prm::enable_hca_in>(op::ENABLE_HCA)).status, st::OK); }
};

} // namespace cxprm::emu::test
