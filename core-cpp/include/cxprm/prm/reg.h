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

#include <cxprm/prm/layouts_gen.h>

#include "flex.h"
#include "transport.h"

namespace cxprm::prm {

/*
 * access_register_in: register_data[]: the register, in 32-bit words after
 * the fixed part.
 */

/* ACCESS_REG op_mod (MLX5_ACCESS_REGISTER_IN_OP_MOD_*). */
namespace access_reg_op {
enum : u16 { WRITE = 0, READ = 1 };
}

/*
 * register_host_endianness: HOST_ENDIANNESS: he = 1 for a big-endian host
 * (Linux writes the byte 0x80 there, MLX5_SET_HOST_ENDIANNESS), 0 for
 * little-endian.
 */

/*
 * pcam_reg: PCAM (ports capability mask): the read names a feature group and an
 * access-register group in the input; the output has bit masks of the port
 * registers and enhanced features of that group.
 */

/*
 * mcam_reg: MCAM (management capability mask); mlx5_core reads access-register
 * groups 0, 1 and 2 (registers 0x9000-0x907f, 0x9080-0x90ff,
 * 0x9100-0x917f) with feature group 0.
 */

/*
 * mcam_access_reg: mcam_reg.mng_access_reg_cap_mask of access-register
 * group 0.
 */

/*
 * default_timeout: one DTOR timeout: to_value in ms, s, min or h for
 * to_multiplier 0, 1, 2, 3 (lib/tout.c).
 */

/*
 * dtor_reg: DTOR (default timeouts register): each field is a
 * default_timeout.
 */

/*
 * paos_reg: PAOS (ports administrative and operational status):
 * admin_status 1 up, 2 down (MLX5_PORT_UP/DOWN); a write takes admin_status
 * with ase set.
 */

/*
 * ptys_reg: PTYS (port type and speed): proto_mask 4 = Ethernet
 * (MLX5_PTYS_EN).
 */

/*
 * pmtu_reg: PMTU (port MTU): max_mtu and oper_mtu read-only, admin_mtu
 * writable.
 */

/*
 * ppcnt_reg: PPCNT (port performance counters): grp selects the counter group
 * (0 = IEEE 802.3, MLX5_IEEE_802_3_COUNTERS_GROUP), counter_set holds it;
 * clr set clears the group's counters after the read.
 */

/*
 * eth_802_3_cntrs_grp_data_layout: PPCNT group 0: the IEEE 802.3 counters,
 * 64-bit values in _high/_low.
 */

/*
 * qcam_reg: QCAM (QoS capability mask), like PCAM for the QoS registers
 * 0x4000..
 */

/*
 * mcia_reg: MCIA (management cable info access): size bytes at
 * device_address of page page_number of the module's i2c device
 * i2c_device_address (0x50 or 0x51, MLX5_I2C_ADDR_LOW/HIGH); the data in
 * dwords, big-endian.  status is the module's answer (0 good).
 */

/*
 * mtrc_cap: MTRC_CAP (firmware tracer capabilities); trace_owner is written
 * by the function that takes the tracer (Linux diag/fw_tracer.c).
 * string_db_param is 8 entries of {string_db_base_address, string_db_size}
 * (mtrc_string_db_param).
 */

/*
 * mgir_reg: MGIR (management general information): hardware, firmware and
 * software identity.  Not in the 6.1 mlx5_ifc.h (Linux never reads it).
 * Placed in layouts.sel from the field facts of mstflint's generated register
 * layouts (tools_layouts/reg_access_hca_layouts.h, reg_access_hca_mgir_ext:
 * 160 bytes, hw_info at 0x0, fw_info at 0x20, sw_info at 0x60, dev_info at
 * 0x80), flattened: the hardware fields keep their names, the firmware and
 * software ones take fw_/sw_ (psid, ini_file_version and extended_* are
 * firmware's).  mstflint numbers bits from the dword's LSB; the offsets
 * here are converted to mlx5_ifc.h's MSB-first numbering.  dev_info is not
 * declared.  The id 0x9020 is mstflint's too.  The cross-check reports it
 * as not in the header.  PROVISIONAL: no firmware has confirmed it here.
 */

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
