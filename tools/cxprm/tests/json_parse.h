// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The tests use the tool's strict JSON parser (src/json_parse.h).
#pragma once

#include "../src/json_parse.h"

namespace cxprm::tool::test {
using cxprm::tool::JsonParser;
}
