// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rig.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cxprm/prm/transport.h"

namespace cxprm::bench {

namespace {

Rig *g_rig;                 // the rig whose emulator answers doorbells
void (*g_write)(void *, cxprm_u32, cxprm_u32); // HostBase's iowrite32be
thread_local uint64_t t_emu_ns;

uint64_t now_ns()
{
	return (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
		       std::chrono::steady_clock::now().time_since_epoch())
		.count();
}

// The doorbell write, then the emulator's answer in the same thread.
// noinline + a name of its own: callgrind attributes the emulator's
// instructions to Emulator::poll_once below this frame.
__attribute__((noinline)) void doorbell_write(void *ctx, cxprm_u32 off, cxprm_u32 val)
{
	g_write(ctx, off, val);
	// The queue address: hardware sees the write at once and raises
	// 'initializing' while it takes it; step the emulator through that.
	if (off == prm::iseg::CMDQ_ADDR_L_SZ && g_rig) {
		auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
		do
			g_rig->emu->poll_once();
		while ((g_rig->emu->cmdq_address() == 0 || g_rig->emu->initializing()) &&
		       std::chrono::steady_clock::now() < end);
	}
	if (off == prm::iseg::DOORBELL && g_rig) {
		uint64_t t0 = now_ns();
		g_rig->emu->poll_once();
		t_emu_ns += now_ns() - t0;
	}
}

class RigPlatform : public emu::Platform {
public:
	explicit RigPlatform(BenchHost &h) : h_(h) {}
	uint8_t *bar() override { return h_.bar(); }
	size_t bar_size() const override { return h_.bar_size(); }
	bool dma_read(uint64_t bus, void *dst, size_t len) override
	{
		// A fake page: reachable, its contents do not matter to anyone.
		if (bus >= FAKE_PAGES_BUS && bus - FAKE_PAGES_BUS + len <= FAKE_PAGES_BYTES)
			return true;
		return h_.dma_read(bus, dst, len);
	}
	bool dma_write(uint64_t bus, const void *src, size_t len) override { return h_.dma_write(bus, src, len); }

private:
	BenchHost &h_;
};

} // namespace

BenchHost::BenchHost() : HostBase(false), bar_(1u << 20, 0), dma_mu_(std::make_unique<std::mutex>())
{
	 bind_bar(bar_.data(), bar_.size()); }

BenchHost::~BenchHost()
{
	for (auto &[bus, size] : live_)
		std::free((void *)(bus - kBusOffset));
}

int BenchHost::dma_alloc(size_t size, size_t align, cxprm_dma_buf *buf)
{
	if (!size || !align || (align & (align - 1)) || align > 4096)
		return -EINVAL;
	if (align < 64)
		align = 64;
	size_t rounded = (size + align - 1) & ~(align - 1);
	void *p = std::aligned_alloc(align, rounded);
	if (!p)
		return -ENOMEM;
	std::memset(p, 0, size);
	uint64_t bus = (uint64_t)p + kBusOffset;
	{
		std::lock_guard<std::mutex> g(*dma_mu_);
		live_[bus] = size;
	}
	*buf = {p, bus, size, nullptr};
	return 0;
}

void BenchHost::dma_free(cxprm_dma_buf *buf)
{
	{
		std::lock_guard<std::mutex> g(*dma_mu_);
		auto it = live_.find(buf->bus);
		if (it == live_.end())
			std::abort();
		live_.erase(it);
	}
	std::free(buf->cpu);
}

size_t BenchHost::dma_live() const
{
	std::lock_guard<std::mutex> g(*dma_mu_);
	return live_.size();
}

uint8_t *BenchHost::reach(uint64_t bus, size_t len)
{
	std::lock_guard<std::mutex> g(*dma_mu_);
	auto it = live_.upper_bound(bus);
	if (it == live_.begin())
		return nullptr;
	--it;
	if (bus - it->first > it->second || len > it->second - (bus - it->first))
		return nullptr;
	return (uint8_t *)(bus - kBusOffset);
}

bool BenchHost::dma_read(uint64_t bus, void *dst, size_t len)
{
	uint8_t *p = reach(bus, len);
	if (p)
		std::memcpy(dst, p, len);
	return p != nullptr;
}

bool BenchHost::dma_write(uint64_t bus, const void *src, size_t len)
{
	uint8_t *p = reach(bus, len);
	if (p)
		std::memcpy(p, src, len);
	return p != nullptr;
}

Rig::Rig(uint32_t max_msg_bytes)
{
	plat = std::make_unique<RigPlatform>(bh);
	emu = std::make_unique<emu::Emulator>(*plat, emu::Profile::connectx7());
	ops_ = *bh.host()->ops;
	g_write = ops_.iowrite32be;
	ops_.iowrite32be = doorbell_write;
	host_ = {&ops_, bh.host()->ctx};
	g_rig = this;

	// 'initializing' clears after the profile's delay; nobody runs the
	// emulator's thread, so step it here.
	auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
	while (emu->initializing() && std::chrono::steady_clock::now() < end)
		emu->poll_once();
	BringupConfig cfg;
	cfg.cmdq.max_msg_bytes = max_msg_bytes;
	bringup_err = dev.bringup(&host_, cfg);
	if (bringup_err)
		std::fprintf(stderr, "cxprm-bench: bring-up failed: %d\n", bringup_err);
}

Rig::~Rig()
{
	// No teardown: the MANAGE_PAGES benchmark lends fake pages the tracker
	// never saw, so reclaim would (rightly) refuse them.  The process ends.
	g_rig = nullptr;
}

uint64_t Rig::thread_emu_ns() { return t_emu_ns; }

} // namespace cxprm::bench
