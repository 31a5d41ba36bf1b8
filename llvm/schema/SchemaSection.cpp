//===- SchemaSection.cpp - Schema entries and the .vprof.schema blob ------===//
//
// Turns selected variables into schema entries (where declared, in which
// function, how to read the value: type kind and sizes) and lays them out
// exactly as section 1 of vprof-core/include/vprof/format.h says: header,
// entries, string table, padded to 8 bytes.  The blob is stored in the
// object file so every linked binary and shared library carries the schema
// of each of its translation units; no side files.
//
//===----------------------------------------------------------------------===//

#include "Schema.h"

#include "vprof/DebugInfoUtils.h"
#include "vprof/SectionBlob.h"
#include "vprof/format.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <tuple>

using namespace llvm;

static_assert(sizeof(vp_schema_header) == 40, "format.h header layout (v2)");
static_assert(sizeof(vp_schema_entry) == 48, "format.h entry layout (v2)");
static_assert(sizeof(vp_schema_entry) % 8 == 0, "entries keep 8-alignment");

namespace vprof {

/// Byte size of \p T (already stripped of typedefs); 0 when unknown.
static uint32_t sizeInBytes(const DIType *T) {
  return T ? static_cast<uint32_t>(T->getSizeInBits() / 8) : 0;
}

/// The vp_type_kind of a basic type, from its DWARF encoding; enums read as
/// signed integers (format.h).
static vp_type_kind basicKind(const DIType *T) {
  if (const auto *CT = dyn_cast_or_null<DICompositeType>(T))
    return CT->getTag() == dwarf::DW_TAG_enumeration_type ? VP_TYPE_SINT
                                                          : VP_TYPE_UNKNOWN;
  const auto *BT = dyn_cast_or_null<DIBasicType>(T);
  if (!BT)
    return VP_TYPE_UNKNOWN;
  switch (BT->getEncoding()) {
  case dwarf::DW_ATE_signed:
  case dwarf::DW_ATE_signed_char:
    return VP_TYPE_SINT;
  case dwarf::DW_ATE_unsigned:
  case dwarf::DW_ATE_unsigned_char:
  case dwarf::DW_ATE_boolean:
  case dwarf::DW_ATE_UTF:
    return VP_TYPE_UINT;
  case dwarf::DW_ATE_float:
    return VP_TYPE_FLOAT;
  default:
    return VP_TYPE_UNKNOWN;
  }
}

/// Fills type_kind, size and pointee_size of \p E from the declared type
/// \p Declared, looking through typedefs and qualifiers.  A pointer (or
/// C++ reference, stored as one) to a basic type is PTR_BASIC so the
/// sampler also reads the pointee; other pointers only cost their reading.
static void classifyType(const DIType *Declared, SchemaEntry &E) {
  const DIType *T = stripTypedefsAndQualifiers(Declared);
  E.Size = sizeInBytes(T);
  if (const auto *DT = dyn_cast_or_null<DIDerivedType>(T)) {
    switch (DT->getTag()) {
    case dwarf::DW_TAG_pointer_type:
    case dwarf::DW_TAG_reference_type:
    case dwarf::DW_TAG_rvalue_reference_type: {
      if (E.Size == 0)
        E.Size = sizeof(void *);
      const DIType *Pointee = stripTypedefsAndQualifiers(DT->getBaseType());
      if (basicKind(Pointee) != VP_TYPE_UNKNOWN && sizeInBytes(Pointee) > 0) {
        E.TypeKind = VP_TYPE_PTR_BASIC;
        E.PointeeSize = sizeInBytes(Pointee);
      } else {
        E.TypeKind = VP_TYPE_PTR_OTHER;
      }
      return;
    }
    default:
      E.TypeKind = VP_TYPE_UNKNOWN;
      return;
    }
  }
  if (const auto *CT = dyn_cast_or_null<DICompositeType>(T)) {
    switch (CT->getTag()) {
    case dwarf::DW_TAG_structure_type:
    case dwarf::DW_TAG_union_type:
    case dwarf::DW_TAG_class_type:
    case dwarf::DW_TAG_array_type:
      E.TypeKind = VP_TYPE_AGGREGATE;
      return;
    default:
      break;
    }
  }
  E.TypeKind = basicKind(T);
}

/// The subprogram a variable is declared in: a local's scope, or for a
/// function-static global the function around its scope.  Null for a
/// file-scope global.
static const DISubprogram *enclosingSubprogram(const DIVariable *Var) {
  if (const auto *LS = dyn_cast_or_null<DILocalScope>(Var->getScope()))
    return LS->getSubprogram();
  return nullptr;
}

SchemaEntry describeVariable(const SchemaVariable &V) {
  SchemaEntry E;
  E.Users = V.Users;
  if (V.UseOnly) {
    // No debug info here: the symbol names the definition (format.h).
    E.Name = V.UseOnly->getName().str();
    E.Tags = static_cast<uint16_t>(V.Tags);
    E.Flags = VP_SCHEMA_USE_ONLY;
    return E;
  }
  if (V.External)
    E.Flags |= VP_SCHEMA_EXTERNAL;
  const DIVariable *Var = V.Var;
  E.Name = Var->getName().str();
  E.Line = Var->getLine();
  E.Tags = static_cast<uint16_t>(V.Tags);
  E.File = absoluteFilePath(Var->getFile());
  if (E.File.empty())
    E.File = absoluteFilePath(Var->getScope());
  E.Type = typeName(Var->getType());
  classifyType(Var->getType(), E);
  if (const auto *LV = dyn_cast<DILocalVariable>(Var))
    E.ArgNo = LV->getArg();

  // Locals and statics are found in DWARF under their function, so they
  // carry its names; a file-scope global carries its own linkage name.
  if (const DISubprogram *SP = enclosingSubprogram(Var)) {
    E.Function = SP->getName().str();
    if (SP->getLinkageName() != SP->getName())
      E.Linkage = SP->getLinkageName().str();
  } else if (const auto *GV = dyn_cast<DIGlobalVariable>(Var)) {
    if (GV->getLinkageName() != GV->getName())
      E.Linkage = GV->getLinkageName().str();
  }
  return E;
}

void sortSchemaEntries(std::vector<SchemaEntry> &Entries) {
  auto Key = [](const SchemaEntry &E) {
    // Use records (no file) after the variables.
    return std::tuple_cat(std::make_tuple(bool(E.Flags & VP_SCHEMA_USE_ONLY)),
                          std::tie(E.File, E.Function, E.Line, E.Name, E.ArgNo,
                                   E.Linkage));
  };
  std::stable_sort(Entries.begin(), Entries.end(),
                   [&](const SchemaEntry &A, const SchemaEntry &B) {
                     return Key(A) < Key(B);
                   });
}


/// \p V in little-endian byte order, whatever the host (format.h).
template <typename T> static T le(T V) {
  return support::endian::byte_swap<T, support::little>(V);
}

std::vector<uint8_t> serialiseSchema(ArrayRef<SchemaEntry> Entries,
                                     StringRef CompDir) {
  BlobStringTable Strings;
  uint32_t CompDirOff = Strings.add(CompDir);
  std::vector<vp_schema_entry> Records;
  std::vector<uint32_t> Users; // string offsets, per entry contiguous
  Records.reserve(Entries.size());
  for (const SchemaEntry &E : Entries) {
    vp_schema_entry R;
    std::memset(&R, 0, sizeof(R));
    R.file = le(Strings.add(E.File));
    R.function = le(Strings.add(E.Function));
    R.linkage = le(Strings.add(E.Linkage));
    R.name = le(Strings.add(E.Name));
    R.type = le(Strings.add(E.Type));
    R.line = le(E.Line);
    R.tags = le(E.Tags);
    R.type_kind = le(E.TypeKind);
    R.size = le(E.Size);
    R.pointee_size = le(E.PointeeSize);
    R.arg_no = le(E.ArgNo);
    R.flags = le(E.Flags);
    size_t NUsers = std::min<size_t>(E.Users.size(), UINT16_MAX);
    R.users_first = le(static_cast<uint32_t>(NUsers ? Users.size() : 0));
    R.users_count = le(static_cast<uint16_t>(NUsers));
    for (size_t I = 0; I < NUsers; ++I)
      Users.push_back(le(Strings.add(E.Users[I])));
    Records.push_back(R);
  }

  const size_t EntriesBytes = Records.size() * sizeof(vp_schema_entry);
  const size_t UsersOffset = sizeof(vp_schema_header) + EntriesBytes;
  const size_t UsersBytes = Users.size() * sizeof(uint32_t);
  const size_t StringsOffset = UsersOffset + UsersBytes;
  const size_t StringsSize = Strings.data().size();
  const size_t TotalSize = alignTo(StringsOffset + StringsSize, 8);

  vp_schema_header H;
  std::memset(&H, 0, sizeof(H));
  H.magic = le<uint32_t>(VP_SCHEMA_MAGIC);
  H.version = le<uint16_t>(VP_SCHEMA_VERSION);
  H.header_size = le<uint16_t>(sizeof(vp_schema_header));
  H.total_size = le(static_cast<uint32_t>(TotalSize));
  H.entry_count = le(static_cast<uint32_t>(Records.size()));
  H.strings_offset = le(static_cast<uint32_t>(StringsOffset));
  H.strings_size = le(static_cast<uint32_t>(StringsSize));
  H.comp_dir = le(CompDirOff);
  H.users_count = le(static_cast<uint32_t>(Users.size()));
  H.users_offset = le(static_cast<uint32_t>(UsersOffset));
  H.entry_size = le<uint16_t>(sizeof(vp_schema_entry));

  std::vector<uint8_t> Blob(TotalSize, 0); // zero padding at the end
  std::memcpy(Blob.data(), &H, sizeof(H));
  if (EntriesBytes)
    std::memcpy(Blob.data() + sizeof(H), Records.data(), EntriesBytes);
  if (UsersBytes)
    std::memcpy(Blob.data() + UsersOffset, Users.data(), UsersBytes);
  std::memcpy(Blob.data() + StringsOffset, Strings.data().data(), StringsSize);
  return Blob;
}

GlobalVariable *emitSchemaSection(Module &M, ArrayRef<uint8_t> Blob) {
  return emitSectionBlob(
      M, StringRef(reinterpret_cast<const char *>(Blob.data()), Blob.size()),
      SchemaGlobalName, VP_SCHEMA_SECTION);
}

/// Tag bits as the comma list used in text output ("none" for no bits).
static std::string tagList(unsigned Tags) {
  static const std::pair<unsigned, const char *> Names[] = {
      {VP_TAG_LOOP, "loop"},
      {VP_TAG_COND, "cond"},
      {VP_TAG_ARGS, "args"},
      {VP_TAG_GLOBAL, "global"}};
  std::string S;
  for (const auto &N : Names)
    if (Tags & N.first)
      S += (S.empty() ? "" : ",") + std::string(N.second);
  return S.empty() ? "none" : S;
}

/// Lower-case name of a vp_type_kind for text output.
static const char *kindName(unsigned Kind) {
  switch (Kind) {
  case VP_TYPE_SINT:
    return "sint";
  case VP_TYPE_UINT:
    return "uint";
  case VP_TYPE_FLOAT:
    return "float";
  case VP_TYPE_PTR_BASIC:
    return "ptr_basic";
  case VP_TYPE_PTR_OTHER:
    return "ptr_other";
  case VP_TYPE_AGGREGATE:
    return "aggregate";
  default:
    return "unknown";
  }
}

/// The comma list of \p Users ("" for none).
static std::string userList(ArrayRef<std::string> Users) {
  std::string S;
  for (const std::string &U : Users)
    S += (S.empty() ? "" : ",") + U;
  return S;
}

void printSchemaEntry(raw_ostream &OS, const SchemaEntry &E) {
  if (E.Flags & VP_SCHEMA_USE_ONLY) {
    OS << "vprof-schema-use: var=" << E.Name << " tags=" << tagList(E.Tags)
       << " users=" << userList(E.Users) << "\n";
    return;
  }
  bool FileScopeGlobal = E.Function.empty();
  OS << "vprof-schema: fn=" << (FileScopeGlobal ? "#global" : E.Function)
     << " var=" << E.Name << " line=" << E.Line << " tags=" << tagList(E.Tags)
     << " kind=" << kindName(E.TypeKind) << " size=" << E.Size
     << " pointee=" << E.PointeeSize << " arg=" << E.ArgNo << " type=\""
     << E.Type << "\" file=" << E.File;
  if (!E.Linkage.empty())
    OS << " linkage=" << E.Linkage;
  OS << "\n";
  if (!E.Users.empty())
    OS << "vprof-schema-users: var=" << E.Name << " users=" << userList(E.Users)
       << "\n";
}

} // namespace vprof
