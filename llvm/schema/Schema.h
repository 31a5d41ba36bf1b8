//===- Schema.h - Pieces of the schema pass (internal) ----------*- C++ -*-===//
//
// The schema pass is split the way it works: select the variables
// (VariableSelection.cpp, with InductionVariables.cpp for the ScalarEvolution
// part), describe each one as a schema entry and lay the entries out as the
// ".vprof.schema" blob of vprof-core/include/vprof/format.h
// (SchemaSection.cpp), and the pass that ties them together (SchemaPass.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef VPROF_LLVM_SCHEMA_SCHEMA_H
#define VPROF_LLVM_SCHEMA_SCHEMA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class DIVariable;
class Function;
class GlobalVariable;
class Module;
class TargetLibraryInfo;
class raw_ostream;
} // namespace llvm

namespace vprof {

/// A source variable vProf watches and why (enum vp_tag bits).  For a
/// file-scope global also the functions of the TU that use it; a global the
/// TU only declares (`extern`, no debug info here) is a use record: Var is
/// null and UseOnly names it.
struct SchemaVariable {
  const llvm::DIVariable *Var;
  unsigned Tags;
  std::vector<std::string> Users; ///< user function names (IR = linkage names)
  const llvm::GlobalVariable *UseOnly = nullptr;
  bool External = false;          ///< a file-scope global with external linkage
};

using GetTLIFn = llvm::function_ref<llvm::TargetLibraryInfo &(llvm::Function &)>;

/// Selects the variables of \p M (vProf section 3.1): every global and
/// function-static variable, loop induction variables, variables of branch
/// conditions and of call arguments.  One element per variable with its tags
/// merged, in first-seen order.  Expects the IR as clang emits it (allocas
/// with llvm.dbg.declare) but also accepts SSA form (llvm.dbg.value).
std::vector<SchemaVariable> selectVariables(llvm::Module &M, GetTLIFn GetTLI);

/// Adds to \p IVs the source variables of \p F whose value is a loop
/// induction variable according to ScalarEvolution (see the file banner of
/// InductionVariables.cpp for how).  \p F is left unchanged.
void findInductionVariables(
    llvm::Function &F, llvm::TargetLibraryInfo &TLI,
    llvm::SmallPtrSetImpl<const llvm::DIVariable *> &IVs);

/// One schema entry with its strings still as strings (struct vp_schema_entry
/// before string-table encoding).
struct SchemaEntry {
  std::string File;     ///< absolute normalised path of the declaration
  std::string Function; ///< enclosing function, "" for a file-scope global
  std::string Linkage;  ///< linkage name, "" if none or same as the name
  std::string Name;
  std::string Type;
  uint32_t Line = 0;
  uint16_t Tags = 0;
  uint16_t TypeKind = 0;
  uint32_t Size = 0;
  uint32_t PointeeSize = 0;
  uint32_t ArgNo = 0;
  uint16_t Flags = 0;             ///< enum vp_schema_entry_flags
  std::vector<std::string> Users; ///< globals: functions of the TU using it
};

/// Describes \p V as a schema entry (file, function, type kind and sizes).
SchemaEntry describeVariable(const SchemaVariable &V);

/// Sorts \p Entries into the schema's deterministic order: by file, then
/// function, line, name and parameter number; use records last.
void sortSchemaEntries(std::vector<SchemaEntry> &Entries);

/// Lays out one ".vprof.schema" blob (struct vp_schema_header, the entries,
/// the string table; padded to a multiple of 8 bytes).
std::vector<uint8_t> serialiseSchema(llvm::ArrayRef<SchemaEntry> Entries,
                                     llvm::StringRef CompDir);

/// Name of the private global that holds the blob; a module that already
/// has one is not given a second.
constexpr llvm::StringLiteral SchemaGlobalName = "__vprof_schema";

/// Adds \p Blob to \p M as a constant in section ".vprof.schema", 8-aligned,
/// in llvm.used so neither the optimizer nor `ld --gc-sections` drops it
/// (llvm.used makes the ELF section SHF_GNU_RETAIN).
llvm::GlobalVariable *emitSchemaSection(llvm::Module &M,
                                        llvm::ArrayRef<uint8_t> Blob);

/// Prints \p E in the stable text form of -vprof-print-schema (also
/// produced by llvm/utils/vprof-schema-dump.py from a binary):
///   vprof-schema: fn=F var=V line=N tags=T kind=K size=S pointee=P arg=A
///   type="T" file=PATH [linkage=L]
/// where F is "#global" for a file-scope global and T is a comma list of
/// loop,cond,args,global; a global with users adds a second line
///   vprof-schema-users: var=V users=F1,F2
/// and a use record (VP_SCHEMA_USE_ONLY) is the single line
///   vprof-schema-use: var=SYMBOL tags=T users=F1,F2
void printSchemaEntry(llvm::raw_ostream &OS, const SchemaEntry &E);

} // namespace vprof

#endif // VPROF_LLVM_SCHEMA_SCHEMA_H
