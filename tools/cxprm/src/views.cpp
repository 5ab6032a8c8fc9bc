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

namespace {

// The identity both transports' info starts with, in this key order.
Json identity_json(const cxprm_info &i, const DevPath &where, const char *transport)
{
	Json j = Json::object();
	j.set("pci_addr", std::string(i.pci_addr));
	j.set("dev_name", std::string(i.dev_name));
	j.set("path", where.path);
	j.set("transport", transport);
	j.set("pci_id", pci_id(i.vendor_id, i.device_id));
	j.set("vendor_id", i.vendor_id);
	j.set("device_id", i.device_id);
	j.set("model", model_name(i.vendor_id, i.device_id));
	j.set("fw_version", fw_version(i));
	return j;
}

} // namespace

Json info_json(const cxprm_info &i, const DevPath &where)
{
	Json j = identity_json(i, where, "cxprm.ko");
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
	j.set_json("comp_eqn", i.comp_eqn == ~0u ? Json::null() : Json::num(i.comp_eqn));
	j.set("recovery", recovery_name(i.recovery));
	j.set("recoveries", i.recoveries);
	j.set("recovery_attempts", i.recovery_attempts);
	j.set("recovery_errno", i.recovery_err);
	return j;
}

KvList info_kv(const cxprm_info &i, const DevPath &where)
{
	std::string flags;
	for (const Flag &f : kFlags)
		if (i.flags & f.bit) {
			// Appended piecewise: "lit" + std::string trips GCC 12's
			// -Wrestrict false positive (PR 105329) on arm64.
			flags += flags.empty() ? "" : " ";
			flags += f.name;
		}
	std::string model = model_name(i.vendor_id, i.device_id);
	uint64_t held = i.pages_given >= i.pages_reclaimed ? i.pages_given - i.pages_reclaimed : 0;
	return {
		{"device", std::string(i.pci_addr) + " (" + where.path + ")"},
		{"transport", "cxprm.ko (the function is cxprm's)"},
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
		{"completion eq", i.comp_eqn == ~0u ? "none" : std::to_string(i.comp_eqn)},
		{"recovery", recovery_text(i)},
	};
}

namespace {

// uctx.cap bits (mlx5_ifc.h MLX5_UCTX_CAP_*).
std::string uctx_caps_text(uint32_t caps)
{
	static const Flag names[] = {{0x1, "RAW_TX"}, {0x2, "INTERNAL_DEV_RES"}, {0x4, "TOOLS_RESOURCES"}};
	std::string t;
	uint32_t known = 0;
	for (const Flag &f : names) {
		known |= f.bit;
		if (caps & f.bit) {
			t += t.empty() ? "" : " ";
			t += f.name;
		}
	}
	if (caps & ~known)
		t += (t.empty() ? "" : " ") + hex_num(caps & ~known);
	return t.empty() ? "none" : t;
}

} // namespace

Json fwctl_info_json(const cxprm_info &i, const DevPath &where, const DevFile::FwctlInfo &u)
{
	Json j = identity_json(i, where, "fwctl");
	j.set("driver", u.driver);
	j.set("state", state_name(i.state));
	j.set("uid", u.uid);
	j.set("uctx_caps", u.uctx_caps);
	Json caps = Json::array();
	std::string t = u.uctx_caps ? uctx_caps_text(u.uctx_caps) : "";
	for (size_t b = 0, e; b < t.size(); b = e + 1) {
		e = t.find(' ', b);
		if (e == std::string::npos)
			e = t.size();
		caps.push(t.substr(b, e - b));
	}
	j.set_json("uctx_cap_names", caps);
	j.set("device_type", u.device_type);
	return j;
}

