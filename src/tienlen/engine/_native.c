/* tienlen.engine._native: the move generator of `tienlen.engine.movegen.Tables` in C.
 *
 * A `MoveGen` is made from a `Tables`' own data (`tienlen.engine.native.generator`):
 * the sub-multisets of a rank (`movegen.SUBSETS`) as bytes, the families and the lead
 * families as tuples of ints, the bomb table as (key, codes) pairs. It knows no rule
 * set: every variant is compiled in Python once, and this file only walks its tables.
 * Its methods answer what `Tables.plays`, `Tables.bombs`, the sets of `Tables.leads`
 * and `Leads.listed` / `Leads.keyed` answer, same masks, same order (the pure Python
 * is the reference; `tests/engine/test_native.py` plays both in lockstep).
 *
 * Masks: a hand is two 52-bit halves, `lo` (cards present) and `hi` (second copies,
 * two decks), the Python int `lo | hi << 52`. Rank r is nibble r of each half; its
 * state is `lo_nibble | hi_nibble << 4`; a piece (some cards of one rank) is a byte in
 * the same layout.
 *
 * Every entry point checks its arguments (types, ranges, sizes): bad input is a
 * TypeError or ValueError, never a crash.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

enum {
    RANKS = 13,
    CARDS = 52,
    MOST = 8,           /* cards of one rank, two decks */
    STATES = 256,
    KINDS = 16,         /* kind codes are below 16 (`shapes.KEYS`) */
    KEYS = 1 << 16,
    MAX_LEADS = 64,     /* lead families (a family split by leading lengths) */
    SINGLE_CODE = 1 << 6 | 1,
    MOST_PIECES = 81,   /* sub-multisets of one full two-deck rank: 3 ** 4 */
};

#define LOW (((u64)1 << CARDS) - 1)

typedef struct {
    int kind, per_rank, sequence, min_length, max_length, max_rank;
} Family;

typedef struct {
    PyObject_HEAD
    uint16_t offset[MOST + 1][STATES]; /* into `pieces`: SUBSETS[.][state][k] */
    uint8_t count[MOST + 1][STATES];
    uint8_t *pieces;
    Family families[KINDS];
    int8_t by_kind[KINDS]; /* index in `families`, or -1 */
    Family leads[MAX_LEADS];
    int n_leads;
    int all_sets;
    u64 single_cards;
    Py_ssize_t limit;      /* `movegen.MAX_LISTED_PLAYS` */
    PyObject *error;       /* `TienLenError`: raised when a listing passes the limit */
    int n_bombed;
    uint32_t *bomb_keys;   /* sorted keys that other shapes beat */
    uint32_t *bomb_first;  /* n_bombed + 1 offsets into bomb_codes */
    uint16_t *bomb_codes;
} MoveGen;

/* ---- masks ---------------------------------------------------------------- */

typedef struct {
    u64 lo, hi;
} Mask;

typedef struct {
    Mask *at;
    Py_ssize_t n, cap;
} Buf;

static int hib(u64 x) { return 63 - __builtin_clzll(x); }

