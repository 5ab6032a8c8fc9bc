// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "fault_plan.h"

namespace cxprm::emu {

void Faults::clear_command_faults()
{
	never_complete = false;
	corrupt_output_signature = 0;
	wrong_output_token = 0;
	delivery_status = 0;
	delivery_status_count = 0;
	output_length_lie = 0;
	broken_output_chain = false;
	slow_ms = 0;
	only_opcode = -1;
	once = false;
}

FaultPlan plan_faults(Faults &f, uint16_t opcode)
{
	FaultPlan p;
	int32_t only = f.only_opcode.load();
	if (only >= 0 && (uint32_t)only != opcode)
		return p;

	p.never_complete = f.never_complete.load();
	p.corrupt_sig = f.corrupt_output_signature.load();
	p.wrong_token = f.wrong_output_token.load();
	p.length_lie = f.output_length_lie.load();
	p.broken_chain = f.broken_output_chain.load();
	p.slow_ms = f.slow_ms.load();

	uint8_t ds = f.delivery_status.load();
	if (ds) {
		// Consume one of the N forced delivery statuses.
		uint32_t n = f.delivery_status_count.load();
		while (n && !f.delivery_status_count.compare_exchange_weak(n, n - 1))
			;
		if (n)
			p.delivery = ds;
	}

	if (p.any()) {
		f.fired++;
		if (f.once.load())
			f.clear_command_faults();
	}
	return p;
}

} // namespace cxprm::emu
