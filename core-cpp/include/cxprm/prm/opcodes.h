/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Command opcodes, op_mod values and event types.
 *
 * Opcode names and values are those of the MLX5_CMD_OP_* enum of
 * mlx5_ifc.h (6.1), without the prefix.  Entries marked "vendor" are absent
 * from the 6.1 header: QUERY_OTHER_HCA_CAP and the NVMF ones are in the
 * vendor's public out-of-tree mlx5_ifc.h (MLNX_OFED), the NVMF CC ones in
 * NVIDIA's NVMe SNAP headers and the upstream fwctl mlx5 allow-list.
 *
 * The third column says whether the opcode is a read-only query (R) or may
 * change device state (W), or that its op_mod decides (R_OPMOD1: a query
 * with op_mod 1, a write with any other); opcode_is_query() answers from
 * it.  Every opcode whose PRM name starts with QUERY_ is R; the only
 * R_OPMOD1 is ACCESS_REG, whose op_mod 1 reads the register and 0 writes it
 * (access_reg_op in reg.h; Linux's mlx5_core_access_reg sets op_mod =
 * !write), the rule fwctl's mlx5 driver (drivers/fwctl/mlx5/main.c) uses to
 * count a register read as FWCTL_RPC_DEBUG_READ_ONLY and a write as
 * configuration.  Nothing else is a query (NOP included: an allow-list may
 * add it explicitly).
 *
 * The X-lists are plain C (the guest selftests build their constants from
 * them, selftests/cxprm/cxprm_prm.h); the rest is C++.
 */
#pragma once

/*
 * X(name, value, R|W); N(identifier, "name", value, R|W) for the two PRM
 * names that are not C identifiers.
 */
