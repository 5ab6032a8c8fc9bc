// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device bring-up (device.h): init segment, command queue, ENABLE_HCA,
 * ISSI, boot pages, capabilities, init pages, INIT_HCA.  Teardown and the
 * unwinding of a failed bring-up are in teardown.cpp.
 */
#include "cxprm/device.h"

#include "cxprm/commands/issi.h"
#include "cxprm/commands/reg.h"
#include "cxprm/health.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"
#include "cxprm/text.h"

namespace cxprm {

using iseg_t = prm::initial_seg;

namespace {

constexpr u32 ALL_ONES = 0xffffffffu;

template <class F> u32 iseg_read(const cxprm_host *h)
{
	return h->ops->ioread32be(h->ctx, prm::dword_byte_offset<F>());
}

} // namespace

const char *step_name(Step s)
{
	switch (s) {
	case Step::READ_FW_REV: return "READ_FW_REV";
	case Step::WAIT_INIT: return "WAIT_INIT";
	case Step::CHECK_CMDIF: return "CHECK_CMDIF";
	case Step::CMDQ_INIT: return "CMDQ_INIT";
	case Step::WAIT_CMDQ_INIT: return "WAIT_CMDQ_INIT";
	case Step::PAGES_INIT: return "PAGES_INIT";
	case Step::ENABLE_HCA: return "ENABLE_HCA";
	case Step::QUERY_ISSI: return "QUERY_ISSI";
	case Step::SET_ISSI: return "SET_ISSI";
	case Step::QUERY_BOOT_PAGES: return "QUERY_BOOT_PAGES";
	case Step::GIVE_BOOT_PAGES: return "GIVE_BOOT_PAGES";
	case Step::SET_HOST_ENDIANNESS: return "SET_HOST_ENDIANNESS";
	case Step::QUERY_CAPS_MAX: return "QUERY_CAPS_MAX";
	case Step::QUERY_CAPS_CUR: return "QUERY_CAPS_CUR";
	case Step::SET_HCA_CAP: return "SET_HCA_CAP";
	case Step::QUERY_CAPS_FINAL: return "QUERY_CAPS_FINAL";
	case Step::QUERY_INIT_PAGES: return "QUERY_INIT_PAGES";
	case Step::GIVE_INIT_PAGES: return "GIVE_INIT_PAGES";
	case Step::INIT_HCA: return "INIT_HCA";
	case Step::TEARDOWN_GRACEFUL: return "TEARDOWN_GRACEFUL";
	case Step::TEARDOWN_FORCE: return "TEARDOWN_FORCE";
	case Step::QUERY_RECLAIM_PAGES: return "QUERY_RECLAIM_PAGES";
	case Step::RECLAIM_PAGES: return "RECLAIM_PAGES";
	case Step::DISABLE_HCA: return "DISABLE_HCA";
	case Step::FREE_STRANDED_PAGES: return "FREE_STRANDED_PAGES";
	case Step::FREE_STRANDED_CMDQ: return "FREE_STRANDED_CMDQ";
	case Step::RECLAIM_FUNCTION_PAGES: return "RECLAIM_FUNCTION_PAGES";
	case Step::TEARDOWN_FAST: return "TEARDOWN_FAST";
	case Step::WAIT_NIC_DISABLED: return "WAIT_NIC_DISABLED";
	case Step::ENABLE_HOST_PF: return "ENABLE_HOST_PF";
	case Step::DISABLE_HOST_PF: return "DISABLE_HOST_PF";
	case Step::CMDQ_FINI: return "CMDQ_FINI";
	}
	return "UNKNOWN";
}

void BringupTrace::add(Step s, int err, const CmdResult *r, s64 value)
{
	if (n >= MAX) {
		dropped++;
		return;
	}
	StepRecord &x = rec[n++];
	x.step = s;
	x.err = err;
	x.delivery = r ? r->st.delivery : 0;
	x.status = r ? r->st.status : 0;
	x.syndrome = r ? r->st.syndrome : 0;
	x.value = value;
}

const StepRecord *BringupTrace::find(Step s) const
{
	for (u32 i = n; i--;)
		if (rec[i].step == s)
			return &rec[i];
	return nullptr;
}

int Device::step(Step s, int err, const CmdResult *r, s64 value)
{
	trace_.add(s, err, r, value);
	if (err == E_NODEV)
		gone_ = true;
	if (err && !trace_.failed && state_ == DeviceState::OFF) {
		trace_.failed = true;
		trace_.failed_step = s;
		trace_.failed_err = err;
		if (host_->ops->log) {
			char buf[160];
			Text t(buf, sizeof(buf));
			t.str("cxprm: bring-up failed at ").str(step_name(s)).str(": ").str(err_name(err));
			if (r && err == E_REMOTEIO)
				t.str(" status ").str(cmd_status_name(r->st.status)).str(" syndrome ").hex(r->st.syndrome);
			host_->ops->log(host_->ctx, 0, t.c_str());
		}
	}
	return err;
}

bool Device::device_gone() const
{
	return gone_ || (host_ && host_->ops->ioread32be(host_->ctx, prm::iseg::FW_REV) == ALL_ONES);
}

DeviceStatus Device::status(const cxprm_host *host) const
{
	if (host->ops->ioread32be(host->ctx, prm::iseg::FW_REV) == ALL_ONES)
		return DeviceStatus::GONE;
	bool sick = health_fatal_sensor(health_read(host)) != HealthSensor::NONE;
	switch (state_) {
	case DeviceState::UP:
		if (cmdq_.queue_page().cpu && health_.failed())
			return health_.failed() == E_NODEV ? DeviceStatus::GONE : DeviceStatus::ERROR;
		return sick ? DeviceStatus::ERROR : DeviceStatus::UP;
	case DeviceState::STRANDED:
		return DeviceStatus::ERROR;
	case DeviceState::OFF:
		break;
	}
	if (bringup_called_ && !torn_down_ && trace_.failed)
		return DeviceStatus::ERROR;
	return DeviceStatus::DOWN;
}

/* fw_rev, the initializing bit (bounded), cmd_interface_rev == 5. */
int Device::wait_ready()
{
	u32 fw = iseg_read<iseg_t::fw_rev_major>(host_);
	if (fw == ALL_ONES)
		return step(Step::READ_FW_REV, E_NODEV, nullptr, fw);
	step(Step::READ_FW_REV, OK, nullptr, fw);

	u64 start = host_->ops->now_ns(host_->ctx);
	for (;;) {
		u32 v = iseg_read<iseg_t::initializing>(host_);
		if (v == ALL_ONES && iseg_read<iseg_t::fw_rev_major>(host_) == ALL_ONES)
			return step(Step::WAIT_INIT, E_NODEV);
		if (!prm::from_dword<iseg_t::initializing>(v)) {
			/* Linux mlx5_read_embedded_cpu: bit 23 of the same dword. */
			ecpf_ = prm::from_dword<iseg_t::embedded_cpu>(v) != 0;
			break;
		}
		if (host_->ops->now_ns(host_->ctx) - start > cfg_.init_timeout_ns)
			return step(Step::WAIT_INIT, E_TIMEDOUT);
		host_->ops->sleep_us(host_->ctx, cfg_.init_poll_us ? cfg_.init_poll_us : 1);
	}
	step(Step::WAIT_INIT, OK, nullptr, (s64)(host_->ops->now_ns(host_->ctx) - start));
	if (ecpf_ && host_->ops->log)
		host_->ops->log(host_->ctx, 2,
				"cxprm: embedded CPU function (ECPF): own commands use embedded_cpu_function=1");

	/* Firmware may fill the revisions in while initializing: read again. */
	fw = iseg_read<iseg_t::fw_rev_major>(host_);
	u32 rev = iseg_read<iseg_t::cmd_interface_rev>(host_);
	if (fw == ALL_ONES || rev == ALL_ONES)
		return step(Step::CHECK_CMDIF, E_NODEV);
	fw_.major = (u16)prm::from_dword<iseg_t::fw_rev_major>(fw);
	fw_.minor = (u16)prm::from_dword<iseg_t::fw_rev_minor>(fw);
	fw_.subminor = (u16)prm::from_dword<iseg_t::fw_rev_subminor>(rev);
	fw_.cmdif_rev = (u16)prm::from_dword<iseg_t::cmd_interface_rev>(rev);
	if (fw_.cmdif_rev != prm::CMDIF_REV)
		return step(Step::CHECK_CMDIF, E_NOTSUP, nullptr, fw_.cmdif_rev);
	return step(Step::CHECK_CMDIF, OK, nullptr, fw_.cmdif_rev);
}

namespace {

constexpr u64 NS_PER_MS = 1000 * 1000;

/* An init-segment timeout (Linux lib/tout.c tout_convert_iseg_to_ms). */
u64 iseg_to_ms(u32 v)
{
	static constexpr u64 unit_ms[4] = {1, 1000, 60 * 1000, 60 * 60 * 1000};
	return (u64)(v & prm::ISEG_TO_VALUE_MASK) * unit_ms[(v >> prm::ISEG_TO_UNIT_SHIFT) & 3];
}

u64 clamp_ms(u64 ms, u64 lo, u64 hi) { return ms < lo ? lo : ms > hi ? hi : ms; }

} // namespace

/*
 * After the queue address write firmware may raise 'initializing' again
 * while it sets the queue up; every reference driver waits for it to clear
 * before the first doorbell (Linux FW_INIT, 2 s, or the device's
 * cmd_q_init_to; then it also takes the command timeout from cmd_exec_to).
 */
int Device::wait_cmdq_init()
{
	u64 limit_ns = cfg_.cmdq_init_timeout_ns;
	u32 qto = host_->ops->ioread32be(host_->ctx, prm::iseg::CMD_Q_INIT_TO);
	if (qto == ALL_ONES)
		return step(Step::WAIT_CMDQ_INIT, E_NODEV);
	if (qto) {
		/* Bounded: a device cannot make us wait for hours, nor not at all. */
		if (u64 ms = iseg_to_ms(qto))
			limit_ns = clamp_ms(ms, 10, 120 * 1000) * NS_PER_MS;
		u64 ems = iseg_to_ms(host_->ops->ioread32be(host_->ctx, prm::iseg::CMD_EXEC_TO));
		if (cfg_.cmd_timeout_from_device && ems) {
			CmdqConfig c = cmdq_.config();
			c.timeout_ns = c.slot_wait_ns = clamp_ms(ems, 100, 600 * 1000) * NS_PER_MS;
			cmdq_.set_config(c);
		}
	}
	u64 start = host_->ops->now_ns(host_->ctx);
	for (;;) {
		u32 v = iseg_read<iseg_t::initializing>(host_);
		if (v == ALL_ONES && iseg_read<iseg_t::fw_rev_major>(host_) == ALL_ONES)
			return step(Step::WAIT_CMDQ_INIT, E_NODEV);
		if (!prm::from_dword<iseg_t::initializing>(v))
			break;
		if (host_->ops->now_ns(host_->ctx) - start > limit_ns)
			return step(Step::WAIT_CMDQ_INIT, E_TIMEDOUT);
		/* Linux polls FW_INIT every 2 ms; this wait is short, so 100 us. */
		host_->ops->sleep_us(host_->ctx, 100);
	}
	return step(Step::WAIT_CMDQ_INIT, OK, nullptr, (s64)(host_->ops->now_ns(host_->ctx) - start));
}

/* CUR cmdif_checksum nonzero: sign input blocks, verify every output. */
void Device::use_checksums_if_on()
{
	if (!caps_cur_.cmdif_checksum)
		return;
	CmdqConfig c = cmdq_.config();
	c.verify_signatures = true;
	cmdq_.set_config(c);
}

/* PRM ISSI negotiation (Linux mlx5_core_set_issi). */
int Device::negotiate_issi()
{
	cmd::IssiInfo info{};
	CmdResult r{};
	int err = cmd::query_issi(cmdq_, &info, &r);
	if (err == E_REMOTEIO) {
		/* Firmware without QUERY_ISSI speaks ISSI 0. */
		trace_.add(Step::QUERY_ISSI, err, &r, 0);
		issi_ = 0;
		return OK;
	}
	if (err)
		return step(Step::QUERY_ISSI, err, &r);
	step(Step::QUERY_ISSI, OK, &r, info.supported_mask);
	if (info.supported_mask & (1u << 1)) {
		err = cmd::set_issi(cmdq_, 1, &r);
		if (err)
			return step(Step::SET_ISSI, err, &r, 1);
		issi_ = 1;
		return step(Step::SET_ISSI, OK, &r, 1);
	}
	if (info.supported_mask & 1 || !info.supported_mask) {
		issi_ = 0;
		return OK;
	}
	return step(Step::SET_ISSI, E_NOTSUP, nullptr, info.supported_mask);
}

int Device::give_pages(cmd::PagesKind kind, Step query_step, Step give_step)
{
	cmd::PagesQuery pq{};
	CmdResult r{};
	int err = cmd::query_pages(cmdq_, kind, own_function(), &pq, &r);
	if (err)
		return step(query_step, err, &r);
	/* A startup demand is never negative; a huge one is not honoured. */
	if (pq.num_pages < 0)
		return step(query_step, E_PROTO, &r, pq.num_pages);
	if ((u32)pq.num_pages > cfg_.max_startup_pages)
		return step(query_step, E_NOMEM, &r, pq.num_pages);
	step(query_step, OK, &r, pq.num_pages);
	if (!pq.num_pages)
		return OK;
	r = CmdResult{};
	err = pages_.give((u32)pq.num_pages, &r);
	return step(give_step, err, &r, pq.num_pages);
}

/*
 * Linux set_hca_ctrl: a PF (an ECPF too) writes HOST_ENDIANNESS through
 * ACCESS_REG before SET_HCA_CAP; a VF does not.
 */
int Device::set_host_endianness()
{
	if (cfg_.is_vf)
		return OK;
	CmdResult r{};
	const bool big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	return step(Step::SET_HOST_ENDIANNESS, cmd::set_host_endianness(cmdq_, big, &r), &r, big);
}

/* A fresh nonzero sw_owner_id from the host's random source (or the clock). */
void Device::pick_sw_owner_id()
{
	bool given = false;
	for (u32 i = 0; i < 4; i++) {
		sw_owner_id_[i] = cfg_.sw_owner_id[i];
		given |= sw_owner_id_[i] != 0;
	}
	if (given)
		return;
	for (int attempt = 0; attempt < 4; attempt++) {
		if (host_->ops->get_random) {
			host_->ops->get_random(host_->ctx, sw_owner_id_, sizeof(sw_owner_id_));
		} else {
			/* splitmix64 over the clock: differs between loads, not secret. */
			u64 x = host_->ops->now_ns(host_->ctx) + (u64)attempt * 0x9e3779b97f4a7c15ull;
			for (u32 i = 0; i < 4; i += 2) {
				x += 0x9e3779b97f4a7c15ull;
				u64 z = x;
				z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
				z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
				z ^= z >> 31;
				sw_owner_id_[i] = (u32)z;
				sw_owner_id_[i + 1] = (u32)(z >> 32);
			}
		}
		for (u32 i = 0; i < 4; i++)
			if (sw_owner_id_[i])
				return;
	}
	sw_owner_id_[3] = 1; /* a random source that gives only zeros */
}

/*
 * General capabilities: MAX and CUR, then SET_HCA_CAP from CUR with the
 * configured edits (Linux handle_hca_cap does the same, with more edits),
 * then CUR again.
 */
int Device::setup_caps()
{
	using C = prm::cmd_hca_cap;
	cmd::HostMem image;
	int err = image.alloc(host_, cmd::CAP_IMAGE_BYTES);
	if (err)
		return step(Step::QUERY_CAPS_MAX, err);
	CmdResult r{};
	err = cmd::query_hca_cap(cmdq_, prm::cap::GENERAL, prm::cap::MAX, image.data(), &r);
	if (err)
		return step(Step::QUERY_CAPS_MAX, err, &r);
	cmd::decode_general_caps(image.data(), &caps_max_);
	step(Step::QUERY_CAPS_MAX, OK, &r);

	err = cmd::query_hca_cap(cmdq_, prm::cap::GENERAL, prm::cap::CUR, image.data(), &r);
	if (err)
		return step(Step::QUERY_CAPS_CUR, err, &r);
	cmd::decode_general_caps(image.data(), &caps_cur_);
	step(Step::QUERY_CAPS_CUR, OK, &r);
	if (cfg_.skip_set_hca_cap) {
		use_checksums_if_on();
		return OK;
	}

	prm::Ref<C> c(image.data());
	u8 csum = cfg_.cmdif_checksum;
	if (csum && !caps_max_.cmdif_checksum)
		return step(Step::SET_HCA_CAP, E_NOTSUP, nullptr, csum);
	/* "On" is MAX's value (the old MLX5_DEV_CAP_FLAG_CMDIF_CSUM was both bits). */
	if (!csum && cfg_.request_checksum) {
		csum = (u8)caps_max_.cmdif_checksum;
		if (!csum && host_->ops->log)
			host_->ops->log(host_->ctx, 1, "cxprm: checksums requested, but MAX cmdif_checksum is 0: they stay off");
	}
	const s64 log_uar = cfg_.log_uar_page_sz >= 0 ? cfg_.log_uar_page_sz : (s64)page_shift_ - 12;
	if (!prm::fits<C::cmdif_checksum>(csum) || !prm::fits<C::log_uar_page_sz>((u64)log_uar))
		return step(Step::SET_HCA_CAP, E_RANGE);
	prm::set<C::cmdif_checksum>(c, csum);
	if (cfg_.enable_dct && caps_max_.dct)
		prm::set<C::dct>(c, 1);
	/* Linux handle_hca_cap: what MAX offers of these, the driver takes. */
	if (caps_max_.release_all_pages)
		prm::set<C::release_all_pages>(c, 1);
	if (caps_max_.cache_line_128byte)
		prm::set<C::cache_line_128byte>(c, cfg_.cache_line_128byte ? 1 : 0);
	if (caps_max_.num_vhca_ports)
		prm::set<C::num_vhca_ports>(c, caps_max_.num_vhca_ports);
	/* Linux handle_hca_cap: uar_4k only on hosts with pages over 4 KiB. */
	if (caps_max_.uar_4k && (cfg_.uar_4k > 0 || (cfg_.uar_4k < 0 && page_shift_ > 12)))
		prm::set<C::uar_4k>(c, 1);
	prm::set<C::log_uar_page_sz>(c, (u64)log_uar);
	if (cfg_.pkey_table_size >= 0) {
		if ((u64)cfg_.pkey_table_size > caps_max_.pkey_table_size)
			return step(Step::SET_HCA_CAP, E_RANGE, nullptr, cfg_.pkey_table_size);
		prm::set<C::pkey_table_size>(c, (u64)cfg_.pkey_table_size);
	}
	err = cmd::set_hca_cap(cmdq_, prm::cap::GENERAL, image.data(), &r);
	if (err)
		return step(Step::SET_HCA_CAP, err, &r);
	step(Step::SET_HCA_CAP, OK, &r);

	err = cmd::query_hca_cap(cmdq_, prm::cap::GENERAL, prm::cap::CUR, image.data(), &r);
	if (err)
		return step(Step::QUERY_CAPS_FINAL, err, &r);
	cmd::decode_general_caps(image.data(), &caps_cur_);
	use_checksums_if_on();
	return step(Step::QUERY_CAPS_FINAL, OK, &r);
}

u64 Device::uar_offset(u32 uar) const
{
	return caps_cur_.uar_4k ? (u64)uar * prm::ADAPTER_PAGE_SIZE : (u64)uar << page_shift_;
}

int Device::bringup(const cxprm_host *host, const BringupConfig &cfg)
{
	/* A new attempt, even a refused one, ends the last teardown's report. */
	bringup_called_ = true;
	torn_down_ = false;
	fast_unloaded_ = false;
	last_teardown_ = TeardownReport{};
	teardown_trace_from_ = 0;
	if (state_ != DeviceState::OFF || cmdq_up_)
		return E_BUSY;
	if (!host || !host->ops)
		return E_INVAL;
	host_ = host;
	cfg_ = cfg;
	trace_.clear();
	gone_ = false;
	ecpf_ = false;
	issi_ = 0;
	fw_ = FwVersion{};
	caps_cur_ = caps_max_ = cmd::GeneralCaps{};
	mem_zero(sw_owner_id_, sizeof(sw_owner_id_));
	page_shift_ = host->ops->page_shift ? host->ops->page_shift(host->ctx) : 12;
	if (page_shift_ < 12 || page_shift_ > 30)
		return E_INVAL;

	int err = wait_ready();
	if (err)
		return err;

	err = step(Step::CMDQ_INIT, cmdq_.init(host, cfg.cmdq));
	if (err) {
		cmdq_.fini(); /* frees whatever init got to (no-op if nothing) */
		return err;
	}
	cmdq_up_ = true;
	if ((err = wait_cmdq_init()))
		goto fail;

	err = step(Step::PAGES_INIT, pages_.init(host, &cmdq_, own_function().function_id,
						 own_function().embedded_cpu_function));
	if (err)
		goto fail;
	pages_.set_chunk_limit(cfg.pages_per_command);

	{
		CmdResult r{};
		err = step(Step::ENABLE_HCA, cmd::enable_hca(cmdq_, own_function(), &r), &r,
			   own_function().embedded_cpu_function);
		if (err)
			goto fail;
		hca_enabled_ = true;
	}

	if ((err = negotiate_issi()))
		goto fail;
	if ((err = give_pages(cmd::PagesKind::BOOT, Step::QUERY_BOOT_PAGES, Step::GIVE_BOOT_PAGES)))
		goto fail;
	if ((err = set_host_endianness()))
		goto fail;
	if ((err = setup_caps()))
		goto fail;
	if ((err = give_pages(cmd::PagesKind::INIT, Step::QUERY_INIT_PAGES, Step::GIVE_INIT_PAGES)))
		goto fail;

	{
		cmd::InitHcaParams p{};
		if (caps_cur_.sw_owner_id) {
			pick_sw_owner_id();
			p.set_sw_owner_id = true;
			for (u32 i = 0; i < 4; i++)
				p.sw_owner_id[i] = sw_owner_id_[i];
		}
		CmdResult r{};
		err = step(Step::INIT_HCA, cmd::init_hca(cmdq_, p, &r), &r);
		if (err)
			goto fail;
		hca_initialized_ = true;
	}
	state_ = DeviceState::UP;
	return OK;

fail:
	unwind();
	return err;
}

} // namespace cxprm
