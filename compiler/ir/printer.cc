// Text printer of the IR: minimal parentheses by precedence, one statement
// per line with two-space indentation.
#include "compiler/ir/printer.h"

#include <sstream>

namespace tandem::ir {

namespace {

int precedence(const Expr& e) {
  switch (e.node_type()) {
    case NodeType::kOr:
      return 1;
    case NodeType::kAnd:
      return 2;
    case NodeType::kEQ:
    case NodeType::kNE:
    case NodeType::kLT:
    case NodeType::kLE:
    case NodeType::kGT:
    case NodeType::kGE:
      return 3;
    case NodeType::kShl:
    case NodeType::kShr:
      return 4;
    case NodeType::kAdd:
    case NodeType::kSub:
      return 5;
    case NodeType::kMul:
    case NodeType::kFloorDiv:
    case NodeType::kFloorMod:
      return 6;
    default:
      return 10;  // atoms and function-call syntax
  }
}

const char* infix(NodeType t) {
  switch (t) {
    case NodeType::kAdd:
      return " + ";
    case NodeType::kSub:
      return " - ";
    case NodeType::kMul:
      return "*";
    case NodeType::kFloorDiv:
      return "/";
    case NodeType::kFloorMod:
      return "%";
    case NodeType::kShl:
      return " << ";
    case NodeType::kShr:
      return " >> ";
    case NodeType::kEQ:
      return " == ";
    case NodeType::kNE:
      return " != ";
    case NodeType::kLT:
      return " < ";
    case NodeType::kLE:
      return " <= ";
    case NodeType::kGT:
      return " > ";
    case NodeType::kGE:
      return " >= ";
    case NodeType::kAnd:
      return " && ";
    case NodeType::kOr:
      return " || ";
    default:
      return nullptr;
  }
}

class Printer {
 public:
  explicit Printer(std::ostream& os) : os_(os) {}

  void expr(const Expr& e) {
    if (!e.defined()) {
      os_ << "<undef>";
      return;
    }
    if (const char* op = infix(e.node_type())) {
      binary(e, op);
      return;
    }
    switch (e.node_type()) {
      case NodeType::kIntImm: {
        const IntImmNode* n = e.as<IntImmNode>();
        if (n->dtype == DType::kBool) {
          os_ << (n->value ? "true" : "false");
        } else if (n->dtype == DType::kInt32) {
          os_ << n->value;
        } else {
          os_ << dtype_name(n->dtype) << "(" << n->value << ")";
        }
        return;
      }
      case NodeType::kVar:
        os_ << e.as<VarNode>()->name;
        return;
      case NodeType::kMin:
        fn("min", e.as<MinNode>()->a, e.as<MinNode>()->b);
        return;
      case NodeType::kMax:
        fn("max", e.as<MaxNode>()->a, e.as<MaxNode>()->b);
        return;
      case NodeType::kNot: {
        os_ << "!";
        sub(e.as<NotNode>()->a, 10);
        return;
      }
      case NodeType::kSelect: {
        const SelectNode* n = e.as<SelectNode>();
        os_ << "select(";
        expr(n->cond);
        os_ << ", ";
        expr(n->true_value);
        os_ << ", ";
        expr(n->false_value);
        os_ << ")";
        return;
      }
      case NodeType::kCast: {
        os_ << dtype_name(e.dtype()) << "(";
        expr(e.as<CastNode>()->value);
        os_ << ")";
        return;
      }
      case NodeType::kLoad: {
        const LoadNode* n = e.as<LoadNode>();
        os_ << n->buffer.name() << "[";
        list(n->indices);
        os_ << "]";
        return;
      }
      case NodeType::kCall: {
        const CallNode* n = e.as<CallNode>();
        os_ << n->name;
        if (!n->buffers.empty()) {
          os_ << "<";
          for (size_t i = 0; i < n->buffers.size(); ++i) {
            os_ << (i ? ", " : "") << n->buffers[i].name() << ":" << n->buffers[i].scope();
          }
          os_ << ">";
        }
        os_ << "(";
        list(n->args);
        os_ << ")";
        return;
      }
      case NodeType::kReduce: {
        const ReduceNode* n = e.as<ReduceNode>();
        os_ << "reduce_" << reduce_op_name(n->op) << "(";
        expr(n->source);
        os_ << ", axis=[";
        for (size_t i = 0; i < n->axis.size(); ++i) {
          os_ << (i ? ", " : "") << n->axis[i].name() << ":";
          expr(n->dom[i].min);
          os_ << "+";
          expr(n->dom[i].extent);
        }
        os_ << "])";
        return;
      }
      default:
        os_ << "<?" << node_type_name(e.node_type()) << ">";
        return;
    }
  }

