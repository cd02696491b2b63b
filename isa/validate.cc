// Structural validation of single instructions against the config.
#include "isa/codec.h"
#include "isa/error.h"

namespace tandem::isa {

void validate(const HwConfig& cfg, const Instruction& i, std::size_t index) {
  const auto where = [&] {
    return (Msg() << "instruction " << index << " (" << opcode_name(i.opcode) << "): ").str();
  };
  if (i.opcode == Opcode::kLoad || i.opcode == Opcode::kStore)
    TANDEM_CHECK(static_cast<unsigned>(i.mem_type) <= 4,
                 where() << "memory type " << static_cast<unsigned>(i.mem_type)
                         << " is not one of 0..4 (uop, wgt, inp, acc, out)");
  switch (i.opcode) {
    case Opcode::kLoad: {
      TANDEM_CHECK(i.mem_type != MemType::kOut,
                   where() << "memory type out cannot be loaded (only uop, wgt, inp, acc)");
      const bool has_pad = i.y_pad_0 || i.y_pad_1 || i.x_pad_0 || i.x_pad_1;
      TANDEM_CHECK(!(i.mem_type == MemType::kUop && has_pad),
                   where() << "micro-op loads cannot pad (pads " << i.y_pad_0 << ","
                                 << i.y_pad_1 << "," << i.x_pad_0 << "," << i.x_pad_1 << ")");
      if (module_of(i) == Module::kLoad)
        TANDEM_CHECK(!i.dep.pop_prev && !i.dep.push_prev,
                     where() << "a " << mem_type_name(i.mem_type)
                                   << " load runs on the load module, which has no previous "
                                      "module: pop_prev/push_prev must be 0");
      TANDEM_CHECK(i.y_size <= 1 || i.x_stride >= i.x_size,
                   where() << "x_stride " << i.x_stride << " is smaller than x_size "
                                 << i.x_size);
      break;
    }
    case Opcode::kStore: {
      TANDEM_CHECK(i.mem_type == MemType::kOut, where() << "memory type "
                                                              << mem_type_name(i.mem_type)
                                                              << " cannot be stored (only out)");
      TANDEM_CHECK(!(i.y_pad_0 || i.y_pad_1 || i.x_pad_0 || i.x_pad_1),
                   where() << "stores cannot pad");
      TANDEM_CHECK(!i.dep.pop_next && !i.dep.push_next,
                   where() << "the store module has no next module: pop_next/push_next must be 0");
      TANDEM_CHECK(i.y_size <= 1 || i.x_stride >= i.x_size,
                   where() << "x_stride " << i.x_stride << " is smaller than x_size "
                                 << i.x_size);
      break;
    }
    case Opcode::kGemm:
    case Opcode::kAlu: {
      TANDEM_CHECK(i.uop_bgn <= i.uop_end,
                   where() << "uop_bgn " << i.uop_bgn << " is after uop_end " << i.uop_end);
      TANDEM_CHECK(i.uop_end <= cfg.uop_depth, where() << "uop_end " << i.uop_end
                                                             << " exceeds the uop buffer depth "
                                                             << cfg.uop_depth);
      if (i.opcode == Opcode::kAlu) {
        TANDEM_CHECK(static_cast<unsigned>(i.alu_op) <= 4,
                     where() << "alu_op " << static_cast<unsigned>(i.alu_op)
                                   << " is not one of 0..4");
        TANDEM_CHECK(i.wgt_factor_out == 0 && i.wgt_factor_in == 0,
                     where() << "ALU instructions have no weight factors");
      }
      break;
    }
    case Opcode::kFinish:
      break;
    default:
      throw Error(where() + "unknown opcode");
  }
}

}  // namespace tandem::isa
