// The C++ API of mindspore.ops.CustomOpBuilder: `#include "ms_extension/api.h"` in a custom op's source.
//
// It offers MindSpore 2.10's user-facing names for CPU custom operators (ms::Tensor, ms::TypeId,
// ms::TensorAccessor, ms::tensor/ones/zeros, ms::pynative::PyboostRunner and PyboostRunner::Call,
// PYBOOST_CALLER, ms::TensorToDevice/TensorAllocate/DispatchKernel), implemented over pybind11 and mindspore's
// Python Tensor; the module is compiled with -DMS_EXTENSION_NAME=<name> and defined with
// PYBIND11_MODULE(MS_EXTENSION_NAME, m). See each header for how this build runs them (synchronously, on host
// memory). MindSpore's internal C++ (mindspore::tensor::Tensor, device contexts, Ascend runners) is not part of it.
#ifndef MS_EXTENSION_API_H_
#define MS_EXTENSION_API_H_
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "ms_extension/type_id.h"
#include "ms_extension/tensor_accessor.h"
#include "ms_extension/tensor.h"
#include "ms_extension/pyboost_extension.h"
#include "ms_extension/op_api.h"

#ifndef MS_EXTENSION_NAME
#error "MS_EXTENSION_NAME is not defined: build with mindspore.ops.CustomOpBuilder (-DMS_EXTENSION_NAME=<name>)"
#endif
#endif  // MS_EXTENSION_API_H_
