// A fused add + sum over `axis` (attributes "axis" and "keep_dim"), its sum kept in a workspace, with C++ shape and
// type inference: output = (x + y).sum(axis, keepdims=keep_dim), for 2-D float32 inputs.
#include <vector>
#include "custom_aot_extra.h"
enum TypeId : int {};

class AddReduceData : public AotKernelData {
 public:
  int64_t axis;
  bool keep_dim;
};

extern "C" int AddReduceInit(int *ndims, int64_t **shapes, const char **dtypes, AotExtra *extra) {
  size_t count = 1;
  for (int i = 0; i < ndims[0]; i++) count *= shapes[0][i];
  extra->SetWorkSpace({count * sizeof(float)});
  auto *data = new AddReduceData;
  data->axis = extra->Attr<int64_t>("axis");
  data->keep_dim = extra->Attr<bool>("keep_dim");
  extra->SetKernelData(data);
  return 0;
}

extern "C" std::vector<int64_t> AddReduceInferShape(int *ndims, int64_t **shapes, AotExtra *extra) {
  int64_t axis = extra->Attr<int64_t>("axis");
  if (extra->Attr<bool>("keep_dim")) {
    return axis == 0 ? std::vector<int64_t>{1, shapes[0][1]} : std::vector<int64_t>{shapes[0][0], 1};
  }
  return std::vector<int64_t>{shapes[0][1 - axis]};
}

extern "C" TypeId AddReduceInferType(std::vector<TypeId> type_ids, AotExtra *extra) { return type_ids[0]; }

extern "C" int AddReduce(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                         void *extra_void) {
  if (nparam != 4 || ndims[3] != 0 || dtypes[3] != nullptr) return 3;   // x, y, output, workspace
  auto *x = static_cast<float *>(params[0]);
  auto *y = static_cast<float *>(params[1]);
  auto *out = static_cast<float *>(params[2]);
  auto *sum = static_cast<float *>(params[3]);
  auto *extra = static_cast<AotExtra *>(extra_void);
  auto *data = static_cast<AddReduceData *>(extra->KernelData());
  int64_t rows = shapes[0][0], cols = shapes[0][1];
  for (int64_t i = 0; i < rows * cols; i++) sum[i] = x[i] + y[i];
  int64_t n_out = data->axis == 0 ? cols : rows;
  int64_t n_red = data->axis == 0 ? rows : cols;
  for (int64_t o = 0; o < n_out; o++) {
    float acc = 0;
    for (int64_t r = 0; r < n_red; r++) acc += data->axis == 0 ? sum[r * cols + o] : sum[o * cols + r];
    out[o] = acc;
  }
  return 0;
}
