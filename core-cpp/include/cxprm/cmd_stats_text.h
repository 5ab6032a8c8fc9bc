/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The command-statistics table, rendered once for both of its readers:
 * debugfs cmd_stats (capi_text.cpp) and `cxprm stats` (tools/cxprm).  It
 * renders the ioctl's form of the counters (struct cxprm_opcode_stats,
 * what CXPRM_IOC_STATS returns), so the tool shows exactly what the driver
 * shows.  The format is described in Documentation/kernel-module.rst
 * ("debugfs", cmd_stats):
 *
 *   commands completed: 24
 *   opcode                        count      errors   min_us      avg_us      max_us      last_error
 *   QUERY_HCA_CAP(0x100)          5          1        46.000      410.000     605.100     EREMOTEIO BAD_PARAM_ERR syndrome 0x0badca11
 *   INIT_HCA(0x102)               1          0        105.900     105.900     105.900     -
 */
#pragma once

#include "text.h"
#include "uapi.h"

namespace cxprm {

/* "QUERY_HCA_CAP(0x100)"; "UNKNOWN(0x9ff)" for an opcode without a name. */
void opcode_label(Text &t, u16 opcode);

/* "commands completed: N" (no newline: debugfs adds the commands in flight). */
void cmd_stats_total(Text &t, u64 total);

/* The column header, then one line per entry, in the order given. */
void cmd_stats_table(Text &t, const cxprm_opcode_stats *ops, u32 n);

/* "-" without errors; else errno name, then the delivery or command status. */
void cmd_stats_last_error(Text &t, const cxprm_opcode_stats &o);

/* The most bytes cmd_stats_table() writes for n entries, NUL included. */
constexpr usize cmd_stats_table_bytes(u32 n) { return (usize)(n + 1) * 192 + 1; }

} // namespace cxprm