KvList fwctl_info_kv(const cxprm_info &i, const DevPath &where, const DevFile::FwctlInfo &u)
{
	std::string model = model_name(i.vendor_id, i.device_id);
	return {
		{"device", std::string(i.pci_addr) + " (" + where.path + ")"},
		{"transport", "fwctl (the function stays " + (u.driver.empty() ? std::string("mlx5_core") : u.driver) +
				      "'s; queries only)"},
		{"pci id", pci_id(i.vendor_id, i.device_id) + (model.empty() ? "" : " (" + model + ")")},
		{"firmware", fw_version(i) + " (MGIR)"},
		{"state", state_name(i.state)},
		{"user context", "uid " + std::to_string(u.uid) + ", caps " + uctx_caps_text(u.uctx_caps)},
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

namespace {

// One member of a view: its JSON key and value, its text label and text
// (a null key or label: not in that form).
struct ViewRow {
	const char *key;
	Json json;
	const char *label;
	std::string text;
};

Json rows_json(const std::vector<ViewRow> &rows)
{
	Json j = Json::object();
	for (const ViewRow &r : rows)
		if (r.key)
			j.set_json(r.key, r.json);
	return j;
}

KvList rows_kv(const std::vector<ViewRow> &rows)
{
	KvList kv;
	for (const ViewRow &r : rows)
		if (r.label)
			kv.emplace_back(r.label, r.text);
	return kv;
}

std::string dec(uint64_t v) { return std::to_string(v); }

ViewRow counter(const char *key, const char *label, uint64_t v) { return {key, Json::num(v), label, dec(v)}; }

std::vector<ViewRow> nvmf_rows(const cxprm_nvmf_ns &n)
{
	return {
		counter("read_cmds", "read commands", n.read_cmds),
		counter("read_blocks", "read blocks", n.read_blocks),
		counter("write_cmds", "write commands", n.write_cmds),
		counter("write_blocks", "write blocks", n.write_blocks),
		counter("write_inline_cmds", "inline writes", n.write_inline_cmds),
		counter("flush_cmds", "flush commands", n.flush_cmds),
		counter("error_cmds", "errors", n.error_cmds),
		counter("backend_error_cmds", "backend errors", n.backend_error_cmds),
		counter("current_q_depth", "queue depth", n.current_q_depth),
		counter("last_read_latency", "last read latency", n.last_read_latency),
		counter("last_write_latency", "last write latency", n.last_write_latency),
	};
}

std::vector<ViewRow> dctc_rows(const cxprm_dctc &c)
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
	auto num = [](uint64_t v) { return Json::num(v); };
	return {
		{"state", Json::str(dct_state_name(c.state)), "state", dct_state_name(c.state)},
		{"state_code", num(c.state), nullptr, {}},
		{"pd", num(c.pd), "pd", hex_num(c.pd)},
		{"cqn", num(c.cqn), "cqn", hex_num(c.cqn)},
		{"srqn_xrqn", num(c.srqn_xrqn), "srqn/xrqn", hex_num(c.srqn_xrqn)},
		{"user_index", num(c.user_index), "user index", hex_num(c.user_index)},
		{"dc_access_key", Json::str(hex_num(c.dc_access_key)), "access key", hex_num(c.dc_access_key)},
		{"mtu", num(mtu), "mtu", mtu ? dec(mtu) : "invalid (" + dec(c.mtu) + ")"},
		{"mtu_code", num(c.mtu), nullptr, {}},
		counter("port", "port", c.port),
		counter("pkey_index", "pkey index", c.pkey_index),
		counter("hop_limit", "hop limit", c.hop_limit),
		{"flow_label", num(c.flow_label), "flow label", hex_num(c.flow_label)},
		counter("tclass", "traffic class", c.tclass),
		counter("min_rnr_nak", "min rnr nak", c.min_rnr_nak),
		counter("my_addr_index", "my addr index", c.my_addr_index),
		{"rre", Json::boolean(c.rre), nullptr, {}},
		{"rwe", Json::boolean(c.rwe), nullptr, {}},
		{"rae", Json::boolean(c.rae), "remote access", access.empty() ? "none" : access},
		counter("atomic_mode", "atomic mode", c.atomic_mode),
		counter("cs_res", "cs res", c.cs_res),
		counter("counter_set_id", "counter set", c.counter_set_id),
		{"dscp", num(c.dscp), nullptr, {}},
		{"ecn", num(c.ecn), nullptr, {}},
		{"eth_prio", num(c.eth_prio), "dscp/ecn/prio", dec(c.dscp) + "/" + dec(c.ecn) + "/" + dec(c.eth_prio)},
		counter("key_violations", "key violations", c.key_violations),
	};
}

} // namespace

Json nvmf_json(const cxprm_nvmf_ns &n) { return rows_json(nvmf_rows(n)); }
KvList nvmf_kv(const cxprm_nvmf_ns &n) { return rows_kv(nvmf_rows(n)); }
Json dctc_json(const cxprm_dctc &c) { return rows_json(dctc_rows(c)); }
KvList dctc_kv(const cxprm_dctc &c) { return rows_kv(dctc_rows(c)); }

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

namespace {

// CXPRM_EVENT_HEALTH (the driver's own records, include/uapi/linux/cxprm.h).
const char *health_sub_name(uint8_t sub)
{
	static const char *const names[] = {"?", "SYNDROME", "STALL", "RECOVERING", "RECOVERED", "RECOVERY_FAILED"};
	return sub < sizeof(names) / sizeof(names[0]) ? names[sub] : "?";
}

uint32_t be32_at(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

} // namespace

std::string recovery_text(const cxprm_info &i)
{
	std::string s = recovery_name(i.recovery);
	s += ", " + std::to_string(i.recoveries) + " so far";
	if (i.recovery_attempts)
		s += ", last " + std::to_string(i.recovery_attempts) + " attempt(s)";
	if (i.recovery_err)
		s += ", " + errno_name(i.recovery_err);
	return s;
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
	if (e.type == CXPRM_EVENT_HEALTH) {
		s += std::string(" ") + health_sub_name(e.sub_type);
		if (e.sub_type >= CXPRM_HEALTH_RECOVERING)
			s += " recoveries=" + std::to_string(be32_at(e.data)) + " outcome=" +
			     recovery_name(be32_at(e.data + 4)) + " attempt=" + std::to_string(be32_at(e.data + 8)) +
			     ((int32_t)be32_at(e.data + 12) ? " errno=" + errno_name((int32_t)be32_at(e.data + 12)) : "");
	} else if (const prm::LayoutDesc *l = event_layout(e.type)) {
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
		if (j > i) {
			s += "-";
			s += std::to_string(v[j]);
		}
		i = j + 1;
	}
	return s;
}

} // namespace cxprm::tool
