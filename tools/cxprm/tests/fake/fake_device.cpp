// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// The fake cxprm device: the UAPI over core + emulator (fake_device.h).
#include "fake_device.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include <uapi/linux/cxprm.h>

#include "cxprm/capi.h"
#include "cxprm/commands/dct.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/device.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"
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
	long long ns_xrqn = -1, ns_nsid = 1;
};

emu::Profile make_profile(const Config &c)
{
	emu::Profile p = emu::Profile::connectx7();
	emu::Profile::by_name(c.profile, &p); // connectx5, bluefield3, ...
	p.boot_pages = 8;
	p.init_pages = 8;
	p.init_delay_ms = 0;
	p.nvmf.auto_io_ms = 0;
	return p;
}

class Dev {
public:
	explicit Dev(const Config &c) : cfg_(c), uh_(16u << 20), plat_(uh_), emu_(plat_, make_profile(c))
	{
		emu_.start();
		BringupConfig bc;
		bc.cmdq.timeout_ns = 5'000'000'000ull;
		bc.init_poll_us = 100;
		up_ = dev_.bringup(uh_.host(), bc) == OK;
		if (!up_)
			return;
		cmd::NvmfNamespace ns{};
		ns.xrqn = (u32)(c.ns_xrqn >= 0 ? c.ns_xrqn : emu_.profile().nvmf.first_xrqn);
		ns.nsid = (u32)c.ns_nsid;
		ns.backend_namespace = 1;
		ns.lba_data_size = 512;
		if (cmd::attach_nvmf_namespace(dev_.cmdq(), ns) == OK)
			emu_.simulate_nvmf_io(ns.xrqn, ns.nsid, 10, 5, 8);
		mask_[prm::event::ESW_FUNCTIONS_CHANGED / 64] |= 1ull << (prm::event::ESW_FUNCTIONS_CHANGED % 64);
		mask_[prm::event::DCT_DRAINED / 64] |= 1ull << (prm::event::DCT_DRAINED % 64);
	}

	~Dev()
	{
		if (up_) {
			for (u32 d : dcts_) // closing the file destroys its DCTs
				cmd::destroy_dct_drained(dev_.cmdq(), d);
			dev_.teardown();
		}
		emu_.stop();
	}

	int ioctl(unsigned long req, void *arg);
	ssize_t read(void *buf, size_t n);
	int poll(int timeout_ms, short *revents);

private:
	int info(cxprm_info *i);
	int caps(cxprm_caps *c);
	int nvmf(cxprm_nvmf_ns *n);
	int esw(cxprm_esw_functions *f);
	int dct(unsigned long req, cxprm_dct *d);
	int stats(cxprm_stats *s);
	int raw(cxprm_raw_cmd *r);
	void pump();
	void post(u8 type, const u8 *data28);

	Config cfg_;
	hosted::UserHost uh_;
	hosted::EmuPlatform plat_;
	emu::Emulator emu_;
	Device dev_;
	bool up_ = false;
	std::set<u32> dcts_, draining_;
	std::deque<cxprm_event> queue_;
	u64 mask_[4] = {};
	u32 seq_ = 0;
	u16 dropped_ = 0;
	unsigned esw_done_ = 0;
	std::chrono::steady_clock::time_point last_esw_{};
};

int fail(int err)
{
	errno = err;
	return -1;
}

// Firmware result of a core call into the status; 0, or -1/errno for
// failures that are the ioctl's errno.
int finish(int err, const CmdResult &r, u16 opcode, cxprm_cmd_status *st)
{
	st->delivery = r.delivery;
	st->status = r.status;
	st->opcode = opcode;
	st->syndrome = r.syndrome;
	st->latency_ns = r.latency_ns;
	if (err == OK || err == E_REMOTEIO)
		return 0;
	return fail(-err);
}

u64 ns_now()
{
	return (u64)std::chrono::duration_cast<std::chrono::nanoseconds>(
		       std::chrono::steady_clock::now().time_since_epoch())
		.count();
}

