// ResNet-18 layer table (see resnet18.h).
#include "compiler/ops/resnet18.h"

namespace tandem::ops {
namespace {

Conv2dShape shape(int h, int ci, int co, int k, int stride, int pad) {
  Conv2dShape s;
  s.n = 1;
  s.ci = ci;
  s.h = h;
  s.w = h;
  s.co = co;
  s.kh = k;
  s.kw = k;
  s.stride_h = stride;
  s.stride_w = stride;
  s.pad_h = pad;
  s.pad_w = pad;
  return s;
}

}  // namespace

const std::vector<Conv2dLayer>& resnet18_conv_layers() {
  static const std::vector<Conv2dLayer> layers = {
      {"C1", shape(224, 3, 64, 7, 2, 3), 1},     // stem
      {"C2", shape(56, 64, 64, 3, 1, 1), 4},     // stage 1
      {"C3", shape(56, 64, 128, 3, 2, 1), 1},    // stage 2 entry
      {"C4", shape(56, 64, 128, 1, 2, 0), 1},    // stage 2 downsample
      {"C5", shape(28, 128, 128, 3, 1, 1), 3},   // stage 2
      {"C6", shape(28, 128, 256, 3, 2, 1), 1},   // stage 3 entry
      {"C7", shape(28, 128, 256, 1, 2, 0), 1},   // stage 3 downsample
      {"C8", shape(14, 256, 256, 3, 1, 1), 3},   // stage 3
      {"C9", shape(14, 256, 512, 3, 2, 1), 1},   // stage 4 entry
      {"C10", shape(14, 256, 512, 1, 2, 0), 1},  // stage 4 downsample
      {"C11", shape(7, 512, 512, 3, 1, 1), 3},   // stage 4
  };
  return layers;
}

}  // namespace tandem::ops
