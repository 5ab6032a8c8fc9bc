/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Transport layouts: initialization segment, command queue entry, mailbox
 * block, generic command in/out headers.  The layouts (initial_seg,
 * health_buffer, cmd_queue_entry, cmd_if_box, cmd_in, cmd_out) are
 * generated from layouts.sel and mlx5_ifc.h (layouts_gen.h); here are the
 * constants the engine derives from them and the checks on those.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "../layout.h"

namespace cxprm::prm {

/*
 * initial_seg: the init segment at the start of the BAR.  mlx5_ifc.h places
 * clear_int at byte 0x100c; device.h's struct mlx5_init_seg puts clr_intx
 * at 0x200c.  We follow mlx5_ifc.h (see Documentation/prm-notes.rst).
 */

/*
 * cmd_exec_to and cmd_q_init_to (bytes 0xff8, 0xffc) are in a reserved range
 * of mlx5_ifc.h; device.h's struct mlx5_init_seg names them and Linux
 * lib/tout.c reads them: bits 31:29 the unit (0 ms, 1 s, 2 min, 3 h), bits
 * 19:0 the value; cmd_q_init_to == 0 means the device publishes neither.
 */
inline constexpr u32 ISEG_TO_UNIT_SHIFT = 29;

/*
 * fw_reset_supported (bit 0xfe1) is reserved in mlx5_ifc.h; device.h names
 * it (MLX5_FW_RESET_SUPPORTED_OFFSET = 30 of the initializing dword) and
 * Linux health.c reset_fw_if_needed() reads it: the function may ask for a
 * firmware reset by writing nic_interface SW_RESET (7).
 */
static_assert(initial_seg::fw_reset_supported::offset == 0xfe0 + 31 - 30);
inline constexpr u32 ISEG_TO_VALUE_MASK = 0xfffff;

/* Byte offsets of the init-segment dwords the engine touches through MMIO. */
namespace iseg {
inline constexpr u32 FW_REV = initial_seg::fw_rev_minor::offset / 8;
inline constexpr u32 CMDIF_REV = initial_seg::cmd_interface_rev::offset / 8;
inline constexpr u32 CMDQ_ADDR_H = initial_seg::cmdq_phy_addr_63_32::offset / 8;
inline constexpr u32 CMDQ_ADDR_L_SZ = initial_seg::cmdq_phy_addr_31_12::offset / 8;
inline constexpr u32 DOORBELL = initial_seg::command_doorbell_vector::offset / 8;
inline constexpr u32 INITIALIZING = initial_seg::initializing::offset / 32 * 4;
inline constexpr u32 HEALTH = initial_seg::health_buffer::offset / 8;
inline constexpr u32 CMD_EXEC_TO = initial_seg::cmd_exec_to::offset / 8;
inline constexpr u32 CMD_Q_INIT_TO = initial_seg::cmd_q_init_to::offset / 8;
static_assert(CMD_EXEC_TO == 0xff8 && CMD_Q_INIT_TO == 0xffc, "struct mlx5_init_seg");
inline constexpr u32 HEALTH_COUNTER = initial_seg::health_syndrome::offset / 8;
inline constexpr u32 SIZE = initial_seg::size_bytes;
/*
 * The NIC interface state as Linux reads it (mlx5_get_nic_state): three
 * bits, 10:8, of the cmdq_phy_addr_31_12 dword.  mlx5_ifc.h names only the
 * low two (nic_interface); SW_RESET is 7, so the third bit matters.
 */
inline constexpr u32 NIC_STATE_SHIFT = 8;
inline constexpr u32 NIC_STATE_MASK = 7;
static_assert(initial_seg::nic_interface::offset == 0xa0 + 32 - NIC_STATE_SHIFT - 2);
} // namespace iseg

/* cmd_if_box: a mailbox block: 512 data bytes, then the chain control words. */

/*
 * cmd_in, cmd_out: the header every command message starts with
 * (mlx5_ifc.h mbox_in / mbox_out): opcode and op_mod, and the uid of a
 * user context where the command takes one, in every *_in layout; status
 * and syndrome in every *_out layout (each layout names them in
 * layouts.sel).  mlx5_ifc.h's mbox_in has uid; its cmd_in leaves bits
 * 0x10..0x1f reserved and most commands name them uid (e.g.
 * create_dct_in), so cmd_in does too (layouts.sel places it).  Many
 * commands then name an object by its 24-bit number in dword 2 (the cqn,
 * qpn, dctn, ... that a command names or a create returns).
 */

/* Transport constants. */
inline constexpr u8 CMD_TYPE_PCIE = 0x7;        /* cmd_queue_entry.type */
inline constexpr u32 CMDIF_REV = 5;             /* initial_seg.cmd_interface_rev */
inline constexpr u32 INLINE_BYTES = 16;         /* command_*_inline_data */
inline constexpr u32 MAILBOX_DATA = 512;        /* cmd_if_box.mailbox_data */
inline constexpr u32 MAILBOX_SIZE = cmd_if_box::size_bytes; /* 576 */
inline constexpr u32 MAILBOX_ALIGN = 1024;      /* next_pointer_31_10 */
inline constexpr u32 MAX_CMDQ_ENTRIES = 32;     /* command_doorbell_vector */
inline constexpr u32 ADAPTER_PAGE_SIZE = 4096;

/* Blocks needed for a message of len bytes (the first 16 travel inline). */
constexpr u32 mailbox_blocks(u32 len)
{
	return len <= INLINE_BYTES ? 0 : (len - INLINE_BYTES + MAILBOX_DATA - 1) / MAILBOX_DATA;
}

} // namespace cxprm::prm
