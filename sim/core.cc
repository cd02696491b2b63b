// FunctionalCore: construction, dispatch, LOAD/STORE and counters.
//
// GEMM/ALU live in sim/core_compute.cc, the GEMM inner kernels in
// sim/core_kernels*.cc. Assumes a little-endian host (DRAM images of acc and
// micro-op words are little-endian and are copied with memcpy).
#include <bit>
#include <cstdlib>
#include <cstring>

#include "isa/error.h"
#include "sim/core.h"
#include "sim/core_kernels.h"

namespace tandem::sim {

static_assert(std::endian::native == std::endian::little,
              "the functional core copies little-endian DRAM words with memcpy");

namespace {

std::string where(const isa::Instruction& insn, std::size_t index) {
  return (Msg() << "instruction " << index << " (" << isa::opcode_name(insn.opcode) << " "
                << isa::mem_type_name(insn.mem_type) << ")")
      .str();
}

// Throws unless SRAM elements [base, base+count) lie inside a buffer of `depth`.
void check_sram(const isa::Instruction& insn, std::size_t index, std::uint64_t base,
                std::uint64_t count, std::uint32_t depth, const char* verb) {
  if (count == 0 || base + count <= depth) return;
  const std::uint64_t bad = base >= depth ? base : depth;
  const char* buf = isa::mem_type_name(insn.mem_type).data();
  throw Error(Msg() << where(insn, index) << ": " << buf << " index " << bad << " is out of range ("
                    << buf << " depth " << depth << "); the instruction " << verb << " " << buf
                    << "[" << base << ", " << base + count << ")");
}

// Throws unless every DRAM row of a 2D transfer lies inside the DRAM. The
// message is only built on failure (this runs for every LOAD/STORE).
void check_dram(const Dram& dram, const isa::Instruction& insn, std::size_t index,
                std::uint32_t elem_bytes, const char* verb) {
  if (insn.y_size == 0 || insn.x_size == 0) return;
  const std::uint64_t first = static_cast<std::uint64_t>(insn.dram_base) * elem_bytes;
  const std::uint64_t end_elem = static_cast<std::uint64_t>(insn.dram_base) +
                                 static_cast<std::uint64_t>(insn.y_size - 1) * insn.x_stride +
                                 insn.x_size;
  const std::uint64_t bytes = end_elem * elem_bytes - first;
  if (first <= dram.size() && bytes <= dram.size() - first) return;
  const std::string what =
      (Msg() << where(insn, index) << " DRAM " << verb << " (dram_base " << insn.dram_base << ", "
             << insn.y_size << " rows of " << insn.x_size << " x " << elem_bytes
             << " bytes, x_stride " << insn.x_stride << ")")
          .str();
  dram.check_range(first, bytes, what.c_str());
  TANDEM_ASSERT(false, "Dram::check_range accepted a range check_dram rejected");
}

}  // namespace

FunctionalCore::FunctionalCore(const HwConfig& cfg, Dram& dram)
    : cfg_(cfg),
      codec_(cfg),
      dram_(dram),
      uop_(cfg.uop_depth),
      inp_(static_cast<std::size_t>(cfg.inp_depth) * cfg.inp_elem_bytes),
      wgt_(static_cast<std::size_t>(cfg.wgt_depth) * cfg.wgt_elem_bytes),
      acc_(static_cast<std::size_t>(cfg.acc_depth) * cfg.batch * cfg.block_out),
      out_(static_cast<std::size_t>(cfg.out_depth) * cfg.out_elem_bytes) {
  TANDEM_ASSERT(cfg.inp_depth > 0 && cfg.acc_elem_bytes == 4u * cfg.batch * cfg.block_out,
                "HwConfig '" << cfg.name << "' was not finalize()d or has non-int32 accumulators");
  // TANDEM_SIM_NO_SIMD=1 forces the portable kernels (debugging, timing).
  const char* no_simd = std::getenv("TANDEM_SIM_NO_SIMD");
  set_simd(no_simd == nullptr || std::string(no_simd) == "0");
}

void FunctionalCore::set_simd(bool enabled) {
  simd_ = enabled && host_has_avx2();
  gemm_kernel_ = select_gemm_kernel(cfg_.batch, cfg_.block_in, cfg_.block_out, simd_);
}

void FunctionalCore::execute(const isa::Instruction& insn, std::size_t index) {
  isa::validate(cfg_, insn, index);
  switch (insn.opcode) {
    case isa::Opcode::kLoad:
      load(insn, index);
      break;
    case isa::Opcode::kStore:
      store(insn, index);
      break;
    case isa::Opcode::kGemm:
      gemm(insn, index);
      break;
    case isa::Opcode::kAlu:
      alu(insn, index);
      break;
    case isa::Opcode::kFinish:
      ++counters_.insn_finish;
      break;
  }
}

void FunctionalCore::load(const isa::Instruction& insn, std::size_t index) {
  const int mt = static_cast<int>(insn.mem_type);
  const std::uint32_t eb = cfg_.elem_bytes(mt);
  const std::uint32_t depth = cfg_.depth(mt);
  const std::uint64_t W = std::uint64_t{insn.x_pad_0} + insn.x_size + insn.x_pad_1;
  const std::uint64_t H = std::uint64_t{insn.y_pad_0} + insn.y_size + insn.y_pad_1;
  const std::uint64_t data_elems = std::uint64_t{insn.y_size} * insn.x_size;
  check_sram(insn, index, insn.sram_base, H * W, depth, "writes");
  check_dram(dram_, insn, index, eb, "read");
  ++counters_.insn_load;
  counters_.pad_elems += H * W - data_elems;
  const std::uint8_t* dram = dram_.data();

  if (insn.mem_type == isa::MemType::kUop) {  // uop loads never pad (validated)
    for (std::uint32_t y = 0; y < insn.y_size; ++y) {
      const std::uint8_t* src =
          dram + (std::uint64_t{insn.dram_base} + std::uint64_t{y} * insn.x_stride) * eb;
      isa::Uop* dst = uop_.data() + insn.sram_base + std::uint64_t{y} * insn.x_size;
      for (std::uint32_t x = 0; x < insn.x_size; ++x) {
        std::uint32_t word;
        std::memcpy(&word, src + std::uint64_t{x} * 4, 4);
        dst[x] = codec_.decode_uop(word);
      }
    }
    counters_.bytes_load_uop += data_elems * eb;
    return;
  }

  std::uint8_t* sram = nullptr;
  switch (insn.mem_type) {
    case isa::MemType::kInp:
      sram = reinterpret_cast<std::uint8_t*>(inp_.data());
      counters_.bytes_load_inp += data_elems * eb;
      break;
    case isa::MemType::kWgt:
      sram = reinterpret_cast<std::uint8_t*>(wgt_.data());
      counters_.bytes_load_wgt += data_elems * eb;
      break;
    case isa::MemType::kAcc:
      sram = reinterpret_cast<std::uint8_t*>(acc_.data());
      counters_.bytes_load_acc += data_elems * eb;
      break;
    default:
      TANDEM_ASSERT(false,
                    "validate() let a load of " << isa::mem_type_name(insn.mem_type) << " through");
  }
  const std::uint64_t row_bytes = W * eb;
  for (std::uint64_t y = 0; y < H; ++y) {
    std::uint8_t* row = sram + (insn.sram_base + y * W) * eb;
    if (y < insn.y_pad_0 || y >= std::uint64_t{insn.y_pad_0} + insn.y_size) {
      std::memset(row, 0, row_bytes);
      continue;
    }
    const std::uint64_t src_elem =
        std::uint64_t{insn.dram_base} + (y - insn.y_pad_0) * std::uint64_t{insn.x_stride};
    std::memset(row, 0, std::uint64_t{insn.x_pad_0} * eb);
    std::memcpy(row + std::uint64_t{insn.x_pad_0} * eb, dram + src_elem * eb,
                std::uint64_t{insn.x_size} * eb);
    std::memset(row + (std::uint64_t{insn.x_pad_0} + insn.x_size) * eb, 0,
                std::uint64_t{insn.x_pad_1} * eb);
  }
}

void FunctionalCore::store(const isa::Instruction& insn, std::size_t index) {
  const std::uint32_t eb = cfg_.out_elem_bytes;
  const std::uint64_t elems = std::uint64_t{insn.y_size} * insn.x_size;
  check_sram(insn, index, insn.sram_base, elems, cfg_.out_depth, "reads");
  check_dram(dram_, insn, index, eb, "write");
  ++counters_.insn_store;
  counters_.bytes_store_out += elems * eb;
  std::uint8_t* dram = dram_.data();
  const auto* out = reinterpret_cast<const std::uint8_t*>(out_.data());
  for (std::uint64_t y = 0; y < insn.y_size; ++y) {
    std::memcpy(dram + (insn.dram_base + y * insn.x_stride) * eb,
                out + (insn.sram_base + y * insn.x_size) * eb, std::uint64_t{insn.x_size} * eb);
  }
}

void FunctionalCore::add_to(std::map<std::string, std::uint64_t>& c) const {
  const CoreCounters& k = counters_;
  c["insn.load"] += k.insn_load;
  c["insn.store"] += k.insn_store;
  c["insn.gemm"] += k.insn_gemm;
  c["insn.alu"] += k.insn_alu;
  c["insn.finish"] += k.insn_finish;
  c["uop.gemm"] += k.uop_gemm;
  c["uop.gemm_reset"] += k.uop_gemm_reset;
  c["uop.alu"] += k.uop_alu;
  c["macs"] += k.macs;
  c["bytes.load.uop"] += k.bytes_load_uop;
  c["bytes.load.inp"] += k.bytes_load_inp;
  c["bytes.load.wgt"] += k.bytes_load_wgt;
  c["bytes.load.acc"] += k.bytes_load_acc;
  c["bytes.store.out"] += k.bytes_store_out;
  c["pad_elems"] += k.pad_elems;
}

}  // namespace tandem::sim
