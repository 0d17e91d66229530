// The host side of AOT custom operators (see mindspore/ops/_aot.py): an AotExtra holding the operator's attributes,
// and C entry points that call a kernel library's C++ functions (FuncInit, FuncInferShape, FuncInferType and the
// main function) with C++ exceptions turned into error strings. Compiled on first use with the system C++ compiler,
// once per C++ string ABI (-D_GLIBCXX_USE_CXX11_ABI=0/1: the kernel library's), and loaded with ctypes.
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "custom_aot_extra.h"

namespace {

enum Kind : int { kBool = 0, kInt = 1, kFloat = 2, kStr = 3, kVec = 4, kVec2 = 5 };
const char *const kKindNames[] = {"bool", "int", "float", "str", "list", "list of lists"};

struct AttrValue {
  Kind kind = kInt;
  bool all_int = true;   // every number is an integer (readable as int64_t)
  std::string text;
  std::vector<std::vector<int64_t>> ints;   // one row for a scalar or a list, rows for a list of lists
  std::vector<std::vector<double>> reals;
};

class BridgeExtra final : public AotExtra {
 public:
  explicit BridgeExtra(std::string op) : op_(std::move(op)) {}
  ~BridgeExtra() override { DestructKernelData(); }
  bool HasAttr(std::string name) override { return attrs_.count(name) != 0; }
  std::map<std::string, AttrValue> attrs_;

 private:
  const AttrValue &Get(const std::string &name, bool ok_kinds[6], const char *wanted) const {
    auto it = attrs_.find(name);
    if (it == attrs_.end()) {
      std::string have;
      for (const auto &kv : attrs_) have += (have.empty() ? "" : ", ") + kv.first;
      throw std::runtime_error("For 'Custom' ('" + op_ + "'), the kernel reads the attribute '" + name +
                               "', but the registration info gives no such attribute (it gives: " +
                               (have.empty() ? std::string("none") : have) + ").");
    }
    if (!ok_kinds[it->second.kind] || (wanted[0] == 'i' && !it->second.all_int)) {
      throw std::runtime_error("For 'Custom' ('" + op_ + "'), the attribute '" + name + "' is a " +
                               kKindNames[it->second.kind] + (it->second.all_int ? "" : " of floats") +
                               ", which Attr<" + wanted + "> cannot read.");
    }
    return it->second;
  }
  bool GetAttrBool(std::string name) override {
    bool ok[6] = {true, true, false, false, false, false};
    return Get(name, ok, "bool").ints[0][0] != 0;
  }
  int64_t GetAttrInt(std::string name) override {
    bool ok[6] = {true, true, false, false, false, false};
    return Get(name, ok, "int64_t").ints[0][0];
  }
  float GetAttrFloat(std::string name) override {
    bool ok[6] = {false, true, true, false, false, false};
    return static_cast<float>(Get(name, ok, "float").reals[0][0]);
  }
  std::string GetAttrStr(std::string name) override {
    bool ok[6] = {false, false, false, true, false, false};
    return Get(name, ok, "std::string").text;
  }
  std::vector<int64_t> GetAttrIntVec(std::string name) override {
    bool ok[6] = {false, false, false, false, true, false};
    return Get(name, ok, "int64_t vector").ints[0];
  }
  std::vector<float> GetAttrFloatVec(std::string name) override {
    bool ok[6] = {false, false, false, false, true, false};
    const auto &row = Get(name, ok, "float vector").reals[0];
    return std::vector<float>(row.begin(), row.end());
  }
  std::vector<std::vector<int64_t>> GetAttrInt2DVec(std::string name) override {
    bool ok[6] = {false, false, false, false, false, true};
    return Get(name, ok, "int64_t 2-D vector").ints;
  }
  std::vector<std::vector<float>> GetAttrFloat2DVec(std::string name) override {
    bool ok[6] = {false, false, false, false, false, true};
    std::vector<std::vector<float>> out;
    for (const auto &row : Get(name, ok, "float 2-D vector").reals) out.emplace_back(row.begin(), row.end());
    return out;
  }
  std::string op_;
};

void SetError(char *err, int64_t cap, const std::string &what) {
  if (err == nullptr || cap <= 0) return;
  std::strncpy(err, what.c_str(), static_cast<size_t>(cap - 1));
  err[cap - 1] = '\0';
}

// `body()`, or -1 with the message of a C++ exception it threw written to `err`.
template <typename Body>
int64_t Guarded(char *err, int64_t cap, Body &&body) {
  try {
    return body();
  } catch (const std::exception &e) {
    SetError(err, cap, e.what());
  } catch (...) {
    SetError(err, cap, "an exception that is not a std::exception");
  }
  return -1;
}

}  // namespace

