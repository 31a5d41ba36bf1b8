// The object file carries one .vprof.schema blob: an allocated, 8-aligned,
// SHF_GNU_RETAIN section starting with the magic "VPSC", whose entries are
// exactly what -vprof-print-schema printed.  The linked binary keeps it,
// even under --gc-sections, and the output is deterministic.
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-schema 2> %t.print.txt
// RUN: llvm-readobj --sections %t.o | FileCheck %s --check-prefix=SECTION
// SECTION:      Name: .vprof.schema
// SECTION-NEXT: Type: SHT_PROGBITS
// SECTION-NEXT: Flags [
// SECTION-NEXT:   SHF_ALLOC
// SECTION-NEXT:   SHF_GNU_RETAIN
// SECTION-NEXT: ]
// SECTION:      AddressAlignment: 8
//
// Header: magic VPSC, version 1, header_size 32.
// RUN: llvm-objdump -s -j .vprof.schema %t.o | FileCheck %s --check-prefix=MAGIC
// MAGIC: Contents of section .vprof.schema:
// MAGIC-NEXT: 0000 56505343 02002800
//
// The blob holds what the pass printed, nothing more.
// RUN: %schema-dump %t.o > %t.dump.txt
// RUN: FileCheck %s --check-prefix=BLOB --input-file=%t.dump.txt
// BLOB: vprof-schema-blob: entries=5 comp_dir=/
// RUN: grep -v '^vprof-schema-blob:' %t.dump.txt | diff %t.print.txt -
//
// Linked with --gc-sections, the section survives.
// RUN: %vprof-cc -O2 -ffunction-sections -fdata-sections -Wl,--gc-sections %t.o -o %t.exe
// RUN: %schema-dump %t.exe | FileCheck %s --check-prefix=BLOB
// RUN: %t.exe 5
//
// Same input, same bytes.
// RUN: %vprof-cc -O2 -c %s -o %t.again.o
// RUN: llvm-objcopy --dump-section=.vprof.schema=%t.a.bin %t.o
// RUN: llvm-objcopy --dump-section=.vprof.schema=%t.b.bin %t.again.o
// RUN: cmp %t.a.bin %t.b.bin

int limit = 1;

static int digits(const char *s) {
  int n = 0;
  while (*s >= '0' && *s <= '9')
    n = n * 10 + (*s++ - '0');
  return n;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? digits(argv[1]) : 0;
  return n > limit ? 0 : 1;
}
