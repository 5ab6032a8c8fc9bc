// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The objects one open device file creates: PDs, CQs, SRQs, QPs, XRQs,
// NVMF backend controllers and namespaces (CXPRM_IOC_OBJ_*, QP_MODIFY).
// Like DCTs they belong to that file (the driver destroys what is left when
// it is closed), so a command that needs its own objects -- 'dct create'
// without --pd/--cqn, 'nvmf setup', 'bench connect' -- creates them on the
// DevFile it runs on, uses them, and destroys them newest first: the
// reverse of creation is dependency order (a QP after the CQ it names...).
//
// A bad firmware status throws FwError ("CREATE_CQ: firmware answered
// ..."); every command's result goes to the observer first (output, and
// the firmware latency for 'bench connect').
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <uapi/linux/cxprm.h>

#include "fwstatus.h"

namespace cxprm::tool {

class DevFile;

class ObjSet {
public:
	struct Obj {
		uint32_t type, id, parent;
	};
	// op: "create", "destroy", "modify"; o: the object (for modify, type QP,
	// and m the QP_MODIFY as it returned: transition and state; else null).
	using Observer =
		std::function<void(const char *op, const Obj &o, const FwResult &r, const cxprm_qp_modify *m)>;

	explicit ObjSet(DevFile &f, Observer obs = {}) : f_(f), obs_(std::move(obs)) {}

	// OBJ_CREATE of o (type, parent, attributes in o.u): the new id.
	uint32_t create(cxprm_obj &o);
	uint32_t pd();
	uint32_t cq(uint8_t log_size);
	uint32_t srq(uint32_t pd, uint8_t log_size);
	// An RC QP on the SRQ (its receives; srqn 0: a regular RQ of one
	// entry), sends completing on cqn.
	uint32_t rc_qp(uint32_t pd, uint32_t cqn, uint32_t srqn);
	// An XRQ with NVMe-oF target offload (64 1-KiB receive buffers, 16
	// namespaces, 128 KiB I/Os, 64-byte capsules), a backend controller
	// on it, and namespace nsid attached to it (log2 block size lba_log).
	// nvme_queue_size: the backend's queue depth.  The backend is an NVMe
	// device's I/O queue pair, as its driver hands it over (the UAPI's
	// cxprm_nvmf_backend_attr, filled by the caller).
	uint32_t nvmf_xrq(uint32_t pd, uint32_t cqn, uint16_t nvme_queue_size);
	uint32_t nvmf_backend(uint32_t xrqn, const cxprm_nvmf_backend_attr &nvme);
	void nvmf_ns(uint32_t xrqn, uint32_t nsid, uint32_t backend_nsid, uint32_t ctrl, uint8_t lba_log);
	// QP_MODIFY of qpn: RST2INIT, INIT2RTR, RTR2RTS (or 2RST) with the
	// path's in fields (qp_path()); the state after.
	uint8_t modify_qp(uint32_t qpn, uint32_t transition, const cxprm_qp_modify &path);
	void destroy(uint32_t type, uint32_t id, uint32_t parent = 0);
	// In one CXPRM_IOC_BATCH (obj_batch.cpp; at most CXPRM_BATCH_MAX ops):
	// creates `creates` RC QPs (their numbers) and takes each QP of steps
	// one transition (steps[i]: qpn, transition and the path's fields; its
	// st and state filled), other QPs than the new ones.  An op the driver
	// refused throws OsError, a firmware status FwError.
	std::vector<uint32_t> qp_batch(uint32_t pd, uint32_t cqn, uint32_t srqn, unsigned creates,
				       std::vector<cxprm_qp_modify> &steps);
	// Destroys what is alive, newest first.
	void destroy_all();
	const std::vector<Obj> &alive() const { return alive_; }
	// The file's objects of a type, oldest first.
	std::vector<uint32_t> ids(uint32_t type) const;

private:
	static cxprm_obj rc_qp_attr(uint32_t pd, uint32_t cqn, uint32_t srqn);
	void forget(const Obj &o);
	void done(const char *op, const Obj &o, const cxprm_cmd_status &st, const cxprm_qp_modify *m = nullptr);

	DevFile &f_;
	Observer obs_;
	std::vector<Obj> alive_;
};

// The path of an RC QP's transitions (the in fields of cxprm_qp_modify but
// qpn and transition) with the values mlx5_ib uses for RC over RoCE port 1:
// MTU 1024, remote read and write, hop limit 64, RNR NAK timer 12, 7
// retries and RNR retries, ACK timeout 14, GID index 0, everything else 0.
// The one place of these defaults ('bench connect', 'qp connect').
cxprm_qp_modify qp_path(uint32_t remote_qpn);

// "PD 0x1, CQ 0x400, SRQ 0x100" (for messages).
std::string obj_list(const std::vector<ObjSet::Obj> &objs);

} // namespace cxprm::tool

namespace cxprm::tool {

struct Ctx;
// The observer that prints each object command: "created CQ 0x400" /
// "destroyed CQ 0x400" / "QP 0x400: RST2INIT -> INIT" (text, successes
// only), or with json one line {"op": "obj_create"|"obj_destroy"|
// "qp_modify", "object", "id", ["parent",] ["transition", "state",
// "state_code" (qp_modify),] "status"} per command.
ObjSet::Observer obj_printer(Ctx &ctx, bool json);

} // namespace cxprm::tool
