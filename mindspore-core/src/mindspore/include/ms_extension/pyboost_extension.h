// ms_extension: ms::pynative::PyboostRunner, the runner of a custom operator's kernel, and
// PyboostRunner::Call, the entry that a pybind11 function of a CustomOpBuilder module returns through
// (part of the C++ API of mindspore.ops.CustomOpBuilder).
//
// MindSpore runs these stages on a multi-stage pipeline (infer, malloc, launch); this build runs them in order,
// synchronously, in the calling Python thread: Call() makes the non-contiguous tensor arguments contiguous
// (unless SetNeedContiguous(false)), calls the function, and returns its output tensor(s) as mindspore.Tensor
// (one for Call<1>, a tuple for Call<N>, None for Call<0>). Run() makes the inputs contiguous, allocates the
// workspace of CalcWorkspace() bytes, calls ProcessWithWorkspace() and LaunchKernel(), and frees the workspace.
// A C++ exception of the kernel reaches Python as RuntimeError (std::invalid_argument as ValueError, ...).
#ifndef MS_EXTENSION_PYBOOST_EXTENSION_H_
#define MS_EXTENSION_PYBOOST_EXTENSION_H_
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>
#if defined(__GNUG__)
#include <cxxabi.h>
#endif
#include "ms_extension/tensor.h"

namespace ms {
namespace inner {
// A readable name for a function type (the op name of Call without one).
inline std::string GetFunctionName(const char *name) {
#if defined(__GNUG__)
  int status = 0;
  char *demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status == 0 && demangled != nullptr) {
    std::string result(demangled);
    std::free(demangled);
    return result;
  }
#endif
  return std::string(name);
}

inline void PrepareArg(const ms::Tensor &t) { t.MakeContiguousIfNeeded(); }
inline void PrepareArg(const std::optional<ms::Tensor> &t) {
  if (t.has_value()) {
    t->MakeContiguousIfNeeded();
  }
}
inline void PrepareArg(const std::vector<ms::Tensor> &ts) {
  for (const auto &t : ts) {
    t.MakeContiguousIfNeeded();
  }
}
template <typename T, std::enable_if_t<!std::is_same_v<std::decay_t<T>, ms::Tensor> &&
                                         !std::is_same_v<std::decay_t<T>, std::optional<ms::Tensor>> &&
                                         !std::is_same_v<std::decay_t<T>, std::vector<ms::Tensor>>,
                                       int> = 0>
void PrepareArg(const T &) {}

template <typename... Args>
void ConvertStubNodeToTensor(const Args &...args) {
  (PrepareArg(args), ...);
}

inline std::vector<ms::Tensor> OutputList(const ms::Tensor &t) { return {t}; }
inline std::vector<ms::Tensor> OutputList(const std::vector<ms::Tensor> &ts) { return ts; }
template <typename... T>
std::vector<ms::Tensor> OutputList(const std::tuple<T...> &tup) {
  std::vector<ms::Tensor> out;
  std::apply([&out](const auto &...item) { (out.push_back(item), ...); }, tup);
  return out;
}

template <int OUT_NUM, typename R>
py::object ToPyOutputs(const std::string &op_name, const R &result) {
  auto outputs = OutputList(result);
  if (outputs.size() != static_cast<size_t>(OUT_NUM)) {
    throw std::runtime_error("For op " + op_name + ", the output size should be equal to " +
                             std::to_string(OUT_NUM) + ", but got " + std::to_string(outputs.size()));
  }
  if (OUT_NUM == 1) {
    return outputs[0].ToPython();
  }
  py::tuple tup(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    tup[i] = outputs[i].ToPython();
  }
  return std::move(tup);
}
}  // namespace inner

namespace pynative {
class PyboostRunner : public std::enable_shared_from_this<PyboostRunner> {
 public:
  explicit PyboostRunner(const std::string &op_name) : _op_name_(op_name) {}
  virtual ~PyboostRunner() = default;

  // Run `func(args...)` as the operator `op_name`; it returns OUT_NUM tensors (ms::Tensor, a vector or a tuple).
  template <int OUT_NUM, typename FuncType, typename... Args>
  static typename std::enable_if<(OUT_NUM > 0), py::object>::type Call(const std::string &op_name, FuncType func,
                                                                       Args &&...args) {
    inner::ConvertStubNodeToTensor(args...);
    auto result = func(args...);
    return inner::ToPyOutputs<OUT_NUM>(op_name, result);
  }
  template <int OUT_NUM, typename FuncType, typename... Args>
  static typename std::enable_if<(OUT_NUM > 0), py::object>::type Call(FuncType func, Args &&...args) {
    return Call<OUT_NUM>(inner::GetFunctionName(typeid(FuncType).name()), func, std::forward<Args>(args)...);
  }
  template <int OUT_NUM, typename FuncType, typename... Args>
  static typename std::enable_if<(OUT_NUM == 0), py::object>::type Call(const std::string &op_name, FuncType func,
                                                                        Args &&...args) {
    (void)op_name;
    inner::ConvertStubNodeToTensor(args...);
    func(args...);
    return py::none();
  }
  template <int OUT_NUM, typename FuncType, typename... Args>
  static typename std::enable_if<(OUT_NUM == 0), py::object>::type Call(FuncType func, Args &&...args) {
    return Call<OUT_NUM>(inner::GetFunctionName(typeid(FuncType).name()), func, std::forward<Args>(args)...);
  }

