// Node constructors, dtype helpers and the checks every node enforces.
#include "compiler/ir/ir.h"

#include <atomic>

#include "isa/error.h"

namespace tandem::ir {

namespace {
std::atomic<std::uint64_t> g_next_id{1};

bool is_int(DType d) {
  return d != DType::kBool;
}
}  // namespace

std::string_view node_type_name(NodeType t) {
  switch (t) {
#define TANDEM_X(n)    \
  case NodeType::k##n: \
    return #n;
    TANDEM_IR_EXPR_NODES(TANDEM_X)
    TANDEM_IR_STMT_NODES(TANDEM_X)
#undef TANDEM_X
  }
  return "?";
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::kBool:
      return "bool";
    case DType::kInt8:
      return "int8";
    case DType::kInt16:
      return "int16";
    case DType::kInt32:
      return "int32";
  }
  return "?";
}

int dtype_bits(DType t) {
  switch (t) {
    case DType::kBool:
      return 1;
    case DType::kInt8:
      return 8;
    case DType::kInt16:
      return 16;
    case DType::kInt32:
      return 32;
  }
  return 32;
}

std::int64_t dtype_min(DType t) {
  return t == DType::kBool ? 0 : -(std::int64_t{1} << (dtype_bits(t) - 1));
}
std::int64_t dtype_max(DType t) {
  return t == DType::kBool ? 1 : (std::int64_t{1} << (dtype_bits(t) - 1)) - 1;
}

std::int64_t wrap_to(DType t, std::int64_t v) {
  if (t == DType::kBool) return v != 0 ? 1 : 0;
  int bits = dtype_bits(t);
  std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  std::uint64_t u = static_cast<std::uint64_t>(v) & mask;
  if (u >> (bits - 1)) u |= ~mask;
  return static_cast<std::int64_t>(u);
}

// ---------------------------------------------------------------- handles
Expr::Expr(int v) : Expr(IntImmNode::make(DType::kInt32, v)) {}
Expr::Expr(std::int64_t v) {
  TANDEM_CHECK(v >= dtype_min(DType::kInt32) && v <= dtype_max(DType::kInt32),
               "integer literal " << v << " does not fit int32");
  *this = IntImmNode::make(DType::kInt32, v);
}

Var::Var(std::string name, DType dtype)
    : Expr(std::make_shared<VarNode>(dtype, std::move(name), g_next_id++)) {}
Var::Var(const Expr& e) : Expr(e) {
  TANDEM_ASSERT(e.as<VarNode>() != nullptr, "Var built from a non-variable expression");
}
const VarNode* Var::get() const {
  return static_cast<const VarNode*>(Expr::get());
}
const std::string& Var::name() const {
  return get()->name;
}

BufferNode::BufferNode(std::string n, DType d, std::vector<Expr> s, std::string sc)
    : name(std::move(n)), dtype(d), shape(std::move(s)), scope(std::move(sc)), id(g_next_id++) {}

Buffer::Buffer(std::string name, DType dtype, std::vector<Expr> shape, std::string scope)
    : node_(std::make_shared<BufferNode>(std::move(name), dtype, std::move(shape),
                                         std::move(scope))) {}

std::int64_t Buffer::num_elements() const {
  std::int64_t n = 1;
  for (const Expr& e : node_->shape) {
    const std::int64_t* c = as_const_int(e);
    TANDEM_CHECK(c != nullptr, "buffer " << node_->name << " has a non-constant dimension");
    TANDEM_CHECK(*c >= 0 && (*c == 0 || n <= (std::int64_t{1} << 62) / *c),
                 "buffer " << node_->name << ": dimension " << *c << " is negative or the "
                           << "element count overflows");
    n *= *c;
  }
  return n;
}

const std::int64_t* as_const_int(const Expr& e) {
  const IntImmNode* n = e.as<IntImmNode>();
  return n ? &n->value : nullptr;
}
bool is_const_int(const Expr& e, std::int64_t v) {
  const std::int64_t* c = as_const_int(e);
  return c && *c == v;
}

