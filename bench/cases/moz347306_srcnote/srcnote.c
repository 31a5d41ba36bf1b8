/*
 * moz347306_srcnote -- a slice of a small JavaScript engine: bytecode
 * interpreter, source notes, and Error().stack capture.
 *
 * Modelled on Mozilla bug 347306 (LDoctor Table 3 / Figure 2): js_GetSrcNote
 * searches a script's source-note array linearly for the note of a given pc.
 * Long scripts make each search walk tens of thousands of notes; the fix was
 * to replace the array walk with a hash table (change the data structure).
 *
 * Workload: a program made of many functions (one script each) calls deep
 * into itself; every few thousand bytecodes an exception object is created and
 * its stack is captured, which maps each frame's pc to a line number through
 * js_PCToLineNumber -> js_GetSrcNote.  Frames belong to different scripts, so
 * consecutive searches walk different note arrays.
 *
 * usage: moz347306_srcnote NFUNCS OPS_PER_FUNC NCAPTURES SEED
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

typedef uint8_t jsbytecode;

/* Source note: [delta:8][type:8][operand:16]; type 0 = terminator. */
typedef struct jssrcnote { uint8_t delta; uint8_t type; uint16_t operand; } jssrcnote;

enum { SRC_NULL = 0, SRC_NEWLINE = 1, SRC_SETLINE = 2, SRC_PCBASE = 3, SRC_COLSPAN = 4, SRC_XDELTA = 5 };

#define SN_IS_TERMINATOR(sn) ((sn)->type == SRC_NULL)
#define SN_NEXT(sn)          ((sn) + 1)
#define SN_DELTA(sn)         ((ptrdiff_t)(sn)->delta)
#define SN_IS_GETTABLE(sn)   ((sn)->type != SRC_XDELTA)
#define SCRIPT_NOTES(script) ((script)->notes)

enum { OP_NOP, OP_PUSH, OP_ADD, OP_MUL, OP_XOR, OP_DUP, OP_POP, OP_LOAD, OP_STORE, OP_JMPNZ, OP_THROWCHK, OP_LAST };

typedef struct JSScript {
    jsbytecode *code;
    size_t      length;
    jssrcnote  *notes;
    size_t      nnotes;
    unsigned    lineno;
    unsigned    id;
} JSScript;

typedef struct JSStackFrame {
    JSScript            *script;
    jsbytecode          *pc;
    struct JSStackFrame *down;
} JSStackFrame;

typedef struct JSContext {
    JSStackFrame *fp;
    int64_t       stack[64];
    int64_t       slots[256];
    uint64_t      exceptions;
    uint64_t      stack_hash;
} JSContext;

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

/* ---- compiler side: emit bytecode and notes -------------------------- */
static JSScript *compile_function(unsigned id, size_t nops)
{
    JSScript *s = calloc(1, sizeof *s);
    s->id = id;
    s->lineno = 1 + id * 10;
    s->code = malloc(nops + 1);
    s->notes = malloc((nops + 2) * sizeof(jssrcnote));
    size_t nn = 0, lastnote = 0;
    for (size_t i = 0; i < nops; i++) {
        uint32_t r = rnd();
        jsbytecode op = (jsbytecode)(OP_PUSH + r % (OP_LAST - OP_PUSH));
        s->code[i] = op;
        /* roughly every other op starts a new statement -> gets a note */
        if ((r >> 8) % 2 == 0 && i - lastnote < 255) {
            jssrcnote *sn = &s->notes[nn++];
            sn->delta = (uint8_t)(i - lastnote);
            sn->type = (uint8_t)(SRC_NEWLINE + (r >> 12) % 5);
            sn->operand = (uint16_t)(r >> 16);
            lastnote = i;
        }
    }
    s->code[nops] = OP_NOP;
    s->notes[nn].delta = 0; s->notes[nn].type = SRC_NULL; s->notes[nn].operand = 0;
    s->nnotes = nn;
    s->length = nops;
    return s;
}

/* ---- jsscript.c ------------------------------------------------------ */
NOINLINE jssrcnote *js_GetSrcNote(JSScript *script, jsbytecode *pc)
{
    jssrcnote *sn;
    ptrdiff_t offset, target;

    target = pc - script->code;
    if ((size_t)target >= script->length)
        return NULL;
    offset = 0;
    for (sn = SCRIPT_NOTES(script); !SN_IS_TERMINATOR(sn); sn = SN_NEXT(sn)) { /* ROOT-CAUSE LOOP */
        offset += SN_DELTA(sn);
        if (offset == target && SN_IS_GETTABLE(sn))
            return sn;
    }
    return NULL;
}

