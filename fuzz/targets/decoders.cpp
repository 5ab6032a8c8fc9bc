// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Fuzz target: the typed command decoders (commands/*.h decode_*) and the
// offline decoder behind `cxprm decode` (commands/decode.h: decode_output,
// decode_input, KvWriter), on firmware-provided bytes of any length.
//
// The bytes sit in a heap buffer of exactly their length, so AddressSanitizer
// reports any read past what "firmware" wrote.  Checks: results are the
// documented codes; counts never exceed the room the caller gave; every
// key/value entry is a terminated string inside its slot; strings decoded
// from fixed fields are terminated inside their arrays.
#include <cstring>
#include <vector>

#include "fuzz_input.h"

#include "cxprm/commands/adapter.h"
#include "cxprm/commands/dct.h"
#include "cxprm/commands/decode.h"
#include "cxprm/commands/eq.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/issi.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/pages.h"
#include "cxprm/prm/opcodes.h"

using namespace cxprm;
using cxprm::fuzz::FuzzInput;

namespace {

const u16 kOpcodes[] = {
	prm::op::QUERY_HCA_CAP, prm::op::QUERY_ADAPTER, prm::op::QUERY_ISSI, prm::op::QUERY_PAGES,
	prm::op::MANAGE_PAGES, prm::op::TEARDOWN_HCA, prm::op::QUERY_ESW_FUNCTIONS,
	prm::op::CREATE_DCT, prm::op::QUERY_DCT, prm::op::CREATE_EQ, prm::op::ALLOC_UAR,
	prm::op::QUERY_NVMF_NAMESPACE_CONTEXT, prm::op::INIT_HCA, prm::op::SET_HCA_CAP,
	prm::op::DRAIN_DCT, prm::op::SET_ISSI,
};

void check_kv(const cmd::KvWriter &kv, u32 cap)
{
	FUZZ_CHECK(kv.count() <= cap);
	for (u32 i = 0; i < kv.count(); i++) {
		const cmd::Kv &e = kv.at(i);
		FUZZ_CHECK(e.key && *e.key);
		FUZZ_CHECK(std::memchr(e.val, 0, cmd::Kv::VAL_MAX) != nullptr);
		FUZZ_CHECK(kv.find(e.key) != nullptr);
	}
}

bool decoded(int err) { return err == OK || err == E_INVAL || err == E_NOTSUP || err == E_PROTO; }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzInput in(data, size);
	uint8_t sel = in.u8();
	u16 opcode = in.u16(), op_mod = in.u16();
	if (sel & 1)
		opcode = kOpcodes[opcode % (sizeof(kOpcodes) / sizeof(kOpcodes[0]))];
	u32 cap = (sel & 2) ? in.u8() % 16 : 600;
	u32 asked = in.u16() % 600;
	u32 sf_words = in.u8() % 80;
	std::vector<uint8_t> body = in.rest();
	// Exactly the bytes "firmware" wrote: no slack for a read past them.
	u8 *p = body.empty() ? nullptr : body.data();
	u32 len = (u32)body.size();
	u8 empty_byte = 0;
	const u8 *buf = p ? p : &empty_byte; // decoders get a valid pointer with len 0

	std::vector<cmd::Kv> items(cap ? cap : 1);
	cmd::KvWriter kv(items.data(), cap);
	FUZZ_CHECK(decoded(cmd::decode_output(opcode, op_mod, buf, len, kv)));
	check_kv(kv, cap);
	kv.reset();
	FUZZ_CHECK(decoded(cmd::decode_input(buf, len, kv)));
	check_kv(kv, cap);
	(void)cmd::decode_output_supported(opcode);

	const u8 *image = nullptr;
	if (cmd::decode_query_hca_cap(buf, len, &image) == OK) {
		FUZZ_CHECK(image >= buf && image + cmd::CAP_IMAGE_BYTES <= buf + len);
		cmd::GeneralCaps caps;
		cmd::decode_general_caps(image, &caps);
	}
	cmd::AdapterInfo a;
	if (cmd::decode_query_adapter(buf, len, &a) == OK) {
		FUZZ_CHECK(std::memchr(a.vsd, 0, sizeof(a.vsd)) != nullptr);
		FUZZ_CHECK(std::memchr(a.psid, 0, sizeof(a.psid)) != nullptr);
	}
	cmd::IssiInfo issi;
	(void)cmd::decode_query_issi(buf, len, &issi);
	cmd::PagesQuery pq;
	(void)cmd::decode_query_pages(buf, len, &pq);
	std::vector<u64> pas(asked ? asked : 1);
	u32 got = 12345;
	int err = cmd::decode_manage_pages_take(buf, len, asked, pas.data(), &got);
	FUZZ_CHECK(err == OK || err == E_INVAL || err == E_PROTO);
	FUZZ_CHECK(err == OK ? got <= asked : got == 0);
	for (u32 i = 0; i < (err == OK ? got : 0); i++)
		FUZZ_CHECK((pas[i] & 0xfff) == 0);
	cmd::EswFunctions esw;
	std::vector<u64> sf(sf_words ? sf_words : 1);
	(void)cmd::decode_query_esw_functions(buf, len, &esw, sf_words ? sf.data() : nullptr, sf_words);
	u32 dctn, ece;
	(void)cmd::decode_create_dct(buf, len, &dctn, &ece);
	cmd::DctContext dc;
	if (cmd::decode_query_dct(buf, len, &dc) == OK) {
		// A decoded context encodes back (read-only fields aside).
		u8 again[prm::dctc::size_bytes];
		FUZZ_CHECK(cmd::encode_dctc(dc, again) == OK);
	}
	u8 eqn;
	(void)cmd::decode_create_eq(buf, len, &eqn);
	cmd::NvmfNsCounters ns;
	(void)cmd::decode_query_nvmf_namespace(buf, len, &ns);
	return 0;
}