#define CXPRM_OPCODES(X, N) \
	X(QUERY_HCA_CAP, 0x100, R) \
	X(QUERY_ADAPTER, 0x101, R) \
	X(INIT_HCA, 0x102, W) \
	X(TEARDOWN_HCA, 0x103, W) \
	X(ENABLE_HCA, 0x104, W) \
	X(DISABLE_HCA, 0x105, W) \
	X(QUERY_PAGES, 0x107, R) \
	X(MANAGE_PAGES, 0x108, W) \
	X(SET_HCA_CAP, 0x109, W) \
	X(QUERY_ISSI, 0x10a, R) \
	X(SET_ISSI, 0x10b, W) \
	X(SET_DRIVER_VERSION, 0x10d, W) \
	X(QUERY_OTHER_HCA_CAP, 0x10e, R) /* vendor */ \
	X(QUERY_SF_PARTITION, 0x111, R) \
	X(ALLOC_SF, 0x113, W) \
	X(DEALLOC_SF, 0x114, W) \
	X(SUSPEND_VHCA, 0x115, W) \
	X(RESUME_VHCA, 0x116, W) \
	X(QUERY_VHCA_MIGRATION_STATE, 0x117, R) \
	X(SAVE_VHCA_STATE, 0x118, W) \
	X(LOAD_VHCA_STATE, 0x119, W) \
	X(CREATE_MKEY, 0x200, W) \
	X(QUERY_MKEY, 0x201, R) \
	X(DESTROY_MKEY, 0x202, W) \
	X(QUERY_SPECIAL_CONTEXTS, 0x203, R) \
	X(PAGE_FAULT_RESUME, 0x204, W) \
	X(ALLOC_MEMIC, 0x205, W) \
	X(DEALLOC_MEMIC, 0x206, W) \
	X(MODIFY_MEMIC, 0x207, W) \
	X(CREATE_EQ, 0x301, W) \
	X(DESTROY_EQ, 0x302, W) \
	X(QUERY_EQ, 0x303, R) \
	X(GEN_EQE, 0x304, W) \
	X(CREATE_CQ, 0x400, W) \
	X(DESTROY_CQ, 0x401, W) \
	X(QUERY_CQ, 0x402, R) \
	X(MODIFY_CQ, 0x403, W) \
	X(CREATE_QP, 0x500, W) \
	X(DESTROY_QP, 0x501, W) \
	X(RST2INIT_QP, 0x502, W) \
	X(INIT2RTR_QP, 0x503, W) \
	X(RTR2RTS_QP, 0x504, W) \
	X(RTS2RTS_QP, 0x505, W) \
	X(SQERR2RTS_QP, 0x506, W) \
	N(QP_2ERR, "2ERR_QP", 0x507, W) \
	N(QP_2RST, "2RST_QP", 0x50a, W) \
	X(QUERY_QP, 0x50b, R) \
	X(SQD_RTS_QP, 0x50c, W) \
	X(MAD_IFC, 0x50d, W) \
	X(INIT2INIT_QP, 0x50e, W) \
	X(CREATE_PSV, 0x600, W) \
	X(DESTROY_PSV, 0x601, W) \
	X(CREATE_SRQ, 0x700, W) \
	X(DESTROY_SRQ, 0x701, W) \
	X(QUERY_SRQ, 0x702, R) \
	X(ARM_RQ, 0x703, W) \
	X(CREATE_XRC_SRQ, 0x705, W) \
	X(DESTROY_XRC_SRQ, 0x706, W) \
	X(QUERY_XRC_SRQ, 0x707, R) \
	X(ARM_XRC_SRQ, 0x708, W) \
	X(CREATE_DCT, 0x710, W) \
	X(DESTROY_DCT, 0x711, W) \
	X(DRAIN_DCT, 0x712, W) \
	X(QUERY_DCT, 0x713, R) \
	X(ARM_DCT_FOR_KEY_VIOLATION, 0x714, W) \
	X(CREATE_XRQ, 0x717, W) \
	X(DESTROY_XRQ, 0x718, W) \
	X(QUERY_XRQ, 0x719, R) \
	X(ARM_XRQ, 0x71a, W) \
	X(CREATE_NVMF_BACKEND_CTRL, 0x720, W) /* vendor: NVMF */ \
	X(DESTROY_NVMF_BACKEND_CTRL, 0x721, W) /* vendor: NVMF */ \
	X(QUERY_NVMF_BACKEND_CTRL, 0x722, R) /* vendor: NVMF */ \
	X(ATTACH_NVMF_NAMESPACE, 0x723, W) /* vendor: NVMF */ \
	X(DETACH_NVMF_NAMESPACE, 0x724, W) /* vendor: NVMF */ \
	X(QUERY_XRQ_DC_PARAMS_ENTRY, 0x725, R) \
	X(SET_XRQ_DC_PARAMS_ENTRY, 0x726, W) \
	X(QUERY_XRQ_ERROR_PARAMS, 0x727, R) \
	X(QUERY_NVMF_NAMESPACE_CONTEXT, 0x728, R) /* vendor: NVMF */ \
	X(RELEASE_XRQ_ERROR, 0x729, W) \
	X(MODIFY_XRQ, 0x72a, W) \
	X(QUERY_ESW_FUNCTIONS, 0x740, R) \
	X(QUERY_VPORT_STATE, 0x750, R) \
	X(MODIFY_VPORT_STATE, 0x751, W) \
	X(QUERY_ESW_VPORT_CONTEXT, 0x752, R) \
	X(MODIFY_ESW_VPORT_CONTEXT, 0x753, W) \
	X(QUERY_NIC_VPORT_CONTEXT, 0x754, R) \
	X(MODIFY_NIC_VPORT_CONTEXT, 0x755, W) \
	X(QUERY_ROCE_ADDRESS, 0x760, R) \
	X(SET_ROCE_ADDRESS, 0x761, W) \
	X(QUERY_HCA_VPORT_CONTEXT, 0x762, R) \
	X(MODIFY_HCA_VPORT_CONTEXT, 0x763, W) \
	X(QUERY_HCA_VPORT_GID, 0x764, R) \
	X(QUERY_HCA_VPORT_PKEY, 0x765, R) \
	X(QUERY_VNIC_ENV, 0x76f, R) \
	X(QUERY_VPORT_COUNTER, 0x770, R) \
	X(ALLOC_Q_COUNTER, 0x771, W) \
	X(DEALLOC_Q_COUNTER, 0x772, W) \
	X(QUERY_Q_COUNTER, 0x773, R) \
	X(SET_MONITOR_COUNTER, 0x774, W) \
	X(ARM_MONITOR_COUNTER, 0x775, W) \
	X(SET_PP_RATE_LIMIT, 0x780, W) \
	X(QUERY_RATE_LIMIT, 0x781, R) \
	X(CREATE_SCHEDULING_ELEMENT, 0x782, W) \
	X(DESTROY_SCHEDULING_ELEMENT, 0x783, W) \
	X(QUERY_SCHEDULING_ELEMENT, 0x784, R) \
	X(MODIFY_SCHEDULING_ELEMENT, 0x785, W) \
	X(CREATE_QOS_PARA_VPORT, 0x786, W) \
	X(DESTROY_QOS_PARA_VPORT, 0x787, W) \
	X(ALLOC_PD, 0x800, W) \
	X(DEALLOC_PD, 0x801, W) \
	X(ALLOC_UAR, 0x802, W) \
	X(DEALLOC_UAR, 0x803, W) \
	X(CONFIG_INT_MODERATION, 0x804, W) \
	X(ACCESS_REG, 0x805, R_OPMOD1) \
	X(ATTACH_TO_MCG, 0x806, W) \
	X(DETACH_FROM_MCG, 0x807, W) \
	X(GET_DROPPED_PACKET_LOG, 0x80a, W) \
	X(QUERY_MAD_DEMUX, 0x80b, R) \
	X(SET_MAD_DEMUX, 0x80c, W) \
	X(NOP, 0x80d, W) \
	X(ALLOC_XRCD, 0x80e, W) \
	X(DEALLOC_XRCD, 0x80f, W) \
	X(ALLOC_TRANSPORT_DOMAIN, 0x816, W) \
	X(DEALLOC_TRANSPORT_DOMAIN, 0x817, W) \
	X(QUERY_CONG_STATUS, 0x822, R) \
	X(MODIFY_CONG_STATUS, 0x823, W) \
	X(QUERY_CONG_PARAMS, 0x824, R) \
	X(MODIFY_CONG_PARAMS, 0x825, W) \
	X(QUERY_CONG_STATISTICS, 0x826, R) \
	X(ADD_VXLAN_UDP_DPORT, 0x827, W) \
	X(DELETE_VXLAN_UDP_DPORT, 0x828, W) \
	X(SET_L2_TABLE_ENTRY, 0x829, W) \
	X(QUERY_L2_TABLE_ENTRY, 0x82a, R) \
	X(DELETE_L2_TABLE_ENTRY, 0x82b, W) \
	X(SET_WOL_ROL, 0x830, W) \
	X(QUERY_WOL_ROL, 0x831, R) \
	X(CREATE_LAG, 0x840, W) \
	X(MODIFY_LAG, 0x841, W) \
	X(QUERY_LAG, 0x842, R) \
	X(DESTROY_LAG, 0x843, W) \
	X(CREATE_VPORT_LAG, 0x844, W) \
	X(DESTROY_VPORT_LAG, 0x845, W) \
	X(CREATE_TIR, 0x900, W) \
	X(MODIFY_TIR, 0x901, W) \
	X(DESTROY_TIR, 0x902, W) \
	X(QUERY_TIR, 0x903, R) \
	X(CREATE_SQ, 0x904, W) \
	X(MODIFY_SQ, 0x905, W) \
	X(DESTROY_SQ, 0x906, W) \
	X(QUERY_SQ, 0x907, R) \
	X(CREATE_RQ, 0x908, W) \
	X(MODIFY_RQ, 0x909, W) \
	X(DESTROY_RQ, 0x90a, W) \
	X(QUERY_RQ, 0x90b, R) \
	X(CREATE_RMP, 0x90c, W) \
	X(MODIFY_RMP, 0x90d, W) \
	X(DESTROY_RMP, 0x90e, W) \
	X(QUERY_RMP, 0x90f, R) \
	X(SET_DELAY_DROP_PARAMS, 0x910, W) \
	X(CREATE_TIS, 0x912, W) \
	X(MODIFY_TIS, 0x913, W) \
	X(DESTROY_TIS, 0x914, W) \
	X(QUERY_TIS, 0x915, R) \
	X(CREATE_RQT, 0x916, W) \
	X(MODIFY_RQT, 0x917, W) \
	X(DESTROY_RQT, 0x918, W) \
	X(QUERY_RQT, 0x919, R) \
	X(CREATE_FLOW_TABLE, 0x930, W) \
	X(DESTROY_FLOW_TABLE, 0x931, W) \
	X(QUERY_FLOW_TABLE, 0x932, R) \
	X(CREATE_FLOW_GROUP, 0x933, W) \
	X(DESTROY_FLOW_GROUP, 0x934, W) \
	X(QUERY_FLOW_GROUP, 0x935, R) \
	X(SET_FLOW_TABLE_ENTRY, 0x936, W) \
	X(QUERY_FLOW_TABLE_ENTRY, 0x937, R) \
	X(DELETE_FLOW_TABLE_ENTRY, 0x938, W) \
	X(ALLOC_FLOW_COUNTER, 0x939, W) \
	X(DEALLOC_FLOW_COUNTER, 0x93a, W) \
	X(QUERY_FLOW_COUNTER, 0x93b, R) \
	X(MODIFY_FLOW_TABLE, 0x93c, W) \
	X(ALLOC_PACKET_REFORMAT_CONTEXT, 0x93d, W) \
	X(DEALLOC_PACKET_REFORMAT_CONTEXT, 0x93e, W) \
	X(QUERY_PACKET_REFORMAT_CONTEXT, 0x93f, R) \
	X(ALLOC_MODIFY_HEADER_CONTEXT, 0x940, W) \
	X(DEALLOC_MODIFY_HEADER_CONTEXT, 0x941, W) \
	X(QUERY_MODIFY_HEADER_CONTEXT, 0x942, R) \
	X(FPGA_CREATE_QP, 0x960, W) \
	X(FPGA_MODIFY_QP, 0x961, W) \
	X(FPGA_QUERY_QP, 0x962, W) \
	X(FPGA_DESTROY_QP, 0x963, W) \
	X(FPGA_QUERY_QP_COUNTERS, 0x964, W) \
	X(CREATE_GENERAL_OBJECT, 0xa00, W) \
	X(MODIFY_GENERAL_OBJECT, 0xa01, W) \
	X(QUERY_GENERAL_OBJECT, 0xa02, R) \
	X(DESTROY_GENERAL_OBJECT, 0xa03, W) \
	X(CREATE_UCTX, 0xa04, W) \
	X(DESTROY_UCTX, 0xa06, W) \
	X(CREATE_UMEM, 0xa08, W) \
	X(DESTROY_UMEM, 0xa0a, W) \
	X(SYNC_STEERING, 0xb00, W) \
	X(SEND_QP_NVMF_CC, 0xb01, W) /* vendor: NVMe SNAP */ \
	X(QUERY_NVMF_CC_RESPONSE, 0xb02, R) /* vendor: NVMe SNAP, fwctl */ \
	X(QUERY_VHCA_STATE, 0xb0d, R) \
	X(MODIFY_VHCA_STATE, 0xb0e, W)