  void stmt(const Stmt& s) {
    if (!s.defined()) return;
    switch (s.node_type()) {
      case NodeType::kFor: {
        const ForNode* n = s.as<ForNode>();
        indent();
        os_ << "for (" << n->var.name() << ", ";
        expr(n->min);
        os_ << ", ";
        expr(n->extent);
        os_ << ")";
        if (n->kind != ForKind::kSerial) os_ << " " << for_kind_name(n->kind);
        block(n->body);
        return;
      }
      case NodeType::kLetStmt: {
        const LetStmtNode* n = s.as<LetStmtNode>();
        indent();
        os_ << "let " << n->var.name() << " = ";
        expr(n->value);
        os_ << "\n";
        stmt(n->body);
        return;
      }
      case NodeType::kIfThenElse: {
        const IfThenElseNode* n = s.as<IfThenElseNode>();
        indent();
        os_ << "if (";
        expr(n->cond);
        os_ << ")";
        block(n->then_case);
        if (n->else_case.defined()) {
          indent();
          os_ << "else";
          block(n->else_case);
        }
        return;
      }
      case NodeType::kStore: {
        const StoreNode* n = s.as<StoreNode>();
        indent();
        os_ << n->buffer.name() << "[";
        list(n->indices);
        os_ << "] = ";
        expr(n->value);
        os_ << "\n";
        return;
      }
      case NodeType::kAllocate: {
        const AllocateNode* n = s.as<AllocateNode>();
        indent();
        os_ << "allocate " << n->buffer.name() << ": " << dtype_name(n->buffer.dtype()) << "[";
        list(n->buffer->shape);
        os_ << "] in " << n->buffer.scope();
        block(n->body);
        return;
      }
      case NodeType::kSeq:
        for (const Stmt& c : s.as<SeqNode>()->stmts) stmt(c);
        return;
      case NodeType::kAttrStmt: {
        const AttrStmtNode* n = s.as<AttrStmtNode>();
        indent();
        os_ << "attr " << n->key;
        if (n->value.defined()) {
          os_ << " = ";
          expr(n->value);
        }
        if (!n->text.empty()) os_ << " \"" << n->text << "\"";
        block(n->body);
        return;
      }
      case NodeType::kEvaluate:
        indent();
        expr(s.as<EvaluateNode>()->value);
        os_ << "\n";
        return;
      default:
        indent();
        os_ << "<?" << node_type_name(s.node_type()) << ">\n";
        return;
    }
  }

 private:
  void binary(const Expr& e, const char* op) {
    const Expr* a = nullptr;
    const Expr* b = nullptr;
    switch (e.node_type()) {
#define TANDEM_X(n)                               \
  case NodeType::k##n:                            \
    a = &static_cast<const n##Node*>(e.get())->a; \
    b = &static_cast<const n##Node*>(e.get())->b; \
    break;
      TANDEM_IR_BINARY_NODES(TANDEM_X)
#undef TANDEM_X
      default:
        return;
    }
    int p = precedence(e);
    sub(*a, p);
    os_ << op;
    sub(*b, p + 1);
  }
  // Prints child c, parenthesized when it binds looser than `min_prec`.
  void sub(const Expr& c, int min_prec) {
    if (precedence(c) < min_prec) {
      os_ << "(";
      expr(c);
      os_ << ")";
    } else {
      expr(c);
    }
  }
  void fn(const char* name, const Expr& a, const Expr& b) {
    os_ << name << "(";
    expr(a);
    os_ << ", ";
    expr(b);
    os_ << ")";
  }
  void list(const std::vector<Expr>& v) {
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) os_ << ", ";
      expr(v[i]);
    }
  }
  void indent() {
    for (int i = 0; i < depth_; ++i) os_ << "  ";
  }
  void block(const Stmt& body) {
    os_ << " {\n";
    ++depth_;
    stmt(body);
    --depth_;
    indent();
    os_ << "}\n";
  }

  std::ostream& os_;
  int depth_ = 0;
};

}  // namespace

std::string to_string(const Expr& e) {
  std::ostringstream os;
  Printer(os).expr(e);
  return os.str();
}
std::string to_string(const Stmt& s) {
  std::ostringstream os;
  Printer(os).stmt(s);
  return os.str();
}
std::ostream& operator<<(std::ostream& os, const Expr& e) {
  Printer(os).expr(e);
  return os;
}
std::ostream& operator<<(std::ostream& os, const Stmt& s) {
  Printer(os).stmt(s);
  return os;
}

}  // namespace tandem::ir
