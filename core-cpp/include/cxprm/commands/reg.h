/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ACCESS_REG (prm/reg.h): read or write one register.  The message is the
 * 16-byte access_register_in/out header followed by the register's bytes,
 * in both directions (as mlx5_core's mlx5_access_reg sends it).
 */
#pragma once

#include "common.h"

namespace cxprm::cmd {

/*
 * The largest register this interface moves (bytes): PPCNT's 256 (both
 * message buffers are on the stack: 2 x 272 bytes).  cmd_reg.cpp checks
 * that every register of the table (prm/reg.h) fits.
 */
inline constexpr u32 REG_MAX_BYTES = 256;

/*
 * ACCESS_REG of register 'reg_id' (prm::reg_id) with 'argument'.  write:
 * op_mod WRITE with data_in; else READ (data_in is still sent: PCAM and
 * MCAM take their group from it; nullptr sends zeros).  data_out (optional)
 * gets the register from the output.  bytes: the register's size, a
 * multiple of 4, at most REG_MAX_BYTES (E_INVAL otherwise).
 */
int access_reg(Cmdq &q, u16 reg_id, u32 argument, bool write, const void *data_in, void *data_out, u32 bytes,
	       CmdResult *res = nullptr);

/* HOST_ENDIANNESS write: he = 1 for a big-endian host (what Linux sends). */
int set_host_endianness(Cmdq &q, bool big_endian, CmdResult *res = nullptr);

/* The register data inside an access_register_out of outlen bytes. */
int decode_access_reg(const void *out, u32 outlen, const u8 **data, u32 *bytes);

} // namespace cxprm::cmd