/*
 * Capability types of QUERY_HCA_CAP / SET_HCA_CAP op_mod (type << 1 | mode):
 * enum mlx5_cap_type of device.h; 0xe is RESERVED_14 upstream and NVMF in
 * the vendor driver.  X(name, value); N(identifier, "name", value).
 */
#define CXPRM_CAP_TYPES(X, N) \
	X(GENERAL, 0x0) \
	X(ETHERNET_OFFLOADS, 0x1) \
	X(ODP, 0x2) \
	X(ATOMIC, 0x3) \
	X(ROCE, 0x4) \
	X(IPOIB_OFFLOADS, 0x5) \
	X(IPOIB_ENHANCED_OFFLOADS, 0x6) \
	X(FLOW_TABLE, 0x7) \
	X(ESWITCH_FLOW_TABLE, 0x8) \
	X(ESWITCH, 0x9) \
	X(VECTOR_CALC, 0xb) \
	X(QOS, 0xc) \
	N(DEBUG_CAP, "DEBUG", 0xd) /* MLX5_CAP_DEBUG; not DEBUG, which builds may #define */ \
	X(NVMF, 0xe) /* vendor; RESERVED_14 in 6.1 */ \
	X(DEV_MEM, 0xf) \
	X(TLS, 0x11) \
	X(VDPA_EMULATION, 0x13) \
	X(DEV_EVENT, 0x14) \
	X(IPSEC, 0x15) \
	X(DEV_SHAMPO, 0x1d) \
	X(MACSEC, 0x1f) \
	X(GENERAL_2, 0x20) \
	X(PORT_SELECTION, 0x25) \
	X(ADV_VIRTUALIZATION, 0x26)

