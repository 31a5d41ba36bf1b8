// type_kind, size and pointee_size come from the DIType with typedefs and
// qualifiers stripped; `type` is the type as written.
// RUN: %vprof-cc -O1 -c %s -o %t.o -mllvm -vprof-print-schema 2> %t.txt
// RUN: FileCheck %s --input-file=%t.txt
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t.txt
// Constant globals (g_count, g_cptr) are left out: they never change.

#include <stdbool.h>

typedef unsigned long counter_t;
typedef int *int_ptr;
enum color { RED, GREEN };
struct rec { int a; };

signed char g_sc;
// CHECK-DAG: var=g_sc line=[[@LINE-1]] tags=global kind=sint size=1 pointee=0 arg=0 type="signed char"
unsigned short g_us;
// CHECK-DAG: var=g_us line=[[@LINE-1]] tags=global kind=uint size=2 pointee=0 arg=0 type="unsigned short"
bool g_flag;
// CHECK-DAG: var=g_flag line=[[@LINE-1]] tags=global kind=uint size=1 pointee=0 arg=0 type="_Bool"
float g_f;
// CHECK-DAG: var=g_f line=[[@LINE-1]] tags=global kind=float size=4 pointee=0 arg=0 type="float"
volatile double g_d;
// CHECK-DAG: var=g_d line=[[@LINE-1]] tags=global kind=float size=8 pointee=0 arg=0 type="volatile double"
enum color g_color;
// CHECK-DAG: var=g_color line=[[@LINE-1]] tags=global kind=sint size=4 pointee=0 arg=0 type="enum color"
const counter_t g_count = 1;
// NEG-NOT: var=g_count
int_ptr g_ip;
// CHECK-DAG: var=g_ip line=[[@LINE-1]] tags=global kind=ptr_basic size=8 pointee=4 arg=0 type="int_ptr"
const counter_t *g_cp;
// CHECK-DAG: var=g_cp line=[[@LINE-1]] tags=global kind=ptr_basic size=8 pointee=8 arg=0 type="const counter_t *"
void *g_vp;
// CHECK-DAG: var=g_vp line=[[@LINE-1]] tags=global kind=ptr_other size=8 pointee=0 arg=0 type="void *"
char **g_pp;
// CHECK-DAG: var=g_pp line=[[@LINE-1]] tags=global kind=ptr_other size=8 pointee=0 arg=0 type="char **"
char *const g_cptr = 0;
// NEG-NOT: var=g_cptr
struct rec g_rec;
// CHECK-DAG: var=g_rec line=[[@LINE-1]] tags=global kind=aggregate size=4 pointee=0 arg=0 type="struct rec"
struct rec g_recs[3][2];
// CHECK-DAG: var=g_recs line=[[@LINE-1]] tags=global kind=aggregate size=24 pointee=0 arg=0 type="struct rec [3][2]"
union { int i; float f; } g_u;
// CHECK-DAG: var=g_u line=[[@LINE-1]] tags=global kind=aggregate size=4 pointee=0 arg=0 type="union <anonymous>"

// Keep every global alive (clang drops unused internal ones, not these).
void *keep[] = {&g_sc, &g_us, &g_flag, &g_f, (void *)&g_d, &g_color, (void *)&g_count,
                &g_ip, &g_cp, &g_vp, &g_pp, (void *)&g_cptr, &g_rec, &g_recs, &g_u};
