// Every attribute kind AotExtra reads, written into one float64 output: has("b"), has("zz"), b, i, f, len(s),
// iv..., fv..., i2 (row-major)..., f2 (row-major)...
#include <string>
#include <vector>
#include "custom_aot_extra.h"

extern "C" int Attrs(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes, void *stream,
                     void *extra_void) {
  auto *extra = static_cast<AotExtra *>(extra_void);
  auto *out = static_cast<double *>(params[nparam - 1]);
  int k = 0;
  out[k++] = extra->HasAttr("b");
  out[k++] = extra->HasAttr("zz");
  out[k++] = extra->Attr<bool>("b");
  out[k++] = static_cast<double>(extra->Attr<int64_t>("i"));
  out[k++] = extra->Attr<float>("f");
  out[k++] = static_cast<double>(extra->Attr<std::string>("s").size());
  for (int64_t v : extra->Attr<std::vector<int64_t>>("iv")) out[k++] = static_cast<double>(v);
  for (float v : extra->Attr<std::vector<float>>("fv")) out[k++] = v;
  for (const auto &row : extra->Attr<std::vector<std::vector<int64_t>>>("i2"))
    for (int64_t v : row) out[k++] = static_cast<double>(v);
  for (const auto &row : extra->Attr<std::vector<std::vector<float>>>("f2"))
    for (float v : row) out[k++] = v;
  return k == shapes[nparam - 1][0] ? 0 : 5;
}