// ---------------------------------------------------------------- expressions
Expr IntImmNode::make(DType d, std::int64_t v) {
  return Expr(std::make_shared<IntImmNode>(d, wrap_to(d, v)));
}

template <NodeType T>
Expr BinaryNode<T>::make(Expr a, Expr b) {
  TANDEM_ASSERT(a.defined() && b.defined(), "undefined operand of " << node_type_name(T));
  DType da = a.dtype(), db = b.dtype();
  std::string_view name = node_type_name(T);
  DType result;
  if constexpr (T == NodeType::kAnd || T == NodeType::kOr) {
    TANDEM_CHECK(da == DType::kBool && db == DType::kBool, name << " needs bool operands, got "
                                                                << dtype_name(da) << " and "
                                                                << dtype_name(db));
    result = DType::kBool;
  } else {
    TANDEM_CHECK(da == db, "dtype mismatch in " << name << ": " << dtype_name(da) << " vs "
                                                << dtype_name(db));
    if constexpr (T == NodeType::kEQ || T == NodeType::kNE || T == NodeType::kLT ||
                  T == NodeType::kLE || T == NodeType::kGT || T == NodeType::kGE) {
      result = DType::kBool;
    } else {
      TANDEM_CHECK(is_int(da), name << " needs integer operands, got bool");
      result = da;
    }
  }
  return Expr(std::make_shared<BinaryNode<T>>(result, std::move(a), std::move(b)));
}
#define TANDEM_X(n) template struct BinaryNode<NodeType::k##n>;
TANDEM_IR_BINARY_NODES(TANDEM_X)
#undef TANDEM_X

Expr NotNode::make(Expr a) {
  TANDEM_CHECK(a.dtype() == DType::kBool,
               "Not needs a bool operand, got " << dtype_name(a.dtype()));
  return Expr(std::make_shared<NotNode>(std::move(a)));
}

Expr SelectNode::make(Expr c, Expr t, Expr f) {
  TANDEM_CHECK(c.dtype() == DType::kBool,
               "Select condition must be bool, got " << dtype_name(c.dtype()));
  TANDEM_CHECK(t.dtype() == f.dtype(), "dtype mismatch in Select: " << dtype_name(t.dtype())
                                                                    << " vs "
                                                                    << dtype_name(f.dtype()));
  DType d = t.dtype();
  return Expr(std::make_shared<SelectNode>(d, std::move(c), std::move(t), std::move(f)));
}

Expr CastNode::make(DType d, Expr v) {
  TANDEM_ASSERT(v.defined(), "Cast of undefined expression");
  return Expr(std::make_shared<CastNode>(d, std::move(v)));
}

Expr LoadNode::make(Buffer b, std::vector<Expr> idx) {
  TANDEM_ASSERT(b.defined(), "Load from undefined buffer");
  for (const Expr& i : idx) {
    TANDEM_CHECK(i.defined() && i.dtype() == DType::kInt32,
                 "index of " << b.name() << " must be an int32 expression");
  }
  DType d = b.dtype();
  return Expr(std::make_shared<LoadNode>(d, std::move(b), std::move(idx)));
}

Expr CallNode::make(DType d, std::string name, std::vector<Expr> args,
                    std::vector<Buffer> buffers) {
  return Expr(std::make_shared<CallNode>(d, std::move(name), std::move(args), std::move(buffers)));
}

std::string_view reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return "sum";
    case ReduceOp::kMax:
      return "max";
    case ReduceOp::kMin:
      return "min";
  }
  return "?";
}

Expr ReduceNode::make(ReduceOp op, Expr source, std::vector<Var> axis, std::vector<Range> dom) {
  TANDEM_ASSERT(axis.size() == dom.size(), "Reduce axis/dom size mismatch");
  TANDEM_CHECK(source.dtype() != DType::kBool, "cannot reduce a bool expression");
  DType d = source.dtype();
  return Expr(
      std::make_shared<ReduceNode>(d, op, std::move(source), std::move(axis), std::move(dom)));
}

