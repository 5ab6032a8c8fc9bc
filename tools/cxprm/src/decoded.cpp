// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The core's offline decoders, shown (decoded.h).
#include "decoded.h"

#include <map>
#include <vector>

#include "cli.h"

#include "cxprm/commands/decode.h"
#include "cxprm/errors.h"

namespace cxprm::tool {

namespace {

template <class Fn> Decoded run(uint32_t len, Fn fn)
{
	uint32_t cap = len / 8 + 512;
	std::vector<cmd::Kv> items(cap);
	cmd::KvWriter kv(items.data(), cap);
	Decoded d;
	d.err = fn(kv);
	for (uint32_t i = 0; i < kv.count(); i++)
		d.kv.emplace_back(kv.at(i).key, kv.at(i).val);
	d.dropped = kv.dropped();
	return d;
}

bool always_array(const std::string &k) { return k == "pas" || k == "host_sf_enable" || k == "event_bitmask"; }

Json value(const std::string &v)
{
	if (!v.empty() && looks_numeric(v) && v.rfind("0x", 0) != 0 && v.size() < 20)
		return Json::num(std::stoull(v));
	if (v.size() > 1 && v[0] == '-' && looks_numeric(v.substr(1)) && v.size() < 20)
		return Json::snum(std::stoll(v));
	return Json::str(v);
}

} // namespace

bool Decoded::supported() const { return err != E_NOTSUP; }

std::string Decoded::result_text() const
{
	switch (err) {
	case OK: return "OK";
	case E_NOTSUP: return "no decoder for this opcode (or capability type)";
	case E_INVAL: return "the message is shorter than its layout";
	case E_PROTO: return "a count in the output is inconsistent with its length";
	default: return err_name(err);
	}
}

Decoded decode_out(uint16_t opcode, uint16_t op_mod, const uint8_t *out, uint32_t outlen)
{
	return run(outlen, [&](cmd::KvWriter &kv) { return cmd::decode_output(opcode, op_mod, out, outlen, kv); });
}

Decoded decode_in(const uint8_t *in, uint32_t inlen)
{
	return run(inlen, [&](cmd::KvWriter &kv) { return cmd::decode_input(in, inlen, kv); });
}

Json decoded_json(const Decoded &d)
{
	std::map<std::string, int> count;
	for (const auto &p : d.kv)
		count[p.first]++;
	Json j = Json::object();
	for (const auto &p : d.kv) {
		if (count[p.first] > 1 || always_array(p.first)) {
			Json arr = j.get(p.first) ? *j.get(p.first) : Json::array();
			arr.push_json(value(p.second));
			j.set_json(p.first, std::move(arr));
		} else {
			j.set_json(p.first, value(p.second));
		}
	}
	return j;
}

} // namespace cxprm::tool
