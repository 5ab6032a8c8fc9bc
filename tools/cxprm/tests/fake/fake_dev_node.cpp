// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The fake cxprm device: the UAPI over core + emulator (fake_dev_node.h).
#include "fake_dev_node.h"

#include <cerrno>
#include <cstdio>
#include <chrono>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <uapi/linux/cxprm.h>

#include "cxprm/capi.h"
#include "cxprm/commands/common.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/uctx.h"
#include "fwctl_uapi.h"
#include "cxprm_emu/emulator.h"
#include "emu_platform.h"
#include "user_host.h"

namespace cxprm::tool::fake {

namespace {

struct Config {
	std::string bdf;
	std::string profile = "connectx7";
	bool net_admin = true;
	bool allow_raw_write = false;
	unsigned esw_events = 0;
	long long ns_nsid = 1; // 0: no namespace at bring-up
	bool fwctl = false;    // transport=fwctl: FWCTL_INFO/RPC, as mlx5_fwctl
	bool provision = false;
	uint32_t uctx_cap = prm::uctx_cap::TOOLS_RESOURCES;
	long long fwctl_out_len = -1; // >= 0: FWCTL_RPC reports this out_len (a lying kernel)
	// The firmware latency model (cxprm-emud --fw-latency, --fw-engines,
	// --fw-latency-us), for 'bench connect' in make bench.
	bool fw_latency = false;
	unsigned fw_engines = 0;
	std::vector<std::string> fw_latency_us;
};

std::mutex &dcts_mu()
{
	static std::mutex m;
	return m;
}

emu::Profile make_profile(const Config &c)
{
	emu::Profile p = emu::Profile::connectx7();
	emu::Profile::by_name(c.profile, &p); // connectx5, bluefield3, ...
	p.boot_pages = 8;
	p.init_pages = 8;
	p.init_delay_ms = 0;
	p.nvmf.auto_io_ms = 0;
	// The fake tests the tool, not timing: a loaded CI host must not make
	// the queue's 'initializing' wait (2 s) run out before the emulator's
	// thread gets to clear it.
	p.cmd_q_init_to_ms = 60000;
	// The rescue undoes doorbells that a plain store to ivshmem RAM loses
	// (profile.h); this host ORs each doorbell in atomically
	// (HostBase::iowrite32be), so none is lost and the rescue's look at
	// every slot on each doorbell is work for nothing.
	p.lost_doorbell_us = 0;
	p.provision.enabled = c.provision;
	p.latency.enabled = c.fw_latency || c.fw_engines || !c.fw_latency_us.empty();
	if (c.fw_engines)
		p.latency.engines = c.fw_engines;
	for (const std::string &spec : c.fw_latency_us)
		if (!p.latency.set_from_text(spec))
			throw std::runtime_error("fake device: bad fw_latency_us " + spec);
	return p; // the strict object model: objects must exist

}

class DevNode {
public:
	explicit DevNode(const Config &c) : cfg_(c), uh_(16u << 20), plat_(uh_), emu_(plat_, make_profile(c))
	{
		emu_.start();
		cxprm_core_config cc{};
		cc.cmd_timeout_ns = 30'000'000'000ull; // as above: no timeout under load
		if (cxprm_core_create(uh_.host(), &core_) != OK)
			return;
		open_file();
		up_ = cxprm_core_bringup(core_, &cc) == OK;
		if (!up_) { // the fake's user sees why, as dmesg would say
			static char text[16384];
			cxprm_core_format(core_, CXPRM_TEXT_HEALTH, text, sizeof(text), nullptr);
			fprintf(stderr, "cxprm-fake: bring-up failed:\n%s\n", text);
			return;
		}
		attach_namespace(c);
		if (c.fwctl)
			open_uctx();
		mask_[prm::event::ESW_FUNCTIONS_CHANGED / 64] |= 1ull << (prm::event::ESW_FUNCTIONS_CHANGED % 64);
		mask_[prm::event::DCT_DRAINED / 64] |= 1ull << (prm::event::DCT_DRAINED % 64);
	}