/* Event types: enum mlx5_event of device.h.  X(name, value) */
#define CXPRM_EVENTS(X)                  \
	X(COMP, 0x00)                    \
	X(PATH_MIG, 0x01)                \
	X(COMM_EST, 0x02)                \
	X(SQ_DRAINED, 0x03)              \
	X(CQ_ERROR, 0x04)                \
	X(WQ_CATAS_ERROR, 0x05)          \
	X(PATH_MIG_FAILED, 0x07)         \
	X(INTERNAL_ERROR, 0x08)          \
	X(PORT_CHANGE, 0x09)             \
	X(CMD, 0x0a)                     \
	X(PAGE_REQUEST, 0x0b)            \
	X(PAGE_FAULT, 0x0c)              \
	X(NIC_VPORT_CHANGE, 0x0d)        \
	X(ESW_FUNCTIONS_CHANGED, 0x0e)   \
	X(VHCA_STATE_CHANGE, 0x0f)       \
	X(WQ_INVAL_REQ_ERROR, 0x10)      \
	X(WQ_ACCESS_ERROR, 0x11)         \
	X(SRQ_CATAS_ERROR, 0x12)         \
	X(SRQ_LAST_WQE, 0x13)            \
	X(SRQ_RQ_LIMIT, 0x14)            \
	X(GPIO_EVENT, 0x15)              \
	X(PORT_MODULE_EVENT, 0x16)       \
	X(TEMP_WARN_EVENT, 0x17)         \
	X(XRQ_ERROR, 0x18)               \
	X(REMOTE_CONFIG, 0x19)           \
	X(DB_BF_CONGESTION, 0x1a)        \
	X(STALL_EVENT, 0x1b)             \
	X(DCT_DRAINED, 0x1c)             \
	X(DCT_KEY_VIOLATION, 0x1d)       \
	X(FPGA_ERROR, 0x20)              \
	X(FPGA_QP_ERROR, 0x21)           \
	X(GENERAL_EVENT, 0x22)           \
	X(MONITOR_COUNTER, 0x24)         \
	X(PPS_EVENT, 0x25)               \
	X(DEVICE_TRACER, 0x26)           \
	X(OBJECT_CHANGE, 0x27)

