// ProgramBuilder: instruction emission, dependency folding, micro-op kernel
// cache. Semantics are documented in isa/program_builder.h.
#include "isa/program_builder.h"

#include <cstring>
#include <limits>

#include "isa/error.h"

namespace tandem::isa {
namespace {

constexpr std::uint32_t kMaxIter = (1u << kIterBits) - 1;

bool adjacent(Module a, Module b) {
  const int d = static_cast<int>(a) - static_cast<int>(b);
  return d == 1 || d == -1;
}

std::string kernel_key(const std::vector<Uop>& uops) {
  std::string key(uops.size() * 12, '\0');
  char* p = key.data();
  for (const Uop& u : uops) {
    std::memcpy(p, &u.dst, 4);
    std::memcpy(p + 4, &u.src, 4);
    std::memcpy(p + 8, &u.wgt, 4);
    p += 12;
  }
  return key;
}

int index_of(Module m) {
  return static_cast<int>(m);
}

}  // namespace

ProgramBuilder::ProgramBuilder(const HwConfig& cfg, const ProgramBuilderOptions& opts)
    : cfg_(cfg), codec_(cfg) {
  prog_.config_name = cfg.name;
  uop_capacity_ = opts.uop_capacity == 0 ? cfg.uop_depth : opts.uop_capacity;
  TANDEM_CHECK(uop_capacity_ <= cfg.uop_depth,
               "ProgramBuilder: uop_capacity " << uop_capacity_ << " exceeds the uop buffer depth "
                                               << cfg.uop_depth << " of config '" << cfg.name
                                               << "'");
  check_tokens_ = opts.check_tokens;
}

void ProgramBuilder::check_open(const char* what) const {
  TANDEM_CHECK(!finished_, "ProgramBuilder: " << what << " after finish()");
}

void ProgramBuilder::declare_buffer(const std::string& name, std::uint64_t bytes) {
  check_open("declare_buffer");
  TANDEM_CHECK(!name.empty(), "ProgramBuilder: buffer name is empty");
  TANDEM_CHECK(name != kUopBufferName,
               "ProgramBuilder: buffer name '" << name << "' is reserved for the micro-op image");
  if (const DramBuffer* b = prog_.find_buffer(name)) {
    TANDEM_CHECK(b->bytes == bytes, "ProgramBuilder: buffer '"
                                        << name << "' declared with " << b->bytes
                                        << " bytes and again with " << bytes << " bytes");
    return;
  }
  prog_.buffers.push_back(DramBuffer{name, bytes});
}

void ProgramBuilder::check_ref(const DramRef& ref, MemType mem, std::uint32_t y_size,
                               std::uint32_t x_size, std::uint32_t x_stride,
                               const char* what) const {
  if (ref.buffer.empty()) {
    TANDEM_CHECK(ref.elem_offset <= std::numeric_limits<std::uint32_t>::max(),
                 "ProgramBuilder: " << what << " absolute dram_base " << ref.elem_offset
                                    << " does not fit in 32 bits");
    return;
  }
  std::uint64_t limit = 0;  // in elements
  const std::uint64_t eb = cfg_.elem_bytes(static_cast<int>(mem));
  if (ref.buffer == kUopBufferName) {
    limit = prog_.uops.size();
  } else {
    const DramBuffer* b = prog_.find_buffer(ref.buffer);
    TANDEM_CHECK(b != nullptr,
                 "ProgramBuilder: " << what << " names undeclared buffer '" << ref.buffer << "'");
    limit = b->bytes / eb;
  }
  if (y_size == 0 || x_size == 0) return;
  const std::uint64_t end =
      ref.elem_offset + static_cast<std::uint64_t>(y_size - 1) * x_stride + x_size;
  TANDEM_CHECK(end <= limit, "ProgramBuilder: " << what << " of " << mem_type_name(mem)
                                                << " touches elements [" << ref.elem_offset << ", "
                                                << end << ") of buffer '" << ref.buffer
                                                << "', which holds " << limit << " elements of "
                                                << eb << " bytes");
}

Instruction ProgramBuilder::noop(Module m) const {
  Instruction i;
  switch (m) {
    case Module::kLoad:
      i.opcode = Opcode::kLoad;
      i.mem_type = MemType::kInp;
      break;
    case Module::kCompute:
      i.opcode = Opcode::kGemm;
      break;
    case Module::kStore:
      i.opcode = Opcode::kStore;
      i.mem_type = MemType::kOut;
      break;
  }
  return i;
}

std::uint32_t ProgramBuilder::append(Instruction insn, const DramRef& reloc) {
  const Module m = module_of(insn);
  const int mi = index_of(m);
  bool& pp = pending_pop_[mi][kPopPrev];
  bool& pn = pending_pop_[mi][kPopNext];
  if ((pp && insn.dep.pop_prev) || (pn && insn.dep.pop_next)) append(noop(m), {});
  if (pp) insn.dep.pop_prev = true;
  if (pn) insn.dep.pop_next = true;
  pp = pn = false;

  const auto idx = static_cast<std::uint32_t>(prog_.insns.size());
  try {
    validate(cfg_, insn, idx);
    codec_.encode(insn);
  } catch (const Error& e) {
    throw Error(Msg() << "ProgramBuilder: " << e.what());
  }
  prog_.insns.push_back(insn);
  if (!reloc.buffer.empty())
    prog_.relocs.push_back(Relocation{idx, reloc.buffer, reloc.elem_offset});
  last_insn_[mi] = idx;
  return idx;
}

void ProgramBuilder::load(MemType mem, std::uint32_t sram_base, const DramRef& src,
                          std::uint32_t y_size, std::uint32_t x_size, std::uint32_t x_stride,
                          const Pad& pad) {
  check_open("load");
  TANDEM_CHECK(!in_kernel_, "ProgramBuilder: load inside a micro-op kernel");
  check_ref(src, mem, y_size, x_size, x_stride, "load");
  Instruction i;
  i.opcode = Opcode::kLoad;
  i.mem_type = mem;
  i.sram_base = sram_base;
  i.dram_base = src.buffer.empty() ? static_cast<std::uint32_t>(src.elem_offset) : 0;
  i.y_size = y_size;
  i.x_size = x_size;
  i.x_stride = x_stride;
  i.y_pad_0 = pad.y0;
  i.y_pad_1 = pad.y1;
  i.x_pad_0 = pad.x0;
  i.x_pad_1 = pad.x1;
  append(i, src);
  if (mem == MemType::kUop) reset_kernel_cache();
}

void ProgramBuilder::store(std::uint32_t sram_base, const DramRef& dst, std::uint32_t y_size,
                           std::uint32_t x_size, std::uint32_t x_stride) {
  check_open("store");
  TANDEM_CHECK(!in_kernel_, "ProgramBuilder: store inside a micro-op kernel");
  check_ref(dst, MemType::kOut, y_size, x_size, x_stride, "store");
  Instruction i;
  i.opcode = Opcode::kStore;
  i.mem_type = MemType::kOut;
  i.sram_base = sram_base;
  i.dram_base = dst.buffer.empty() ? static_cast<std::uint32_t>(dst.elem_offset) : 0;
  i.y_size = y_size;
  i.x_size = x_size;
  i.x_stride = x_stride;
  append(i, dst);
}

void ProgramBuilder::push_dep(Module from, Module to) {
  check_open("push_dep");
  TANDEM_CHECK(adjacent(from, to), "ProgramBuilder: no token queue from "
                                       << module_name(from) << " to " << module_name(to)
                                       << " (only load<->compute and compute<->store)");
  const int fi = index_of(from);
  if (pending_pop_[fi][kPopPrev] || pending_pop_[fi][kPopNext]) append(noop(from), {});
  const bool next = static_cast<int>(to) > fi;
  if (last_insn_[fi] >= 0) {
    DepFlags& d = prog_.insns[static_cast<std::size_t>(last_insn_[fi])].dep;
    bool& flag = next ? d.push_next : d.push_prev;
    if (!flag) {
      flag = true;
      return;
    }
  }
  Instruction i = noop(from);
  (next ? i.dep.push_next : i.dep.push_prev) = true;
  append(i, {});
}

void ProgramBuilder::pop_dep(Module from, Module to) {
  check_open("pop_dep");
  TANDEM_CHECK(adjacent(from, to), "ProgramBuilder: no token queue from "
                                       << module_name(from) << " to " << module_name(to)
                                       << " (only load<->compute and compute<->store)");
  const int ti = index_of(to);
  const int slot = static_cast<int>(from) < ti ? kPopPrev : kPopNext;
  if (pending_pop_[ti][slot]) append(noop(to), {});
  pending_pop_[ti][slot] = true;
}

void ProgramBuilder::begin_kernel(const KernelOp& op, const std::vector<KernelLoop>& loops) {
  check_open("begin_kernel");
  TANDEM_CHECK(!in_kernel_, "ProgramBuilder: begin_kernel while another kernel is open");
  TANDEM_CHECK(op.opcode == Opcode::kGemm || op.opcode == Opcode::kAlu,
               "ProgramBuilder: kernel opcode " << opcode_name(op.opcode) << " is not GEMM or ALU");
  TANDEM_CHECK(loops.size() <= 2,
               "ProgramBuilder: kernel has " << loops.size() << " loop levels, at most 2");
  for (std::size_t k = 0; k < loops.size(); ++k)
    TANDEM_CHECK(loops[k].extent >= 1 && loops[k].extent <= kMaxIter,
                 "ProgramBuilder: kernel loop " << k << " extent " << loops[k].extent
                                                << " is outside [1, " << kMaxIter << "]");
  in_kernel_ = true;
  kop_ = op;
  kloops_ = loops;
  kuops_.clear();
}

void ProgramBuilder::push_uop(std::uint32_t dst, std::uint32_t src, std::uint32_t wgt) {
  TANDEM_CHECK(in_kernel_, "ProgramBuilder: push_uop outside begin_kernel/end_kernel");
  const Uop u{dst, src, wgt};
  try {
    codec_.encode_uop(u);
  } catch (const Error& e) {
    throw Error(Msg() << "ProgramBuilder: micro-op " << kuops_.size()
                      << " of the kernel: " << e.what());
  }
  kuops_.push_back(u);
}

std::uint32_t ProgramBuilder::make_resident(const std::vector<Uop>& uops) {
  const auto n = static_cast<std::uint32_t>(uops.size());
  TANDEM_CHECK(n <= uop_capacity_, "ProgramBuilder: kernel of " << n
                                                                << " micro-ops exceeds the uop "
                                                                   "capacity of "
                                                                << uop_capacity_ << " entries");
  std::string key = kernel_key(uops);
  if (auto it = resident_.find(key); it != resident_.end()) {
    ++kernel_hits_;
    return it->second.sram_offset;
  }
  if (uop_next_ + n > uop_capacity_) {
    uop_next_ = 0;
    ++evictions_;
  }
  const std::uint32_t off = uop_next_;
  uop_next_ += n;
  // Forget every resident kernel that the new one overwrites.
  for (auto it = resident_.begin(); it != resident_.end();) {
    const std::uint32_t b = it->second.sram_offset;
    const auto e = b + static_cast<std::uint32_t>(it->first.size() / 12);
    if (b < off + n && off < e)
      it = resident_.erase(it);
    else
      ++it;
  }
  std::uint64_t image_off;
  if (auto it = image_offset_.find(key); it != image_offset_.end()) {
    image_off = it->second;
  } else {
    image_off = prog_.uops.size();
    prog_.uops.insert(prog_.uops.end(), uops.begin(), uops.end());
    image_offset_.emplace(key, image_off);
  }
  Instruction i;
  i.opcode = Opcode::kLoad;
  i.mem_type = MemType::kUop;
  i.sram_base = off;
  i.y_size = 1;
  i.x_size = n;
  i.x_stride = n;
  append(i, DramRef{kUopBufferName, image_off});
  ++uop_loads_;
  resident_.emplace(std::move(key), Resident{off});
  return off;
}

void ProgramBuilder::end_kernel() {
  check_open("end_kernel");
  TANDEM_CHECK(in_kernel_, "ProgramBuilder: end_kernel without begin_kernel");
  in_kernel_ = false;
  TANDEM_CHECK(!kuops_.empty(), "ProgramBuilder: kernel has no micro-ops");
  const std::uint32_t off = make_resident(kuops_);
  Instruction i;
  i.opcode = kop_.opcode;
  i.reset = kop_.reset;
  i.uop_bgn = off;
  i.uop_end = off + static_cast<std::uint32_t>(kuops_.size());
  const KernelLoop one{};
  const KernelLoop& lo = kloops_.size() > 0 ? kloops_[0] : one;
  const KernelLoop& li = kloops_.size() > 1 ? kloops_[1] : one;
  i.iter_out = lo.extent;
  i.iter_in = li.extent;
  i.dst_factor_out = lo.dst_factor;
  i.dst_factor_in = li.dst_factor;
  i.src_factor_out = lo.src_factor;
  i.src_factor_in = li.src_factor;
  i.wgt_factor_out = lo.wgt_factor;
  i.wgt_factor_in = li.wgt_factor;
  if (kop_.opcode == Opcode::kAlu) {
    i.alu_op = kop_.alu_op;
    i.use_imm = kop_.use_imm;
    i.imm = kop_.imm;
  }
  append(i, {});
}

void ProgramBuilder::kernel(const KernelOp& op, const std::vector<KernelLoop>& loops,
                            const std::vector<Uop>& uops) {
  begin_kernel(op, loops);
  for (const Uop& u : uops) push_uop(u.dst, u.src, u.wgt);
  end_kernel();
}

void ProgramBuilder::reset_kernel_cache() {
  resident_.clear();
  uop_next_ = 0;
}

void ProgramBuilder::emit(const Instruction& insn, const DramRef& reloc) {
  check_open("emit");
  TANDEM_CHECK(!in_kernel_, "ProgramBuilder: emit inside a micro-op kernel");
  TANDEM_CHECK(insn.opcode != Opcode::kFinish,
               "ProgramBuilder: FINISH must be emitted by finish(), not emit()");
  Instruction i = insn;
  if (!reloc.buffer.empty()) {
    TANDEM_CHECK(i.opcode == Opcode::kLoad || i.opcode == Opcode::kStore,
                 "ProgramBuilder: relocation against a " << opcode_name(i.opcode)
                                                         << " instruction (only LOAD/STORE)");
    check_ref(reloc, i.mem_type, i.y_size, i.x_size, i.x_stride, "emit");
    i.dram_base = 0;
  }
  append(i, reloc);
  if (i.opcode == Opcode::kLoad && i.mem_type == MemType::kUop) reset_kernel_cache();
}

std::uint64_t ProgramBuilder::append_uops(const std::vector<Uop>& uops) {
  check_open("append_uops");
  for (std::size_t k = 0; k < uops.size(); ++k) {
    try {
      codec_.encode_uop(uops[k]);
    } catch (const Error& e) {
      throw Error(Msg() << "ProgramBuilder: append_uops micro-op " << k << ": " << e.what());
    }
  }
  const std::uint64_t off = prog_.uops.size();
  prog_.uops.insert(prog_.uops.end(), uops.begin(), uops.end());
  return off;
}

void ProgramBuilder::check_token_balance() const {
  // pushes/pops per queue, in TokenQueue order.
  std::uint64_t push[4] = {}, pop[4] = {};
  for (const Instruction& i : prog_.insns) {
    switch (module_of(i)) {
      case Module::kLoad:
        push[0] += i.dep.push_next;
        pop[1] += i.dep.pop_next;
        break;
      case Module::kCompute:
        pop[0] += i.dep.pop_prev;
        push[1] += i.dep.push_prev;
        push[2] += i.dep.push_next;
        pop[3] += i.dep.pop_next;
        break;
      case Module::kStore:
        pop[2] += i.dep.pop_prev;
        push[3] += i.dep.push_prev;
        break;
    }
  }
  for (int q = 0; q < 4; ++q)
    TANDEM_CHECK(push[q] == pop[q], "ProgramBuilder: token queue "
                                        << token_queue_name(static_cast<TokenQueue>(q)) << " has "
                                        << push[q] << " pushes but " << pop[q]
                                        << " pops; the program would deadlock or leave tokens");
}

Program ProgramBuilder::finish() {
  check_open("finish");
  TANDEM_CHECK(!in_kernel_, "ProgramBuilder: finish() while a micro-op kernel is open");
  for (Module m : {Module::kLoad, Module::kCompute, Module::kStore}) {
    const int mi = index_of(m);
    if (pending_pop_[mi][kPopPrev] || pending_pop_[mi][kPopNext]) append(noop(m), {});
  }
  Instruction fin;
  fin.opcode = Opcode::kFinish;
  append(fin, {});
  finished_ = true;
  if (check_tokens_) check_token_balance();
  return std::move(prog_);
}

}  // namespace tandem::isa
