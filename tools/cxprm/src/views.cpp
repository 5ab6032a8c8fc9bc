// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// UAPI structs as JSON and text (views.h).
#include "views.h"

#include <cstdio>

#include "fields.h"
#include "hex.h"
#include "names.h"

#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/status.h"

namespace cxprm::tool {

namespace {

struct Model {
	uint16_t vendor, device;
	const char *name;
};
const Model kModels[] = {
	{0x15b3, 0x1011, "Connect-IB"},	     {0x15b3, 0x1013, "ConnectX-4"},	  {0x15b3, 0x1014, "ConnectX-4 VF"},
	{0x15b3, 0x1015, "ConnectX-4 Lx"},   {0x15b3, 0x1016, "ConnectX-4 Lx VF"}, {0x15b3, 0x1017, "ConnectX-5"},
	{0x15b3, 0x1018, "ConnectX-5 VF"},   {0x15b3, 0x1019, "ConnectX-5 Ex"},   {0x15b3, 0x101a, "ConnectX-5 Ex VF"},
	{0x15b3, 0x101b, "ConnectX-6"},	     {0x15b3, 0x101c, "ConnectX-6 VF"},	  {0x15b3, 0x101d, "ConnectX-6 Dx"},
	{0x15b3, 0x101e, "ConnectX Family VF"}, {0x15b3, 0x101f, "ConnectX-6 Lx"}, {0x15b3, 0x1021, "ConnectX-7"},
	{0x15b3, 0x1023, "ConnectX-8"},	     {0x15b3, 0xa2d2, "BlueField"},	  {0x15b3, 0xa2d3, "BlueField VF"},
	{0x15b3, 0xa2d6, "BlueField-2"},     {0x15b3, 0xa2dc, "BlueField-3"},	  {0x15b3, 0xa2df, "BlueField-4"},
	{0x1af4, 0x1110, "QEMU ivshmem (cxprm emulated device)"},
};

struct Flag {
	uint32_t bit;
	const char *name;
};
const Flag kFlags[] = {
	{CXPRM_INFO_EMULATED, "EMULATED"},
	{CXPRM_INFO_EVENT_MODE, "EVENT_MODE"},
	{CXPRM_INFO_IRQ, "IRQ"},
	{CXPRM_INFO_ECPF, "ECPF"},
	{CXPRM_INFO_CMD_CHECKSUM, "CHECKSUM"},
};

std::string pci_id(uint16_t v, uint16_t d)
{
	char b[16];
	std::snprintf(b, sizeof(b), "%04x:%04x", v, d);
	return b;
}

std::string health(uint32_t s)
{
	if (!s)
		return "OK";
	return std::string(health_syndrome_name((uint8_t)s)) + " (" + hex_num(s) + "): " + health_syndrome_text((uint8_t)s);
}

std::vector<uint32_t> sf_list(const cxprm_esw_functions &f)
{
	std::vector<uint32_t> v;
	for (uint32_t w = 0; w < CXPRM_ESW_MAX_SF_WORDS; w++)
		for (uint32_t b = 0; b < 64; b++)
			if (f.sf_enable[w] >> b & 1)
				v.push_back(w * 64 + b);
	return v;
}

// The payload layout of an event type, or null.
const prm::LayoutDesc *event_layout(uint8_t type)
{
	switch (type) {
	case prm::event::DCT_DRAINED:
	case prm::event::DCT_KEY_VIOLATION: return &prm::dct_events::desc;
	case prm::event::PAGE_REQUEST: return &prm::pages_req_event::desc;
	case prm::event::CMD: return &prm::cmd_inter_comp_event::desc;
	default: return nullptr;
	}
}

} // namespace

std::string model_name(uint16_t vendor, uint16_t device)
{
	for (const Model &m : kModels)
		if (m.vendor == vendor && m.device == device)
			return m.name;
	return "";
}

std::string fw_version(const cxprm_info &i)
{
	return std::to_string(i.fw_major) + "." + std::to_string(i.fw_minor) + "." + std::to_string(i.fw_subminor);
}

Json info_json(const cxprm_info &i, const DevPath &where)
{
	Json j = Json::object();
	j.set("pci_addr", std::string(i.pci_addr));
	j.set("dev_name", std::string(i.dev_name));
	j.set("path", where.path);
	j.set("pci_id", pci_id(i.vendor_id, i.device_id));
	j.set("vendor_id", i.vendor_id);
	j.set("device_id", i.device_id);
	j.set("model", model_name(i.vendor_id, i.device_id));
	j.set("fw_version", fw_version(i));
	j.set("cmdif_rev", i.cmdif_rev);
	j.set("state", state_name(i.state));
	j.set("state_code", i.state);
	Json flags = Json::array();
	uint32_t known = 0;
	for (const Flag &f : kFlags) {
		known |= f.bit;
		if (i.flags & f.bit)
			flags.push(f.name);
	}
	if (i.flags & ~known)
		flags.push(hex_num(i.flags & ~known));
	j.set_json("flags", flags);
	j.set_json("ecpf", Json::boolean((i.flags & CXPRM_INFO_ECPF) != 0));
	j.set("cmdq_entries", i.cmdq_entries);
	j.set("cmdq_log_stride", i.cmdq_log_stride);
	j.set("issi", i.issi);
	j.set("cmd_checksum", (i.flags & CXPRM_INFO_CMD_CHECKSUM) != 0);
	j.set("health_syndrome", i.health_syndrome);
	j.set("health", i.health_syndrome ? health_syndrome_name((uint8_t)i.health_syndrome) : "OK");
	j.set("pages_given", i.pages_given);
	j.set("pages_reclaimed", i.pages_reclaimed);
	j.set("commands", i.commands);
	j.set_json("async_eqn", i.async_eqn == ~0u ? Json::null() : Json::num(i.async_eqn));
	return j;
}

KvList info_kv(const cxprm_info &i, const DevPath &where)
{
	std::string flags;
	for (const Flag &f : kFlags)
		if (i.flags & f.bit)
			flags += (flags.empty() ? "" : " ") + std::string(f.name);
	std::string model = model_name(i.vendor_id, i.device_id);
	uint64_t held = i.pages_given >= i.pages_reclaimed ? i.pages_given - i.pages_reclaimed : 0;
	return {
		{"device", std::string(i.pci_addr) + " (" + where.path + ")"},
		{"name", i.dev_name},
		{"pci id", pci_id(i.vendor_id, i.device_id) + (model.empty() ? "" : " (" + model + ")")},
		{"firmware", fw_version(i) + " (cmdif rev " + std::to_string(i.cmdif_rev) + ")"},
		{"state", state_name(i.state)},
		{"flags", flags.empty() ? "-" : flags},
		{"function", i.flags & CXPRM_INFO_ECPF ? "ECPF (embedded CPU, embedded_cpu_function=1)"
						       : "host function"},
		{"command queue", std::to_string(i.cmdq_entries) + " entries, stride " +
					  std::to_string(i.cmdq_log_stride < 32 ? 1u << i.cmdq_log_stride : 0) + " bytes"},
		{"issi", std::to_string(i.issi)},
		{"checksums", (i.flags & CXPRM_INFO_CMD_CHECKSUM) ? "on (signatures written and verified)"
								 : "off (entry signed, outputs not verified)"},
		{"health", health(i.health_syndrome)},
		{"pages", "given " + std::to_string(i.pages_given) + ", reclaimed " + std::to_string(i.pages_reclaimed) +
				  " (held by firmware: " + std::to_string(held) + ")"},
		{"commands", std::to_string(i.commands)},
		{"async eq", i.async_eqn == ~0u ? "none" : std::to_string(i.async_eqn)},
	};
}

Json esw_json(const cxprm_esw_functions &f)
{
	Json j = Json::object();
	j.set("host_number", f.host_number);
	j.set("host_pf_disabled", (bool)f.host_pf_disabled);
	j.set("host_pf_not_exist", (bool)f.host_pf_not_exist);
	j.set("host_num_of_vfs", f.host_num_of_vfs);
	j.set("host_total_vfs", f.host_total_vfs);
	j.set("host_pci_bus", f.host_pci_bus);
	j.set("host_pci_device", f.host_pci_device);
	j.set("host_pci_function", f.host_pci_function);
	Json sfs = Json::array();
	for (uint32_t s : sf_list(f))
		sfs.push(s);
	j.set_json("sf_enabled", sfs);
	return j;
}

KvList esw_kv(const cxprm_esw_functions &f)
{
	char pci[32];
	std::snprintf(pci, sizeof(pci), "%02x:%02x.%x", f.host_pci_bus, f.host_pci_device, f.host_pci_function);
	std::string pf = f.host_pf_not_exist ? "does not exist" : f.host_pf_disabled ? "disabled" : "enabled";
	return {
		{"host number", std::to_string(f.host_number)},
		{"host PF", pf},
		{"host PF PCI address", pci},
		{"host VFs", std::to_string(f.host_num_of_vfs) + " of " + std::to_string(f.host_total_vfs)},
		{"host SFs enabled", ranges(sf_list(f))},
	};
}

Json nvmf_json(const cxprm_nvmf_ns &n)
{
	Json j = Json::object();
	j.set("read_cmds", n.read_cmds);
	j.set("read_blocks", n.read_blocks);
	j.set("write_cmds", n.write_cmds);
	j.set("write_blocks", n.write_blocks);
	j.set("write_inline_cmds", n.write_inline_cmds);
	j.set("flush_cmds", n.flush_cmds);
	j.set("error_cmds", n.error_cmds);
	j.set("backend_error_cmds", n.backend_error_cmds);
	j.set("current_q_depth", n.current_q_depth);
	j.set("last_read_latency", n.last_read_latency);
	j.set("last_write_latency", n.last_write_latency);
	return j;
}

KvList nvmf_kv(const cxprm_nvmf_ns &n)
{
	return {
		{"read commands", std::to_string(n.read_cmds)},
		{"read blocks", std::to_string(n.read_blocks)},
		{"write commands", std::to_string(n.write_cmds)},
		{"write blocks", std::to_string(n.write_blocks)},
		{"inline writes", std::to_string(n.write_inline_cmds)},
		{"flush commands", std::to_string(n.flush_cmds)},
		{"errors", std::to_string(n.error_cmds)},
		{"backend errors", std::to_string(n.backend_error_cmds)},
		{"queue depth", std::to_string(n.current_q_depth)},
		{"last read latency", std::to_string(n.last_read_latency)},
		{"last write latency", std::to_string(n.last_write_latency)},
	};
}

Json dctc_json(const cxprm_dctc &c)
{
	Json j = Json::object();
	j.set("state", dct_state_name(c.state));
	j.set("state_code", c.state);
	j.set("pd", c.pd);
	j.set("cqn", c.cqn);
	j.set("srqn_xrqn", c.srqn_xrqn);
	j.set("user_index", c.user_index);
	j.set("dc_access_key", hex_num(c.dc_access_key));
	j.set("mtu", mtu_bytes(c.mtu));
	j.set("mtu_code", c.mtu);
	j.set("port", c.port);
	j.set("pkey_index", c.pkey_index);
	j.set("hop_limit", c.hop_limit);
	j.set("flow_label", c.flow_label);
	j.set("tclass", c.tclass);
	j.set("min_rnr_nak", c.min_rnr_nak);
	j.set("my_addr_index", c.my_addr_index);
	j.set("rre", (bool)c.rre);
	j.set("rwe", (bool)c.rwe);
	j.set("rae", (bool)c.rae);
	j.set("atomic_mode", c.atomic_mode);
	j.set("cs_res", c.cs_res);
	j.set("counter_set_id", c.counter_set_id);
	j.set("dscp", c.dscp);
	j.set("ecn", c.ecn);
	j.set("eth_prio", c.eth_prio);
	j.set("key_violations", c.key_violations);
	return j;
}

KvList dctc_kv(const cxprm_dctc &c)
{
	std::string access;
	if (c.rre)
		access += "read ";
	if (c.rwe)
		access += "write ";
	if (c.rae)
		access += "atomic ";
	if (!access.empty())
		access.pop_back();
	uint32_t mtu = mtu_bytes(c.mtu);
	return {
		{"state", dct_state_name(c.state)},
		{"pd", hex_num(c.pd)},
		{"cqn", hex_num(c.cqn)},
		{"srqn/xrqn", hex_num(c.srqn_xrqn)},
		{"user index", hex_num(c.user_index)},
		{"access key", hex_num(c.dc_access_key)},
		{"mtu", mtu ? std::to_string(mtu) : "invalid (" + std::to_string(c.mtu) + ")"},
		{"port", std::to_string(c.port)},
		{"pkey index", std::to_string(c.pkey_index)},
		{"hop limit", std::to_string(c.hop_limit)},
		{"flow label", hex_num(c.flow_label)},
		{"traffic class", std::to_string(c.tclass)},
		{"min rnr nak", std::to_string(c.min_rnr_nak)},
		{"my addr index", std::to_string(c.my_addr_index)},
		{"remote access", access.empty() ? "none" : access},
		{"atomic mode", std::to_string(c.atomic_mode)},
		{"cs res", std::to_string(c.cs_res)},
		{"counter set", std::to_string(c.counter_set_id)},
		{"dscp/ecn/prio", std::to_string(c.dscp) + "/" + std::to_string(c.ecn) + "/" + std::to_string(c.eth_prio)},
		{"key violations", std::to_string(c.key_violations)},
	};
}

Json event_json(const cxprm_event &e)
{
	Json j = Json::object();
	j.set("timestamp_ns", e.timestamp_ns);
	j.set("seq", e.seq);
	j.set("type", event_label(e.type));
	j.set("type_code", e.type);
	j.set("sub_type", e.sub_type);
	j.set("dropped", e.dropped);
	j.set("data", to_hex(e.data, sizeof(e.data)));
	if (const prm::LayoutDesc *l = event_layout(e.type))
		j.set_json("fields", fields_json(decode_fields(*l, e.data, sizeof(e.data))));
	return j;
}

std::string event_line(const cxprm_event &e)
{
	char ts[48];
	std::snprintf(ts, sizeof(ts), "[%6llu.%09llu]", (unsigned long long)(e.timestamp_ns / 1000000000ull),
		      (unsigned long long)(e.timestamp_ns % 1000000000ull));
	std::string s = std::string(ts) + " seq " + std::to_string(e.seq) + " " + event_label(e.type) + " (" +
			hex_num(e.type) + ")";
	if (e.sub_type)
		s += " sub " + hex_num(e.sub_type);
	if (const prm::LayoutDesc *l = event_layout(e.type)) {
		// Object numbers and ids in hex (as the tool prints DCT numbers), counts in decimal.
		for (const FieldValue &v : decode_fields(*l, e.data, sizeof(e.data))) {
			std::string n = v.field->name;
			bool id = n.find("number") != std::string::npos || n.find("_id") != std::string::npos ||
				  n.find("vector") != std::string::npos;
			s += " " + n + "=" + (id && v.json.kind() == Json::Kind::UINT ? hex_num(v.json.as_uint()) : v.text);
		}
	} else {
		bool zero = true;
		for (uint8_t b : e.data)
			zero = zero && !b;
		if (!zero)
			s += " data " + to_hex(e.data, sizeof(e.data));
	}
	if (e.dropped)
		s += " (" + std::to_string(e.dropped) + " earlier events dropped: queue overflow)";
	return s;
}

std::string ranges(const std::vector<uint32_t> &v)
{
	if (v.empty())
		return "none";
	std::string s;
	for (size_t i = 0; i < v.size();) {
		size_t j = i;
		while (j + 1 < v.size() && v[j + 1] == v[j] + 1)
			j++;
		if (!s.empty())
			s += ",";
		s += std::to_string(v[i]);
		if (j > i)
			s += "-" + std::to_string(v[j]);
		i = j + 1;
	}
	return s;
}

} // namespace cxprm::tool
