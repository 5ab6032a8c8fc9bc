// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The command-statistics table (cmd_stats_text.h): debugfs cmd_stats and
// `cxprm stats` both render it here.
#include "cxprm/cmd_stats_text.h"

#include "cxprm/errors.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/status.h"

namespace cxprm {

namespace {
constexpr u32 W_OPCODE = 30, W_COUNT = 11, W_ERRORS = 9, W_US = 12;
} // namespace

void opcode_label(Text &t, u16 opcode)
{
	const char *name = prm::opcode_name(opcode);

	t.str(name ? name : "UNKNOWN").chr('(').hex(opcode, 3).chr(')');
}

void cmd_stats_total(Text &t, u64 total)
{
	t.str("commands completed: ").dec(total);
}

void cmd_stats_last_error(Text &t, const cxprm_opcode_stats &o)
{
	if (!o.errors) {
		t.chr('-');
		return;
	}
	const char *e = err_name(o.last_errno);
	if (e[0] == 'U') /* "UNKNOWN": the number instead */
		t.str("errno ").sdec(o.last_errno);
	else
		t.str(e);
	if (o.last_delivery)
		t.str(" delivery ").str(delivery_status_name(o.last_delivery));
	else if (o.last_status)
		t.chr(' ').str(cmd_status_name(o.last_status)).str(" syndrome ").hex(o.last_syndrome, 8);
}

void cmd_stats_table(Text &t, const cxprm_opcode_stats *ops, u32 n)
{
	col(t, "opcode", W_OPCODE);
	col(t, "count", W_COUNT);
	col(t, "errors", W_ERRORS);
	col(t, "min_us", W_US);
	col(t, "avg_us", W_US);
	col(t, "max_us", W_US);
	t.str("last_error\n");
	for (u32 i = 0; i < n; i++) {
		const cxprm_opcode_stats &o = ops[i];
		usize from = t.len();
		opcode_label(t, o.opcode);
		pad(t, from, W_OPCODE);
		col_dec(t, o.count, W_COUNT);
		col_dec(t, o.errors, W_ERRORS);
		col_usec(t, o.lat_min_ns, W_US);
		col_usec(t, o.lat_avg_ns, W_US);
		col_usec(t, o.lat_max_ns, W_US);
		cmd_stats_last_error(t, o);
		t.chr('\n');
	}
}

} // namespace cxprm
