// ms_extension: the kernel helpers of MindSpore's second custom-op API (ms::TensorToDevice, ms::TensorAllocate,
// ms::DispatchKernel), for CPU kernels written without a PyboostRunner (part of the C++ API of
// mindspore.ops.CustomOpBuilder).
//
// On this build's host tensors the inputs already are in host memory and outputs get theirs when made, so
// TensorToDevice only makes tensor arguments contiguous (as PyboostRunner does), TensorAllocate checks that
// each output is a tensor with memory, and DispatchKernel runs the kernel at once.
#ifndef MS_EXTENSION_OP_API_H_
#define MS_EXTENSION_OP_API_H_
#include <stdexcept>
#include <utility>
#include <vector>
#include "ms_extension/pyboost_extension.h"

namespace ms {
template <typename... Args>
void TensorToDevice(const Args &...args) {
  (inner::PrepareArg(args), ...);
}

inline void TensorAllocate(const ms::Tensor &output) {
  if (!output.is_defined()) {
    throw std::runtime_error("For 'ms::TensorAllocate', the output tensor is not defined: make it with "
                             "ms::Tensor(type, shape).");
  }
}
inline void TensorAllocate(const std::vector<ms::Tensor> &outputs) {
  for (const auto &t : outputs) {
    TensorAllocate(t);
  }
}
template <typename T1, typename T2, typename... Rest>
void TensorAllocate(const T1 &first, const T2 &second, const Rest &...rest) {
  TensorAllocate(first);
  TensorAllocate(second);
  (TensorAllocate(rest), ...);
}

template <typename Func>
void DispatchKernel(Func &&kernel_func) {
  std::forward<Func>(kernel_func)();
}
}  // namespace ms
#endif  // MS_EXTENSION_OP_API_H_
