/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ACCESS_REG (0x805) and the registers cxprm and mlx5_core use through it.
 *
 * access_register_in/out carry the register's own layout right after their
 * fixed part (mlx5_ifc.h: "u8 register_data[][0x20]"), so a message is
 * 16 bytes + the register's size in both directions: HOST_ENDIANNESS 16
 * (32/32 bytes), PCAM 80 (96/96), MCAM 72 (88/88), DTOR 64 (80/80).
 * op_mod 0 writes the register, 1 reads it (access_reg_op); register_id is
 * the register's 16-bit id (reg_id), argument is register specific (0 for
 * all of these).  The register table (CXPRM_REGISTERS) is at the end, after
 * the layouts it names.
 */
#pragma once

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

#define CXPRM_ACCESS_REGISTER_IN(F)                                            \
	CXPRM_CMD_IN_HDR(F)                                                    \
	F(register_id, 0x50, 0x10)                                             \
	F(argument, 0x60, 0x20)
CXPRM_LAYOUT(access_register_in, 0x80, CXPRM_ACCESS_REGISTER_IN)
CXPRM_LAYOUT(access_register_out, 0x80, CXPRM_CMD_OUT_HDR)

/* register_data[]: the register, in 32-bit words after the fixed part. */
using access_register_in_data = Tail<access_register_in, 0x20>;
using access_register_out_data = Tail<access_register_out, 0x20>;

/* ACCESS_REG op_mod (MLX5_ACCESS_REGISTER_IN_OP_MOD_*). */
namespace access_reg_op {
enum : u16 { WRITE = 0, READ = 1 };
}


/*
 * HOST_ENDIANNESS: he = 1 for a big-endian host (Linux writes the byte 0x80
 * there, MLX5_SET_HOST_ENDIANNESS), 0 for little-endian.
 */
#define CXPRM_REGISTER_HOST_ENDIANNESS(F)                                      \
	F(he, 0x0, 1)
CXPRM_LAYOUT(register_host_endianness, 0x80, CXPRM_REGISTER_HOST_ENDIANNESS)

/*
 * PCAM (ports capability mask): the read names a feature group and an
 * access-register group in the input; the output has bit masks of the port
 * registers and enhanced features of that group.
 */
#define CXPRM_PCAM_REG(F)                                                      \
	F(feature_group, 0x8, 8)                                               \
	F(access_reg_group, 0x18, 8)                                           \
	F(port_access_reg_cap_mask, 0x40, 0x80)                                \
	F(feature_cap_mask, 0x140, 0x80)
CXPRM_LAYOUT(pcam_reg, 0x280, CXPRM_PCAM_REG)

/*
 * MCAM (management capability mask); mlx5_core reads access-register
 * groups 0, 1 and 2 (registers 0x9000-0x907f, 0x9080-0x90ff,
 * 0x9100-0x917f) with feature group 0.
 */
#define CXPRM_MCAM_REG(F)                                                      \
	F(feature_group, 0x8, 8)                                               \
	F(access_reg_group, 0x18, 8)                                           \
	F(mng_access_reg_cap_mask, 0x40, 0x80)                                 \
	F(mng_feature_cap_mask, 0x140, 0x80)
CXPRM_LAYOUT(mcam_reg, 0x240, CXPRM_MCAM_REG)

/* mcam_reg.mng_access_reg_cap_mask of access-register group 0. */
#define CXPRM_MCAM_ACCESS_REG(F)                                               \
	F(mcda, 0x1c, 1)                                                       \
	F(mcc, 0x1d, 1)                                                        \
	F(mcqi, 0x1e, 1)                                                       \
	F(mcqs, 0x1f, 1)                                                       \
	F(mpegc, 0x29, 1)                                                      \
	F(mtutc, 0x2a, 1)                                                      \
	F(tracer_registers, 0x3c, 4)                                           \
	F(mrtc, 0x52, 1)
CXPRM_LAYOUT(mcam_access_reg, 0x80, CXPRM_MCAM_ACCESS_REG)