static int buf_reserve(Buf *b, Py_ssize_t more) {
    if (b->n + more <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? b->cap : 64;
    while (cap < b->n + more) cap *= 2;
    Mask *at = PyMem_Realloc(b->at, (size_t)cap * sizeof(Mask));
    if (!at) {
        PyErr_NoMemory();
        return -1;
    }
    b->at = at;
    b->cap = cap;
    return 0;
}

static int buf_push(Buf *b, u64 lo, u64 hi) {
    if (b->n == b->cap && buf_reserve(b, 1)) return -1;
    b->at[b->n].lo = lo;
    b->at[b->n].hi = hi;
    b->n++;
    return 0;
}

static void buf_free(Buf *b) {
    PyMem_Free(b->at);
    b->at = NULL;
    b->n = b->cap = 0;
}

static PyObject *mask_to_int(u64 lo, u64 hi) {
    if (!(hi >> 12)) return PyLong_FromUnsignedLongLong(lo | hi << CARDS);
    PyObject *high = PyLong_FromUnsignedLongLong(hi);
    if (!high) return NULL;
    PyObject *shift = PyLong_FromLong(CARDS);
    if (!shift) {
        Py_DECREF(high);
        return NULL;
    }
    PyObject *shifted = PyNumber_Lshift(high, shift);
    Py_DECREF(high);
    Py_DECREF(shift);
    if (!shifted) return NULL;
    PyObject *low = PyLong_FromUnsignedLongLong(lo);
    if (!low) {
        Py_DECREF(shifted);
        return NULL;
    }
    PyObject *out = PyNumber_Or(shifted, low);
    Py_DECREF(shifted);
    Py_DECREF(low);
    return out;
}

/* Append the masks of `b` from `first` on to the list `out`. */
static int extend_list(PyObject *out, const Buf *b, Py_ssize_t first) {
    for (Py_ssize_t i = first; i < b->n; i++) {
        PyObject *v = mask_to_int(b->at[i].lo, b->at[i].hi);
        if (!v) return -1;
        int failed = PyList_Append(out, v);
        Py_DECREF(v);
        if (failed) return -1;
    }
    return 0;
}

static PyObject *list_of(const Buf *b) {
    PyObject *out = PyList_New(b->n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < b->n; i++) {
        PyObject *v = mask_to_int(b->at[i].lo, b->at[i].hi);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* A hand or a play from Python: an int, 0 <= value < 2 ** 104, hi within lo not required. */
static int read_mask(PyObject *value, const char *what, u64 *lo, u64 *hi) {
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (small == -1 && PyErr_Occurred()) return -1;
    if (!overflow) {
        if (small < 0) goto range;
        *lo = (u64)small & LOW;
        *hi = (u64)small >> CARDS;
        return 0;
    }
    if (overflow < 0) goto range;
    if (_PyLong_NumBits(value) > 2 * CARDS) goto range;
    *lo = PyLong_AsUnsignedLongLongMask(value) & LOW;
    PyObject *shift = PyLong_FromLong(CARDS);
    if (!shift) return -1;
    PyObject *high = PyNumber_Rshift(value, shift);
    Py_DECREF(shift);
    if (!high) return -1;
    *hi = PyLong_AsUnsignedLongLongMask(high);
    Py_DECREF(high);
    if (*hi == (u64)-1 && PyErr_Occurred()) return -1;
    return 0;
range:
    PyErr_Format(PyExc_ValueError, "%s must be a card mask (0 <= %s < 2**104)", what, what);
    return -1;
}

static int read_small(PyObject *value, const char *what, long lowest, long highest,
                      long *out) {
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lowest || v > highest) {
        PyErr_Format(PyExc_ValueError, "%s must be from %ld to %ld", what, lowest, highest);
        return -1;
    }
    *out = v;
    return 0;
}

static int state_of(u64 lo, u64 hi, int rank) {
    return (int)(lo >> 4 * rank & 15) | (int)(hi >> 4 * rank & 15) << 4;
}

static void rank_counts(u64 lo, u64 hi, int counts[RANKS]) {
    for (int r = 0; r < RANKS; r++)
        counts[r] = __builtin_popcount((unsigned)(lo >> 4 * r & 15)) +
                    __builtin_popcount((unsigned)(hi >> 4 * r & 15));
}

/* Bit r for each rank up to the family's top rank holding at least per_rank cards. */
static unsigned available(const int counts[RANKS], const Family *f) {
    unsigned avail = 0;
    for (int r = 0; r <= f->max_rank; r++)
        if (counts[r] >= f->per_rank) avail |= 1u << r;
    return avail;
}

static Mask piece_at(uint8_t piece, int rank) {
    Mask m = {(u64)(piece & 15) << 4 * rank, (u64)(piece >> 4) << 4 * rank};
    return m;
}

static int too_many(MoveGen *g, u64 count) {
    PyErr_Format(g->error,
                 "%llu plays are too many to list (at most %zd); len() and 'in' still answer",
                 (unsigned long long)count, g->limit);
    return -1;
}

static u64 saturating_add(u64 a, u64 b) { return a + b < a ? UINT64_MAX : a + b; }

static u64 saturating_mul(u64 a, u64 b) {
    if (a && b > UINT64_MAX / a) return UINT64_MAX;
    return a * b;
}

/* ---- sets and runs above a top (`movegen._sets`, `_higher_sets`, `_runs`) ------- */

/* Every k-of-a-kind of the ranks in `avail`, rank by rank, top card above `above` (-1:
   any). `own_rank`: the top's own rank is read whatever `avail` says (`_higher_sets`). */
static int sets(MoveGen *g, Buf *out, u64 lo, u64 hi, unsigned avail, int k, int above,
                int own_rank) {
    int from = above >= 0 ? above >> 2 : 0;
    if (from >= RANKS) return 0;
    if (above >= 0) {
        avail &= ~((1u << from) - 1);
        if (own_rank) avail |= 1u << from;
    }
    while (avail) {
        int rank = __builtin_ctz(avail);
        avail &= avail - 1;
        if (rank >= RANKS) break;
        int state = state_of(lo, hi, rank);
        const uint8_t *p = g->pieces + g->offset[k][state];
        int n = g->count[k][state];
        if (buf_reserve(out, n)) return -1;
        for (int i = 0; i < n; i++) {
            Mask m = piece_at(p[i], rank);
            if (above >= 0 && rank == from && hib(m.lo) <= above) continue;
            out->at[out->n++] = m;
        }
    }
    return 0;
}

/* Every run of exactly `length` ranks of `avail`, k cards each, top card above `above`;
   by first rank, the top rank's piece varying slowest (`movegen._runs`). */
static int runs(MoveGen *g, Buf *out, u64 lo, u64 hi, unsigned avail, int k, int length,
                int above) {
    if (length < 1 || length > RANKS) return 0;
    unsigned starts = avail;
    for (int i = 1; i < length; i++) {
        starts &= avail >> i;
        if (!starts) return 0;
    }
    int lowest = above >= 0 ? (above >> 2) - length + 1 : 0;
    if (lowest >= RANKS) return 0;
    if (lowest > 0) starts &= ~((1u << lowest) - 1);
    int counted = __builtin_popcountll(lo) + __builtin_popcountll(hi) >= 19;
    while (starts) {
        int start = __builtin_ctz(starts);
        starts &= starts - 1;
        int end = start + length - 1;
        if (end >= RANKS) break;
        if (counted) {
            u64 count = 1;
            for (int r = start; r <= end; r++)
                count = saturating_mul(count, g->count[k][state_of(lo, hi, r)]);
            u64 total = saturating_add((u64)out->n, count);
            if (total > (u64)g->limit) return too_many(g, total);
        }
        /* position j is rank end - j: j = 0 (the top rank) varies slowest */
        uint8_t tops[MOST_PIECES];
        const uint8_t *choice[RANKS];
        int n[RANKS], at[RANKS];
        Mask prefix[RANKS];
        int state = state_of(lo, hi, end);
        int n_tops = 0;
        const uint8_t *p = g->pieces + g->offset[k][state];
        for (int i = 0; i < g->count[k][state]; i++) {
            if (start == lowest && above >= 0 && 4 * end + hib(p[i] & 15) <= above) continue;
            tops[n_tops++] = p[i];
        }
        if (!n_tops) continue;
        choice[0] = tops;
        n[0] = n_tops;
        for (int j = 1; j < length; j++) {
            state = state_of(lo, hi, end - j);
            choice[j] = g->pieces + g->offset[k][state];
            n[j] = g->count[k][state];
            if (!n[j]) goto next_start;  /* not in avail: a malformed table */
        }
        for (int j = 0; j < length; j++) at[j] = 0;
        for (int j = 0; j < length; j++) {
            Mask m = piece_at(choice[j][0], end - j);
            prefix[j].lo = m.lo | (j ? prefix[j - 1].lo : 0);
            prefix[j].hi = m.hi | (j ? prefix[j - 1].hi : 0);
        }
        for (;;) {
            if (buf_push(out, prefix[length - 1].lo, prefix[length - 1].hi)) return -1;
            int j = length - 1;
            while (j >= 0 && ++at[j] == n[j]) at[j--] = 0;
            if (j < 0) break;
            for (; j < length; j++) {
                Mask m = piece_at(choice[j][at[j]], end - j);
                prefix[j].lo = m.lo | (j ? prefix[j - 1].lo : 0);
                prefix[j].hi = m.hi | (j ? prefix[j - 1].hi : 0);
            }
        }
    next_start:;
    }
    return 0;
}

/* The plays of shape `code` with top card above `above` (`movegen._of_shape`). */
static int of_shape(MoveGen *g, Buf *out, u64 lo, u64 hi, const int counts[RANKS],
                    const Family *f, int code, int above) {
    unsigned avail = available(counts, f);
    if (!avail) return 0;
    if (!f->sequence) return sets(g, out, lo, hi, avail, f->per_rank, above, 0);
    return runs(g, out, lo, hi, avail, f->per_rank, (code & 63) / f->per_rank, above);
}

/* The bomb table's codes for `key`, or NULL. */
static const uint16_t *bombers_of(MoveGen *g, long key, int *n) {
    int low = 0, high = g->n_bombed;
    while (low < high) {
        int mid = (low + high) / 2;
        if (g->bomb_keys[mid] < key) low = mid + 1;
        else high = mid;
    }
    if (low < g->n_bombed && g->bomb_keys[low] == key) {
        *n = (int)(g->bomb_first[low + 1] - g->bomb_first[low]);
        return g->bomb_codes + g->bomb_first[low];
    }
    *n = 0;
    return NULL;
}

static int bombs(MoveGen *g, Buf *out, u64 lo, u64 hi, long top) {
    int n;
    const uint16_t *codes = bombers_of(g, top, &n);
    if (!n) return 0;
    int counts[RANKS];
    rank_counts(lo, hi, counts);
    for (int i = 0; i < n; i++) {
        const Family *f = &g->families[g->by_kind[codes[i] >> 6]];
        if (of_shape(g, out, lo, hi, counts, f, codes[i], -1)) return -1;
    }
    return 0;
}

static int read_hand_top(PyObject *const *args, Py_ssize_t nargs, const char *name,
                         u64 *lo, u64 *hi, long *top) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes 2 arguments (hand, top)", name);
        return -1;
    }
    if (read_mask(args[0], "hand", lo, hi)) return -1;
    return read_small(args[1], "top", 1, KEYS - 1, top);
}

