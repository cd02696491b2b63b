// Runtime: owns one Device and its DRAM allocator, holds named tensors in
// device DRAM, and relocates, writes and launches isa::Programs.
//
// Running a program (run() = prepare() + launch()):
//  1. every buffer the program declares is bound to an allocated tensor: by
//     default the tensor of the same name, or the tensor named in
//     `bindings[buffer]`. The tensor must be at least as large as the buffer.
//  2. a scratch block for the micro-op image ("__uops") and one for the
//     instruction stream are allocated (replacing the previous launch's).
//  3. every relocation is applied: dram_base = addr / elem_bytes(mem_type) +
//     elem_offset, where addr is the bound tensor's byte address. An address
//     not aligned to the element size, a dram_base that does not fit in 32
//     bits, or a DMA footprint outside the bound tensor is a tandem::Error
//     naming the instruction, the buffer and the limit.
//  4. the encoded micro-ops and instructions are written to DRAM, the device
//     is launched and waited for, and its statistics are returned.
// prepare() stops after step 3 and returns everything a test-vector writer
// needs (addresses, relocated instructions, the images' bytes), without
// touching the device.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "driver/dram_allocator.h"
#include "isa/device.h"
#include "isa/hw_config.h"
#include "isa/insn.h"
#include "isa/program.h"

namespace tandem::driver {

// A named tensor in device DRAM.
struct TensorInfo {
  std::string name;
  std::uint64_t addr = 0;   // byte address
  std::uint64_t bytes = 0;  // requested size
};

// One block of bytes at a DRAM address.
struct DramRegion {
  std::string name;
  std::uint64_t addr = 0;
  std::vector<std::uint8_t> bytes;
};

// Program buffer name -> tensor name (unlisted buffers bind by equal name).
using Bindings = std::map<std::string, std::string>;

struct PreparedLaunch {
  std::uint64_t insn_addr = 0;  // byte address of the instruction stream
  std::uint32_t insn_count = 0;
  std::uint64_t uop_addr = 0;  // byte address of the micro-op image
  std::uint32_t uop_count = 0;
  std::vector<isa::Instruction> insns;  // relocated instructions
  // The images the launch writes: "__insns" (16 bytes per instruction,
  // little-endian lo word first) and "__uops" (4 bytes per micro-op). The
  // micro-op region is omitted when the program has no micro-ops.
  std::vector<DramRegion> images;
  // The tensors bound to the program's buffers (their data lives on the
  // device; read it with Runtime::read()).
  std::map<std::string, TensorInfo> buffers;  // program buffer name -> tensor
};

class Runtime {
 public:
  // Creates the device through driver::make_device(target, cfg, opts).
  Runtime(const HwConfig& cfg, const std::string& target = "fsim",
          const isa::DeviceOptions& opts = {});
  // Takes an existing device (its config is used).
  explicit Runtime(std::unique_ptr<isa::Device> device);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  isa::Device& device() { return *device_; }
  const HwConfig& config() const { return cfg_; }
  const DramAllocator& allocator() const { return alloc_; }

  // ---- tensors --------------------------------------------------------
  // Allocates a named tensor (Error if the name exists or DRAM is full).
  const TensorInfo& allocate(const std::string& name, std::uint64_t bytes);
  void free(const std::string& name);
  bool has(const std::string& name) const { return tensors_.count(name) != 0; }
  const TensorInfo& tensor(const std::string& name) const;
  // Copies host <-> device; [offset, offset+bytes) must lie in the tensor.
  void write(const std::string& name, const void* src, std::size_t bytes, std::uint64_t offset = 0);
  void read(const std::string& name, void* dst, std::size_t bytes, std::uint64_t offset = 0);
  template <typename T>
  void write(const std::string& name, std::span<const T> data) {
    write(name, data.data(), data.size_bytes());
  }
  template <typename T>
  std::vector<T> read_as(const std::string& name) {
    std::vector<T> v(tensor(name).bytes / sizeof(T));
    read(name, v.data(), v.size() * sizeof(T));
    return v;
  }

  // ---- programs ----------------------------------------------------------
  PreparedLaunch prepare(const isa::Program& program, const Bindings& bindings = {});
  // Writes the prepared images, launches, waits, returns the device stats.
  isa::Stats launch(const PreparedLaunch& prepared);
  isa::Stats run(const isa::Program& program, const Bindings& bindings = {});

 private:
  void release_scratch();

  std::unique_ptr<isa::Device> device_;
  HwConfig cfg_;
  DramAllocator alloc_;
  std::map<std::string, TensorInfo> tensors_;
  std::vector<std::uint64_t> scratch_;  // addresses of the last launch's images
};

}  // namespace tandem::driver
