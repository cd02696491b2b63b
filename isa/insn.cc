// Names and module routing of instructions.
#include "isa/insn.h"

namespace tandem::isa {

Module module_of(const Instruction& i) {
  switch (i.opcode) {
    case Opcode::kLoad:
      return (i.mem_type == MemType::kInp || i.mem_type == MemType::kWgt) ? Module::kLoad
                                                                          : Module::kCompute;
    case Opcode::kStore:
      return Module::kStore;
    default:
      return Module::kCompute;
  }
}

std::string_view opcode_name(Opcode op) {
  switch (op) {
    case Opcode::kLoad: return "LOAD";
    case Opcode::kStore: return "STORE";
    case Opcode::kGemm: return "GEMM";
    case Opcode::kFinish: return "FINISH";
    case Opcode::kAlu: return "ALU";
  }
  return "?";
}

std::string_view mem_type_name(MemType m) {
  switch (m) {
    case MemType::kUop: return "uop";
    case MemType::kWgt: return "wgt";
    case MemType::kInp: return "inp";
    case MemType::kAcc: return "acc";
    case MemType::kOut: return "out";
  }
  return "?";
}

std::string_view alu_op_name(AluOp op) {
  switch (op) {
    case AluOp::kMin: return "min";
    case AluOp::kMax: return "max";
    case AluOp::kAdd: return "add";
    case AluOp::kShr: return "shr";
    case AluOp::kMul: return "mul";
  }
  return "?";
}

std::string_view module_name(Module m) {
  switch (m) {
    case Module::kLoad: return "load";
    case Module::kCompute: return "compute";
    case Module::kStore: return "store";
  }
  return "?";
}

std::string_view token_queue_name(TokenQueue q) {
  switch (q) {
    case TokenQueue::kLoadToCompute: return "load->compute";
    case TokenQueue::kComputeToLoad: return "compute->load";
    case TokenQueue::kComputeToStore: return "compute->store";
    case TokenQueue::kStoreToCompute: return "store->compute";
  }
  return "?";
}

}  // namespace tandem::isa
