// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Two saved probes (cxprm probe DEV -o FILE: the probe's JSON) compared
// field by field: the device line, then per command (by name) each decoded
// field whose value differs, status and error differences, the number of
// raw output bytes that differ, and commands present in only one.
#pragma once

#include <string>
#include <vector>

#include "json.h"

namespace cxprm::tool {

struct ProbeChange {
	std::string field;  // decoded key, "status", "error", "output bytes", a device key
	std::string a, b;   // the values as text; "(absent)" where one has none
};

struct ProbeCmdDiff {
	std::string name;
	std::string only_in; // "a" or "b" for a command in one probe only, else empty
	std::vector<ProbeChange> changes;
};

struct ProbeDiff {
	std::vector<ProbeChange> device;
	std::vector<ProbeCmdDiff> commands; // only those that differ, in A's order then B's
	bool identical() const { return device.empty() && commands.empty(); }
};

// Throws std::runtime_error naming what is wrong when a or b is not a
// probe's JSON (no "device" object or "commands" array).
ProbeDiff probe_diff(const Json &a, const Json &b);

// Text: "device:" / "<command>:" headers, "  name: A → B" lines, "only in A: x".
std::vector<std::string> probe_diff_lines(const ProbeDiff &d, const std::string &name_a, const std::string &name_b);
// {"identical", "a", "b", "device": [{"field", "a", "b"}], "commands": [{"name",
//  "only_in"?, "changes": [{"field", "a", "b"}]}]}
Json probe_diff_json(const ProbeDiff &d, const std::string &name_a, const std::string &name_b);

} // namespace cxprm::tool