static PyObject *MoveGen_plays(MoveGen *g, PyObject *const *args, Py_ssize_t nargs) {
    u64 lo, hi;
    long top;
    if (read_hand_top(args, nargs, "plays", &lo, &hi, &top)) return NULL;
    long code = top >> 6;
    int above = (int)(top & 63);
    Buf out = {0}, extra = {0};
    if (code == SINGLE_CODE) {
        u64 higher = above + 1 < 64 ? (lo & g->single_cards) >> (above + 1) << (above + 1) : 0;
        if (buf_reserve(&out, __builtin_popcountll(higher))) goto fail;
        while (higher) {
            out.at[out.n].lo = higher & -higher;
            out.at[out.n++].hi = 0;
            higher &= higher - 1;
        }
    } else {
        int index = g->by_kind[code >> 6];
        if (index < 0) {
            PyObject *kind = PyLong_FromLong(code >> 6);
            if (kind) {
                PyErr_SetObject(PyExc_KeyError, kind);
                Py_DECREF(kind);
            }
            return NULL;
        }
        const Family *f = &g->families[index];
        if (!hi && f->per_rank == 2 && !f->sequence) {  /* `_higher_sets` */
            int counts[RANKS];
            rank_counts(lo, hi, counts);
            if (sets(g, &out, lo, hi, available(counts, f), 2, above, 1)) goto fail;
        } else {
            int counts[RANKS];
            rank_counts(lo, hi, counts);
            if (of_shape(g, &out, lo, hi, counts, f, (int)code, above)) goto fail;
        }
    }
    if (bombs(g, &extra, lo, hi, top)) goto fail;
    PyObject *list = list_of(&out);
    if (list && extend_list(list, &extra, 0)) Py_CLEAR(list);
    buf_free(&out);
    buf_free(&extra);
    return list;
fail:
    buf_free(&out);
    buf_free(&extra);
    return NULL;
}

