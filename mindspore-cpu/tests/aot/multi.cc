// Two inputs, three outputs (x + y, x * y, x / y) with several-output C++ inference, and "scale" times each; and a
// kernel that reads an attribute its operator was not given.
#include <cstring>
#include <string>
#include <vector>
#include "custom_aot_extra.h"
enum TypeId : int {};

extern "C" std::vector<std::vector<int64_t>> AddMulDivInferShape(int *ndims, int64_t **shapes, AotExtra *extra) {
  std::vector<int64_t> shape(shapes[0], shapes[0] + ndims[0]);
  return {shape, shape, shape};
}

extern "C" std::vector<TypeId> AddMulDivInferType(std::vector<TypeId> type_ids, AotExtra *extra) {
  return {type_ids[0], type_ids[0], type_ids[0]};
}

extern "C" int AddMulDiv(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                         void *extra_void) {
  auto *extra = static_cast<AotExtra *>(extra_void);
  float scale = extra->Attr<float>("scale");
  if (extra->Attr<std::string>("mode") != "plain") return 4;
  auto *x = static_cast<float *>(params[0]);
  auto *y = static_cast<float *>(params[1]);
  size_t size = 1;
  for (int i = 0; i < ndims[2]; i++) size *= shapes[2][i];
  for (size_t i = 0; i < size; i++) {
    static_cast<float *>(params[2])[i] = scale * (x[i] + y[i]);
    static_cast<float *>(params[3])[i] = scale * (x[i] * y[i]);
    static_cast<float *>(params[4])[i] = scale * (x[i] / y[i]);
  }
  return 0;
}

extern "C" int Missing(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                       void *extra_void) {
  return static_cast<AotExtra *>(extra_void)->Attr<int64_t>("not_given") == 0 ? 0 : 1;
}
