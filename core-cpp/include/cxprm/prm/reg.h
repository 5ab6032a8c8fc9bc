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
 * all of these).
 */
#pragma once

#include "flex.h"

namespace cxprm::prm {

#define CXPRM_ACCESS_REGISTER_IN(F)                                            \
	F(opcode, 0x0, 0x10)                                                   \
	F(op_mod, 0x30, 0x10)                                                  \
	F(register_id, 0x50, 0x10)                                             \
	F(argument, 0x60, 0x20)
CXPRM_LAYOUT(access_register_in, 0x80, CXPRM_ACCESS_REGISTER_IN)

#define CXPRM_ACCESS_REGISTER_OUT(F)                                           \
	F(status, 0x0, 8)                                                      \
	F(syndrome, 0x20, 0x20)
CXPRM_LAYOUT(access_register_out, 0x80, CXPRM_ACCESS_REGISTER_OUT)

/* register_data[]: the register, in 32-bit words after the fixed part. */
using access_register_in_data = Tail<access_register_in, 0x20>;
using access_register_out_data = Tail<access_register_out, 0x20>;

/* ACCESS_REG op_mod (MLX5_ACCESS_REGISTER_IN_OP_MOD_*). */
namespace access_reg_op {
enum : u16 { WRITE = 0, READ = 1 };
}

/* Register ids (enum mlx5_reg_ids of driver.h, 6.1). */
namespace reg_id {
enum : u16 {
	PCAM = 0x507f,
	HOST_ENDIANNESS = 0x7004,
	MCAM = 0x907f,
	DTOR = 0xc00e,
};
}

/* "HOST_ENDIANNESS" for 0x7004; nullptr for a register not listed above. */
const char *register_name(u16 id);

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

} // namespace cxprm::prm
