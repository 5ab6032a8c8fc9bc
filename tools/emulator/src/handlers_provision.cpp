// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ProvisionProfile: objects another user of the function (a second kernel
// user of mlx5_core) set up, made by the emulator itself when INIT_HCA
// succeeds: uid 0's, no commands, no pages, the first number of each range
// (deterministic; prm-notes-uctx.rst "Provisioned objects"):
//   PD 1, CQ first_cqn, XRQ first_xrqn with NVMF offload, its backend
//   controller 1, namespaces nsid 1 and 2 on it, DCT first_dctn (ACTIVE).
// Only what the model has: no XRQ, controller or namespaces without NVMF
// offload, no DCT without cap dct.  The CQ's EQ and UAR are the other
// user's and not modelled (QUERY_CQ shows 0 for both; they hold nothing of
// the driver's).  The namespaces' backend always answers
// (nvmf_backend_io.cpp), so their counters move with nvmf.auto_io_ms.
// They are not the driver's: object_counts(), dct_count(),
// nvmf_namespace_count() and the leak counter leave them out
// (provisioned_alive); they go with the HCA like any firmware state.
#include <cstring>

#include "emu_device.h"

#include "cxprm/prm/dct.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/srq.h"

namespace cxprm::emu {

namespace {
constexpr uint8_t PROV_LOG_STRIDE = 6;       // 64-byte receive WQEs
constexpr uint16_t PROV_NVME_QUEUE = 64;     // backend NVMe queue entries
constexpr uint8_t PROV_LOG_MAX_NAMESPACE = 4;
constexpr uint16_t PROV_LBA_BYTES = 512;
} // namespace

void Device::provision()
{
	Provisioned p;
	p.pd = 1;
	pds.insert(p.pd);
	p.cqn = prof_.objects.first_cqn;
	Cq cq;
	cq.provisioned = true;
	cqs[p.cqn] = cq;
	if (prof_.nvmf.supported && cap_cur<prm::cmd_hca_cap::nvmf_target_offload>()) {
		p.xrqn = prof_.nvmf.first_xrqn;
		Xrq x;
		x.pd = p.pd;
		x.cqn = p.cqn;
		x.log_max_namespace = PROV_LOG_MAX_NAMESPACE;
		x.info.log_stride = PROV_LOG_STRIDE;
		x.info.wq_type = prm::WQ_TYPE_LINKED_LIST;
		x.info.offload_type = prm::NVMF_OFFLOAD_READ_WRITE_FLUSH;
		x.info.nvme_queue_size = PROV_NVME_QUEUE;
		xrqs[p.xrqn] = x;
		p.backend_ctrl = 1;
		NvmfBackendInfo be;
		be.depth = PROV_NVME_QUEUE;
		backends[{p.xrqn, p.backend_ctrl}] = be;
		p.nsids = {1, 2};
		for (uint32_t nsid : p.nsids) {
			Namespace &ns = namespaces[{p.xrqn, nsid}];
			ns.provisioned = true;
			ns.backend_nsid = nsid;
			ns.lba_data_size = PROV_LBA_BYTES;
			ns.backend_ctrl = p.backend_ctrl;
		}
	}
	if (cap_cur<prm::cmd_hca_cap::dct>()) {
		p.dctn = prof_.dct.first_dctn;
		Dct &d = dcts[p.dctn];
		prm::Ref<prm::dctc> ctx(d.ctx.data());
		prm::set<prm::dctc::pd>(ctx, p.pd);
		prm::set<prm::dctc::cqn>(ctx, p.cqn);
		prm::set<prm::dctc::srqn_xrqn>(ctx, p.xrqn); // 0 without an XRQ
		prm::set<prm::dctc::mtu>(ctx, 5);
		prm::set<prm::dctc::port>(ctx, 1);
		d.state = DctState::ACTIVE;
	}
	p.active = true;
	prov = p;
}

ObjectCounts Device::provisioned_alive(uint32_t *dcts_alive, uint32_t *ns_alive) const
{
	ObjectCounts o;
	uint32_t d = 0, n = 0;
	if (prov.active) {
		o.pds = prov.pd && pds.count(prov.pd);
		o.cqs = prov.cqn && cqs.count(prov.cqn) && cqs.at(prov.cqn).provisioned;
		o.xrqs = prov.xrqn && xrqs.count(prov.xrqn);
		o.backends = prov.backend_ctrl && backends.count({prov.xrqn, prov.backend_ctrl});
		for (uint32_t nsid : prov.nsids) {
			auto it = namespaces.find({prov.xrqn, nsid});
			n += nsid && it != namespaces.end() && it->second.provisioned;
		}
		d = prov.dctn && dcts.count(prov.dctn);
	}
	if (dcts_alive)
		*dcts_alive = d;
	if (ns_alive)
		*ns_alive = n;
	return o;
}

} // namespace cxprm::emu
