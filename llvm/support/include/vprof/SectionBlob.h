//===- SectionBlob.h - building the per-TU blobs of vprof's ELF sections -===//
//
// The schema (.vprof.schema), loop table (.vprof.loops) and redundancy table
// (.vprof.redund) are each one self-describing blob per translation unit
// (vprof/format.h): a header, fixed-size records, then a string table whose
// offset 0 is "".  This header holds the pieces they share: the string table,
// raw record appending, and emitting the blob into its section so that the
// linker keeps it (also under --gc-sections).
//
//===----------------------------------------------------------------------===//
#ifndef VPROF_SECTIONBLOB_H
#define VPROF_SECTIONBLOB_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace llvm {
class GlobalVariable;
class Module;
} // namespace llvm

namespace vprof {

/// A blob's string table: "\0" first (offset 0 is the empty string), each
/// distinct string stored once.
class BlobStringTable {
public:
  /// The offset of \p S, adding it on first use.  Can't fail.
  uint32_t add(llvm::StringRef S);
  const std::string &data() const { return Data; }

private:
  std::string Data{'\0'};
  llvm::StringMap<uint32_t> Offsets;
};

/// Appends the bytes of \p V (a format.h record, host = little-endian layout).
template <typename T> void appendRecord(std::string &Blob, const T &V) {
  Blob.append(reinterpret_cast<const char *>(&V), sizeof(V));
}

/// Emits \p Blob as a private, 8-aligned constant named \p GlobalName in ELF
/// section \p Section, listed in llvm.used so the ELF backend marks the
/// section SHF_GNU_RETAIN and `ld --gc-sections` keeps it.
llvm::GlobalVariable *emitSectionBlob(llvm::Module &M, llvm::StringRef Blob,
                                      llvm::StringRef GlobalName,
                                      llvm::StringRef Section);

} // namespace vprof

#endif // VPROF_SECTIONBLOB_H
