//===- DebugInfoUtils.cpp - Debug-info helpers shared by vprof passes -----===//
//
// Maps IR back to source: which file (absolute, normalised, so schema
// entries from different build directories compare equal), which source
// variable a Value is, and how its type is spelled.  Every vprof pass that
// reports source entities goes through these helpers so they all agree.
//
//===----------------------------------------------------------------------===//

#include "vprof/DebugInfoUtils.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace vprof {

std::string normalisePath(StringRef Path, StringRef Base) {
  SmallString<256> Result;
  if (sys::path::is_absolute(Path)) {
    Result = Path;
  } else {
    Result = Base;
    sys::path::append(Result, Path);
    // A relative base (or none) is relative to the compiler's cwd, which is
    // where clang resolved it too.
    sys::fs::make_absolute(Result);
  }
  sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  return std::string(Result.str());
}

std::string absoluteFilePath(const DIFile *File) {
  if (!File || File->getFilename().empty())
    return "";
  return normalisePath(File->getFilename(), File->getDirectory());
}

std::string absoluteFilePath(const DIScope *Scope) {
  return Scope ? absoluteFilePath(Scope->getFile()) : std::string();
}

std::string absoluteFilePath(const DILocation *Loc) {
  return Loc ? absoluteFilePath(Loc->getFile()) : std::string();
}

bool pathHasPrefix(StringRef Path, StringRef Prefix) {
  while (Prefix.size() > 1 && Prefix.endswith("/"))
    Prefix = Prefix.drop_back();
  if (Prefix == "/")
    return Path.startswith("/");
  if (!Path.startswith(Prefix))
    return false;
  // Only whole components: the prefix must end at a separator.
  return Path.size() == Prefix.size() || Path[Prefix.size()] == '/';
}

/// The block where \p V gets its value: an instruction's parent, the entry
/// block for an argument; null for constants.
static const BasicBlock *definingBlock(const Value *V) {
  if (const auto *I = dyn_cast<Instruction>(V))
    return I->getParent();
  if (const auto *A = dyn_cast<Argument>(V))
    return &A->getParent()->getEntryBlock();
  return nullptr;
}

bool findVariablesOf(const Value *V, SmallVectorImpl<DIVariable *> &Out) {
  if (!V)
    return false;
  size_t Before = Out.size();
  Value *MutV = const_cast<Value *>(V);

  if (const auto *GV = dyn_cast<GlobalVariable>(V)) {
    SmallVector<DIGlobalVariableExpression *, 1> GVEs;
    GV->getDebugInfo(GVEs);
    for (DIGlobalVariableExpression *GVE : GVEs)
      if (DIGlobalVariable *Var = GVE->getVariable())
        Out.push_back(Var);
    return Out.size() != Before;
  }

  // Storage described by dbg.declare / dbg.addr (allocas before mem2reg).
  if (V->isUsedByMetadata()) {
    for (DbgVariableIntrinsic *DVI : FindDbgAddrUses(MutV))
      Out.push_back(DVI->getVariable());
    if (Out.size() != Before)
      return true;
    // An SSA value described by dbg.value.  After `found = i;` the value of
    // i is also a value of found: prefer the variables described where the
    // value is defined, which name what the value was computed as.
    SmallVector<DbgValueInst *, 2> Values;
    findDbgValues(Values, MutV);
    const BasicBlock *Home = definingBlock(V);
    for (bool AtHome : {true, false}) {
      for (DbgValueInst *DVI : Values)
        // Only the value itself, not a fragment or an expression of it.
        if (DVI->getExpression()->getNumElements() == 0 &&
            (!AtHome || DVI->getParent() == Home) &&
            !is_contained(Out, DVI->getVariable()))
          Out.push_back(DVI->getVariable());
      if (Out.size() != Before)
        break;
    }
  }
  return Out.size() != Before;
}

DIVariable *findVariableOf(const Value *V) {
  SmallVector<DIVariable *, 2> Vars;
  return findVariablesOf(V, Vars) ? Vars.front() : nullptr;
}

const DIType *stripTypedefsAndQualifiers(const DIType *T) {
  while (const auto *DT = dyn_cast_or_null<DIDerivedType>(T)) {
    switch (DT->getTag()) {
    case dwarf::DW_TAG_typedef:
    case dwarf::DW_TAG_const_type:
    case dwarf::DW_TAG_volatile_type:
    case dwarf::DW_TAG_restrict_type:
    case dwarf::DW_TAG_atomic_type:
      T = DT->getBaseType();
      continue;
    default:
      return T;
    }
  }
  return T;
}

static std::string typeNameImpl(const DIType *T, unsigned Depth);

/// "ret (p1, p2)" for a subroutine type; \p Declarator ("(*)") goes between.
static std::string subroutineName(const DISubroutineType *ST,
                                  StringRef Declarator, unsigned Depth) {
  DITypeRefArray Types = ST->getTypeArray();
  std::string S =
      typeNameImpl(Types.size() ? Types[0] : nullptr, Depth + 1) + " ";
  S += Declarator.str() + "(";
  for (unsigned I = 1; I < Types.size(); ++I) {
    if (I > 1)
      S += ", ";
    // A null type after the return type means "...".
    S += Types[I] ? typeNameImpl(Types[I], Depth + 1) : "...";
  }
  return S + ")";
}

