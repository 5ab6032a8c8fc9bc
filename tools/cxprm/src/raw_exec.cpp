// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Raw commands, their decoding and wire dumps (raw_exec.h).
#include "raw_exec.h"

#include <algorithm>
#include <cstring>

#include "decoded.h"
#include "fields.h"
#include "names.h"
#include "wire_view.h"

#include "cxprm/commands/decode.h"
#include "cxprm/errors.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/reg.h"
#include "cxprm/prm/transport.h"

namespace cxprm::tool {

namespace {

const prm::FieldDesc &in_field(const char *name) { return *find_field(prm::cmd_in::desc, name); }

} // namespace

uint16_t RawRun::opcode() const { return (uint16_t)field_get(in.data(), in.size(), in_field("opcode")); }
uint16_t RawRun::op_mod() const { return (uint16_t)field_get(in.data(), in.size(), in_field("op_mod")); }

Bytes make_input(uint16_t opcode, uint16_t op_mod, uint16_t uid, const Bytes &body, size_t min_len)
{
	size_t n = std::max<size_t>({prm::cmd_in::size_bytes + body.size(), min_len, prm::INLINE_BYTES});
	Bytes in(n, 0);
	std::copy(body.begin(), body.end(), in.begin() + prm::cmd_in::size_bytes);
	field_set(in.data(), in.size(), in_field("opcode"), opcode);
	field_set(in.data(), in.size(), in_field("op_mod"), op_mod);
	field_set(in.data(), in.size(), in_field("uid"), uid);
	return in;
}

RawRun run_raw(DevFile &f, const Bytes &in, uint32_t outlen, bool dump)
{
	RawRun r;
	r.in = in;
	r.out.assign(outlen, 0);
	uint32_t nblocks = prm::mailbox_blocks((uint32_t)in.size()) + prm::mailbox_blocks(outlen);
	Bytes dbuf(dump ? sizeof(cxprm_raw_dump) + (size_t)nblocks * CXPRM_MAILBOX_BYTES : 0);

	cxprm_raw_cmd c;
	std::memset(&c, 0, sizeof(c));
	c.in = (uint64_t)(uintptr_t)r.in.data();
	c.out = (uint64_t)(uintptr_t)r.out.data();
	c.inlen = (uint32_t)r.in.size();
	c.outlen = outlen;
	if (dump) {
		c.flags = CXPRM_RAW_DUMP;
		c.dump = (uint64_t)(uintptr_t)dbuf.data();
		c.dump_len = (uint32_t)dbuf.size();
	}
	r.err = f.raw(c);
	if (r.err)
		r.error = f.raw_error(r.err, r.opcode(), r.op_mod());
	r.fw = FwResult::from(c.st);
	if (dump && c.dump_len >= sizeof(cxprm_raw_dump)) {
		r.dumped = true;
		std::memcpy(&r.dump, dbuf.data(), sizeof(r.dump));
		size_t avail = (std::min<size_t>(c.dump_len, dbuf.size()) - sizeof(cxprm_raw_dump)) / CXPRM_MAILBOX_BYTES;
		const uint8_t *b = dbuf.data() + sizeof(cxprm_raw_dump);
		for (size_t i = 0; i < avail && i < (size_t)r.dump.in_blocks + r.dump.out_blocks; i++) {
			Bytes blk(b + i * CXPRM_MAILBOX_BYTES, b + (i + 1) * CXPRM_MAILBOX_BYTES);
			(i < r.dump.in_blocks ? r.in_blocks : r.out_blocks).push_back(std::move(blk));
		}
	}
	return r;
}

namespace {

// The payload of a CAP or REG row of the metadata table by its own layout:
// the capability image by op_mod's type (CXPRM_CAP_TYPES' layout), the
// register data by the input's register_id (CXPRM_REGISTERS).  nullptr
// when there is none (another decoder, no input, an unknown id or type).
const prm::LayoutDesc *payload_layout(const prm::OpcodeInfo &o, uint16_t op_mod, const Bytes *in,
				      uint32_t *offset)
{
	if (o.decoder == prm::Decoder::CAP && o.value == prm::op::QUERY_HCA_CAP) {
		*offset = prm::query_hca_cap_out::capability::offset / 8;
		return cap_layout(op_mod >> 1); // caps' choice: the fuller of the two
	}
	if (o.decoder == prm::Decoder::REG && in && in->size() >= prm::access_register_in::size_bytes) {
		uint16_t id = (uint16_t)field_get(in->data(), in->size(),
						  *find_field(prm::access_register_in::desc, "register_id"));
		const prm::RegisterInfo *r = prm::find_register(id);
		*offset = prm::access_register_out::size_bytes;
		return r ? r->layout : nullptr;
	}
	return nullptr;
}

} // namespace

OutDecoding decode_any(uint16_t opcode, uint16_t op_mod, const Bytes &out, const Bytes *in)
{
	OutDecoding d;
	if (cmd::decode_output_supported(opcode)) {
		Decoded k = decode_out(opcode, op_mod, out.data(), (uint32_t)out.size());
		d.source = "core";
		d.result = k.result_text();
		d.malformed = k.err == E_INVAL || k.err == E_PROTO;
		d.kv = k.kv;
		d.json = decoded_json(k);
		uint32_t off = 0;
		const prm::LayoutDesc *l = payload_layout(*prm::opcode_info(opcode), op_mod, in, &off);
		// A capability type the core does not decode itself (all but
		// general and nvmf), a register's data the core shows as words.
		const prm::Decoder dec = prm::opcode_info(opcode)->decoder;
		const bool cap = dec == prm::Decoder::CAP && k.err == E_NOTSUP;
		const bool reg = dec == prm::Decoder::REG && k.err == OK;
		if (l && out.size() > off && out[0] == 0 /* cmd_out.status OK */ && (cap || reg)) {
			// The core's keys (opcode, status, cap_type ...), then the
			// payload's fields under their layout's names (JSON: a
			// capability's beside the core's, a register's in "register").
			std::vector<FieldValue> v = decode_fields(*l, out.data() + off, out.size() - off);
			for (const FieldValue &f : v)
				d.kv.emplace_back(f.field->name, f.text);
			if (cap)
				for (const FieldValue &f : v)
					d.json.set_json(f.field->name, f.json);
			else
				d.json.set_json("register", fields_json(v));
			d.source = std::string("core+layout:") + l->name;
			d.result = "OK";
		}
		return d;
	}
	if (const prm::LayoutDesc *l = layout_for_opcode(opcode, false)) {
		d.source = std::string("layout:") + l->name;
		d.malformed = out.size() < l->size_bits / 8;
		d.result = d.malformed ? "the output is shorter than its layout" : "OK";
		std::vector<FieldValue> v = decode_fields(*l, out.data(), out.size());
		for (const FieldValue &f : v)
			d.kv.emplace_back(f.field->name, f.text);
		d.json = fields_json(v);
		return d;
	}
	d.source = "none";
	d.result = "no decoder or layout for " + opcode_label(opcode);
	d.json = Json::object();
	return d;
}

Json dump_json(const RawRun &r)
{
	Json j = Json::object();
	if (!r.dumped)
		return Json::null();
	j.set("slot", r.dump.slot);
	j.set("truncated", (bool)r.dump.truncated);
	j.set("in_blocks", r.dump.in_blocks);
	j.set("out_blocks", r.dump.out_blocks);
	j.set_json("entry_posted", entry_json(r.dump.entry_posted));
	j.set_json("entry_completed", entry_json(r.dump.entry_completed));
	mailboxes_json(j, r.in_blocks, r.out_blocks);
	return j;
}

std::vector<std::string> dump_lines(const RawRun &r)
{
	std::vector<std::string> out;
	if (!r.dumped) {
		out.push_back("(the driver returned no dump)");
		return out;
	}
	out.push_back("slot " + std::to_string(r.dump.slot) + ", " + std::to_string(r.dump.in_blocks) +
		      " input and " + std::to_string(r.dump.out_blocks) + " output mailbox block(s)" +
		      (r.dump.truncated ? " (truncated: the dump buffer was too small)" : ""));
	entry_lines(out, "queue entry as posted:", r.dump.entry_posted);
	entry_lines(out, "queue entry as completed:", r.dump.entry_completed);
	mailboxes_lines(out, r.in_blocks, r.out_blocks);
	return out;
}

} // namespace cxprm::tool