/* One DTOR timeout: to_value in ms, s, min or h for to_multiplier 0, 1, 2, 3 (lib/tout.c). */
#define CXPRM_DEFAULT_TIMEOUT(F)                                               \
	F(to_multiplier, 0x0, 3)                                               \
	F(to_value, 0xc, 0x14)
CXPRM_LAYOUT(default_timeout, 0x20, CXPRM_DEFAULT_TIMEOUT)

/* DTOR (default timeouts register): each field is a default_timeout. */
#define CXPRM_DTOR_REG(F)                                                      \
	F(pcie_toggle_to, 0x20, 0x20)                                          \
	F(health_poll_to, 0xa0, 0x20)                                          \
	F(full_crdump_to, 0xc0, 0x20)                                          \
	F(fw_reset_to, 0xe0, 0x20)                                             \
	F(flush_on_err_to, 0x100, 0x20)                                        \
	F(pci_sync_update_to, 0x120, 0x20)                                     \
	F(tear_down_to, 0x140, 0x20)                                           \
	F(fsm_reactivate_to, 0x160, 0x20)                                      \
	F(reclaim_pages_to, 0x180, 0x20)                                       \
	F(reclaim_vfs_pages_to, 0x1a0, 0x20)
CXPRM_LAYOUT(dtor_reg, 0x200, CXPRM_DTOR_REG)

/*
 * PAOS (ports administrative and operational status): admin_status 1 up,
 * 2 down (MLX5_PORT_UP/DOWN); a write takes admin_status with ase set.
 */
#define CXPRM_PAOS_REG(F)                                                      \
	F(swid, 0x0, 8)                                                        \
	F(local_port, 0x8, 8)                                                  \
	F(admin_status, 0x14, 4)                                               \
	F(oper_status, 0x1c, 4)                                                \
	F(ase, 0x20, 1)                                                        \
	F(ee, 0x21, 1)                                                         \
	F(e, 0x3e, 2)
CXPRM_LAYOUT(paos_reg, 0x80, CXPRM_PAOS_REG)

/* PTYS (port type and speed): proto_mask 4 = Ethernet (MLX5_PTYS_EN). */
#define CXPRM_PTYS_REG(F)                                                      \
	F(an_disable_admin, 0x1, 1)                                            \
	F(an_disable_cap, 0x2, 1)                                              \
	F(local_port, 0x8, 8)                                                  \
	F(proto_mask, 0x1d, 3)                                                 \
	F(an_status, 0x20, 4)                                                  \
	F(data_rate_oper, 0x30, 0x10)                                          \
	F(ext_eth_proto_capability, 0x40, 0x20)                                \
	F(eth_proto_capability, 0x60, 0x20)                                    \
	F(ib_link_width_capability, 0x80, 0x10)                                \
	F(ib_proto_capability, 0x90, 0x10)                                     \
	F(ext_eth_proto_admin, 0xa0, 0x20)                                     \
	F(eth_proto_admin, 0xc0, 0x20)                                         \
	F(ib_link_width_admin, 0xe0, 0x10)                                     \
	F(ib_proto_admin, 0xf0, 0x10)                                          \
	F(ext_eth_proto_oper, 0x100, 0x20)                                     \
	F(eth_proto_oper, 0x120, 0x20)                                         \
	F(ib_link_width_oper, 0x140, 0x10)                                     \
	F(ib_proto_oper, 0x150, 0x10)                                          \
	F(connector_type, 0x17c, 4)                                            \
	F(eth_proto_lp_advertise, 0x180, 0x20)
CXPRM_LAYOUT(ptys_reg, 0x200, CXPRM_PTYS_REG)

/* PMTU (port MTU): max_mtu and oper_mtu read-only, admin_mtu writable. */
#define CXPRM_PMTU_REG(F)                                                      \
	F(local_port, 0x8, 8)                                                  \
	F(max_mtu, 0x20, 0x10)                                                 \
	F(admin_mtu, 0x40, 0x10)                                               \
	F(oper_mtu, 0x60, 0x10)
CXPRM_LAYOUT(pmtu_reg, 0x80, CXPRM_PMTU_REG)