/// Appends a declarator suffix (" *", " &") without doubling the space.
static std::string withSuffix(std::string Base, StringRef Suffix) {
  if (!Base.empty() && (Base.back() == '*' || Base.back() == '&'))
    return Base + Suffix.ltrim().str();
  return Base + Suffix.str();
}

static std::string derivedName(const DIDerivedType *DT, unsigned Depth) {
  const DIType *Base = DT->getBaseType();
  switch (DT->getTag()) {
  case dwarf::DW_TAG_typedef:
    return DT->getName().empty() ? typeNameImpl(Base, Depth + 1)
                                 : DT->getName().str();
  case dwarf::DW_TAG_pointer_type:
    if (const auto *ST = dyn_cast_or_null<DISubroutineType>(Base))
      return subroutineName(ST, "(*)", Depth);
    return withSuffix(typeNameImpl(Base, Depth + 1), " *");
  case dwarf::DW_TAG_reference_type:
    return withSuffix(typeNameImpl(Base, Depth + 1), " &");
  case dwarf::DW_TAG_rvalue_reference_type:
    return withSuffix(typeNameImpl(Base, Depth + 1), " &&");
  case dwarf::DW_TAG_const_type:
  case dwarf::DW_TAG_volatile_type:
  case dwarf::DW_TAG_restrict_type: {
    StringRef Q = DT->getTag() == dwarf::DW_TAG_const_type      ? "const"
                  : DT->getTag() == dwarf::DW_TAG_volatile_type ? "volatile"
                                                                : "restrict";
    std::string Inner = typeNameImpl(Base, Depth + 1);
    // A qualified pointer is written after the star: "char *const".
    if (!Inner.empty() && Inner.back() == '*')
      return Inner + Q.str();
    return Q.str() + " " + Inner;
  }
  case dwarf::DW_TAG_atomic_type:
    return "_Atomic " + typeNameImpl(Base, Depth + 1);
  case dwarf::DW_TAG_ptr_to_member_type:
    return withSuffix(typeNameImpl(Base, Depth + 1), " ::*");
  default:
    return DT->getName().empty() ? typeNameImpl(Base, Depth + 1)
                                 : DT->getName().str();
  }
}

/// "ns::Outer::" for a type declared in namespace ns, class Outer; "" at
/// file scope.
static std::string scopePrefix(const DIScope *Scope) {
  std::string Prefix;
  for (unsigned Depth = 0; Scope && Depth < 32; ++Depth) {
    StringRef Name;
    if (const auto *NS = dyn_cast<DINamespace>(Scope))
      Name = NS->getName().empty() ? "(anonymous namespace)" : NS->getName();
    else if (const auto *Outer = dyn_cast<DICompositeType>(Scope))
      Name = Outer->getName();
    else
      break;
    Prefix = Name.str() + "::" + Prefix;
    Scope = Scope->getScope();
  }
  return Prefix;
}

static std::string compositeName(const DICompositeType *CT, unsigned Depth) {
  if (CT->getTag() == dwarf::DW_TAG_array_type) {
    std::string S = withSuffix(typeNameImpl(CT->getBaseType(), Depth + 1), " ");
    for (const DINode *Elem : CT->getElements()) {
      const auto *SR = dyn_cast_or_null<DISubrange>(Elem);
      auto *Count = SR ? SR->getCount().dyn_cast<ConstantInt *>() : nullptr;
      S += Count && !Count->isNegative()
               ? "[" + std::to_string(Count->getSExtValue()) + "]"
               : std::string("[]");
    }
    return S;
  }
  StringRef Keyword;
  switch (CT->getTag()) {
  case dwarf::DW_TAG_structure_type:
    Keyword = "struct";
    break;
  case dwarf::DW_TAG_union_type:
    Keyword = "union";
    break;
  case dwarf::DW_TAG_enumeration_type:
    Keyword = "enum";
    break;
  case dwarf::DW_TAG_class_type:
    Keyword = "class";
    break;
  default:
    break;
  }
  if (CT->getName().empty())
    return (Keyword.empty() ? "<anonymous>" : Keyword + " <anonymous>").str();
  // C++ records carry an ODR identifier and are written without the keyword
  // but with their namespaces and enclosing classes.
  if (Keyword.empty() || !CT->getIdentifier().empty() ||
      CT->getTag() == dwarf::DW_TAG_class_type)
    return scopePrefix(CT->getScope()) + CT->getName().str();
  return (Keyword + " " + CT->getName()).str();
}

static std::string typeNameImpl(const DIType *T, unsigned Depth) {
  if (!T)
    return "void";
  if (Depth > 32) // Guards against malformed cyclic metadata.
    return "...";
  if (const auto *DT = dyn_cast<DIDerivedType>(T))
    return derivedName(DT, Depth);
  if (const auto *CT = dyn_cast<DICompositeType>(T))
    return compositeName(CT, Depth);
  if (const auto *ST = dyn_cast<DISubroutineType>(T))
    return subroutineName(ST, "", Depth);
  return T->getName().str();
}

std::string typeName(const DIType *T) { return typeNameImpl(T, 0); }

} // namespace vprof
