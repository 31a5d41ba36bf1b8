// Every global defined in the TU is in the schema with tag `global`,
// function-static variables too (under their function); extern-only
// declarations are described by the TU that defines them, and this TU adds
// a use record (its users and the tags its uses earn) for each one it uses.
// A constant (`table`) never changes: it is left out (its only anomaly
// would be how long a run lasts).
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-schema 2> %t0.txt
// RUN: FileCheck %s --input-file=%t0.txt
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t0.txt
// The schema is taken before optimization: the same at every -O level.
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-schema 2> %t2.txt
// RUN: diff %t0.txt %t2.txt

extern int declared_elsewhere;
extern int cond_elsewhere;
extern int never_used;
int counter;
static long hits = 3;
const int table[4] = {1, 2, 3, 4};
struct config { int level; char *name; } cfg;
double *cursor;

// CHECK-DAG: fn=#global var=counter line=[[@LINE-6]] tags=cond,global kind=sint size=4 pointee=0 arg=0 type="int" file={{/.*}}/schema/globals.c{{$}}
// CHECK-DAG: fn=#global var=hits line=[[@LINE-6]] tags=global kind=sint size=8 pointee=0 arg=0 type="long"
// NEG-NOT: var=table
// CHECK-DAG: fn=#global var=cfg line=[[@LINE-6]] tags=cond,global kind=aggregate size=16 pointee=0 arg=0 type="struct config"
// CHECK-DAG: fn=#global var=cursor line=[[@LINE-6]] tags=global kind=ptr_basic size=8 pointee=8 arg=0 type="double *"
// NEG-NOT: vprof-schema: {{.*}}var=declared_elsewhere
// NEG-NOT: var=never_used
// The functions using each global, also through constant GEPs (cfg.level).
// CHECK-DAG: vprof-schema-users: var=counter users=bump{{$}}
// CHECK-DAG: vprof-schema-users: var=cfg users=bump,other{{$}}
// CHECK-DAG: vprof-schema-use: var=declared_elsewhere tags=global users=bump{{$}}
// CHECK-DAG: vprof-schema-use: var=cond_elsewhere tags=cond,global users=other{{$}}
// NEG-NOT: vprof-schema-users: var=hits users={{.*}}other

void consume(const int *t);

long bump(void) {
  static unsigned calls;
  // CHECK-DAG: fn=bump var=calls line=[[@LINE-1]] tags=global kind=uint size=4
  calls++;
  if (counter > 2 && cfg.level)
    hits += declared_elsewhere;
  consume(table);
  *cursor += 1.0;
  return hits + calls;
}

int other(void) {
  if (cond_elsewhere)
    return *(&cfg.level + 1);
  {
    static int nested_static = 7;
    // CHECK-DAG: fn=other var=nested_static line=[[@LINE-1]] tags=global
    return nested_static++;
  }
}