/*
 * PPCNT (port performance counters): grp selects the counter group
 * (0 = IEEE 802.3, MLX5_IEEE_802_3_COUNTERS_GROUP), counter_set holds it;
 * clr set clears the group's counters after the read.
 */
#define CXPRM_PPCNT_REG(F)                                                     \
	F(swid, 0x0, 8)                                                        \
	F(local_port, 0x8, 8)                                                  \
	F(pnat, 0x10, 2)                                                       \
	F(grp, 0x1a, 6)                                                        \
	F(clr, 0x20, 1)                                                        \
	F(prio_tc, 0x3d, 3)                                                    \
	F(counter_set, 0x40, 0x7c0)
CXPRM_LAYOUT(ppcnt_reg, 0x800, CXPRM_PPCNT_REG)

/* PPCNT group 0: the IEEE 802.3 counters, 64-bit values in _high/_low. */
#define CXPRM_ETH_802_3_CNTRS_GRP_DATA_LAYOUT(F)                               \
	F(a_frames_transmitted_ok_high, 0x0, 0x20) \
	F(a_frames_transmitted_ok_low, 0x20, 0x20) \
	F(a_frames_received_ok_high, 0x40, 0x20) \
	F(a_frames_received_ok_low, 0x60, 0x20) \
	F(a_frame_check_sequence_errors_high, 0x80, 0x20) \
	F(a_frame_check_sequence_errors_low, 0xa0, 0x20) \
	F(a_alignment_errors_high, 0xc0, 0x20) \
	F(a_alignment_errors_low, 0xe0, 0x20) \
	F(a_octets_transmitted_ok_high, 0x100, 0x20) \
	F(a_octets_transmitted_ok_low, 0x120, 0x20) \
	F(a_octets_received_ok_high, 0x140, 0x20) \
	F(a_octets_received_ok_low, 0x160, 0x20) \
	F(a_multicast_frames_xmitted_ok_high, 0x180, 0x20) \
	F(a_multicast_frames_xmitted_ok_low, 0x1a0, 0x20) \
	F(a_broadcast_frames_xmitted_ok_high, 0x1c0, 0x20) \
	F(a_broadcast_frames_xmitted_ok_low, 0x1e0, 0x20) \
	F(a_multicast_frames_received_ok_high, 0x200, 0x20) \
	F(a_multicast_frames_received_ok_low, 0x220, 0x20) \
	F(a_broadcast_frames_received_ok_high, 0x240, 0x20) \
	F(a_broadcast_frames_received_ok_low, 0x260, 0x20) \
	F(a_in_range_length_errors_high, 0x280, 0x20) \
	F(a_in_range_length_errors_low, 0x2a0, 0x20) \
	F(a_out_of_range_length_field_high, 0x2c0, 0x20) \
	F(a_out_of_range_length_field_low, 0x2e0, 0x20) \
	F(a_frame_too_long_errors_high, 0x300, 0x20) \
	F(a_frame_too_long_errors_low, 0x320, 0x20) \
	F(a_symbol_error_during_carrier_high, 0x340, 0x20) \
	F(a_symbol_error_during_carrier_low, 0x360, 0x20) \
	F(a_mac_control_frames_transmitted_high, 0x380, 0x20) \
	F(a_mac_control_frames_transmitted_low, 0x3a0, 0x20) \
	F(a_mac_control_frames_received_high, 0x3c0, 0x20) \
	F(a_mac_control_frames_received_low, 0x3e0, 0x20) \
	F(a_unsupported_opcodes_received_high, 0x400, 0x20) \
	F(a_unsupported_opcodes_received_low, 0x420, 0x20) \
	F(a_pause_mac_ctrl_frames_received_high, 0x440, 0x20) \
	F(a_pause_mac_ctrl_frames_received_low, 0x460, 0x20) \
	F(a_pause_mac_ctrl_frames_transmitted_high, 0x480, 0x20) \
	F(a_pause_mac_ctrl_frames_transmitted_low, 0x4a0, 0x20)
CXPRM_LAYOUT(eth_802_3_cntrs_grp_data_layout, 0x7c0, CXPRM_ETH_802_3_CNTRS_GRP_DATA_LAYOUT)

