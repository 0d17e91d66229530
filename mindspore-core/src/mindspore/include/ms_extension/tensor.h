// ms_extension: ms::Tensor, the tensor a custom op of mindspore.ops.CustomOpBuilder receives and returns.
//
// This build's ms::Tensor is a host tensor: its memory is a NumPy array held through pybind11, its dtype a
// ms::TypeId. An argument converted from a mindspore.Tensor views that tensor's host data (its own buffer on the
// CPU backend; a copy read through the runtime for a tensor on another device). A tensor made in C++
// (ms::Tensor(type, shape), ms::zeros, ...) allocates zero-filled host memory; converted back to Python it
// becomes a mindspore.Tensor on the current device. Every member runs with the GIL held (custom ops run
// synchronously in the calling Python thread).
#ifndef MS_EXTENSION_TENSOR_H_
#define MS_EXTENSION_TENSOR_H_
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
#include "pybind11/pybind11.h"
#include "pybind11/numpy.h"
#include "pybind11/stl.h"
#include "ms_extension/type_id.h"
#include "ms_extension/tensor_accessor.h"

namespace py = pybind11;

namespace ms {
namespace detail {
// The Python half of this API (mindspore.ops.operations._ms_extension), imported once and kept for the life of
// the process (never destroyed: the interpreter may be gone when static objects are).
inline py::module_ &Runtime() {
  static py::module_ *mod = new py::module_(py::module_::import("mindspore.ops.operations._ms_extension"));
  return *mod;
}
}  // namespace detail

class Tensor {
 public:
  // An undefined tensor (a placeholder): is_defined() is false, every other query throws.
  Tensor() = default;

  // A tensor of `type_id` and `shape` with fresh (zero-filled) host memory.
  Tensor(TypeId type_id, const ShapeVector &shape) {
    holder_ = std::make_shared<Holder>();
    holder_->Set(detail::Runtime().attr("empty")(static_cast<int>(type_id), shape), type_id, py::none());
  }

  bool is_defined() const { return holder_ != nullptr; }

  TypeId data_type() const { return Held("data_type").type_id; }

  std::string format() const { return holder_ == nullptr ? std::string("DefaultFormat") : holder_->format; }

  void set_format(const std::string &format) const { Held("set_format").format = format; }

  const ShapeVector &shape() const { return Held("shape").shape; }

  size_t numel() const {
    size_t n = 1;
    for (auto d : Held("numel").shape) {
      n *= static_cast<size_t>(d);
    }
    return n;
  }

  // strides in elements
  std::vector<int64_t> stride() const { return *Held("stride").strides; }

  // the element offset of GetDataPtr() in the tensor's memory: the pointer already includes it here
  int64_t storage_offset() const {
    (void)Held("storage_offset");
    return 0;
  }

  bool is_contiguous() const {
    const auto &h = Held("is_contiguous");
    int64_t expected = 1;
    for (size_t d = h.shape.size(); d-- > 0;) {
      if (h.shape[d] != 1 && (*h.strides)[d] != expected) {
        return false;
      }
      expected *= h.shape[d];
    }
    return true;
  }

  // Whether PyboostRunner::Call / Run give the kernel a contiguous copy of a non-contiguous tensor (default true).
  void SetNeedContiguous(bool flag) const { Held("SetNeedContiguous").need_contiguous = flag; }
  bool need_contiguous() const { return Held("need_contiguous").need_contiguous; }

  void *GetDataPtr() const { return Held("GetDataPtr").data; }

  template <typename T>
  T *data_ptr() const {
    return static_cast<T *>(GetDataPtr());
  }

  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const {
    const auto &h = Held("accessor");
    if (h.shape.size() != N) {
      throw std::runtime_error("TensorAccessor error: The tensor's shape or stride does not match the specified "
                               "dimension N. Expected dimension: " + std::to_string(N) + ", but got shape size: " +
                               std::to_string(h.shape.size()) + " and stride size: " +
                               std::to_string(h.strides->size()) + ".");
    }
    return TensorAccessor<T, N>(data_ptr<T>(), h.shape.data(), h.strides);
  }

