// ms_extension: ms::TensorAccessor<T, N>, indexed access to a tensor's elements through its strides
// (part of the C++ API of mindspore.ops.CustomOpBuilder; made by ms::Tensor::accessor<T, N>()).
#ifndef MS_EXTENSION_TENSOR_ACCESSOR_H_
#define MS_EXTENSION_TENSOR_ACCESSOR_H_
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
#include "ms_extension/type_id.h"

namespace ms {
namespace detail {
inline void CheckIndex(size_t index, int64_t size) {
  if (static_cast<int64_t>(index) >= size) {
    throw std::out_of_range("TensorAccessor: index " + std::to_string(index) +
                            " is out of bounds for a dimension of size " + std::to_string(size) + ".");
  }
}
}  // namespace detail

// A view of the last N dimensions of a tensor: `data` points at its first element, `shape` at the sizes of those
// dimensions, and the strides (in elements) are the last N entries of `*strides`, which the accessors of one
// tensor share.
template <typename T, size_t N>
class TensorAccessor {
  static_assert(N >= 1, "TensorAccessor needs at least one dimension.");

 public:
  TensorAccessor(T *data, const int64_t *shape, const std::shared_ptr<ShapeVector> &strides)
      : data_(data), shape_(shape), strides_(strides) {
    if (shape_ == nullptr || strides_ == nullptr || strides_->size() < N) {
      throw std::invalid_argument("TensorAccessor: the shape and strides must describe the accessed dimensions.");
    }
    step_ = strides_->data() + (strides_->size() - N);
  }

  // element (i0, ..., iN-1)
  template <typename... Indices>
  T &operator()(Indices... indices) const {
    static_assert(sizeof...(Indices) == N, "TensorAccessor: give one index per dimension.");
    const size_t idx[] = {static_cast<size_t>(indices)...};
    int64_t offset = 0;
    for (size_t d = 0; d < N; ++d) {
      detail::CheckIndex(idx[d], shape_[d]);
      offset += static_cast<int64_t>(idx[d]) * step_[d];
    }
    return data_[offset];
  }

  // the sub-tensor at `index` of the first dimension
  TensorAccessor<T, N - 1> operator[](size_t index) const {
    detail::CheckIndex(index, shape_[0]);
    return TensorAccessor<T, N - 1>(data_ + static_cast<int64_t>(index) * step_[0], shape_ + 1, strides_);
  }

  T *data_ptr() const { return data_; }

  bool is_contiguous() const {
    int64_t expected = 1;
    for (size_t d = N; d-- > 0;) {
      if (shape_[d] != 1 && step_[d] != expected) {
        return false;
      }
      expected *= shape_[d];
    }
    return true;
  }

 private:
  T *data_;
  const int64_t *shape_;
  std::shared_ptr<ShapeVector> strides_;
  const int64_t *step_;
};

template <typename T>
class TensorAccessor<T, 1> {
 public:
  TensorAccessor(T *data, const int64_t *shape, const std::shared_ptr<ShapeVector> &strides)
      : data_(data), shape_(shape), strides_(strides) {
    if (shape_ == nullptr || strides_ == nullptr || strides_->empty()) {
      throw std::invalid_argument("TensorAccessor: the shape and strides must describe the accessed dimension.");
    }
  }

  T &operator[](size_t index) const {
    detail::CheckIndex(index, shape_[0]);
    return data_[static_cast<int64_t>(index) * strides_->back()];
  }

  T &operator()(size_t index) const { return (*this)[index]; }

  T *data_ptr() const { return data_; }

  bool is_contiguous() const { return shape_[0] == 1 || strides_->back() == 1; }

 private:
  T *data_;
  const int64_t *shape_;
  std::shared_ptr<ShapeVector> strides_;
};
}  // namespace ms
#endif  // MS_EXTENSION_TENSOR_ACCESSOR_H_