static PyObject *MoveGen_bombs(MoveGen *g, PyObject *const *args, Py_ssize_t nargs) {
    u64 lo, hi;
    long top;
    if (read_hand_top(args, nargs, "bombs", &lo, &hi, &top)) return NULL;
    Buf out = {0};
    PyObject *list = bombs(g, &out, lo, hi, top) ? NULL : list_of(&out);
    buf_free(&out);
    return list;
}

/* ---- leads (`Tables.leads`, `Leads.listed`, `Leads.keyed`) ------------------- */

static int read_hand_card(PyObject *const *args, const char *name, u64 *lo, u64 *hi,
                          u64 *card) {
    (void)name;
    if (read_mask(args[0], "hand", lo, hi)) return -1;
    u64 chi;
    if (read_mask(args[1], "card", card, &chi)) return -1;
    if (chi || (*card & (*card - 1))) {
        PyErr_SetString(PyExc_ValueError, "card must be 0 or one card's mask (below 2**52)");
        return -1;
    }
    return 0;
}

static PyObject *MoveGen_lead_sets(MoveGen *g, PyObject *const *args, Py_ssize_t nargs) {
    u64 lo, hi, card;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "lead_sets() takes 2 arguments (hand, card)");
        return NULL;
    }
    if (read_hand_card(args, "lead_sets", &lo, &hi, &card)) return NULL;
    if (card) {
        u64 rank = (u64)15 << (hib(card) & ~3);
        lo &= rank;
        hi &= rank;
    }
    Buf out = {0};
    if (g->all_sets && !hi) {  /* rank by rank: its singles, pairs, triples and fours */
        for (int rank = 0; rank < RANKS; rank++) {
            int state = state_of(lo, hi, rank);
            for (int k = 1; k <= 4; k++) {
                const uint8_t *p = g->pieces + g->offset[k][state];
                int n = g->count[k][state];
                if (buf_reserve(&out, n)) goto fail;
                for (int i = 0; i < n; i++) out.at[out.n++] = piece_at(p[i], rank);
            }
        }
    } else {  /* family by family */
        int counts[RANKS];
        rank_counts(lo, hi, counts);
        for (int i = 0; i < g->n_leads; i++) {
            const Family *f = &g->leads[i];
            if (!f->sequence &&
                sets(g, &out, lo, hi, available(counts, f), f->per_rank, -1, 0))
                goto fail;
        }
    }
    if (card) {
        Py_ssize_t kept = 0;
        for (Py_ssize_t i = 0; i < out.n; i++)
            if (out.at[i].lo & card) out.at[kept++] = out.at[i];
        out.n = kept;
    }
    PyObject *list = list_of(&out);
    buf_free(&out);
    return list;
