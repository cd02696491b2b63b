// Accelerator pass: virtual threads.
//
// A loop bound to a virtual thread (For kind vthread, from
// Stage::bind_vthread) runs its iterations as independent threads whose
// instructions are interleaved, so that the load, compute and store modules
// work on different threads' data at the same time (ping-pong buffering):
//  * every buffer allocated inside the vthread loop gets one copy per thread
//    (its Allocate grows n-fold; thread k uses the k-th slice);
//  * the vthread loop is pushed inward through loops and sequences (legal
//    because threads share no data) down to the leaves -- one DMA nest or one
//    micro-op kernel -- which are emitted once per thread, thread after
//    thread. So `for vt { for k { load; gemm } }` becomes
//    `for k { load(vt0); load(vt1); gemm(vt0); gemm(vt1) }` and the
//    dependency tokens (dependency.h) let load(vt1) overlap gemm(vt0).
// Runs after fold_uop_kernels (leaves are dma / uop_kernel statements, whose
// SRAM indices count elements of the buffers listed in their calls).
#pragma once

#include <unordered_set>

#include "compiler/ir/ir.h"
#include "isa/hw_config.h"

namespace tandem::accel {

// `expanded` (optional) receives the buffers that were replicated.
ir::Stmt inject_vthread(const ir::Stmt& body, const HwConfig& cfg,
                        std::unordered_set<const ir::BufferNode*>* expanded = nullptr);

}  // namespace tandem::accel
