// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Seeds of the cli_decode target: mode, vary, then per mode.
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hex.h"
#include "seed_bytes.h"

#include "cxprm/capi.h"
#include "cxprm/layout.h"
#include "cxprm/prm/adapter.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/esw.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/registry.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using namespace cxprm::prm;
namespace fs = std::filesystem;

namespace cxprm::seeds {

// ---- cli_decode: mode, vary, then per mode ----

void cli_seed(const std::string &name, const Bytes &b) { write("cli_decode", name, b); }

void cli()
{
	u32 n;
	const LayoutDesc *const *all = all_layouts(&n);
	auto layout_index = [&](const char *want) {
		for (u32 i = 0; i < n; i++)
			if (!std::strcmp(all[i]->name, want))
				return (uint8_t)i;
		return (uint8_t)0;
	};
	auto out_mode = [&](uint8_t mode, u16 opcode, u16 op_mod, const Bytes &body) {
		Bytes b;
		put8(b, mode);
		put8(b, 2); // opcode as a number, op_mod as a number
		put16(b, opcode);
		put16(b, op_mod);
		append(b, body);
		return b;
	};
	cli_seed("out_query_hca_cap_json", out_mode(0x40, op::QUERY_HCA_CAP, 1, hca_cap_out(true)));
	cli_seed("out_query_adapter_hex", out_mode(0x20, op::QUERY_ADAPTER, 0, adapter_out()));
	cli_seed("out_manage_pages_take", out_mode(0x40, op::MANAGE_PAGES, manage_pages_op::TAKE, take_out(3, 3)));
	cli_seed("out_layout_fallback", out_mode(0x40, op::QUERY_EQ, 0, Bytes(query_eq_out::size_bytes, 0x11)));
	cli_seed("out_too_short", out_mode(0, op::QUERY_ISSI, 0, Bytes(5, 0)));

	// --out as hexdump text, "*" repeats included.
	Bytes dump_text;
	put8(dump_text, 0x10 | 0x40);
	put8(dump_text, 2);
	put16(dump_text, op::QUERY_ESW_FUNCTIONS);
	put16(dump_text, 0);
	Bytes esw = esw_out(2);
	std::string text = "# saved by cxprm raw --dump\n";
	for (const std::string &l : tool::hexdump(esw.data(), esw.size()))
		text += l + "\n";
	append(dump_text, Bytes(text.begin(), text.end()));
	cli_seed("out_hexdump_text", dump_text);
	Bytes messy;
	put8(messy, 0x10 | 0x01);
	put8(messy, 0);
	std::string t2 = "0x00,00_00 00 # comment\n0000000a 00000000\n  00 11 22 33 44 55 66 77\n";
	append(messy, Bytes(t2.begin(), t2.end()));
	cli_seed("in_messy_hex_text", messy);
	Bytes starred;
	put8(starred, 0x10 | 0x02);
	put8(starred, 0);
	put8(starred, layout_index("dctc"));
	std::string t3 = "0000: 00000001 00000002 00000003 00000004\n*\n0030: 00000000 00000000 00000000 00000005\n";
	append(starred, Bytes(t3.begin(), t3.end()));
	cli_seed("layout_dctc_starred_dump", starred);

	Bytes in_dct;
	put8(in_dct, 0x41);
	put8(in_dct, 0);
	append(in_dct, create_dct_in_msg());
	cli_seed("in_create_dct_json", in_dct);
	Bytes in_eq;
	put8(in_eq, 0x01);
	put8(in_eq, 0);
	append(in_eq, create_eq_in_msg(1));
	cli_seed("in_create_eq", in_eq);
	Bytes lay;
	put8(lay, 0x42);
	put8(lay, 0);
	put8(lay, layout_index("cmd_queue_entry"));
	append(lay, Bytes(64, 0xa5));
	cli_seed("layout_cmd_queue_entry_json", lay);
	Bytes name;
	put8(name, 0x00);
	put8(name, 1); // opcode as text
	std::string nm = "query_hca_cap";
	put8(name, (uint8_t)nm.size());
	append(name, Bytes(nm.begin(), nm.end()));
	append(name, hca_cap_out(false));
	cli_seed("out_opcode_by_name", name);
}

} // namespace cxprm::seeds