fail:
    buf_free(&out);
    return NULL;
}

/* A lead run family's work on one hand: the pieces of each rank (narrowed to the card at
   its rank), and its maximal runs of usable ranks. */
typedef struct {
    const uint8_t *choice[RANKS];
    int n[RANKS];
    uint8_t narrowed[MOST_PIECES];
    int spans[RANKS][2];
    int n_spans;
} RunPlan;

static void plan_runs(MoveGen *g, const Family *f, u64 lo, u64 hi, const int counts[RANKS],
                      u64 card, RunPlan *plan) {
    int through = card ? hib(card) >> 2 : -1;
    for (int r = 0; r < RANKS; r++) {
        int state = state_of(lo, hi, r);
        plan->choice[r] = g->pieces + g->offset[f->per_rank][state];
        plan->n[r] = g->count[f->per_rank][state];
    }
    if (card) {
        int kept = 0;
        for (int i = 0; i < plan->n[through]; i++)
            if ((u64)(plan->choice[through][i] & 15) << 4 * through & card)
                plan->narrowed[kept++] = plan->choice[through][i];
        plan->choice[through] = plan->narrowed;
        plan->n[through] = kept;
    }
    unsigned avail = available(counts, f);
    int shortest = f->min_length > 2 ? f->min_length : 2;
    plan->n_spans = 0;
    for (int r = 0; r < RANKS;) {
        if (!(avail >> r & 1)) {
            r++;
            continue;
        }
        int start = r;
        while (r < RANKS && avail >> r & 1) r++;
        int end = r - 1;
        if (end - start + 1 < shortest) continue;
        if (card && !(start <= through && through <= end)) continue;
        plan->spans[plan->n_spans][0] = start;
        plan->spans[plan->n_spans][1] = end;
        plan->n_spans++;
    }
}

/* The runs of every lead run family: counted (`listing` 0) or listed with their keys. */
static int lead_runs(MoveGen *g, u64 lo, u64 hi, u64 card, Buf *out, PyObject *keys,
                     u64 *count, int listing) {
    int counts[RANKS];
    rank_counts(lo, hi, counts);
    int through = card ? hib(card) >> 2 : -1;
    Buf partial = {0}, next = {0};
    RunPlan plan;
    for (int i = 0; i < g->n_leads; i++) {
        const Family *f = &g->leads[i];
        if (!f->sequence) continue;
        plan_runs(g, f, lo, hi, counts, card, &plan);
        if (card && !plan.n[through]) continue;  /* no piece holds the card */
        for (int s = 0; s < plan.n_spans; s++) {
            int start = plan.spans[s][0], end = plan.spans[s][1];
            for (int first = start; first <= end - f->min_length + 1; first++) {
                if (card && first > through) break;
                int last = first + f->max_length - 1 < end ? first + f->max_length - 1 : end;
                /* runs that end below the card's rank: none listed, none built (each
                   run built is then part of one listed, so the limit bounds the work) */
                if (card && last < through) continue;
                if (!listing) {
                    u64 product = plan.n[first];
                    for (int rank = first + 1; rank <= last; rank++) {
                        product = saturating_mul(product, plan.n[rank]);
                        if (rank - first + 1 >= f->min_length && rank >= through)
                            *count = saturating_add(*count, product);
                    }
                    continue;
                }
                partial.n = 0;
                if (buf_reserve(&partial, plan.n[first])) goto fail;
                for (int j = 0; j < plan.n[first]; j++)
                    partial.at[partial.n++] = piece_at(plan.choice[first][j], first);
                for (int rank = first + 1; rank <= last && partial.n; rank++) {
                    int n = plan.n[rank];
                    next.n = 0;
                    if (buf_reserve(&next, partial.n * n)) goto fail;
                    for (Py_ssize_t p = 0; p < partial.n; p++)
                        for (int q = 0; q < n; q++) {
                            Mask m = piece_at(plan.choice[rank][q], rank);
                            next.at[next.n].lo = partial.at[p].lo | m.lo;
                            next.at[next.n++].hi = partial.at[p].hi | m.hi;
                        }
                    Buf swap = partial;
                    partial = next;
                    next = swap;
                    int length = rank - first + 1;
                    if (length < f->min_length || rank < through) continue;
                    if (buf_reserve(out, partial.n)) goto fail;
                    memcpy(out->at + out->n, partial.at, (size_t)partial.n * sizeof(Mask));
                    out->n += partial.n;
                    if (keys) {
                        long base = ((long)f->kind << 6 | (long)(f->per_rank * length)) << 6;
                        for (Py_ssize_t p = 0; p < partial.n; p++) {
                            int q = (int)(p % n);  /* run p took piece q last */
                            long key = base | (4 * rank + hib(plan.choice[rank][q] & 15));
                            PyObject *v = PyLong_FromLong(key);
                            if (!v) goto fail;
                            int failed = PyList_Append(keys, v);
                            Py_DECREF(v);
                            if (failed) goto fail;
                        }
                    }
                }
            }
        }
    }
    buf_free(&partial);
    buf_free(&next);
    return 0;
fail:
    buf_free(&partial);
    buf_free(&next);
    return -1;
}

