/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Firmware health as Linux's mlx5_core (health.c) judges it.
 *
 * Fatal ("sensors", checked in this order, as mlx5_health_check_fatal_sensors):
 *   - the health buffer's fw_version (or fw_rev) reads all ones: the device
 *     is gone (surprise removal, PCI channel offline)        -> E_NODEV
 *   - nic_interface (cmdq_addr_l_sz bits 10:8) is DISABLED (1) or
 *     SW_RESET (7): firmware disabled the function or is resetting it
 *   - the health buffer has rfr (reset required) and a syndrome
 *                                                             -> E_HOSTDOWN
 * Reported only (a warning, the device keeps working):
 *   - a syndrome without rfr (e.g. HIGH_TEMP, an assert firmware survived)
 *   - the health counter unchanged for health_stall_polls polls in a row
 * initial_seg.health_syndrome (0x1010 bits 31:24) is never read: Linux
 * never reads it and rdma-core masks it off.
 */
#pragma once

#include "host.h"
#include "types.h"

namespace cxprm {

enum class HealthSensor : u8 {
	NONE = 0,
	PCI_COMM_ERR = 1, /* health buffer fw_version / fw_rev read all ones */
	NIC_DISABLED = 2, /* nic_interface == DISABLED */
	NIC_SW_RESET = 3, /* nic_interface == SW_RESET */
	FW_SYND_RFR = 4,  /* health buffer rfr && synd */
};

/* nic_interface values as Linux reads them (3 bits at cmdq_addr_l_sz 10:8). */
namespace nic_ifc {
enum : u8 { FULL = 0, DISABLED = 1, NO_DRAM_NIC = 2, SW_RESET = 7 };
}

/* One read of everything the health check looks at. */
struct HealthRead {
	u32 fw_rev;     /* init segment dword 0 */
	u32 fw_version; /* health buffer */
	u8 nic_state;   /* cmdq_addr_l_sz bits 10:8 */
	u8 synd;        /* health buffer */
	u8 rfr;
	u8 severity;
	u16 ext_synd;
	u32 counter;    /* initial_seg.health_counter (24 bits) */
};

HealthRead health_read(const cxprm_host *h);
/* The first fatal sensor that fires, or NONE. */
HealthSensor health_fatal_sensor(const HealthRead &r);
/* E_NODEV for PCI_COMM_ERR, E_HOSTDOWN for the others, OK for NONE. */
int health_sensor_err(HealthSensor s);
const char *health_sensor_name(HealthSensor s);
const char *nic_state_name(u8 state);

} // namespace cxprm