/* QCAM (QoS capability mask), like PCAM for the QoS registers 0x4000.. */
#define CXPRM_QCAM_REG(F)                                                      \
	F(feature_group, 0x8, 8)                                               \
	F(access_reg_group, 0x18, 8)                                           \
	F(qos_access_reg_cap_mask, 0x40, 0x80)                                 \
	F(qos_feature_cap_mask, 0x140, 0x80)
CXPRM_LAYOUT(qcam_reg, 0x240, CXPRM_QCAM_REG)

/*
 * MCIA (management cable info access): size bytes at device_address of
 * page page_number of the module's i2c device i2c_device_address (0x50 or
 * 0x51, MLX5_I2C_ADDR_LOW/HIGH); the data in dwords, big-endian.  status
 * is the module's answer (0 good).
 */
#define CXPRM_MCIA_REG(F)                                                      \
	F(l, 0x0, 1)                                                           \
	F(module, 0x8, 8)                                                      \
	F(status, 0x18, 8)                                                     \
	F(i2c_device_address, 0x20, 8)                                         \
	F(page_number, 0x28, 8)                                                \
	F(device_address, 0x30, 0x10)                                          \
	F(size, 0x50, 0x10)                                                    \
	F(dwords, 0x80, 0x400)
CXPRM_LAYOUT(mcia_reg, 0x480, CXPRM_MCIA_REG)

/*
 * MTRC_CAP (firmware tracer capabilities); trace_owner is written by the
 * function that takes the tracer (Linux diag/fw_tracer.c).  string_db_param
 * is 8 entries of {string_db_base_address, string_db_size} (mtrc_string_db_param).
 */
#define CXPRM_MTRC_CAP(F)                                                      \
	F(trace_owner, 0x0, 1)                                                 \
	F(trace_to_memory, 0x1, 1)                                             \
	F(trc_ver, 0x6, 2)                                                     \
	F(num_string_db, 0x1c, 4)                                              \
	F(first_string_trace, 0x20, 8)                                         \
	F(num_string_trace, 0x28, 8)                                           \
	F(log_max_trace_buffer_size, 0x58, 8)                                  \
	F(string_db_param, 0x80, 0x200)
CXPRM_LAYOUT(mtrc_cap, 0x400, CXPRM_MTRC_CAP)

/*
 * MGIR (management general information): hardware, firmware and software
 * identity.  Not in the 6.1 mlx5_ifc.h (Linux never reads it).  Declared by
 * hand from the field facts of mstflint's generated register layouts
 * (tools_layouts/reg_access_hca_layouts.h, reg_access_hca_mgir_ext: 160
 * bytes, hw_info at 0x0, fw_info at 0x20, sw_info at 0x60, dev_info at
 * 0x80), flattened: the hardware fields keep their names, the firmware and
 * software ones take fw_/sw_ (psid, ini_file_version and extended_* are
 * firmware's).  mstflint numbers bits from the dword's LSB; the offsets
 * here are converted to mlx5_ifc.h's MSB-first numbering.  dev_info is not
 * declared.  The id 0x9020 is mstflint's too.  The cross-check lists it as
 * expected-absent.  PROVISIONAL: no firmware has confirmed it here.
 */
