// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The emulator's Platform over QEMU's two shared files: the guest-RAM file
// (DMA by bus address = guest-physical address, see guest_ram.h) and the
// ivshmem BAR file (BAR2 byte for byte).  The device owns the BAR except
// its last 4 KiB page, the test control page (control.h): bar_size()
// reports the BAR without it, so the emulator never zeroes, fills or hands
// out that page.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cxprm_emu/platform.h"
#include "guest_ram.h"
#include "ivshmem_server.h"

namespace cxprm::emud {

// A whole file mapped MAP_SHARED, read-write.
class MappedFile {
public:
	MappedFile() = default;
	~MappedFile();
	MappedFile(const MappedFile &) = delete;
	MappedFile &operator=(const MappedFile &) = delete;

	// False with a message in *err on failure.
	bool open(const std::string &path, std::string *err);
	void close();

	uint8_t *data() const { return p_; }
	size_t size() const { return size_; }
	const std::string &path() const { return path_; }

private:
	std::string path_;
	uint8_t *p_ = nullptr;
	size_t size_ = 0;
};

class FilePlatform : public emu::Platform {
public:
	// ram/bar stay owned by the caller and must outlive the platform.
	FilePlatform(MappedFile &ram, const GuestRam &layout, MappedFile &bar, size_t device_bar_bytes);

	uint8_t *bar() override { return bar_.data(); }
	size_t bar_size() const override { return device_bar_; }
	bool dma_read(uint64_t bus, void *dst, size_t len) override;
	bool dma_write(uint64_t bus, const void *src, size_t len) override;
	// Counted; delivered as MSI-X vector 'vec' through the ivshmem server
	// when there is one (ivshmem-doorbell), else dropped: ivshmem-plain has
	// no interrupt line and the driver polls.
	void raise_irq(uint32_t vec) override;
	void set_ivshmem(IvshmemServer *s) { ivshmem_ = s; }

	const GuestRam &layout() const { return layout_; }
	uint64_t dma_refused() const { return refused_.load(); }
	// The last refused [bus, bus + len), for the log.
	void last_refused(uint64_t *bus, uint64_t *len) const;
	uint64_t irqs() const { return irqs_.load(); }
	// DMA accesses done, and how many of them above 4 GiB.
	uint64_t dma_ops() const { return ops_.load(); }
	uint64_t dma_ops_above_4g() const { return ops_high_.load(); }

private:
	uint8_t *host_ptr(uint64_t bus, size_t len);

	MappedFile &ram_;
	GuestRam layout_;
	MappedFile &bar_;
	size_t device_bar_;
	std::atomic<uint64_t> refused_{0};
	std::atomic<uint64_t> last_bus_{0}, last_len_{0};
	std::atomic<uint64_t> irqs_{0};
	IvshmemServer *ivshmem_ = nullptr;
	std::atomic<uint64_t> ops_{0}, ops_high_{0};
};

} // namespace cxprm::emud