Expr ReduceNode::identity(ReduceOp op, DType d) {
  switch (op) {
    case ReduceOp::kSum:
      return make_const(d, 0);
    case ReduceOp::kMax:
      return make_const(d, dtype_min(d));
    case ReduceOp::kMin:
      return make_const(d, dtype_max(d));
  }
  return make_const(d, 0);
}

// ---------------------------------------------------------------- statements
std::string_view for_kind_name(ForKind k) {
  switch (k) {
    case ForKind::kSerial:
      return "serial";
    case ForKind::kUnrolled:
      return "unrolled";
    case ForKind::kVectorized:
      return "vectorized";
    case ForKind::kParallel:
      return "parallel";
    case ForKind::kVThread:
      return "vthread";
  }
  return "?";
}

Stmt ForNode::make(Var var, Expr min, Expr extent, ForKind kind, Stmt body) {
  TANDEM_ASSERT(var.defined() && min.defined() && extent.defined() && body.defined(),
                "incomplete For");
  auto n = std::make_shared<ForNode>();
  n->var = std::move(var);
  n->min = std::move(min);
  n->extent = std::move(extent);
  n->kind = kind;
  n->body = std::move(body);
  return Stmt(std::move(n));
}

Stmt LetStmtNode::make(Var var, Expr value, Stmt body) {
  auto n = std::make_shared<LetStmtNode>();
  n->var = std::move(var);
  n->value = std::move(value);
  n->body = std::move(body);
  return Stmt(std::move(n));
}

Stmt IfThenElseNode::make(Expr cond, Stmt then_case, Stmt else_case) {
  TANDEM_CHECK(cond.dtype() == DType::kBool,
               "if condition must be bool, got " << dtype_name(cond.dtype()));
  auto n = std::make_shared<IfThenElseNode>();
  n->cond = std::move(cond);
  n->then_case = std::move(then_case);
  n->else_case = std::move(else_case);
  return Stmt(std::move(n));
}

Stmt StoreNode::make(Buffer buffer, std::vector<Expr> indices, Expr value) {
  TANDEM_CHECK(value.dtype() == buffer.dtype(),
               "store of " << dtype_name(value.dtype()) << " value into " << buffer.name()
                           << " of dtype " << dtype_name(buffer.dtype()));
  for (const Expr& i : indices) {
    TANDEM_CHECK(i.defined() && i.dtype() == DType::kInt32,
                 "index of " << buffer.name() << " must be an int32 expression");
  }
  auto n = std::make_shared<StoreNode>();
  n->buffer = std::move(buffer);
  n->indices = std::move(indices);
  n->value = std::move(value);
  return Stmt(std::move(n));
}

Stmt AllocateNode::make(Buffer buffer, Stmt body) {
  auto n = std::make_shared<AllocateNode>();
  n->buffer = std::move(buffer);
  n->body = std::move(body);
  return Stmt(std::move(n));
}

Stmt SeqNode::make(std::vector<Stmt> stmts) {
  std::vector<Stmt> flat;
  for (Stmt& s : stmts) {
    if (!s.defined()) continue;
    if (const SeqNode* inner = s.as<SeqNode>()) {
      for (const Stmt& t : inner->stmts) flat.push_back(t);
    } else {
      flat.push_back(std::move(s));
    }
  }
  if (flat.size() == 1) return flat[0];
  auto n = std::make_shared<SeqNode>();
  n->stmts = std::move(flat);
  return Stmt(std::move(n));
}

Stmt AttrStmtNode::make(std::string key, Expr value, std::string text, Stmt body) {
  auto n = std::make_shared<AttrStmtNode>();
  n->key = std::move(key);
  n->value = std::move(value);
  n->text = std::move(text);
  n->body = std::move(body);
  return Stmt(std::move(n));
}

Stmt EvaluateNode::make(Expr value) {
  auto n = std::make_shared<EvaluateNode>();
  n->value = std::move(value);
  return Stmt(std::move(n));
}

}  // namespace tandem::ir