NOINLINE unsigned js_PCToLineNumber(JSScript *script, jsbytecode *pc)
{
    jssrcnote *sn = js_GetSrcNote(script, pc);
    if (!sn)
        return script->lineno;
    if (sn->type == SRC_SETLINE)
        return sn->operand;
    return script->lineno + (unsigned)(sn->operand & 0xff);
}

/* ---- jsexn.c: capture the stack of a new exception ------------------- */
NOINLINE uint64_t js_CaptureStack(JSContext *cx)
{
    uint64_t h = 1469598103934665603ull;
    for (JSStackFrame *fp = cx->fp; fp; fp = fp->down) {
        unsigned line = js_PCToLineNumber(fp->script, fp->pc);
        h = (h ^ (fp->script->id * 131u + line)) * 1099511628211ull;
    }
    return h;
}

/* ---- jsinterp.c: a little stack machine ------------------------------ */
NOINLINE int64_t js_Interpret(JSContext *cx, JSScript *script, size_t budget, int capture)
{
    int64_t *sp = cx->stack + 4;
    int64_t acc = 0;
    jsbytecode *pc = script->code, *end = script->code + script->length;
    while (budget--) { /* HOT LOOP */
        if (pc >= end)
            pc = script->code;
        switch (*pc) {
        case OP_PUSH:  *++sp = (int64_t)(pc - script->code); break;
        case OP_ADD:   sp[-1] += sp[0]; sp--; break;
        case OP_MUL:   sp[-1] = sp[-1] * (sp[0] | 1); sp--; break;
        case OP_XOR:   sp[-1] ^= sp[0] >> 3; sp--; break;
        case OP_DUP:   sp[1] = sp[0]; sp++; break;
        case OP_POP:   acc += *sp--; break;
        case OP_LOAD:  *++sp = cx->slots[(pc - script->code) & 255]; break;
        case OP_STORE: cx->slots[(pc - script->code) & 255] = *sp--; break;
        case OP_JMPNZ: if (*sp & 1) { pc += 2; continue; } break;
        case OP_THROWCHK:
            if (capture && ((acc ^ (int64_t)(pc - script->code)) & 63) == 0) {
                cx->fp->pc = pc;
                cx->exceptions++;
                cx->stack_hash ^= js_CaptureStack(cx);
            }
            break;
        default: break;
        }
        if (sp < cx->stack + 4) sp = cx->stack + 4;
        if (sp > cx->stack + 60) { acc += *sp; sp = cx->stack + 30; }
        pc++;
    }
    return acc;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NFUNCS OPS_PER_FUNC NCAPTURE_ROUNDS SEED\n", argv[0]);
        return 2;
    }
    unsigned nfuncs = (unsigned)atoi(argv[1]);
    size_t nops = (size_t)atol(argv[2]);
    unsigned rounds = (unsigned)atoi(argv[3]);
    rng_state = 0x9e3779b97f4a7c15ull ^ (uint64_t)atoll(argv[4]);

    JSScript **scripts = malloc(nfuncs * sizeof *scripts);
    for (unsigned i = 0; i < nfuncs; i++)
        scripts[i] = compile_function(i, nops);

    JSContext *cx = calloc(1, sizeof *cx);
    JSStackFrame *frames = calloc(nfuncs, sizeof *frames);
    int64_t total = 0;
    for (unsigned r = 0; r < rounds; r++) {
        /* call chain f0 -> f1 -> ... ; each frame suspended at some pc */
        cx->fp = NULL;
        for (unsigned i = 0; i < nfuncs; i++) {
            JSScript *s = scripts[(i + r) % nfuncs];
            frames[i].script = s;
            frames[i].pc = s->code + rnd() % s->length;
            frames[i].down = cx->fp;
            cx->fp = &frames[i];
        }
        /* the innermost function does the real work and throws now and then */
        total += js_Interpret(cx, cx->fp->script, 400000, 1);
        /* plain computation that throws nothing (unrelated hot code) */
        total += js_Interpret(cx, scripts[r % nfuncs], 1600000, 0);
    }
    printf("exceptions=%llu stackhash=%016llx result=%lld\n",
           (unsigned long long)cx->exceptions, (unsigned long long)cx->stack_hash, (long long)total);
    return 0;
}
