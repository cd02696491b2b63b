// Runtime: tensors, relocation and launch (see header).
#include "driver/runtime.h"

#include <cstring>
#include <limits>

#include "driver/device_registry.h"
#include "isa/codec.h"
#include "isa/error.h"

namespace tandem::driver {
namespace {

void put_u64(std::uint8_t* p, std::uint64_t v) {
  for (int b = 0; b < 8; ++b) p[b] = static_cast<std::uint8_t>(v >> (8 * b));
}
void put_u32(std::uint8_t* p, std::uint32_t v) {
  for (int b = 0; b < 4; ++b) p[b] = static_cast<std::uint8_t>(v >> (8 * b));
}

}  // namespace

Runtime::Runtime(const HwConfig& cfg, const std::string& target, const isa::DeviceOptions& opts)
    : Runtime(make_device(target, cfg, opts)) {}

Runtime::Runtime(std::unique_ptr<isa::Device> device)
    : device_(std::move(device)),
      cfg_(device_->config()),
      alloc_(std::min<std::uint64_t>(device_->dram_size(), device_->config().dram_bytes)) {}

Runtime::~Runtime() = default;

const TensorInfo& Runtime::allocate(const std::string& name, std::uint64_t bytes) {
  TANDEM_CHECK(!name.empty(), "tensor name is empty");
  TANDEM_CHECK(!has(name), "tensor '" << name << "' is already allocated");
  const std::uint64_t addr = alloc_.allocate(bytes, name);
  return tensors_[name] = TensorInfo{name, addr, bytes};
}

void Runtime::free(const std::string& name) {
  const TensorInfo& t = tensor(name);
  alloc_.free(t.addr);
  tensors_.erase(name);
}

const TensorInfo& Runtime::tensor(const std::string& name) const {
  auto it = tensors_.find(name);
  TANDEM_CHECK(it != tensors_.end(), "no tensor named '" << name << "' is allocated");
  return it->second;
}

void Runtime::write(const std::string& name, const void* src, std::size_t bytes,
                    std::uint64_t offset) {
  const TensorInfo& t = tensor(name);
  TANDEM_CHECK(offset <= t.bytes && bytes <= t.bytes - offset,
               "write of " << bytes << " bytes at offset " << offset << " overflows tensor '"
                           << name << "' of " << t.bytes << " bytes");
  device_->write_dram(t.addr + offset, src, bytes);
}

void Runtime::read(const std::string& name, void* dst, std::size_t bytes, std::uint64_t offset) {
  const TensorInfo& t = tensor(name);
  TANDEM_CHECK(offset <= t.bytes && bytes <= t.bytes - offset,
               "read of " << bytes << " bytes at offset " << offset << " overflows tensor '" << name
                          << "' of " << t.bytes << " bytes");
  device_->read_dram(t.addr + offset, dst, bytes);
}

void Runtime::release_scratch() {
  for (std::uint64_t a : scratch_) alloc_.free(a);
  scratch_.clear();
}

PreparedLaunch Runtime::prepare(const isa::Program& program, const Bindings& bindings) {
  TANDEM_CHECK(program.config_name.empty() || program.config_name == cfg_.name,
               "program was built for config '"
                   << program.config_name << "' but the device config is '" << cfg_.name << "'");
  program.check(cfg_);
  TANDEM_CHECK(!program.insns.empty(), "program has no instructions");
  TANDEM_CHECK(program.insns.size() <= std::numeric_limits<std::uint32_t>::max(),
               "program has " << program.insns.size() << " instructions, more than 2^32-1");
  for (const auto& [buf, t] : bindings)
    TANDEM_CHECK(program.find_buffer(buf) != nullptr, "binding of '"
                                                          << buf << "' to tensor '" << t
                                                          << "' names no buffer of the program");

  PreparedLaunch p;
  for (const isa::DramBuffer& b : program.buffers) {
    auto it = bindings.find(b.name);
    const std::string& tname = it == bindings.end() ? b.name : it->second;
    TANDEM_CHECK(has(tname), "program buffer '" << b.name << "' (" << b.bytes
                                                << " bytes) is bound to tensor '" << tname
                                                << "', which is not allocated");
    const TensorInfo& t = tensor(tname);
    TANDEM_CHECK(t.bytes >= b.bytes, "program buffer '" << b.name << "' needs " << b.bytes
                                                        << " bytes but tensor '" << tname
                                                        << "' has only " << t.bytes);
    p.buffers[b.name] = t;
  }

  release_scratch();
  const isa::Codec codec(cfg_);
  p.uop_count = static_cast<std::uint32_t>(program.uops.size());
  if (!program.uops.empty()) {
    DramRegion r{isa::kUopBufferName, 0, std::vector<std::uint8_t>(program.uops.size() * 4)};
    for (std::size_t k = 0; k < program.uops.size(); ++k)
      put_u32(r.bytes.data() + 4 * k, codec.encode_uop(program.uops[k]));
    r.addr = alloc_.allocate(r.bytes.size(), isa::kUopBufferName);
    scratch_.push_back(r.addr);
    p.uop_addr = r.addr;
    p.images.push_back(std::move(r));
  }

  p.insns = program.insns;
  for (const isa::Relocation& rel : program.relocs) {
    isa::Instruction& in = p.insns[rel.insn];
    const std::uint64_t eb = cfg_.elem_bytes(static_cast<int>(in.mem_type));
    std::uint64_t addr = 0, limit_bytes = 0;
    if (rel.buffer == isa::kUopBufferName) {
      TANDEM_CHECK(!program.uops.empty(), "instruction " << rel.insn << " is relocated against '"
                                                         << isa::kUopBufferName
                                                         << "' but the program has no micro-ops");
      addr = p.uop_addr;
      limit_bytes = program.uops.size() * 4ull;
    } else {
      const TensorInfo& t = p.buffers.at(rel.buffer);
      addr = t.addr;
      limit_bytes = t.bytes;
    }
    const auto where = [&] {
      return (Msg() << "relocation of instruction " << rel.insn << " ("
                    << isa::opcode_name(in.opcode) << " " << isa::mem_type_name(in.mem_type)
                    << ") against buffer '" << rel.buffer << "': ")
          .str();
    };
    TANDEM_CHECK(addr % eb == 0, where() << "byte address " << addr
                                         << " is not a multiple of the element size " << eb);
    const std::uint64_t base = addr / eb + rel.elem_offset;
    TANDEM_CHECK(base <= std::numeric_limits<std::uint32_t>::max(),
                 where() << "dram_base " << base << " (element offset " << rel.elem_offset
                         << ") does not fit in 32 bits");
    if (in.y_size > 0 && in.x_size > 0) {
      const std::uint64_t end =
          rel.elem_offset + static_cast<std::uint64_t>(in.y_size - 1) * in.x_stride + in.x_size;
      TANDEM_CHECK(end * eb <= limit_bytes,
                   where() << "the transfer reaches element " << end << " (" << end * eb
                           << " bytes) but the buffer holds " << limit_bytes << " bytes");
    }
    in.dram_base = static_cast<std::uint32_t>(base);
  }

  DramRegion ir{"__insns", 0, std::vector<std::uint8_t>(p.insns.size() * isa::kInsnBytes)};
  for (std::size_t k = 0; k < p.insns.size(); ++k) {
    isa::Word128 w;
    try {
      w = codec.encode(p.insns[k]);
    } catch (const Error& e) {
      throw Error(Msg() << "instruction " << k << ": " << e.what());
    }
    put_u64(ir.bytes.data() + 16 * k, w.lo);
    put_u64(ir.bytes.data() + 16 * k + 8, w.hi);
  }
  ir.addr = alloc_.allocate(ir.bytes.size(), "__insns");
  scratch_.push_back(ir.addr);
  p.insn_addr = ir.addr;
  p.insn_count = static_cast<std::uint32_t>(p.insns.size());
  p.images.insert(p.images.begin(), std::move(ir));
  return p;
}

isa::Stats Runtime::launch(const PreparedLaunch& p) {
  for (const DramRegion& r : p.images) device_->write_dram(r.addr, r.bytes.data(), r.bytes.size());
  device_->launch(p.insn_addr, p.insn_count);
  device_->wait();
  return device_->stats();
}

isa::Stats Runtime::run(const isa::Program& program, const Bindings& bindings) {
  return launch(prepare(program, bindings));
}

}  // namespace tandem::driver