  // ---- operators on a tensor (run as MindSpore operators) ----
  Tensor cast(TypeId dtype) const { return Op("cast", static_cast<int>(dtype)); }
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const {
    py::list parts = detail::Runtime().attr("call_op")("chunk", ToPython(), chunks, dim);
    std::vector<Tensor> out;
    for (auto item : parts) {
      out.push_back(FromPython(item));
    }
    return out;
  }
  Tensor contiguous() const { return Op("contiguous"); }
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const { return Op("flatten", start_dim, end_dim); }
  Tensor index_select(int64_t dim, const Tensor &index) const { return Op("index_select", dim, index.ToPython()); }
  Tensor reshape(const std::vector<int64_t> &shape) const { return Op("reshape", shape); }
  Tensor repeat(const std::vector<int64_t> &repeats) const { return Op("repeat", repeats); }
  Tensor repeat_interleave(const Tensor &repeats, const std::optional<int64_t> &dim = std::nullopt,
                           const std::optional<int64_t> &output_size = std::nullopt) const {
    return Op("repeat_interleave", repeats.ToPython(), dim, output_size);
  }
  Tensor repeat_interleave(int64_t repeats, const std::optional<int64_t> &dim = std::nullopt,
                           const std::optional<int64_t> &output_size = std::nullopt) const {
    return Op("repeat_interleave", repeats, dim, output_size);
  }

  // Make this tensor (and every copy of it) hold `src`'s data, dtype and shape.
  void AssignTensor(const Tensor &src) const {
    auto &h = Held("AssignTensor");
    const auto &s = src.Held("AssignTensor");
    h.Set(s.array, s.type_id, s.source);
    h.format = s.format;
  }

  // Kept for sources written for MindSpore: a tensor here is always realised.
  void ConvertStubNodeToTensor() const {}

  // ---- ms_extension's bridge to Python (used by the type caster and the runner) ----
  // The mindspore.Tensor of this tensor (None when undefined): the tensor it came from, or a new one holding its
  // memory, moved to the current device.
  py::object ToPython() const {
    if (holder_ == nullptr) {
      return py::none();
    }
    if (holder_->source.is_none()) {
      holder_->source = detail::Runtime().attr("from_host")(holder_->array, static_cast<int>(holder_->type_id));
    }
    return holder_->source;
  }

  // A tensor viewing the host data of the mindspore.Tensor `obj`.
  static Tensor FromPython(py::handle obj) {
    py::tuple host = detail::Runtime().attr("to_host")(obj);
    Tensor t;
    t.holder_ = std::make_shared<Holder>();
    t.holder_->Set(host[0], static_cast<TypeId>(host[1].cast<int>()), py::reinterpret_borrow<py::object>(obj));
    if (!t.holder_->source.is_none()) {
      t.holder_->write_back = host[2];
    }
    return t;
  }

  // A tensor made in C++ holding the host array `arr` (a numpy.ndarray of `type_id`'s dtype).
  static Tensor FromHostArray(py::object arr, TypeId type_id) {
    Tensor t;
    t.holder_ = std::make_shared<Holder>();
    t.holder_->Set(std::move(arr), type_id, py::none());
    return t;
  }

  // Replace a non-contiguous memory by a contiguous copy when need_contiguous() (PyboostRunner does it).
  void MakeContiguousIfNeeded() const {
    if (holder_ != nullptr && holder_->need_contiguous && !is_contiguous()) {
      py::object arr = detail::Runtime().attr("contiguous")(holder_->array);
      holder_->Set(arr, holder_->type_id, py::none());
    }
  }

 private:
  struct Holder {
    py::object array;                     // the host memory (a numpy.ndarray)
    py::object source = py::none();       // the mindspore.Tensor this memory belongs to, if any
    TypeId type_id = mindspore::kTypeUnknown;
    ShapeVector shape;
    std::shared_ptr<ShapeVector> strides = std::make_shared<ShapeVector>();
    void *data = nullptr;
    bool need_contiguous = true;
    std::string format = "DefaultFormat";
    // for a copy of a device tensor's data: called with the array when the last ms::Tensor of it goes away,
    // it moves the kernel's writes (if any) back into the tensor
    py::object write_back = py::none();

    Holder() = default;
    Holder(const Holder &) = delete;
    Holder &operator=(const Holder &) = delete;
    ~Holder() {
      if (!write_back.is_none()) {
        try {
          write_back(array);
        } catch (py::error_already_set &e) {
          e.discard_as_unraisable("ms::Tensor write-back to a device tensor");
        }
      }
    }