int Dev::info(cxprm_info *i)
{
	std::memset(i, 0, sizeof(*i));
	std::snprintf(i->pci_addr, sizeof(i->pci_addr), "%s", cfg_.bdf.c_str());
	std::snprintf(i->dev_name, sizeof(i->dev_name), "cxprm/%s", cfg_.bdf.c_str());
	i->vendor_id = emu_.profile().vendor_id;
	i->device_id = emu_.profile().device_id;
	FwVersion fw = dev_.fw_version();
	i->fw_major = fw.major;
	i->fw_minor = fw.minor;
	i->fw_subminor = fw.subminor;
	i->cmdif_rev = fw.cmdif_rev;
	i->state = up_ ? CXPRM_STATE_UP : CXPRM_STATE_ERROR;
	i->flags = CXPRM_INFO_EMULATED | (dev_.ecpf() ? CXPRM_INFO_ECPF : 0);
	i->cmdq_entries = dev_.cmdq().entries();
	i->cmdq_log_stride = dev_.cmdq().log_stride();
	i->issi = dev_.issi();
	i->pages_given = emu_.pages_given_total();
	i->pages_reclaimed = emu_.pages_taken_total();
	i->commands = dev_.cmdq().stats_total();
	i->async_eqn = ~0u;
	return 0;
}

int Dev::caps(cxprm_caps *c)
{
	if (c->reserved0 || c->reserved1)
		return fail(EINVAL);
	CmdResult r{};
	int err = cmd::query_hca_cap(dev_.cmdq(), c->cap_type, c->max ? prm::cap::MAX : prm::cap::CUR, c->caps, &r);
	return finish(err, r, prm::op::QUERY_HCA_CAP, &c->st);
}

int Dev::nvmf(cxprm_nvmf_ns *n)
{
	cmd::NvmfNsCounters k{};
	CmdResult r{};
	int err = cmd::query_nvmf_namespace(dev_.cmdq(), n->xrqn, n->nsid, &k, &r);
	if (err == OK) {
		n->read_cmds = k.read_cmds;
		n->read_blocks = k.read_blocks;
		n->write_cmds = k.write_cmds;
		n->write_blocks = k.write_blocks;
		n->write_inline_cmds = k.write_inline_cmds;
		n->flush_cmds = k.flush_cmds;
		n->error_cmds = k.error_cmds;
		n->backend_error_cmds = k.backend_error_cmds;
		n->current_q_depth = k.current_q_depth;
		n->last_read_latency = k.last_read_latency;
		n->last_write_latency = k.last_write_latency;
	}
	return finish(err, r, prm::op::QUERY_NVMF_NAMESPACE_CONTEXT, &n->st);
}

int Dev::esw(cxprm_esw_functions *f)
{
	cmd::EswFunctions e{};
	CmdResult r{};
	u64 sf[CXPRM_ESW_MAX_SF_WORDS] = {};
	/* As the driver: an ECPF eswitch manager only (A8). */
	if (!dev_.ecpf() || !dev_.caps_cur().eswitch_manager)
		return fail(EOPNOTSUPP);
	int err = cmd::query_esw_functions(dev_.cmdq(), &e, sf, 0, &r);
	std::memset((u8 *)f + sizeof(f->st), 0, sizeof(*f) - sizeof(f->st));
	if (err == OK) {
		f->host_number = e.host_number;
		f->host_pf_disabled = e.host_pf_disabled;
		f->host_pf_not_exist = e.host_pf_not_exist;
		f->host_num_of_vfs = e.host_num_of_vfs;
		f->host_total_vfs = e.host_total_vfs;
		f->host_pci_bus = e.host_pci_bus;
		f->host_pci_device = e.host_pci_device;
		f->host_pci_function = e.host_pci_function;
		std::memcpy(f->sf_enable, sf, sizeof(sf));
	}
	return finish(err, r, prm::op::QUERY_ESW_FUNCTIONS, &f->st);
}

