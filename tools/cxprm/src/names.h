// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Names of the things the tool prints and parses: opcodes, capability
// types, event types (all from the core's tables in prm/opcodes.h), errno
// values, device states.  Parsers accept a name (case-insensitive) or a
// number and throw UsageError naming 'what' otherwise.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cxprm::tool {

// "QUERY_HCA_CAP", or "0x1234" for an opcode without a name.
std::string opcode_label(uint16_t opcode);
// "QUERY_HCA_CAP", "query_hca_cap", "MLX5_CMD_OP_QUERY_HCA_CAP", "0x100", "256".
uint16_t parse_opcode(const std::string &s, const std::string &what);

// Every opcode name parse_opcode() accepts (upper case, table order).
std::vector<std::string> opcode_names();

// Capability types: "GENERAL", short aliases (general, eth, odp, atomic,
// roce, ipoib, ipoib_enhanced, flow_table, esw_flow_table, esw, vector_calc,
// qos, debug, nvmf, dev_mem, tls, vdpa, dev_event, ipsec, shampo, macsec,
// general_2, port_selection, adv_virt), the core's names, or a number.
uint16_t parse_cap_type(const std::string &s, const std::string &what);
std::string cap_type_label(uint16_t type);
// "general, eth, ..." for help texts.
std::string cap_type_aliases();

// Event types: "ESW_FUNCTIONS_CHANGED", lower case, or a number.
uint8_t parse_event(const std::string &s, const std::string &what);
std::string event_label(uint8_t type);
// Every event name parse_event() accepts (upper case).
std::vector<std::string> event_names();

// "ENOENT", or "E<n>" when unknown.
std::string errno_name(int err);

// enum cxprm_state names: "DOWN", "UP", "ERROR", "GONE", else "STATE_<n>".
std::string state_name(uint32_t state);
// enum cxprm_recovery (INFO recovery): "DONE", "GRACE"...
std::string recovery_name(uint32_t r);
// dctc.state: "ACTIVE", "DRAINING", "DRAINED", else the number.
std::string dct_state_name(uint32_t state);
// enum cxprm_obj_type: "PD", "CQ", "SRQ", "QP", "XRQ", "NVMF backend",
// "NVMF namespace", else "object type <n>"; obj_label adds the number
// ("CQ 0x400"; a namespace's in decimal, "NVMF namespace 1").
std::string obj_type_name(uint32_t type);
std::string obj_label(uint32_t type, uint32_t id);
// qpc.state: "RST", "INIT", "RTR", "RTS", ..., else the number.
std::string qp_state_name(uint32_t state);
// enum cxprm_qp_transition: "RST2INIT", "INIT2RTR", "RTR2RTS", "2RST", else the number.
std::string qp_transition_name(uint32_t transition);
// dctc.mtu code (1..5) <-> bytes (256..4096); 0 when not a valid value.
uint32_t mtu_bytes(uint32_t code);
uint8_t mtu_code(uint32_t bytes);

} // namespace cxprm::tool