  // Execute the kernel on `inputs`, writing `outputs` (tensors made by the caller with their shapes and dtypes).
  void Run(const std::vector<Tensor> &inputs, const std::vector<Tensor> &outputs) {
    _inputs_ = inputs;
    _outputs_ = outputs;
    _Run();
  }

  // bytes of scratch memory LaunchKernel needs (workspace_ptr())
  virtual size_t CalcWorkspace() { return 0; }
  virtual void ProcessWithWorkspace() {}
  virtual void LaunchKernel() = 0;

  const std::string &op_name() const { return _op_name_; }
  const std::vector<ms::Tensor> &inputs() const { return _inputs_; }
  const std::vector<ms::Tensor> &outputs() const { return _outputs_; }
  // the host has one (implicit) stream: id 0, no handle
  uint32_t stream_id() const { return static_cast<uint32_t>(_stream_id_); }
  void *stream() { return _stream_; }
  void *workspace_ptr() { return _workspace_ptr_; }

 protected:
  virtual void _Run() {
    _PrepareStream();
    _PrepareDeviceAddress();
    _MallocDeviceAddress();
    _MallocWorkspace();
    ProcessWithWorkspace();
    _DispatchLaunchTask();
  }
  virtual void _PrepareStream() {}
  // inputs: contiguous copies where needed; outputs: must be tensors with memory
  virtual void _PrepareDeviceAddress() {
    for (const auto &t : _inputs_) {
      t.MakeContiguousIfNeeded();
    }
    for (size_t i = 0; i < _outputs_.size(); ++i) {
      if (!_outputs_[i].is_defined()) {
        throw std::runtime_error("For op " + _op_name_ + ", the output " + std::to_string(i) +
                                 " is not defined: make it with ms::Tensor(type, shape) before Run().");
      }
    }
  }
  // host memory is allocated when a tensor is made
  virtual void _MallocDeviceAddress() {}
  virtual void _MallocWorkspace() {
    const size_t size = CalcWorkspace();
    _workspace_buffer_.reset(size > 0 ? new unsigned char[size] : nullptr);
    _workspace_ptr_ = _workspace_buffer_.get();
  }
  virtual void _DispatchLaunchTask() {
    LaunchKernel();
    _workspace_buffer_.reset();
    _workspace_ptr_ = nullptr;
  }
  void ProcessCrossStreamAddress() {}

  std::string _op_name_;
  std::vector<ms::Tensor> _inputs_;
  std::vector<ms::Tensor> _outputs_;
  size_t _stream_id_{0};
  void *_stream_{nullptr};
  void *_workspace_ptr_{nullptr};

 private:
  std::unique_ptr<unsigned char[]> _workspace_buffer_;
};

// PYBOOST_CALLER(OUT_NUM, FUNC): a pybind11 function of py::args that converts them to FUNC's parameter types.
template <int OUT_NUM, typename Ret, typename... Args, size_t... I>
py::object PyboostArgsCallerNoDispatchImpl(Ret (*func)(Args...), const std::string &op_name, const py::args &args,
                                           std::index_sequence<I...>) {
  return PyboostRunner::Call<OUT_NUM>(op_name, func, args[I].template cast<std::decay_t<Args>>()...);
}

template <int OUT_NUM, typename Ret, typename... Args>
py::object PyboostArgsCallerNoDispatch(Ret (*func)(Args...), const std::string &op_name, const py::args &args) {
  constexpr size_t N = sizeof...(Args);
  if (args.size() != N) {
    throw std::runtime_error("Argument count mismatch: expected " + std::to_string(N) + ", got " +
                             std::to_string(args.size()));
  }
  return PyboostArgsCallerNoDispatchImpl<OUT_NUM>(func, op_name, args, std::make_index_sequence<N>());
}

template <int OUT_NUM, typename Ret, typename... Args>
py::object PyboostArgsCaller(Ret (*func)(Args...), const std::string &op_name, const py::args &args) {
  return PyboostArgsCallerNoDispatch<OUT_NUM>(func, op_name, args);
}

#define PYBOOST_CALLER_WITH_NAME(OUT_NUM, FUNC, NAME) \
  ([](const py::args &args) -> py::object { return ms::pynative::PyboostArgsCaller<OUT_NUM>(FUNC, NAME, args); })
#define PYBOOST_CALLER(OUT_NUM, FUNC) PYBOOST_CALLER_WITH_NAME(OUT_NUM, FUNC, #FUNC)
}  // namespace pynative
}  // namespace ms
#endif  // MS_EXTENSION_PYBOOST_EXTENSION_H_