int Dev::dct(unsigned long req, cxprm_dct *d)
{
	CmdResult r{};
	if (req == CXPRM_IOC_DCT_CREATE) {
		const cxprm_dctc &u = d->ctx;
		cmd::DctContext c{};
		c.pd = u.pd;
		c.cqn = u.cqn;
		c.srqn_xrqn = u.srqn_xrqn;
		c.user_index = u.user_index;
		c.dc_access_key = u.dc_access_key;
		c.flow_label = u.flow_label;
		c.pkey_index = u.pkey_index;
		c.mtu = u.mtu;
		c.port = u.port;
		c.hop_limit = u.hop_limit;
		c.tclass = u.tclass;
		c.min_rnr_nak = u.min_rnr_nak;
		c.my_addr_index = u.my_addr_index;
		c.rre = u.rre;
		c.rwe = u.rwe;
		c.rae = u.rae;
		c.atomic_mode = u.atomic_mode;
		c.cs_res = u.cs_res;
		c.counter_set_id = u.counter_set_id;
		c.dscp = u.dscp;
		c.ecn = u.ecn;
		c.eth_prio = u.eth_prio;
		u32 dctn = 0;
		int err = cmd::create_dct(dev_.cmdq(), c, &dctn, nullptr, 0, &r);
		if (err == E_RANGE)
			return fail(EINVAL);
		if (err == OK) {
			d->dctn = dctn;
			dcts_.insert(dctn);
		}
		return finish(err, r, prm::op::CREATE_DCT, &d->st);
	}
	// Only the creating file may drain or destroy (any file may query).
	if (req != CXPRM_IOC_DCT_QUERY && !dcts_.count(d->dctn))
		return fail(ENOENT);
	if (req == CXPRM_IOC_DCT_QUERY) {
		cmd::DctContext c{};
		int err = cmd::query_dct(dev_.cmdq(), d->dctn, &c, &r);
		if (err == OK) {
			cxprm_dctc &u = d->ctx;
			std::memset(&u, 0, sizeof(u));
			u.pd = (u32)c.pd;
			u.cqn = (u32)c.cqn;
			u.srqn_xrqn = (u32)c.srqn_xrqn;
			u.user_index = (u32)c.user_index;
			u.dc_access_key = c.dc_access_key;
			u.flow_label = (u32)c.flow_label;
			u.pkey_index = (u16)c.pkey_index;
			u.mtu = (u8)c.mtu;
			u.port = (u8)c.port;
			u.hop_limit = (u8)c.hop_limit;
			u.tclass = (u8)c.tclass;
			u.min_rnr_nak = (u8)c.min_rnr_nak;
			u.my_addr_index = (u8)c.my_addr_index;
			u.rre = (u8)c.rre;
			u.rwe = (u8)c.rwe;
			u.rae = (u8)c.rae;
			u.atomic_mode = (u8)c.atomic_mode;
			u.cs_res = (u8)c.cs_res;
			u.counter_set_id = (u8)c.counter_set_id;
			u.dscp = (u8)c.dscp;
			u.ecn = (u8)c.ecn;
			u.eth_prio = (u8)c.eth_prio;
			u.state = (u8)c.state;
			u.key_violations = (u32)c.dc_access_key_violation_count;
		}
		return finish(err, r, prm::op::QUERY_DCT, &d->st);
	}
	if (req == CXPRM_IOC_DCT_DRAIN) {
		int err = cmd::drain_dct(dev_.cmdq(), d->dctn, 0, &r);
		if (err == OK)
			draining_.insert(d->dctn);
		return finish(err, r, prm::op::DRAIN_DCT, &d->st);
	}
	/* As the driver (cxprm_core_dct_destroy): drain, wait, destroy. */
	u16 op = prm::op::DESTROY_DCT;
	int err = cmd::destroy_dct_drained(dev_.cmdq(), d->dctn, cmd::DCT_DRAIN_TIMEOUT_NS, &r, &op);
	if (err == OK) {
		dcts_.erase(d->dctn);
		draining_.erase(d->dctn);
	}
	return finish(err, r, op, &d->st);
}

int Dev::stats(cxprm_stats *s)
{
	OpcodeStats ops[CmdStats::MAX_OPCODES];
	u32 n = dev_.cmdq().stats_opcodes(ops, CmdStats::MAX_OPCODES);
	auto *out = (cxprm_opcode_stats *)(uintptr_t)s->entries;
	if (s->capacity && !out)
		return fail(EFAULT);
	u32 k = 0;
	for (; k < n && k < s->capacity; k++) {
		cxprm_opcode_stats &e = out[k];
		std::memset(&e, 0, sizeof(e));
		e.opcode = ops[k].opcode;
		e.count = ops[k].count;
		e.errors = ops[k].errors;
		e.last_status = ops[k].last_status;
		e.last_delivery = ops[k].last_delivery;
		e.last_errno = ops[k].last_err;
		e.last_syndrome = ops[k].last_syndrome;
		e.lat_min_ns = ops[k].lat_min_ns;
		e.lat_max_ns = ops[k].lat_max_ns;
		e.lat_avg_ns = ops[k].count ? ops[k].lat_sum_ns / ops[k].count : 0;
	}
	s->count = k;
	s->total = dev_.cmdq().stats_total();
	return 0;
}

