/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Transport layouts: initialization segment, command queue entry, mailbox
 * block, generic command in/out headers.  Names, offsets and widths follow
 * mlx5_ifc.h (initial_seg, health_buffer, cmd_queue_entry, cmd_if_box,
 * cmd_in, cmd_out); the cross-check test holds them to the installed header.
 */
#pragma once

#include "../layout.h"

namespace cxprm::prm {

#define CXPRM_HEALTH_BUFFER(F)                                                 \
	F(assert_existptr, 0x100, 0x20)                                        \
	F(assert_callra, 0x120, 0x20)                                          \
	F(time, 0x160, 0x20)                                                   \
	F(fw_version, 0x180, 0x20)                                             \
	F(hw_id, 0x1a0, 0x20)                                                  \
	F(rfr, 0x1c0, 1)                                                       \
	F(valid, 0x1c4, 1)                                                     \
	F(severity, 0x1c5, 3)                                                  \
	F(irisc_index, 0x1e0, 8)                                               \
	F(synd, 0x1e8, 8)                                                      \
	F(ext_synd, 0x1f0, 0x10)
CXPRM_LAYOUT(health_buffer, 0x200, CXPRM_HEALTH_BUFFER)

/*
 * The init segment at the start of the BAR.  mlx5_ifc.h places clear_int at
 * byte 0x100c; device.h's struct mlx5_init_seg puts clr_intx at 0x200c.  We
 * follow mlx5_ifc.h (see Documentation/prm-notes.rst).
 */
#define CXPRM_INITIAL_SEG(F)                                                   \
	F(fw_rev_minor, 0x00, 0x10)                                            \
	F(fw_rev_major, 0x10, 0x10)                                            \
	F(cmd_interface_rev, 0x20, 0x10)                                       \
	F(fw_rev_subminor, 0x30, 0x10)                                         \
	F(cmdq_phy_addr_63_32, 0x80, 0x20)                                     \
	F(cmdq_phy_addr_31_12, 0xa0, 0x14)                                     \
	F(nic_interface, 0xb6, 2)                                              \
	F(log_cmdq_size, 0xb8, 4)                                              \
	F(log_cmdq_stride, 0xbc, 4)                                            \
	F(command_doorbell_vector, 0xc0, 0x20)                                 \
	F(initializing, 0xfe0, 1)                                              \
	F(fw_reset_supported, 0xfe1, 1)                                        \
	F(nic_interface_supported, 0xfe5, 3)                                   \
	F(embedded_cpu, 0xfe8, 1)                                              \
	F(health_buffer, 0x1000, 0x200)                                        \
	F(no_dram_nic_offset, 0x1200, 0x20)                                    \
	F(cmd_exec_to, 0x7fc0, 0x20)                                           \
	F(cmd_q_init_to, 0x7fe0, 0x20)                                         \
	F(clear_int, 0x807f, 1)                                                \
	F(health_syndrome, 0x8080, 8)                                          \
	F(health_counter, 0x8088, 0x18)
CXPRM_LAYOUT(initial_seg, 0x20060, CXPRM_INITIAL_SEG)

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

#define CXPRM_CMD_QUEUE_ENTRY(F)                                               \
	F(type, 0x00, 8)                                                       \
	F(input_length, 0x20, 0x20)                                            \
	F(input_mailbox_pointer_63_32, 0x40, 0x20)                             \
	F(input_mailbox_pointer_31_9, 0x60, 0x17)                              \
	F(command_input_inline_data, 0x80, 0x80)                               \
	F(command_output_inline_data, 0x100, 0x80)                             \
	F(output_mailbox_pointer_63_32, 0x180, 0x20)                           \
	F(output_mailbox_pointer_31_9, 0x1a0, 0x17)                            \
	F(output_length, 0x1c0, 0x20)                                          \
	F(token, 0x1e0, 8)                                                     \
	F(signature, 0x1e8, 8)                                                 \
	F(status, 0x1f8, 7)                                                    \
	F(ownership, 0x1ff, 1)
CXPRM_LAYOUT(cmd_queue_entry, 0x200, CXPRM_CMD_QUEUE_ENTRY)

/* A mailbox block: 512 data bytes, then the chain control words. */
#define CXPRM_CMD_IF_BOX(F)                                                    \
	F(mailbox_data, 0x0, 0x1000)                                           \
	F(next_pointer_63_32, 0x1180, 0x20)                                    \
	F(next_pointer_31_10, 0x11a0, 0x16)                                    \
	F(block_number, 0x11c0, 0x20)                                          \
	F(token, 0x11e8, 8)                                                    \
	F(ctrl_signature, 0x11f0, 8)                                           \
	F(signature, 0x11f8, 8)
CXPRM_LAYOUT(cmd_if_box, 0x1200, CXPRM_CMD_IF_BOX)

/*
 * The header every command message starts with (mlx5_ifc.h mbox_in /
 * mbox_out), defined once here: every *_in layout lists CXPRM_CMD_IN_HDR
 * (opcode, op_mod) or CXPRM_CMD_IN_UID_HDR (with the uid of a user
 * context), every *_out layout CXPRM_CMD_OUT_HDR (status, syndrome).
 * mlx5_ifc.h's mbox_in has uid; its cmd_in leaves bits 0x10..0x1f reserved
 * and most commands name them uid (e.g. create_dct_in), so cmd_in does too.
 */
#define CXPRM_CMD_IN_HDR_(F, uid_) F(opcode, 0x0, 0x10) uid_ F(op_mod, 0x30, 0x10)
#define CXPRM_CMD_IN_HDR(F) CXPRM_CMD_IN_HDR_(F, )
#define CXPRM_CMD_IN_UID_HDR(F) CXPRM_CMD_IN_HDR_(F, F(uid, 0x10, 0x10))
#define CXPRM_CMD_OUT_HDR(F) F(status, 0x0, 8) F(syndrome, 0x20, 0x20)

/*
 * The header and an object's 24-bit number in dword 2 (the cqn, qpn,
 * dctn, ... that a command names or a create returns), field name n.
 */
#define CXPRM_CMD_OBJ_(F, n) F(n, 0x48, 0x18)
#define CXPRM_CMD_IN_OBJ(F, n) CXPRM_CMD_IN_HDR(F) CXPRM_CMD_OBJ_(F, n)
#define CXPRM_CMD_IN_UID_OBJ(F, n) CXPRM_CMD_IN_UID_HDR(F) CXPRM_CMD_OBJ_(F, n)
#define CXPRM_CMD_OUT_OBJ(F, n) CXPRM_CMD_OUT_HDR(F) CXPRM_CMD_OBJ_(F, n)

/* The generic command headers (mlx5_ifc.h cmd_in, cmd_out). */
CXPRM_LAYOUT(cmd_in, 0x40, CXPRM_CMD_IN_UID_HDR)

#define CXPRM_CMD_OUT(F) CXPRM_CMD_OUT_HDR(F) F(command_output, 0x40, 0x20)
CXPRM_LAYOUT(cmd_out, 0x60, CXPRM_CMD_OUT)

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
