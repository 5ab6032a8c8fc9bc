/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the emulator's adapter profiles hold (tools/emulator/src/profiles.cpp),
 * written out independently so the tests check the emulator against them.
 */
#ifndef CXPRM_SELFTEST_PROFILES_H
#define CXPRM_SELFTEST_PROFILES_H

#include <stdint.h>

#include "emuctl/emuctl.h"	/* tools/emulator/emuctl */

/* --- what the emulator's profiles hold ------------------------------------- */

struct cap_field {
	const char *name;
	unsigned int off, width; /* bits, as in mlx5_ifc.h */
};

/* cmd_hca_cap fields (layout dump of core-cpp/include/cxprm/prm/hca_cap.h) */
#define CAPF(n, o, w) static const struct cap_field CAP_##n = { #n, o, w }
CAPF(hca_cap_2, 32, 1);
CAPF(log_max_srq_sz, 128, 8);
CAPF(log_max_qp_sz, 136, 8);
CAPF(log_max_qp, 155, 5);
CAPF(ece_support, 163, 1);
CAPF(log_max_srq, 171, 5);
CAPF(log_max_cq_sz, 200, 8);
CAPF(log_max_cq, 219, 5);
CAPF(log_max_eq_sz, 224, 8);
CAPF(log_max_mkey, 234, 6);
CAPF(log_max_eq, 252, 4);
CAPF(release_all_pages, 325, 1);
CAPF(max_qp_cnt, 390, 10);
CAPF(vport_group_manager, 416, 1);
CAPF(eswitch_manager, 423, 1);
CAPF(port_type, 438, 2);
CAPF(num_ports, 440, 8);
CAPF(log_max_msg, 451, 5);
CAPF(max_tc, 460, 4);
CAPF(cmdif_checksum, 528, 2);
CAPF(dct, 538, 1);
CAPF(uar_sz, 586, 6);
CAPF(log_pg_sz, 600, 8);
CAPF(log_max_transport_domain, 803, 5);
CAPF(log_max_pd, 811, 5);
CAPF(log_max_xrcd, 827, 5);
CAPF(device_frequency_mhz, 1216, 32);
CAPF(device_frequency_khz, 1248, 32);
CAPF(nvmf_target_offload, 1282, 1);
#undef CAPF
/* e_switch_cap / nvmf_cap */
static const struct cap_field ESWCAP_esw_functions_changed = { "esw_functions_changed", 25, 1 };
static const struct cap_field NVMFCAP_frontend_namespace_context = { "frontend_namespace_context", 58, 1 };
static const struct cap_field NVMFCAP_last_req_latency = { "last_req_latency", 9, 1 };

struct cap_expect {
	const struct cap_field *f;
	uint32_t max, cur;
};

struct emu_profile {
	const char *name;
	uint16_t device_id;                 /* control page DEVICE_ID */
	uint16_t fw_major, fw_minor, fw_subminor;
	uint16_t total_vfs;
	uint16_t esw_pci_bus;
	uint32_t first_dctn, max_dcts;
	uint32_t first_xrqn, num_xrqs;
	uint32_t boot_pages, init_pages;
	struct cap_expect caps[32];         /* general caps, MAX and CUR */
};

/*
 * Fields the core's bring-up never changes with SET_HCA_CAP (it may change
 * cmdif_checksum, uar_4k, pkey_table_size, cache_line_128byte): CUR is the
 * profile's; release_all_pages it takes (MAX has it), as Linux does.
 */
#define COMMON_CAPS \
	{ &CAP_log_max_srq_sz, 15, 15 }, { &CAP_log_max_qp_sz, 15, 15 }, \
	{ &CAP_log_max_srq, 23, 23 }, { &CAP_log_max_cq_sz, 22, 22 }, \
	{ &CAP_log_max_cq, 24, 24 }, { &CAP_log_max_eq_sz, 22, 22 }, \
	{ &CAP_log_max_mkey, 24, 24 }, { &CAP_release_all_pages, 1, 1 }, \
	{ &CAP_max_qp_cnt, 64, 64 }, { &CAP_vport_group_manager, 1, 1 }, \
	{ &CAP_eswitch_manager, 1, 1 }, { &CAP_port_type, 1, 1 }, \
	{ &CAP_num_ports, 1, 1 }, { &CAP_log_max_msg, 30, 30 }, \
	{ &CAP_max_tc, 8, 8 }, { &CAP_dct, 1, 1 }, { &CAP_uar_sz, 6, 6 }, \
	{ &CAP_log_pg_sz, 12, 12 }, { &CAP_log_max_transport_domain, 20, 20 }, \
	{ &CAP_log_max_pd, 23, 23 }, { &CAP_log_max_xrcd, 24, 24 }, \
	{ &CAP_nvmf_target_offload, 1, 1 }

/* ConnectX-7 firmware, resources and caps: Profile::connectx7() and bluefield3(). */
#define CX7_BODY(fw_major_, esw_pci_bus_) \
	.fw_major = fw_major_, .fw_minor = 39, .fw_subminor = 1002, \
	.total_vfs = 16, .esw_pci_bus = esw_pci_bus_, \
	.first_dctn = 0x1000, .max_dcts = 256, \
	.first_xrqn = 0x80, .num_xrqs = 64, \
	.boot_pages = 32, .init_pages = 4096, \
	.caps = { \
		COMMON_CAPS, \
		{ &CAP_log_max_qp, 20, 20 }, { &CAP_log_max_eq, 8, 8 }, \
		{ &CAP_hca_cap_2, 1, 1 }, { &CAP_ece_support, 1, 1 }, \
		{ &CAP_device_frequency_khz, 1000000, 1000000 }, \
		{ &CAP_device_frequency_mhz, 1000, 1000 }, \
	}

static const struct emu_profile emu_profiles[] = {
	/* Profile::bluefield3(): ConnectX-7 caps, an ECPF (embedded_cpu). */
	{ .name = "BlueField-3", .device_id = 0xa2dc, CX7_BODY(32, 0x81) },
	{ .name = "ConnectX-7", .device_id = 0x1021, CX7_BODY(28, 0x41) },
	{
		.name = "ConnectX-5", .device_id = 0x1017,
		.fw_major = 16, .fw_minor = 35, .fw_subminor = 2000,
		.total_vfs = 8, .esw_pci_bus = 0x03,
		.first_dctn = 0x100, .max_dcts = 64,
		.first_xrqn = 0x40, .num_xrqs = 16,
		.boot_pages = 24, .init_pages = 1024,
		.caps = {
			COMMON_CAPS,
			{ &CAP_log_max_qp, 18, 17 }, { &CAP_log_max_eq, 7, 7 },
			{ &CAP_hca_cap_2, 0, 0 }, { &CAP_ece_support, 0, 0 },
			{ &CAP_device_frequency_khz, 156250, 156250 },
			{ &CAP_device_frequency_mhz, 156, 156 },
		},
	},
};

/* The profile the daemon runs (control page DEVICE_ID), or NULL. */
static inline const struct emu_profile *emu_profile_of(struct emuctl *e)
{
	uint32_t id = emuctl_rd(e, CXPRM_EMUD_CTRL_DEVICE_ID);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(emu_profiles); i++)
		if (emu_profiles[i].device_id == id)
			return &emu_profiles[i];
	return NULL;
}

/* The profile by firmware version (when there is no control page). */
static inline const struct emu_profile *emu_profile_by_fw(uint16_t major)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(emu_profiles); i++)
		if (emu_profiles[i].fw_major == major)
			return &emu_profiles[i];
	return NULL;
}

#endif /* CXPRM_SELFTEST_PROFILES_H */