extern "C" {

void *ms_aot_extra_new(const char *op) { return static_cast<AotExtra *>(new BridgeExtra(op)); }

void ms_aot_extra_free(void *extra) { delete static_cast<BridgeExtra *>(static_cast<AotExtra *>(extra)); }

// An attribute: `kind` (Kind), `text` for a string, else `nrows` rows of `lens[r]` numbers (`values`, row-major,
// as doubles; `ints` the same numbers as int64 when `all_int`).
void ms_aot_extra_set_attr(void *extra, const char *name, int kind, const char *text, int64_t nrows,
                           const int64_t *lens, const double *values, const int64_t *ints, int all_int) {
  AttrValue value;
  value.kind = static_cast<Kind>(kind);
  value.all_int = all_int != 0;
  if (text != nullptr) value.text = text;
  int64_t at = 0;
  for (int64_t r = 0; r < nrows; ++r) {
    value.reals.emplace_back(values + at, values + at + lens[r]);
    value.ints.emplace_back(ints + at, ints + at + lens[r]);
    at += lens[r];
  }
  static_cast<BridgeExtra *>(static_cast<AotExtra *>(extra))->attrs_[name] = std::move(value);
}

// The workspace sizes FuncInit set (bytes): their count, the first `cap` written to `out`.
int64_t ms_aot_extra_workspace(void *extra, uint64_t *out, int64_t cap) {
  const auto &ws = static_cast<AotExtra *>(extra)->WorkSpace();
  for (int64_t i = 0; i < cap && i < static_cast<int64_t>(ws.size()); ++i) out[i] = ws[i];
  return static_cast<int64_t>(ws.size());
}

int ms_aot_init(void *fn, int *ndims, int64_t **shapes, const char **dtypes, void *extra, char *err, int64_t cap) {
  using InitFn = int (*)(int *, int64_t **, const char **, AotExtra *);
  return static_cast<int>(Guarded(err, cap, [&]() -> int64_t {
    return reinterpret_cast<InitFn>(fn)(ndims, shapes, dtypes, static_cast<AotExtra *>(extra));
  }));
}

int ms_aot_launch(void *fn, int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes,
                  void *stream, void *extra, char *err, int64_t cap) {
  using MainFn = int (*)(int, void **, int *, int64_t **, const char **, void *, void *);
  return static_cast<int>(Guarded(err, cap, [&]() -> int64_t {
    return reinterpret_cast<MainFn>(fn)(nparam, params, ndims, shapes, dtypes, stream, extra);
  }));
}

// FuncInferShape: `multi` calls the several-outputs form. Writes the outputs' ranks to `ranks` and their dims to
// `dims` (concatenated); returns the number of outputs, -1 on an exception, -2 when `ranks`/`dims` are too short.
int64_t ms_aot_infer_shape(void *fn, int multi, int *ndims, int64_t **shapes, void *extra, int64_t *ranks,
                           int64_t max_outputs, int64_t *dims, int64_t max_dims, char *err, int64_t cap) {
  using OneFn = std::vector<int64_t> (*)(int *, int64_t **, AotExtra *);
  using MultiFn = std::vector<std::vector<int64_t>> (*)(int *, int64_t **, AotExtra *);
  return Guarded(err, cap, [&]() -> int64_t {
    std::vector<std::vector<int64_t>> outs;
    if (multi) {
      outs = reinterpret_cast<MultiFn>(fn)(ndims, shapes, static_cast<AotExtra *>(extra));
    } else {
      outs.push_back(reinterpret_cast<OneFn>(fn)(ndims, shapes, static_cast<AotExtra *>(extra)));
    }
    int64_t at = 0;
    if (static_cast<int64_t>(outs.size()) > max_outputs) return -2;
    for (size_t i = 0; i < outs.size(); ++i) {
      if (at + static_cast<int64_t>(outs[i].size()) > max_dims) return -2;
      ranks[i] = static_cast<int64_t>(outs[i].size());
      for (int64_t d : outs[i]) dims[at++] = d;
    }
    return static_cast<int64_t>(outs.size());
  });
}

// FuncInferType (TypeId is an `enum : int`, laid out as int): returns the number of outputs written to `out`.
int64_t ms_aot_infer_type(void *fn, int multi, const int *type_ids, int64_t n, void *extra, int *out,
                          int64_t max_outputs, char *err, int64_t cap) {
  using OneFn = int (*)(std::vector<int>, AotExtra *);
  using MultiFn = std::vector<int> (*)(std::vector<int>, AotExtra *);
  return Guarded(err, cap, [&]() -> int64_t {
    std::vector<int> ids(type_ids, type_ids + n);
    std::vector<int> outs;
    if (multi) {
      outs = reinterpret_cast<MultiFn>(fn)(ids, static_cast<AotExtra *>(extra));
    } else {
      outs.push_back(reinterpret_cast<OneFn>(fn)(ids, static_cast<AotExtra *>(extra)));
    }
    if (static_cast<int64_t>(outs.size()) > max_outputs) return -2;
    for (size_t i = 0; i < outs.size(); ++i) out[i] = outs[i];
    return static_cast<int64_t>(outs.size());
  });
}

}  // extern "C"