static PyObject *listed_runs(MoveGen *g, PyObject *const *args, Py_ssize_t nargs,
                             int keyed) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "takes 3 arguments (hand, card, offset)");
        return NULL;
    }
    u64 lo, hi, card;
    long offset;
    if (read_hand_card(args, "lead_runs", &lo, &hi, &card)) return NULL;
    if (read_small(args[2], "offset", 0, LONG_MAX, &offset)) return NULL;
    u64 count = 0;
    if (lead_runs(g, lo, hi, card, NULL, NULL, &count, 0)) return NULL;
    count = saturating_add(count, (u64)offset);
    if (count > (u64)g->limit) {
        too_many(g, count);
        return NULL;
    }
    Buf out = {0};
    PyObject *keys = keyed ? PyList_New(0) : NULL;
    PyObject *list = NULL;
    if (keyed && !keys) return NULL;
    if (lead_runs(g, lo, hi, card, &out, keys, &count, 1)) goto done;
    list = list_of(&out);
    if (list && keyed) {
        PyObject *pair = PyTuple_Pack(2, list, keys);
        Py_DECREF(list);
        list = pair;
    }
done:
    Py_XDECREF(keys);
    buf_free(&out);
    return list;
}

static PyObject *MoveGen_lead_runs(MoveGen *g, PyObject *const *args, Py_ssize_t nargs) {
    return listed_runs(g, args, nargs, 0);
}

static PyObject *MoveGen_keyed_runs(MoveGen *g, PyObject *const *args, Py_ssize_t nargs) {
    return listed_runs(g, args, nargs, 1);
}

/* ---- construction ------------------------------------------------------------ */

static int read_family(PyObject *item, Family *f) {
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "a family is a tuple (kind, per_rank, sequence, min_length, "
                        "max_length, max_rank)");
        return -1;
    }
    long v[6];
    static const long lowest[6] = {1, 1, 0, 1, 1, 0};
    static const long highest[6] = {KINDS - 1, MOST, 1, RANKS, RANKS, RANKS - 1};
    static const char *names[6] = {"kind", "per_rank", "sequence", "min_length",
                                   "max_length", "max_rank"};
    for (int i = 0; i < 6; i++)
        if (read_small(PyTuple_GET_ITEM(item, i), names[i], lowest[i], highest[i], &v[i]))
            return -1;
    f->kind = (int)v[0];
    f->per_rank = (int)v[1];
    f->sequence = (int)v[2];
    f->min_length = (int)v[3];
    f->max_length = (int)v[4];
    f->max_rank = (int)v[5];
    if (f->min_length > f->max_length || (!f->sequence && f->max_length != 1) ||
        (f->sequence && f->min_length < 2)) {
        PyErr_SetString(PyExc_ValueError, "a family's lengths do not fit its kind");
        return -1;
    }
    return 0;
}

