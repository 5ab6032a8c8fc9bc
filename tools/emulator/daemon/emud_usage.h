// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-emud's --help text.
#pragma once

#include <cstdio>

namespace cxprm::emud {

void usage(FILE *f);

} // namespace cxprm::emud
