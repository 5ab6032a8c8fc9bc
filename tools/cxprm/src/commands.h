// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The subcommands: each cli_cmd_*.cpp defines one or more Command (its spec and
// its run function); main.cpp dispatches.  run_cli() is the whole tool
// (main() calls it; the host tests call it in-process).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli.h"

namespace cxprm::tool {

struct Ctx {
	std::ostream &out;
	std::ostream &err;
	std::istream &in;
};

struct Command {
	const CommandSpec *spec;
	int (*run)(Ctx &ctx, const Args &args);
};

extern const Command cmd_list;
extern const Command cmd_info;
extern const Command cmd_caps;
extern const Command cmd_reg;
extern const Command cmd_nvmf_ns;
extern const Command cmd_nvmf_setup;
extern const Command cmd_esw_functions;
extern const Command cmd_esw_watch;
extern const Command cmd_dct_create;
extern const Command cmd_dct_query;
extern const Command cmd_dct_drain;
extern const Command cmd_dct_destroy;
extern const Command cmd_dct_session;
extern const Command cmd_raw;
extern const Command cmd_stats;
extern const Command cmd_bench_connect;
extern const Command cmd_qp_connect;
extern const Command cmd_probe;
extern const Command cmd_decode;
extern const Command cmd_export;
extern const Command cmd_bind;
extern const Command cmd_unbind;

// Every command, in help order.
const std::vector<const Command *> &all_commands();

// The top-level --help (group empty) or a group's command list ("dct").
std::string top_usage(const std::string &group = {});

// Runs the tool on argv[1..]; returns the exit code (errors.h).
int run_cli(const std::vector<std::string> &args, std::ostream &out, std::ostream &err, std::istream &in);

} // namespace cxprm::tool

// Helpers shared by the subcommands (cli_cmd_common.cpp).
#include "cli_device.h"
#include "json.h"

#include "cxprm/layout.h"

namespace cxprm::tool {

class ObjSet;

// The options of the commands that name a firmware command (raw, decode).
inline constexpr Opt opt_opcode = {"opcode", 'o', "X", "the command's opcode: PRM name (QUERY_HCA_CAP) or number"};
inline constexpr Opt opt_op_mod = {"op-mod", 'm', "Y", "the command's op_mod (default 0)"};
// The options of the commands that can hold what they created (dct create, nvmf setup).
inline constexpr Opt opt_keep_open = {"keep-open", 0, nullptr, "hold what was created (keep the file open) until Ctrl-C"};
inline constexpr Opt opt_hold = {"hold", 0, "S", "with --keep-open: release after S seconds"};
inline constexpr Opt opt_exec = {"exec", 0, "CMD", "run this shell command while the objects are alive"};

// The largest value of a PRM field 'width' bits wide (range checks of options).
constexpr uint64_t field_max(uint32_t width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

// JSON to ctx.out: pretty (one member a line) or one compact line.
void print_json(Ctx &ctx, const Json &j, bool pretty = true);
// The DEV positional (first) of a command.
DevPath dev_arg(const Args &args);
// The DEV positional, open: p is dev_arg(), f the device file open_device()
// opened, which file holds open while it lives.  The opening of a command
// that works on one device: auto [p, f, file] = open_dev_arg(args);
struct DevArgFile {
	DevPath p;
	DevFile &f;
	std::unique_ptr<DevFile> file;
};
DevArgFile open_dev_arg(const Args &args);
// --scope SCOPE of raw and reg: the fwctl scope of a write, given to f
// (a usage error over cxprm.ko); warns that the debug scopes taint.
void apply_scope_arg(Ctx &ctx, const Args &args, DevFile &f);
// The --scope option spec.
extern const Opt kScopeOpt;
// --keep-open: keeps the device file (and so what it created: "2 DCT(s)")
// open until Ctrl-C/SIGTERM, or hold_ms (< 0: no limit).
void hold_file_open(Ctx &ctx, const std::string &held, int hold_ms);
// What a command that built objects on set (nvmf setup, qp connect) does
// while they are alive: --exec CMD (/bin/sh -c CMD with env added to the
// environment: the objects' numbers; OsError when it cannot run or does
// not exit 0), then --keep-open [--hold] (hold_ms: hold_ms_arg()).
void use_objects(Ctx &ctx, const Args &args, const ObjSet &set, int hold_ms,
		 const std::vector<std::pair<std::string, std::string>> &env);
// --mtu BYTES (256..4096, a power of two) as the PRM code 1..5; def
// (bytes) when absent; a usage error otherwise.
uint8_t mtu_arg(const Args &args, uint32_t def);
// --hold as milliseconds (-1 when absent); a usage error without --keep-open.
int hold_ms_arg(const Args &args);
// Field 'name' of layout l in buf (len bytes) set to v; a usage error
// naming the layout's fields when it has none of that name.
void set_layout_field(const Args &args, const prm::LayoutDesc &l, uint8_t *buf, size_t len, const std::string &name,
		      uint64_t v);
// One --set FIELD=VALUE of raw and reg: parsed, then set_layout_field().
void apply_set_arg(const Args &args, const prm::LayoutDesc &l, uint8_t *buf, size_t len, const std::string &spec);

} // namespace cxprm::tool
