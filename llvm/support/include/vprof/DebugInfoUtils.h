//===- DebugInfoUtils.h - Debug-info helpers shared by vprof passes -*- C++ -*-===//
//
// Small queries every vprof pass needs to talk about source entities:
// the absolute normalised file of a debug scope, the source variable a
// Value stands for, and a readable spelling of a DIType.  Pure functions of
// the IR; nothing here modifies a module.
//
//===----------------------------------------------------------------------===//
#ifndef VPROF_DEBUGINFOUTILS_H
#define VPROF_DEBUGINFOUTILS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class DIFile;
class DILocation;
class DIScope;
class DIType;
class DIVariable;
class Value;
} // namespace llvm

namespace vprof {

/// Lexically normalises \p Path: joins it to \p Base when relative (to the
/// process's current directory when \p Base is empty or relative too) and
/// removes "." and ".." components.  Symbolic links are not resolved, so the
/// result names the file the way the build named it.
std::string normalisePath(llvm::StringRef Path, llvm::StringRef Base = "");

/// Absolute normalised path of \p File (DIFile directory joined with the
/// filename when the filename is relative).  Returns "" for null.
std::string absoluteFilePath(const llvm::DIFile *File);

/// Absolute normalised path of the file of \p Scope; "" if it has none.
std::string absoluteFilePath(const llvm::DIScope *Scope);

/// Absolute normalised path of the file \p Loc points into; "" for null.
std::string absoluteFilePath(const llvm::DILocation *Loc);

/// True if \p Path (absolute, normalised) is \p Prefix or lies under it.
/// Compares whole path components: "/a/b" covers "/a/b/c.c", not "/a/bc.c".
bool pathHasPrefix(llvm::StringRef Path, llvm::StringRef Prefix);

/// Collects the source variables \p V stands for, in a deterministic order:
///  - an alloca (or any address) described by llvm.dbg.declare/dbg.addr:
///    the declared variables;
///  - a global with !dbg DIGlobalVariableExpressions: those globals;
///  - any other value used by llvm.dbg.value: the variables it is a value of,
///    preferring those whose dbg.value is in the block defining the value
///    (the entry block for an argument), since SSA values are shared by
///    copies (`found = i`).
/// Returns false and leaves \p Out untouched when V is none of these.
bool findVariablesOf(const llvm::Value *V,
                     llvm::SmallVectorImpl<llvm::DIVariable *> &Out);

/// The first variable findVariablesOf() reports, or null.
llvm::DIVariable *findVariableOf(const llvm::Value *V);

/// Strips typedefs and cv/restrict/atomic qualifiers; null stays null.
const llvm::DIType *stripTypedefsAndQualifiers(const llvm::DIType *T);

/// The type as a C programmer would write it: "unsigned long", "node *",
/// "const char *", "struct list", "int [16]".  "void" for null.
std::string typeName(const llvm::DIType *T);

} // namespace vprof

#endif // VPROF_DEBUGINFOUTILS_H
