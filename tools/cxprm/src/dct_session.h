// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// DCT operations on one open device file.  A DCT belongs to the file that
// created it (the driver destroys it when the file is closed, and another
// file gets ENOENT), so a lifecycle -- create, query, drain, wait for
// DCT_DRAINED, destroy -- must run on one DevFile: this class is that file's
// operations with their output.  Used by 'dct create --then', 'dct session'
// and the single-shot 'dct query/drain/destroy'.
//
// Output per operation: human lines, or JSON (pretty, or one compact
// object a line for sessions): {"op", "dctn", "status", ...}.  A firmware
// error prints its JSON (with the status) and throws FwError.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <uapi/linux/cxprm.h>

#include "commands.h"

namespace cxprm::tool {

class DctSession {
public:
	enum class Output { TEXT, PRETTY, LINES };
	DctSession(Ctx &ctx, DevFile &f, Output out) : ctx_(ctx), f_(f), out_(out) {}

	uint32_t create(const cxprm_dctc &c);
	void query(uint32_t dctn);
	void drain(uint32_t dctn);
	// Until DCT_DRAINED for dctn arrives on this file (or QUERY_DCT says
	// DRAINED: the fallback when no event comes); TimeoutError after timeout_ms.
	void wait_drained(uint32_t dctn, int timeout_ms);
	void destroy(uint32_t dctn);

	// "0x1000", "4096", "last" (the latest create), "@N" (the N-th create, from 1).
	uint32_t resolve(const std::string &ref) const;
	// DCTs created here and not destroyed.
	const std::vector<uint32_t> &alive() const { return alive_; }

private:
	void emit(const Json &j);
	// One command on dctn ('op' in the JSON, fw_op in the error): its JSON
	// (with the context when asked and answered), FwError on a bad status.
	cxprm_dct run(void (DevFile::*call)(cxprm_dct &), const char *op, const char *fw_op, uint32_t dctn,
		      bool with_context = false);

	Ctx &ctx_;
	DevFile &f_;
	Output out_;
	std::vector<uint32_t> created_;
	std::vector<uint32_t> alive_;
};

} // namespace cxprm::tool
