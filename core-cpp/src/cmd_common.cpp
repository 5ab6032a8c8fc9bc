// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Shared plumbing of the typed commands. */
#include "cxprm/commands/common.h"

#include "cxprm/prm/transport.h"

namespace cxprm::cmd {

int HostMem::alloc(const cxprm_host *host, usize bytes)
{
	release();
	if (!host || !host->ops || !host->ops->mem_alloc || !bytes)
		return E_INVAL;
	void *p = host->ops->mem_alloc(host->ctx, bytes);
	if (!p)
		return E_NOMEM;
	/*
	 * mem_alloc returns zeroed memory (host.h): zeroing it again was a
	 * second pass over every command buffer (2 MiB for a 2^18-page GIVE,
	 * 4 KiB for each QUERY_HCA_CAP; Documentation/performance.rst).
	 */
	host_ = host;
	p_ = (u8 *)p;
	n_ = bytes;
	return OK;
}

void HostMem::release()
{
	if (p_)
		host_->ops->mem_free(host_->ctx, p_);
	host_ = nullptr;
	p_ = nullptr;
	n_ = 0;
}

u8 out_status(const void *out)
{
	return (u8)prm::get<prm::cmd_out::status>(prm::CRef<prm::cmd_out>(out));
}

u32 out_syndrome(const void *out)
{
	return (u32)prm::get<prm::cmd_out::syndrome>(prm::CRef<prm::cmd_out>(out));
}

} // namespace cxprm::cmd