#define CXPRM_MGIR_REG(F)                                                      \
	F(device_hw_revision, 0x0, 0x10)                                       \
	F(device_id, 0x10, 0x10)                                               \
	F(num_ports, 0x28, 8)                                                  \
	F(technology, 0x30, 5)                                                 \
	F(pvs, 0x3b, 5)                                                        \
	F(hw_dev_id, 0x50, 0x10)                                               \
	F(manufacturing_base_mac_47_32, 0x90, 0x10)                            \
	F(manufacturing_base_mac_31_0, 0xa0, 0x20)                             \
	F(uptime, 0xe0, 0x20)                                                  \
	F(fw_dev_sc, 0x101, 1)                                                 \
	F(fw_string_tlv, 0x103, 1)                                             \
	F(fw_dev, 0x104, 1)                                                    \
	F(fw_debug, 0x105, 1)                                                  \
	F(fw_signed_fw, 0x106, 1)                                              \
	F(fw_secured, 0x107, 1)                                                \
	F(fw_major, 0x108, 8)                                                  \
	F(fw_minor, 0x110, 8)                                                  \
	F(fw_sub_minor, 0x118, 8)                                              \
	F(fw_build_id, 0x120, 0x20)                                            \
	F(fw_month, 0x140, 8)                                                  \
	F(fw_day, 0x148, 8)                                                    \
	F(fw_year, 0x150, 0x10)                                                \
	F(fw_hour, 0x170, 0x10)                                                \
	F(psid, 0x180, 0x80)                                                   \
	F(ini_file_version, 0x200, 0x20)                                       \
	F(extended_major, 0x220, 0x20)                                         \
	F(extended_minor, 0x240, 0x20)                                         \
	F(extended_sub_minor, 0x260, 0x20)                                     \
	F(fw_disabled_tiles_bitmap, 0x280, 0x10)                               \
	F(fw_isfu_major, 0x290, 0x10)                                          \
	F(fw_encryption, 0x2bc, 1)                                             \
	F(fw_sec_boot, 0x2bd, 1)                                               \
	F(fw_life_cycle, 0x2be, 2)                                             \
	F(sw_major, 0x308, 8)                                                  \
	F(sw_minor, 0x310, 8)                                                  \
	F(sw_sub_minor, 0x318, 8)
CXPRM_LAYOUT(mgir_reg, 0x500, CXPRM_MGIR_REG)

/*
 * The register table: X(name, id, layout, port, writable), in ascending id.
 * id is enum mlx5_reg_ids of driver.h (6.1) except MGIR (not there; the
 * id of mstflint's register list, provisional like mgir_reg), layout the
 * core's layout of the register data, port whether the register is indexed
 * by local_port (a field of its layout), writable whether firmware takes
 * an ACCESS_REG write of it (the PRM's RW registers: PAOS admin_status,
 * PTYS *_admin, PMTU admin_mtu, PPCNT clr, MTRC_CAP trace_owner, MCIA the
 * module EEPROM, HOST_ENDIANNESS he; the rest is read-only).
 */
#define CXPRM_REGISTERS(X)                                                     \
	X(QCAM, 0x4019, qcam_reg, false, false)                                \
	X(PMTU, 0x5003, pmtu_reg, true, true)                                  \
	X(PTYS, 0x5004, ptys_reg, true, true)                                  \
	X(PAOS, 0x5006, paos_reg, true, true)                                  \
	X(PPCNT, 0x5008, ppcnt_reg, true, true)                                \
	X(PCAM, 0x507f, pcam_reg, false, false)                                \
	X(HOST_ENDIANNESS, 0x7004, register_host_endianness, false, true)      \
	X(MCIA, 0x9014, mcia_reg, false, true)                                 \
	X(MGIR, 0x9020, mgir_reg, false, false)                                \
	X(MTRC_CAP, 0x9040, mtrc_cap, false, true)                             \
	X(MCAM, 0x907f, mcam_reg, false, false)                                \
	X(DTOR, 0xc00e, dtor_reg, false, false)

/* Register ids, from the table: reg_id::PTYS == 0x5004. */
namespace reg_id {
#define CXPRM_REG_ID_(n, id, l, port, w) n = id,
enum : u16 { CXPRM_REGISTERS(CXPRM_REG_ID_) };
#undef CXPRM_REG_ID_
}

/* One row of the register table. */
struct RegisterInfo {
	const char *name;
	u16 id;
	const LayoutDesc *layout;
	bool port;     /* indexed by local_port */
	bool writable; /* firmware takes a write */
};

/* The row of register id, or nullptr. */
const RegisterInfo *find_register(u16 id);
/* The row called name (case-insensitive: "ptys", "PTYS"), or nullptr. */
const RegisterInfo *find_register(const char *name);
/* Every row, in ascending id; *count gets their number. */
const RegisterInfo *all_registers(u32 *count);

/* "HOST_ENDIANNESS" for 0x7004; nullptr for a register not in the table. */
const char *register_name(u16 id);

} // namespace cxprm::prm
