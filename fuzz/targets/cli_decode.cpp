// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Fuzz target: `cxprm decode` as a user runs it (tools/cxprm/src/
// cmd_decode.cpp through run_cli): option values (opcode names and
// numbers, op_mod, layout names), the hex text parser (hex.cpp: comments,
// separators, 0x prefixes, hexdump lines with offsets and "*" repeats, as
// an @FILE would hold them), and the decoders behind the three modes (--out with
// --opcode, --in, --layout with --data), plain and --json, with --hex.
//
// Checks: the exit code is 0 (decoded) or 1 (bad input), never 2 (an
// unexpected exception the tool could only report as an OS error), and
// --json output that exits 0 is valid JSON.
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_input.h"

#include "commands.h"
#include "errors.h"
#include "hex.h"
#include "json_parse.h"

#include "cxprm/prm/registry.h"

using namespace cxprm;
using cxprm::fuzz::FuzzInput;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzInput in(data, size);
	uint8_t mode = in.u8();
	uint8_t vary = in.u8();
	std::vector<std::string> args = {"decode"};
	u32 nlayouts;
	const prm::LayoutDesc *const *layouts = prm::all_layouts(&nlayouts);

	auto small_text = [&]() {
		std::vector<uint8_t> b = in.bytes(in.u8() % 24);
		return std::string(b.begin(), b.end());
	};
	switch ((mode & 3) % 3) {
	case 0: {
		args.push_back("--opcode");
		if (vary & 1)
			args.push_back(small_text());
		else
			args.push_back(tool::hex_num(in.u16()));
		if (vary & 2) {
			args.push_back("--op-mod");
			args.push_back((vary & 4) ? small_text() : std::to_string(in.u16()));
		}
		args.push_back("--out");
		break;
	}
	case 1:
		args.push_back("--in");
		break;
	default:
		args.push_back("--layout");
		args.push_back((vary & 1) ? small_text() : layouts[in.u8() % nlayouts]->name);
		args.push_back("--data");
		break;
	}
	// The bytes: hex text as given, or the raw bytes
	// written as hex (so the decoders see every pattern).
	std::vector<uint8_t> rest = in.rest();
	if (mode & 0x10) {
		// Hex text is the argument itself (what @FILE would read); never
		// a file name: an '@' first would open one.
		std::string text(rest.begin(), rest.end());
		if (!text.empty() && text[0] == '@')
			text.insert(text.begin(), ' ');
		args.push_back(text);
	} else {
		args.push_back(tool::to_hex(rest.data(), rest.size()));
	}
	if (mode & 0x20)
		args.push_back("--hex");
	bool json = mode & 0x40;
	if (json)
		args.push_back("--json");

	std::ostringstream out, err;
	std::istringstream no_stdin;
	int rc = tool::run_cli(args, out, err, no_stdin);
	if (std::getenv("FUZZ_VERBOSE")) {
		for (const std::string &a : args)
			std::fprintf(stderr, "arg: %s\n", a.c_str());
		std::fprintf(stderr, "rc %d\n%s%s", rc, out.str().c_str(), err.str().c_str());
	}
	FUZZ_CHECK(rc == tool::EXIT_OK || rc == tool::EXIT_USAGE);
	if (json && rc == tool::EXIT_OK) {
		try {
			tool::test::JsonParser::parse(out.str());
		} catch (const std::exception &e) {
			std::fprintf(stderr, "invalid JSON: %s\n", e.what());
			FUZZ_CHECK(!"decode --json printed invalid JSON");
		}
	}
	return 0;
}
