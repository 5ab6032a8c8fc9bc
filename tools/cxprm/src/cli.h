// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Command-line parsing for the subcommands.  Each subcommand declares a
// CommandSpec (name, synopsis, options); Args parses argv against it:
// "--name value", "--name=value", short "-x [value]", "--" ends options.
// -h/--help is always accepted; -j/--json on every spec that sets json.
// Errors throw UsageError (exit 1) naming the subcommand.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace cxprm::tool {

struct Opt {
	const char *name;      // long name without "--"
	char short_name;       // 0 = none
	const char *metavar;   // nullptr: a flag without value
	const char *help;
	bool repeat = false;   // may be given more than once (all() returns each)
};

struct CommandSpec {
	const char *name;        // "dct create"
	const char *synopsis;    // "DEV --pd N --cqn N [options]"
	const char *summary;     // one line for the command list
	const char *description = nullptr; // more text for --help (may be null)
	std::vector<Opt> opts = {};     // its options
	size_t min_pos = 0;      // positional arguments
	size_t max_pos = 0;
	bool json = false;       // accepts -j/--json
};

class Args {
public:
	// Parses argv (the words after the subcommand name).
	Args(const CommandSpec &spec, const std::vector<std::string> &argv);

	const CommandSpec &spec() const { return *spec_; }
	bool help() const { return help_; }
	bool json() const { return has("json"); }
	bool has(const std::string &name) const { return values_.count(name) != 0; }
	// The (last) value of an option; def when absent.
	std::string str(const std::string &name, const std::string &def = {}) const;
	std::vector<std::string> all(const std::string &name) const;
	// Number option in [0, max]: decimal or 0x hex.
	uint64_t num(const std::string &name, uint64_t max, uint64_t def = 0) const;
	// Seconds option as milliseconds; def when absent.
	int seconds_ms(const std::string &name, int def) const;
	const std::vector<std::string> &pos() const { return pos_; }

	// A UsageError about this command.
	[[noreturn]] void fail(const std::string &msg) const;

private:
	const CommandSpec *spec_;
	bool help_ = false;
	std::map<std::string, std::vector<std::string>> values_;
	std::vector<std::string> pos_;
};

// "12", "0x1f" -> value; UsageError mentioning 'what' when not a number or > max.
uint64_t parse_num(const std::string &s, const std::string &what, uint64_t max);
// Whether s is a number parse_num would accept (any size).
bool looks_numeric(const std::string &s);
// Seconds ("5", "0.25") as milliseconds, at most a day.
int parse_seconds_ms(const std::string &s, const std::string &what);

// The full --help text of a command.
std::string usage_text(const CommandSpec &spec);

} // namespace cxprm::tool