int Dev::raw(cxprm_raw_cmd *r)
{
	if (r->inlen < 16 || r->inlen > CXPRM_RAW_MAX || r->outlen < 16 || r->outlen > CXPRM_RAW_MAX ||
	    (r->flags & ~CXPRM_RAW_DUMP))
		return fail(EINVAL);
	const u8 *in = (const u8 *)(uintptr_t)r->in;
	u16 opcode = (u16)(in[0] << 8 | in[1]);
	int scope = cxprm_core_raw_scope(opcode); // the driver's policy
	if (scope == CXPRM_RAW_SCOPE_FORBIDDEN || (scope == CXPRM_RAW_SCOPE_WRITE && !cfg_.allow_raw_write))
		return fail(EPERM);
	u8 *out = (u8 *)(uintptr_t)r->out;
	std::vector<u8> blocks;
	CmdCapture cap;
	bool dump = (r->flags & CXPRM_RAW_DUMP) && r->dump;
	if (dump) {
		u32 nb = prm::mailbox_blocks(r->inlen) + prm::mailbox_blocks(r->outlen);
		blocks.resize((size_t)nb * prm::MAILBOX_SIZE);
		cap.blocks = blocks.data();
		cap.blocks_cap = nb;
	}
	CmdResult res{};
	int err = dev_.cmdq().exec(in, r->inlen, out, r->outlen, &res, 0, dump ? &cap : nullptr);
	if (dump) {
		cxprm_raw_dump d{};
		std::memcpy(d.entry_posted, cap.entry_posted, 64);
		std::memcpy(d.entry_completed, cap.entry_completed, 64);
		d.in_blocks = cap.in_blocks;
		d.out_blocks = cap.out_blocks;
		d.slot = res.slot;
		size_t want = sizeof(d) + (size_t)(cap.in_blocks + cap.out_blocks) * prm::MAILBOX_SIZE;
		d.truncated = cap.truncated || want > r->dump_len;
		u8 *dst = (u8 *)(uintptr_t)r->dump;
		size_t n = std::min<size_t>(want, r->dump_len);
		if (n >= sizeof(d)) {
			std::memcpy(dst, &d, sizeof(d));
			std::memcpy(dst + sizeof(d), blocks.data(), n - sizeof(d));
		}
		r->dump_len = (u32)(n >= sizeof(d) ? n : 0);
	}
	return finish(err, res, opcode, &r->st);
}

void Dev::post(u8 type, const u8 *data28)
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

void Dev::pump()
{
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

int Dev::poll(int timeout_ms, short *revents)
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

ssize_t Dev::read(void *buf, size_t n)
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

int Dev::ioctl(unsigned long req, void *arg)
{
	if (req == CXPRM_IOC_INFO)
		return info((cxprm_info *)arg);
	if (!up_)
		return fail(ENODEV);
	if (!cfg_.net_admin)
		return fail(EPERM);
	switch (req) {
	case CXPRM_IOC_QUERY_CAPS: return caps((cxprm_caps *)arg);
	case CXPRM_IOC_NVMF_NS: return nvmf((cxprm_nvmf_ns *)arg);
	case CXPRM_IOC_ESW_FUNCTIONS: return esw((cxprm_esw_functions *)arg);
	case CXPRM_IOC_DCT_CREATE:
	case CXPRM_IOC_DCT_QUERY:
	case CXPRM_IOC_DCT_DRAIN:
	case CXPRM_IOC_DCT_DESTROY: return dct(req, (cxprm_dct *)arg);
	case CXPRM_IOC_STATS: return stats((cxprm_stats *)arg);
	case CXPRM_IOC_RAW: return raw((cxprm_raw_cmd *)arg);
	case CXPRM_IOC_SUBSCRIBE: std::memcpy(mask_, ((cxprm_subscribe *)arg)->mask, sizeof(mask_)); return 0;
	default: return fail(ENOTTY);
	}
}

std::map<int, std::unique_ptr<Dev>> &devs()
{
	static std::map<int, std::unique_ptr<Dev>> m;
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
		else if (k == "nvmf_ns" && v.find(':') != std::string::npos) {
			c.ns_xrqn = std::stoll(v.substr(0, v.find(':')), nullptr, 0);
			c.ns_nsid = std::stoll(v.substr(v.find(':') + 1), nullptr, 0);
		}
	}
	return c;
}

} // namespace

void attach(int fd, const char *path) { devs()[fd] = std::make_unique<Dev>(parse_config(path)); }
void detach(int fd) { devs().erase(fd); }
bool is_fake(int fd) { return devs().count(fd) != 0; }

int ioctl(int fd, unsigned long req, void *arg) { return devs().at(fd)->ioctl(req, arg); }
ssize_t read(int fd, void *buf, size_t n) { return devs().at(fd)->read(buf, n); }
int poll_one(int fd, int timeout_ms, short *revents) { return devs().at(fd)->poll(timeout_ms, revents); }

} // namespace cxprm::tool::fake