	~DevNode()
	{
		if (uid_)
			close_uctx();
		close_file();
		cxprm_core_objs_destroy(core_, holder_, nullptr);
		cxprm_core_destroy(core_); // tears down
		emu_.stop();
	}

	int ioctl(unsigned long req, void *arg);
	ssize_t read(void *buf, size_t n);
	int poll(int timeout_ms, short *revents);

private:
	void attach_namespace(const Config &c);
	void open_file();
	void close_file();
	void start_events();
	int obj_ioctl(cxprm_core_objs **t, unsigned long req, void *arg);
	u32 hold_obj(u32 type, u32 id, u32 parent, const cxprm_obj &attrs);
	// transport=fwctl (below): the file's user context and the
	// two fwctl ioctls, as drivers/fwctl/{main.c,mlx5/main.c} serve them.
	void open_uctx();
	void close_uctx();
	int fwctl_ioctl(unsigned long req, void *arg);
	int fwctl_rpc(void *arg);
	void pump();
	void post(u8 type, const u8 *data28);

	Config cfg_;
	hosted::UserHost uh_;
	hosted::EmuPlatform plat_;
	emu::Emulator emu_;
	cxprm_core *core_ = nullptr;
	bool up_ = false;
	// The core's part of the file (its DCTs and objects, as the driver's),
	// first in a struct that leads back here for subscribe.
	struct File {
		cxprm_core_file core;
		DevNode *dev;
	} file_{};
	cxprm_core_objs *holder_ = nullptr; // the bring-up namespace's, "another process's"
	bool events_ = false;
	std::set<u32> draining_;
	std::deque<cxprm_event> queue_;
	u64 mask_[4] = {};
	u32 seq_ = 0;
	u16 dropped_ = 0;
	unsigned esw_done_ = 0;
	std::chrono::steady_clock::time_point last_esw_{};
	u16 uid_ = 0;
	u32 uctx_caps_ = 0;
};

int fail(int err)
{
	errno = err;
	return -1;
}

// A core ioctl's result as ioctl() returns it: 0, or -1 with errno.
int ret(int err)
{
	return err ? fail(-err) : 0;
}

u64 ns_now()
{
	return (u64)std::chrono::duration_cast<std::chrono::nanoseconds>(
		       std::chrono::steady_clock::now().time_since_epoch())
		.count();
}

// One object of the holder's table: its id, 0 when it could not be made.
u32 DevNode::hold_obj(u32 type, u32 id, u32 parent, const cxprm_obj &attrs)
{
	cxprm_obj o = attrs;
	o.type = type;
	o.id = id;
	o.parent = parent;
	if (obj_ioctl(&holder_, CXPRM_IOC_OBJ_CREATE, &o) || o.st.status)
		return 0;
	return o.id;
}

// The namespace the config names, with some I/O, for NVMF_NS to count: on
// a PD, CQ, XRQ (NVMF offload) and backend controller of its own, held by
// a table of the fake's (as another process would hold them) until the
// device goes.  The XRQ is the first the emulator hands out: 0x80 on
// ConnectX-7/BlueField-3, 0x40 on ConnectX-5.
void DevNode::attach_namespace(const Config &c)
{
	if (c.ns_nsid <= 0)
		return;
	cxprm_obj a{};
	u32 pd = hold_obj(CXPRM_OBJ_PD, 0, 0, a);
	a.u.cq.log_size = 6;
	u32 cqn = pd ? hold_obj(CXPRM_OBJ_CQ, 0, 0, a) : 0;
	a = cxprm_obj{};
	a.u.xrq = {pd, cqn, 6, 6, 4, 17, 4, 64, 0, {}};
	u32 xrqn = cqn ? hold_obj(CXPRM_OBJ_XRQ, 0, 0, a) : 0;
	a = cxprm_obj{};
	// The emulated SSD's last queue pair (the CLI's tests name the first).
	emu::NvmeQueueInfo q;
	emu_.nvme_take_queue(emu_.profile().nvmf.ssd.io_queues, &q);
	a.u.backend = {q.sq_bus, q.cq_bus, q.sqt_db_bus, q.depth, q.db_stride, 10, 0};
	u32 ctrl = xrqn ? hold_obj(CXPRM_OBJ_NVMF_BACKEND, 0, xrqn, a) : 0;
	a = cxprm_obj{};
	a.u.ns.backend_namespace = 1;
	a.u.ns.backend_ctrl_id = (u16)ctrl;
	a.u.ns.lba_data_size = 9;
	u32 nsid = (u32)c.ns_nsid;
	if (ctrl && hold_obj(CXPRM_OBJ_NVMF_NS, nsid, xrqn, a))
		emu_.simulate_nvmf_io(xrqn, nsid, 10, 5, 8);
}

// The file as the driver's open() sets it up: the core's part, host locks.
void DevNode::open_file()
{
	const cxprm_host *h = uh_.host();
	file_.dev = this;
	file_.core.obj_lock = h->ops->lock_create(h->ctx);
	// The driver's DCT table spinlock (a batch's ops run on pool threads).
	file_.core.dcts.lock = [](cxprm_core_dcts *) { dcts_mu().lock(); };
	file_.core.dcts.unlock = [](cxprm_core_dcts *) { dcts_mu().unlock(); };
	file_.core.subscribe = [](cxprm_core_file *f, const cxprm_subscribe *s) {
		DevNode *d = ((File *)f)->dev;
		std::memcpy(d->mask_, s->mask, sizeof(d->mask_));
	};
	cxprm_info id{};
	std::snprintf(id.pci_addr, sizeof(id.pci_addr), "%s", cfg_.bdf.c_str());
	std::snprintf(id.dev_name, sizeof(id.dev_name), "cxprm/%s", cfg_.bdf.c_str());
	id.vendor_id = emu_.profile().vendor_id;
	id.device_id = emu_.profile().device_id;
	cxprm_core_set_identity(core_, &id);
	cxprm_core_info_flags(core_, CXPRM_INFO_EMULATED, 0);
}

// As the driver's release(): the file's DCTs, then its objects.
void DevNode::close_file()
{
	u32 dctn;
	if (up_)
		while (cxprm_core_dcts_pop(&file_.core.dcts, &dctn))
			cxprm_core_dct_destroy(core_, dctn, nullptr);
	cxprm_core_objs_destroy(core_, file_.core.objs, nullptr);
	file_.core.objs = nullptr;
	const cxprm_host *h = uh_.host();
	h->ops->lock_destroy(h->ctx, file_.core.obj_lock);
}

// The driver's EQ, which CQs and QPs need: started with the first object
// ioctl (a fresh fake reports no async EQ, as its tests expect).
void DevNode::start_events()
{
	if (events_)
		return;
	cxprm_core_events_config ec{};
	events_ = cxprm_core_events_start(core_, &ec) == OK;
}

int DevNode::obj_ioctl(cxprm_core_objs **t, unsigned long req, void *arg)
{
	if (!*t && cxprm_core_objs_create(core_, t) != OK)
		return fail(ENOMEM);
	start_events();
	int err = cxprm_core_ioc_obj(core_, (unsigned)req, *t, arg);
	if (events_) // nobody else polls the EQ of a fake
		cxprm_core_events_poll(core_, 64);
	return ret(err);
}

void DevNode::post(u8 type, const u8 *data28)
{
	if (!(mask_[type / 64] >> (type % 64) & 1))
		return;
	cxprm_event e{};
	e.timestamp_ns = ns_now();
	e.seq = ++seq_;
	e.type = type;
	if (data28)
		std::memcpy(e.data, data28, sizeof(e.data));
	if (queue_.size() >= CXPRM_EVENT_QUEUE) {
		queue_.pop_front();
		dropped_++;
	}
	e.dropped = dropped_;
	queue_.push_back(e);
}

void DevNode::pump()
{
	if (events_ && cxprm_core_events_poll(core_, 64) && cxprm_core_events_pending(core_))
		cxprm_core_events_service(core_);
	for (auto it = draining_.begin(); it != draining_.end();) {
		emu::DctState s;
		if (emu_.dct_state(*it, &s) && s == emu::DctState::DRAINED) {
			u8 data[28] = {};
			prm::set<prm::dct_events::dct_number>(prm::Ref<prm::dct_events>(data), *it);
			post(prm::event::DCT_DRAINED, data);
			it = draining_.erase(it);
		} else {
			++it;
		}
	}
	auto now = std::chrono::steady_clock::now();
	if (esw_done_ < cfg_.esw_events && now - last_esw_ >= std::chrono::milliseconds(20)) {
		last_esw_ = now;
		esw_done_++;
		emu_.set_num_vfs((u16)esw_done_);
		post(prm::event::ESW_FUNCTIONS_CHANGED, nullptr);
	}
}

int DevNode::poll(int timeout_ms, short *revents)
{
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
	for (;;) {
		pump();
		if (!queue_.empty()) {
			*revents = POLLIN;
			return 1;
		}
		if (timeout_ms >= 0 && std::chrono::steady_clock::now() >= end) {
			*revents = 0;
			return 0;
		}
		if (::poll(nullptr, 0, 5) < 0)
			return -1; // EINTR: a signal, as poll() does
	}
}

ssize_t DevNode::read(void *buf, size_t n)
{
	if (!cfg_.net_admin)
		return fail(EPERM);
	if (n < sizeof(cxprm_event))
		return fail(EINVAL);
	pump();
	if (queue_.empty())
		return fail(EAGAIN);
	size_t k = 0;
	while (!queue_.empty() && (k + 1) * sizeof(cxprm_event) <= n) {
		std::memcpy((u8 *)buf + k * sizeof(cxprm_event), &queue_.front(), sizeof(cxprm_event));
		queue_.pop_front();
		k++;
	}
	return (ssize_t)(k * sizeof(cxprm_event));
}

// The user memory of an ioctl is this process's; the privileges are the
// configured ones (net_admin=0: neither CAP_NET_ADMIN nor CAP_SYS_RAWIO).
int fake_copy_in(void *, void *dst, cxprm_u64 uaddr, cxprm_size n)
{
	if (n && !uaddr)
		return -EFAULT;
	std::memcpy(dst, (const void *)(uintptr_t)uaddr, n);
	return 0;
}

int fake_copy_out(void *, cxprm_u64 uaddr, const void *src, cxprm_size n)
{
	if (n && !uaddr)
		return -EFAULT;
	std::memcpy((void *)(uintptr_t)uaddr, src, n);
	return 0;
}

int fake_allowed(void *ctx, int priv)
{
	const Config &c = *(const Config *)ctx;
	if (priv == CXPRM_CORE_PRIV_ADMIN)
		return c.net_admin;
	return priv == CXPRM_CORE_PRIV_RAW_WRITE && c.net_admin && c.allow_raw_write;
}

const cxprm_core_caller_ops fake_caller_ops = {fake_copy_in, fake_copy_out, fake_allowed, nullptr};

int DevNode::ioctl(unsigned long req, void *arg)
{
	if (cfg_.fwctl)
		return fwctl_ioctl(req, arg);
	// The driver's whole ioctl (cxprm_cdev.c): the core's, with our copies.
	bool obj = cxprm_core_ioc_is_obj((unsigned)req);
	if (obj && up_)
		start_events();
	const cxprm_core_caller caller{&fake_caller_ops, &cfg_};
	int err = (int)cxprm_core_ioctl(core_, &file_.core, (unsigned)req, (cxprm_u64)(uintptr_t)arg, &caller);
	if (obj && events_) // nobody else polls the EQ of a fake
		cxprm_core_events_poll(core_, 64);
	u32 dctn = cxprm_core_ioc_is_dct((unsigned)req) ? ((cxprm_dct *)arg)->dctn : 0;
	if (!err && req == CXPRM_IOC_DCT_DRAIN) // for the DCT_DRAINED event
		draining_.insert(dctn);
	if (!err && req == CXPRM_IOC_DCT_DESTROY)
		draining_.erase(dctn);
	return ret(err);
}

// --- transport=fwctl: mlx5_fwctl's side of the file -----------------------

// mlx5ctl_open_uctx: CREATE_UCTX with TOOLS_RESOURCES when the HCA offers it.
void DevNode::open_uctx()
{
	u8 in[prm::create_uctx_in::size_bytes] = {}, out[prm::create_uctx_out::size_bytes] = {};
	prm::Ref<prm::create_uctx_in> r(in);
	prm::set<prm::create_uctx_in::opcode>(r, prm::op::CREATE_UCTX);
	prm::set<prm::uctx::cap>(prm::sub<prm::create_uctx_in::uctx, prm::uctx>(r), cfg_.uctx_cap);
	cxprm_core_result res{};
	if (!up_ || cxprm_core_raw(core_, in, sizeof(in), out, sizeof(out), &res, nullptr) != OK || res.st.status) {
		fprintf(stderr, "cxprm-fake: CREATE_UCTX failed (status 0x%x, syndrome 0x%x)\n", res.st.status,
			res.st.syndrome);
		return;
	}
	uid_ = (u16)prm::get<prm::create_uctx_out::uid>(prm::CRef<prm::create_uctx_out>(out));
	uctx_caps_ = cfg_.uctx_cap;
}

void DevNode::close_uctx()
{
	u8 in[prm::destroy_uctx_in::size_bytes] = {}, out[prm::destroy_uctx_out::size_bytes] = {};
	prm::Ref<prm::destroy_uctx_in> r(in);
	prm::set<prm::destroy_uctx_in::opcode>(r, prm::op::DESTROY_UCTX);
	prm::set<prm::destroy_uctx_in::uid>(r, uid_);
	cxprm_core_raw(core_, in, sizeof(in), out, sizeof(out), nullptr, nullptr);
}

int DevNode::fwctl_ioctl(unsigned long req, void *arg)
{
	if (!up_ || !uid_)
		return fail(ENODEV);
	if (req == fwctl::IOC_INFO) { // fwctl_cmd_info + mlx5ctl_info
		auto *i = (fwctl::Info *)arg;
		if (i->size < sizeof(*i))
			return fail(EINVAL);
		if (i->flags)
			return fail(EOPNOTSUPP);
		fwctl::InfoMlx5 m{uid_, uctx_caps_};
		u8 *dst = (u8 *)(uintptr_t)i->out_device_data;
		if (i->device_data_len) {
			std::memset(dst, 0, i->device_data_len);
			std::memcpy(dst, &m, std::min<size_t>(i->device_data_len, sizeof(m)));
		}
		i->out_device_type = fwctl::DEVICE_TYPE_MLX5;
		i->device_data_len = sizeof(m);
		return 0;
	}
	if (req == fwctl::IOC_RPC)
		return fwctl_rpc(arg);
	return fail(ENOTTY);
}

// fwctl_cmd_rpc + mlx5ctl_fw_rpc.  mlx5ctl_validate_rpc's list is
// approximated by the core's scope: queries (ACCESS_REG reads included) at
// DEBUG_READ_ONLY and up, ACCESS_REG writes and SET_HCA_CAP at any scope,
// anything else EBADMSG.
int DevNode::fwctl_rpc(void *arg)
{
	auto *r = (fwctl::Rpc *)arg;
	if (r->size < sizeof(*r))
		return fail(EINVAL);
	if (r->in_len > fwctl::MAX_RPC_LEN || r->out_len > fwctl::MAX_RPC_LEN)
		return fail(EMSGSIZE);
	if (r->scope > 3)
		return fail(EOPNOTSUPP);
	if (r->scope == 3 && !cfg_.allow_raw_write) // CAP_SYS_RAWIO, here allow_raw_write=1
		return fail(EPERM);
	if (r->in_len < prm::INLINE_BYTES || r->out_len < prm::INLINE_BYTES)
		return fail(EMSGSIZE);
	std::vector<u8> in((const u8 *)(uintptr_t)r->in, (const u8 *)(uintptr_t)r->in + r->in_len);
	std::vector<u8> out(r->out_len, 0);
	u16 opcode = cxprm_core_in_opcode(in.data());
	bool query = cxprm_core_raw_scope_in(in.data()) == CXPRM_RAW_SCOPE_QUERY;
	bool any_scope = (opcode == prm::op::ACCESS_REG && !query) || opcode == prm::op::SET_HCA_CAP;
	if (!(query && r->scope >= 1) && !any_scope)
		return fail(EBADMSG);
	prm::set<prm::cmd_in::uid>(prm::Ref<prm::cmd_in>(in.data()), uid_); // the file's uid, forced
	cxprm_core_result res{};
	int err = cxprm_core_raw(core_, in.data(), r->in_len, out.data(), r->out_len, &res, nullptr);
	if (err && err != E_REMOTEIO)
		return fail(-err);
	std::memcpy((void *)(uintptr_t)r->out, out.data(), out.size());
	if (cfg_.fwctl_out_len >= 0)
		r->out_len = (u32)cfg_.fwctl_out_len;
	return 0;
}

std::map<int, std::unique_ptr<DevNode>> &devs()
{
	static std::map<int, std::unique_ptr<DevNode>> m;
	return m;
}

Config parse_config(const char *path)
{
	Config c;
	std::string p = path;
	c.bdf = p.substr(p.rfind('/') + 1);
	std::ifstream f(path);
	std::string line;
	std::getline(f, line);
	while (std::getline(f, line)) {
		size_t eq = line.find('=');
		if (eq == std::string::npos)
			continue;
		std::string k = line.substr(0, eq), v = line.substr(eq + 1);
		if (k == "profile")
			c.profile = v;
		else if (k == "net_admin")
			c.net_admin = v != "0";
		else if (k == "allow_raw_write")
			c.allow_raw_write = v == "1";
		else if (k == "esw_events")
			c.esw_events = (unsigned)std::stoul(v);
		else if (k == "transport")
			c.fwctl = v == "fwctl";
		else if (k == "provision")
			c.provision = v == "1";
		else if (k == "fwctl_out_len")
			c.fwctl_out_len = std::stoll(v, nullptr, 0);
		else if (k == "uctx_cap")
			c.uctx_cap = (uint32_t)std::stoul(v, nullptr, 0);
		else if (k == "fw_latency")
			c.fw_latency = v == "1";
		else if (k == "fw_engines")
			c.fw_engines = (unsigned)std::stoul(v);
		else if (k == "fw_latency_us")
			c.fw_latency_us.push_back(v);
		else if (k == "nvmf_ns")
			c.ns_nsid = v == "none" ? 0 : std::stoll(v, nullptr, 0);
	}
	return c;
}

} // namespace

void attach(int fd, const char *path) { devs()[fd] = std::make_unique<DevNode>(parse_config(path)); }
void detach(int fd) { devs().erase(fd); }
bool is_fake(int fd) { return devs().count(fd) != 0; }

Record &record()
{
	static Record r;
	return r;
}

int ioctl(int fd, unsigned long req, void *arg)
{
	int rc = devs().at(fd)->ioctl(req, arg), err = errno;
	record().requests.push_back(req);
	if (req == CXPRM_IOC_QP_MODIFY)
		record().qp_modify.push_back(*(const cxprm_qp_modify *)arg);
	errno = err; // the caller reads the ioctl's
	return rc;
}
ssize_t read(int fd, void *buf, size_t n) { return devs().at(fd)->read(buf, n); }
int poll_one(int fd, int timeout_ms, short *revents) { return devs().at(fd)->poll(timeout_ms, revents); }

} // namespace cxprm::tool::fake