#ifdef __cplusplus
#include "../types.h"

namespace cxprm::prm {

namespace op {
#define CXPRM_OP_ENUM_(n, v, rw) n = v,
#define CXPRM_OP_ENUM_N_(n, s, v, rw) n = v,
enum Opcode : u16 { CXPRM_OPCODES(CXPRM_OP_ENUM_, CXPRM_OP_ENUM_N_) };
#undef CXPRM_OP_ENUM_
#undef CXPRM_OP_ENUM_N_
/* The general-command range (MLX5_CMD_OP_GENERAL_START/END): [START, END). */
inline constexpr u16 GENERAL_START = 0xb00;
inline constexpr u16 GENERAL_END = 0xd00;
} // namespace op

/* "QUERY_HCA_CAP" for 0x100; nullptr for an opcode we do not know. */
const char *opcode_name(u16 opcode);

/*
 * Whether the command is a known read-only query: a QUERY_* opcode, or
 * ACCESS_REG with op_mod READ (1).  op_mod is the command's (cmd_in.op_mod).
 */
bool opcode_is_query(u16 opcode, u16 op_mod);

/* QUERY_HCA_CAP / SET_HCA_CAP op_mod: (capability type << 1) | mode. */
namespace cap {
#define CXPRM_CAP_ENUM_(n, v) n = v,
#define CXPRM_CAP_ENUM_N_(n, s, v) n = v,
enum Type : u16 { CXPRM_CAP_TYPES(CXPRM_CAP_ENUM_, CXPRM_CAP_ENUM_N_) };
#undef CXPRM_CAP_ENUM_
#undef CXPRM_CAP_ENUM_N_
enum Mode : u16 {
	MAX = 0, /* HCA_CAP_OPMOD_GET_MAX: what the device can do */
	CUR = 1, /* HCA_CAP_OPMOD_GET_CUR: what is currently set */
};
/* op_mod of QUERY_HCA_CAP; SET_HCA_CAP uses op_mod(type, MAX) = type << 1. */
constexpr u16 op_mod(Type t, Mode m) { return (u16)((t << 1) | m); }
} // namespace cap

/* "GENERAL" for cap::GENERAL; nullptr when unknown. */
const char *cap_type_name(u16 type);

/* QUERY_PAGES op_mod (which page demand to report). */
namespace query_pages_op {
enum : u16 { BOOT = 1, INIT = 2, REGULAR = 3 };
}

/* MANAGE_PAGES op_mod (core/pagealloc.c). */
namespace manage_pages_op {
enum : u16 { CANT_GIVE = 0, GIVE = 1, TAKE = 2 };
}

/* teardown_hca_in.profile and teardown_hca_out.state. */
namespace teardown_profile {
enum : u16 { GRACEFUL_CLOSE = 0, FORCE_CLOSE = 1, PREPARE_FAST_TEARDOWN = 2 };
}
namespace teardown_state {
enum : u8 { SUCCESS = 0, FAIL = 1 };
}

/* cmd_hca_cap.port_type. */
namespace port_type {
enum : u8 { IB = 0, ETH = 1 };
}

namespace event {
#define CXPRM_EV_ENUM_(n, v) n = v,
enum Type : u8 { CXPRM_EVENTS(CXPRM_EV_ENUM_) };
#undef CXPRM_EV_ENUM_
/* Event types are 8 bits; CREATE_EQ's event_bitmask has one bit per type. */
inline constexpr u32 NUM_TYPES = 0x100;
} // namespace event

/* "PAGE_REQUEST" for 0x0b; nullptr when unknown. */
const char *event_name(u8 type);

} // namespace cxprm::prm
#endif /* __cplusplus */