static int read_subsets(MoveGen *g, PyObject *counts, PyObject *pieces) {
    if (!PyBytes_Check(counts) || !PyBytes_Check(pieces)) {
        PyErr_SetString(PyExc_TypeError, "counts and pieces must be bytes");
        return -1;
    }
    if (PyBytes_GET_SIZE(counts) != (MOST + 1) * STATES) {
        PyErr_SetString(PyExc_ValueError, "counts must hold 9 * 256 bytes");
        return -1;
    }
    const uint8_t *c = (const uint8_t *)PyBytes_AS_STRING(counts);
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(pieces);
    Py_ssize_t size = PyBytes_GET_SIZE(pieces), at = 0;
    for (int k = 0; k <= MOST; k++)
        for (int state = 0; state < STATES; state++) {
            int n = c[k * STATES + state];
            if (n > MOST_PIECES || at + n > size) goto bad;
            for (int i = 0; i < n; i++) {
                int piece = p[at + i], plo = piece & 15, phi = piece >> 4;
                if ((phi & ~plo) || (piece & ~state) ||
                    __builtin_popcount((unsigned)piece) != k)
                    goto bad;
            }
            g->offset[k][state] = (uint16_t)at;
            g->count[k][state] = (uint8_t)n;
            at += n;
        }
    if (at != size) goto bad;
    g->pieces = PyMem_Malloc(size ? (size_t)size : 1);
    if (!g->pieces) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(g->pieces, p, (size_t)size);
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "pieces do not match their counts and states");
    return -1;
}

static int read_bombers(MoveGen *g, PyObject *bombers) {
    if (!PyTuple_Check(bombers)) {
        PyErr_SetString(PyExc_TypeError, "bombers must be a tuple of (key, codes)");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(bombers), total = 0;
    if (n >= KEYS) {
        PyErr_SetString(PyExc_ValueError, "too many bombed keys");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(bombers, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 ||
            !PyTuple_Check(PyTuple_GET_ITEM(item, 1))) {
            PyErr_SetString(PyExc_TypeError, "bombers must be a tuple of (key, codes)");
            return -1;
        }
        total += PyTuple_GET_SIZE(PyTuple_GET_ITEM(item, 1));
        if (total > KEYS) {
            PyErr_SetString(PyExc_ValueError, "too many bomb codes");
            return -1;
        }
    }
    g->bomb_keys = PyMem_Malloc(sizeof(uint32_t) * (size_t)(n + 1));
    g->bomb_first = PyMem_Malloc(sizeof(uint32_t) * (size_t)(n + 1));
    g->bomb_codes = PyMem_Malloc(sizeof(uint16_t) * (size_t)(total + 1));
    if (!g->bomb_keys || !g->bomb_first || !g->bomb_codes) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(bombers, i);
        long key;
        if (read_small(PyTuple_GET_ITEM(item, 0), "a bombed key", 1, KEYS - 1, &key))
            return -1;
        if (i && key <= (long)g->bomb_keys[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "bombed keys must ascend");
            return -1;
        }
        g->bomb_keys[i] = (uint32_t)key;
        g->bomb_first[i] = (uint32_t)at;
        PyObject *codes = PyTuple_GET_ITEM(item, 1);
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(codes); j++) {
            long code;
            if (read_small(PyTuple_GET_ITEM(codes, j), "a bomb code", 1, (KEYS >> 6) - 1,
                           &code))
                return -1;
            int index = g->by_kind[code >> 6];
            if (index < 0) {
                PyErr_SetString(PyExc_ValueError, "a bomb code has no family");
                return -1;
            }
            const Family *f = &g->families[index];
            int length = (int)(code & 63) / f->per_rank;
            if (f->sequence && (length < f->min_length || length > f->max_length)) {
                PyErr_SetString(PyExc_ValueError, "a bomb code's length is not its family's");
                return -1;
            }
            g->bomb_codes[at++] = (uint16_t)code;
        }
    }
    g->bomb_first[n] = (uint32_t)at;
    g->n_bombed = (int)n;
    return 0;
}

