// custom_aot_extra.h: what an AOT custom operator (ops.Custom(..., func_type="aot")) sees of its attributes and
// workspaces. It is binary-compatible with the header MindSpore 2.x gives its users, so a kernel written against
// either compiles and runs against the other: the classes below keep MindSpore's virtual functions and members in
// MindSpore's order.
//
// A kernel library may define, next to its main function `extern "C" int Func(int nparam, void **params,
// int *ndims, int64_t **shapes, const char **dtypes, void *stream, void *extra)`:
//   extern "C" int FuncInit(int *ndims, int64_t **shapes, const char **dtypes, AotExtra *extra);
//       called once per input/output signature before the first launch: read attributes, set workspace sizes
//       (SetWorkSpace, in bytes; each workspace is one more params entry after the outputs, zero-filled when
//       allocated) and keep per-kernel data (SetKernelData; deleted when the kernel is released);
//   extern "C" std::vector<int64_t> FuncInferShape(int *ndims, int64_t **shapes, AotExtra *extra);
//       the output shape when ops.Custom is given out_shape=None (std::vector<std::vector<int64_t>> for several
//       outputs);
//   extern "C" TypeId FuncInferType(std::vector<TypeId> type_ids, AotExtra *extra);
//       the output type when out_dtype=None (std::vector<TypeId> for several outputs), with `enum TypeId : int {};`
//       declared by the kernel; the numbers are MindSpore's (kNumberTypeFloat32 == 43).
// Attributes are the `value=`s of the registration info (CustomRegOp(...).attr(name, "required", "all",
// value=...)); Attr<T> reads one as bool, int64_t, float, std::string, std::vector<int64_t>, std::vector<float>,
// std::vector<std::vector<int64_t>> or std::vector<std::vector<float>>.
#ifndef MINDSPORE_CUSTOM_AOT_EXTRA_H_
#define MINDSPORE_CUSTOM_AOT_EXTRA_H_

#include <cstdint>
#include <string>
#include <vector>

class AotKernelData {
 public:
  AotKernelData() = default;
  virtual ~AotKernelData() = default;
};

class AotExtra {
 public:
  AotExtra() = default;
  virtual ~AotExtra() = default;
  virtual bool HasAttr(std::string name) = 0;

  template <typename T>
  inline T Attr(std::string name);

  void SetWorkSpace(const std::vector<size_t> &workspace) { workspace_ = workspace; }
  const std::vector<size_t> &WorkSpace() const { return workspace_; }

  void SetKernelData(AotKernelData *kernel_data) { kernel_data_ = kernel_data; }
  AotKernelData *KernelData() const { return kernel_data_; }

  void DestructKernelData() {
    delete kernel_data_;
    kernel_data_ = nullptr;
  }

 private:
  virtual bool GetAttrBool(std::string name) = 0;
  virtual int64_t GetAttrInt(std::string name) = 0;
  virtual float GetAttrFloat(std::string name) = 0;
  virtual std::string GetAttrStr(std::string name) = 0;
  virtual std::vector<int64_t> GetAttrIntVec(std::string name) = 0;
  virtual std::vector<float> GetAttrFloatVec(std::string name) = 0;
  virtual std::vector<std::vector<int64_t>> GetAttrInt2DVec(std::string name) = 0;
  virtual std::vector<std::vector<float>> GetAttrFloat2DVec(std::string name) = 0;

  std::vector<size_t> workspace_;
  AotKernelData *kernel_data_{nullptr};
};

template <>
inline bool AotExtra::Attr<bool>(std::string name) { return GetAttrBool(name); }
template <>
inline int64_t AotExtra::Attr<int64_t>(std::string name) { return GetAttrInt(name); }
template <>
inline float AotExtra::Attr<float>(std::string name) { return GetAttrFloat(name); }
template <>
inline std::string AotExtra::Attr<std::string>(std::string name) { return GetAttrStr(name); }
template <>
inline std::vector<int64_t> AotExtra::Attr<std::vector<int64_t>>(std::string name) { return GetAttrIntVec(name); }
template <>
inline std::vector<float> AotExtra::Attr<std::vector<float>>(std::string name) { return GetAttrFloatVec(name); }
template <>
inline std::vector<std::vector<int64_t>> AotExtra::Attr<std::vector<std::vector<int64_t>>>(std::string name) {
  return GetAttrInt2DVec(name);
}
template <>
inline std::vector<std::vector<float>> AotExtra::Attr<std::vector<std::vector<float>>>(std::string name) {
  return GetAttrFloat2DVec(name);
}

#endif  // MINDSPORE_CUSTOM_AOT_EXTRA_H_
