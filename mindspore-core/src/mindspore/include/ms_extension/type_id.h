// ms_extension: MindSpore's type ids and shape vector (part of the C++ API of mindspore.ops.CustomOpBuilder).
//
// The numbers are MindSpore's (kNumberTypeFloat32 == 43, ...): a custom op may pass a TypeId to Python as an int
// and back. Only the tensor element types (kNumberTypeBool .. kNumberTypeComplex128) can be allocated.
#ifndef MS_EXTENSION_TYPE_ID_H_
#define MS_EXTENSION_TYPE_ID_H_
#include <cstdint>
#include <vector>

using ShapeVector = std::vector<int64_t>;

namespace mindspore {
enum TypeId : int {
  kTypeUnknown = 0,
  kMetaTypeBegin = kTypeUnknown,
  kMetaTypeType,
  kMetaTypeAny,
  kMetaTypeObject,
  kMetaTypeTypeType,
  kMetaTypeProblem,
  kMetaTypeExternal,
  kMetaTypeNone,
  kMetaTypeNull,
  kMetaTypeEllipsis,
  kMetaTypeEnd,
  kObjectTypeBegin = kMetaTypeEnd,
  kObjectTypeNumber,
  kObjectTypeString,
  kObjectTypeList,
  kObjectTypeTuple,
  kObjectTypeSlice,
  kObjectTypeKeyword,
  kObjectTypeTensorType,
  kObjectTypeRowTensorType,
  kObjectTypeCOOTensorType,
  kObjectTypeUndeterminedType,
  kObjectTypeClass,
  kObjectTypeDictionary,
  kObjectTypeFunction,
  kObjectTypeJTagged,
  kObjectTypeSymbolicKeyType,
  kObjectTypeEnvType,
  kObjectTypeRefKey,
  kObjectTypeRef,
  kObjectTypeEnd,
  kNumberTypeBegin = kObjectTypeEnd,
  kNumberTypeBool,
  kNumberTypeInt,
  kNumberTypeInt8,
  kNumberTypeInt16,
  kNumberTypeInt32,
  kNumberTypeInt64,
  kNumberTypeUInt,
  kNumberTypeUInt8,
  kNumberTypeUInt16,
  kNumberTypeUInt32,
  kNumberTypeUInt64,
  kNumberTypeFloat,
  kNumberTypeFloat16,
  kNumberTypeFloat32,
  kNumberTypeFloat64,
  kNumberTypeBFloat16,
  kNumberTypeFloat8E4M3FN,
  kNumberTypeFloat8E5M2,
  kNumberTypeHiFloat8,
  kNumberTypeDouble,
  kNumberTypeComplex,
  kNumberTypeComplex64,
  kNumberTypeComplex128,
  kNumberTypeInt4,
  kNumberTypeGLUInt,
  kNumberTypeEnd,
};
static_assert(kNumberTypeFloat32 == 43, "TypeId numbers must be MindSpore's");
}  // namespace mindspore

namespace ms {
using TypeId = mindspore::TypeId;
}  // namespace ms
#endif  // MS_EXTENSION_TYPE_ID_H_