static int MoveGen_init(MoveGen *g, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"counts", "pieces", "families", "leads", "all_sets",
                             "single_cards", "bombers", "limit", "error", NULL};
    PyObject *counts, *pieces, *families, *leads, *single_cards, *bombers, *limit, *error;
    int all_sets;
    if (g->pieces) {
        PyErr_SetString(PyExc_TypeError, "a MoveGen is made once");
        return -1;
    }
    PyMem_Free(g->bomb_keys);  /* left by a failed __init__ */
    PyMem_Free(g->bomb_first);
    PyMem_Free(g->bomb_codes);
    g->bomb_keys = g->bomb_first = NULL;
    g->bomb_codes = NULL;
    g->n_bombed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOpOOOO", kwlist, &counts, &pieces,
                                     &families, &leads, &all_sets, &single_cards, &bombers,
                                     &limit, &error))
        return -1;
    if (!PyType_Check(error) ||
        !PyType_IsSubtype((PyTypeObject *)error, (PyTypeObject *)PyExc_Exception)) {
        PyErr_SetString(PyExc_TypeError, "error must be an exception class");
        return -1;
    }
    long max;
    if (read_small(limit, "limit", 0, PY_SSIZE_T_MAX / 2, &max)) return -1;
    u64 singles, singles_hi;
    if (read_mask(single_cards, "single_cards", &singles, &singles_hi)) return -1;
    if (singles_hi) {
        PyErr_SetString(PyExc_ValueError, "single_cards must be below 2**52");
        return -1;
    }
    if (!PyTuple_Check(families) || !PyTuple_Check(leads)) {
        PyErr_SetString(PyExc_TypeError, "families and leads must be tuples");
        return -1;
    }
    if (PyTuple_GET_SIZE(families) > KINDS || PyTuple_GET_SIZE(leads) > MAX_LEADS) {
        PyErr_SetString(PyExc_ValueError, "too many families");
        return -1;
    }
    memset(g->by_kind, -1, sizeof g->by_kind);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(families); i++) {
        Family *f = &g->families[i];
        if (read_family(PyTuple_GET_ITEM(families, i), f)) return -1;
        if (g->by_kind[f->kind] >= 0) {
            PyErr_SetString(PyExc_ValueError, "two families of one kind");
            return -1;
        }
        g->by_kind[f->kind] = (int8_t)i;
    }
    g->n_leads = (int)PyTuple_GET_SIZE(leads);
    for (int i = 0; i < g->n_leads; i++)
        if (read_family(PyTuple_GET_ITEM(leads, i), &g->leads[i])) return -1;
    if (read_bombers(g, bombers)) return -1;
    if (read_subsets(g, counts, pieces)) return -1;
    g->all_sets = all_sets;
    g->single_cards = singles;
    g->limit = (Py_ssize_t)max;
    Py_INCREF(error);
    g->error = error;
    return 0;
}

static void MoveGen_dealloc(MoveGen *g) {
    PyMem_Free(g->pieces);
    PyMem_Free(g->bomb_keys);
    PyMem_Free(g->bomb_first);
    PyMem_Free(g->bomb_codes);
    Py_XDECREF(g->error);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static PyObject *ready(MoveGen *g) {
    if (!g->pieces) {
        PyErr_SetString(PyExc_ValueError, "the MoveGen was not initialised");
        return NULL;
    }
    return (PyObject *)g;
}

#define CHECKED(name)                                                              \
    static PyObject *checked_##name(PyObject *self, PyObject *const *args,         \
                                    Py_ssize_t nargs) {                            \
        if (!ready((MoveGen *)self)) return NULL;                                  \
        return MoveGen_##name((MoveGen *)self, args, nargs);                        \
    }
CHECKED(plays)
CHECKED(bombs)
CHECKED(lead_sets)
CHECKED(lead_runs)
CHECKED(keyed_runs)

static PyMethodDef MoveGen_methods[] = {
    {"plays", (PyCFunction)(void (*)(void))checked_plays, METH_FASTCALL,
     "plays(hand, top): `Tables.plays` for a top (not 0)."},
    {"bombs", (PyCFunction)(void (*)(void))checked_bombs, METH_FASTCALL,
     "bombs(hand, top): `Tables.bombs`."},
    {"lead_sets", (PyCFunction)(void (*)(void))checked_lead_sets, METH_FASTCALL,
     "lead_sets(hand, card): the sets `Tables.leads` lists (through card, if not 0)."},
    {"lead_runs", (PyCFunction)(void (*)(void))checked_lead_runs, METH_FASTCALL,
     "lead_runs(hand, card, offset): the runs `Leads.listed` lists after the sets\n"
     "(through card, if not 0); offset plays and more than the limit raise the error."},
    {"keyed_runs", (PyCFunction)(void (*)(void))checked_keyed_runs, METH_FASTCALL,
     "keyed_runs(hand, card, offset): `lead_runs` and each run's key (`Leads.keyed`)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject MoveGenType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tienlen.engine._native.MoveGen",
    .tp_basicsize = sizeof(MoveGen),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The move generator of one `Tables`, from its data (`native.generator`).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)MoveGen_init,
    .tp_dealloc = (destructor)MoveGen_dealloc,
    .tp_methods = MoveGen_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native",
    "tienlen's move generation on card masks in C (see tienlen.engine.native).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&MoveGenType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&MoveGenType);
    if (PyModule_AddObject(m, "MoveGen", (PyObject *)&MoveGenType) < 0) {
        Py_DECREF(&MoveGenType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