    void Set(py::object arr_obj, TypeId tid, py::object src) {
      if (!py::isinstance<py::array>(arr_obj)) {
        throw std::runtime_error("ms::Tensor: the host memory of a tensor must be a numpy.ndarray.");
      }
      auto arr = py::reinterpret_borrow<py::array>(arr_obj);
      const auto itemsize = static_cast<int64_t>(arr.itemsize());
      bool byte_strides_ok = true;
      for (py::ssize_t d = 0; d < arr.ndim(); ++d) {
        if (itemsize == 0 || arr.strides(d) < 0 || arr.strides(d) % itemsize != 0) {
          byte_strides_ok = false;
        }
      }
      if (!byte_strides_ok) {  // a layout that element strides can not describe: take a compact copy
        arr = py::reinterpret_borrow<py::array>(detail::Runtime().attr("contiguous")(arr));
        src = py::none();
      }
      ShapeVector new_shape;
      auto new_strides = std::make_shared<ShapeVector>();
      for (py::ssize_t d = 0; d < arr.ndim(); ++d) {
        new_shape.push_back(static_cast<int64_t>(arr.shape(d)));
        new_strides->push_back(static_cast<int64_t>(arr.strides(d)) / itemsize);
      }
      if (!write_back.is_none()) {  // the memory is replaced: the old copy's writes go back first
        py::object wb = std::move(write_back);
        write_back = py::none();
        wb(array);
      }
      array = arr;
      source = std::move(src);
      type_id = tid;
      shape = std::move(new_shape);
      strides = std::move(new_strides);
      data = const_cast<void *>(arr.data());
    }
  };

  Holder &Held(const char *what) const {
    if (holder_ == nullptr) {
      throw std::runtime_error(std::string("For 'ms::Tensor::") + what +
                               "', the tensor is not defined (a placeholder made by ms::Tensor()).");
    }
    return *holder_;
  }

  template <typename... A>
  Tensor Op(const char *name, A &&...args) const {
    py::object res = detail::Runtime().attr("call_op")(name, ToPython(), std::forward<A>(args)...);
    return FromPython(res);
  }

  std::shared_ptr<Holder> holder_{nullptr};
};

// ---- tensor factories ----
namespace detail {
template <typename V>
Tensor MakeTensor(const V &value, TypeId dtype) {
  return Tensor::FromHostArray(Runtime().attr("make")(value, static_cast<int>(dtype)), dtype);
}
}  // namespace detail

// a 0-d tensor holding `value`
inline Tensor tensor(int64_t value, TypeId dtype = TypeId::kNumberTypeInt64) {
  return detail::MakeTensor(value, dtype);
}
// a 1-d tensor holding `value`
inline Tensor tensor(const std::vector<int64_t> &value, TypeId dtype = TypeId::kNumberTypeInt64) {
  return detail::MakeTensor(value, dtype);
}
inline Tensor tensor(double value, TypeId dtype = TypeId::kNumberTypeFloat64) {
  return detail::MakeTensor(value, dtype);
}
inline Tensor tensor(const std::vector<double> &value, TypeId dtype = TypeId::kNumberTypeFloat64) {
  return detail::MakeTensor(value, dtype);
}
inline Tensor ones(const ShapeVector &shape, TypeId dtype = TypeId::kNumberTypeFloat32) {
  return Tensor::FromHostArray(detail::Runtime().attr("full")(static_cast<int>(dtype), shape, 1), dtype);
}
inline Tensor zeros(const ShapeVector &shape, TypeId dtype = TypeId::kNumberTypeFloat32) {
  return Tensor(dtype, shape);
}
}  // namespace ms

namespace pybind11 {
namespace detail {
// mindspore.Tensor <-> ms::Tensor
template <>
struct type_caster<ms::Tensor> {
  PYBIND11_TYPE_CASTER(ms::Tensor, const_name("mindspore.Tensor"));

  bool load(handle src, bool) {
    if (src.is_none() || !ms::detail::Runtime().attr("is_tensor")(src).cast<bool>()) {
      return false;
    }
    value = ms::Tensor::FromPython(src);
    return true;
  }

  static handle cast(const ms::Tensor &src, return_value_policy, handle) { return src.ToPython().release(); }
};
}  // namespace detail
}  // namespace pybind11
#endif  // MS_EXTENSION_TENSOR_H_
