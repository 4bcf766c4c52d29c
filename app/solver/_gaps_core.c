/* The compiled exhaustive search of one Gaps round (app.solver._gaps_core; see
 * app/solver/gaps_exhaustive.py, which states the method and is its Python fallback).
 *
 * A board has `rows` rows of `cols` cells (rows <= 4, rows * cols <= 52); a card is
 * 16 * suit + rank (rank 2..cols, rank `cols` plays the king), a gap is 0. Depth-first over
 * every grid reachable by fills (no redeal), each grid expanded at most once (an exact set of
 * the grids met, 6 bits a cell); a grid the reach relaxation condemns is not expanded. So a
 * search that ends without meeting a won grid has searched every grid reachable through
 * grids that may still win: the round is lost. Restarts (see search) share the set. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 52
#define WORDS 5
#define MAXMOVES 16

typedef struct { uint64_t w[WORDS]; } Key;
typedef struct { unsigned char card, frm, to; } Fill;

typedef struct {
    int rows, cols, n, top;
    int starters[4]; /* the suit of each row's 2 (Danish rule), -1: any */
    unsigned char grid[MAXN];
    int where[64];
    Key key;
    uint64_t last_mask, not_last, col0_mask, t2[4];
    Key *table;
    uint64_t mask;
    size_t count, max_count;
    uint64_t rng; /* the order's shuffle (xorshift64), 0: the fixed order */
} Core;

/* --- the set of grids met ------------------------------------------------------------- */
static void key_set(Core *c, int i, unsigned v_old, unsigned v_new) {
    int b = i * 6, w = b >> 6, s = b & 63;
    uint64_t d = (uint64_t)(v_old ^ v_new);
    c->key.w[w] ^= d << s;
    if (s > 58) c->key.w[w + 1] ^= d >> (64 - s);
}

static uint64_t key_hash(const Key *k) {
    uint64_t h = k->w[0] * 0x9E3779B97F4A7C15ULL ^ k->w[1] * 0xC2B2AE3D27D4EB4FULL
        ^ k->w[2] * 0x165667B19E3779F9ULL ^ k->w[3] * 0xD6E8FEB86659FD93ULL ^ k->w[4];
    h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ULL; h ^= h >> 32;
    return h;
}

static int key_empty(const Key *k) {
    return !(k->w[0] | k->w[1] | k->w[2] | k->w[3] | k->w[4]);
}

static int table_grow(Core *c) {
    uint64_t size = c->mask + 1, new_size = size * 2;
    Key *t = calloc(new_size, sizeof(Key));
    if (t == NULL) return 0;
    for (uint64_t i = 0; i < size; i++) {
        if (key_empty(&c->table[i])) continue;
        uint64_t j = key_hash(&c->table[i]) & (new_size - 1);
        while (!key_empty(&t[j])) j = (j + 1) & (new_size - 1);
        t[j] = c->table[i];
    }
    free(c->table);
    c->table = t;
    c->mask = new_size - 1;
    return 1;
}

/* 1: newly added; 0: met before; -1: the set is full (max_count) or out of memory. */
static int table_add(Core *c) {
    if (c->count + 1 > (c->mask + 1) / 4 * 3) {
        if (c->count >= c->max_count || !table_grow(c)) return -1;
    }
    for (uint64_t i = key_hash(&c->key) & c->mask;; i = (i + 1) & c->mask) {
        Key *e = &c->table[i];
        if (key_empty(e)) {
            *e = c->key;
            c->count++;
            return 1;
        }
        if (!memcmp(e, &c->key, sizeof(Key))) return 0;
    }
}

/* Remove the current grid if it is in the set: linear probing's deletion by shifting back the
 * entries after it that probed past its cell (no tombstones, so restarts never grow the table). */
static void table_remove(Core *c) {
    uint64_t i = key_hash(&c->key) & c->mask;
    for (;; i = (i + 1) & c->mask) {
        if (key_empty(&c->table[i])) return;
        if (!memcmp(&c->table[i], &c->key, sizeof(Key))) break;
    }
    for (uint64_t j = (i + 1) & c->mask;; j = (j + 1) & c->mask) {
        if (key_empty(&c->table[j])) break;
        uint64_t home = key_hash(&c->table[j]) & c->mask;
        /* the entry at j may move to i when its home is not in (i, j] (cyclically) */
        if (((j - home) & c->mask) >= ((j - i) & c->mask)) {
            c->table[i] = c->table[j];
            i = j;
        }
    }
    memset(&c->table[i], 0, sizeof(Key));
    c->count--;
}

/* --- rules ---------------------------------------------------------------------------- */
static int run_length(const Core *c, int r) {
    int base = r * c->cols, first = c->grid[base];
    if (c->starters[r] >= 0) {
        if (first != 16 * c->starters[r] + 2) return 0;
    } else if (!first || (first & 15) != 2) {
        return 0;
    }
    int k = 1;
    while (k < c->cols - 1 && c->grid[base + k] == first + k) k++;
    return k;
}

static int is_won(const Core *c) {
    for (int r = 0; r < c->rows; r++)
        if (c->grid[r * c->cols + c->cols - 1] || run_length(c, r) != c->cols - 1) return 0;
    return 1;
}

static int two_allowed(const Core *c, int suit, int row) {
    return c->starters[row] < 0 || c->starters[row] == suit;
}

static uint64_t next_random(Core *c) {
    uint64_t x = c->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return c->rng = x;
}

static void shuffle(Core *c, Fill *f, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(next_random(c) % (uint64_t)(i + 1));
        Fill t = f[i];
        f[i] = f[j];
        f[j] = t;
    }
}

/* The fills in the order of GapsCore.fills (app/solver/gaps.py) as the first run has it:
 * those that extend a row's correct run, then the others, then those whose card leaves a
 * dead gap behind (it sat right of a king or a gap). */
static int fills(Core *c, Fill *out) {
    Fill good[MAXMOVES], other[MAXMOVES], bad[MAXMOVES];
    int ng = 0, no = 0, nb = 0, cols = c->cols, top = c->top;
    for (int g = 0; g < c->n; g++) {
        if (c->grid[g]) continue;
        int k = g % cols;
        if (k == 0) {
            for (int s = 0; s < c->rows; s++) {
                if (!two_allowed(c, s, g / cols)) continue;
                int two = 16 * s + 2, frm = c->where[two];
                Fill f = {(unsigned char)two, (unsigned char)frm, (unsigned char)g};
                if (g + 1 < c->n && c->grid[g + 1] == two + 1) good[ng++] = f;
                else other[no++] = f;
            }
            continue;
        }
        int left = c->grid[g - 1];
        if (!left || (left & 15) == top) continue;
        int card = left + 1, frm = c->where[card];
        Fill f = {(unsigned char)card, (unsigned char)frm, (unsigned char)g};
        int row = g / cols, extends = (left & 15) == k + 1;
        if (extends) {
            int first = c->grid[row * cols];
            if (c->starters[row] >= 0 ? first != 16 * c->starters[row] + 2 : (!first || (first & 15) != 2))
                extends = 0;
            for (int j = 1; extends && j < k; j++)
                if (c->grid[row * cols + j] != first + j) extends = 0;
        }
        if (extends) good[ng++] = f;
        else if (frm % cols && frm - 1 != g && (!c->grid[frm - 1] || (c->grid[frm - 1] & 15) == top))
            bad[nb++] = f;
        else other[no++] = f;
    }
    if (c->rng) {
        shuffle(c, good, ng);
        shuffle(c, other, no);
        shuffle(c, bad, nb);
    }
    memcpy(out, good, ng * sizeof(Fill));
    memcpy(out + ng, other, no * sizeof(Fill));
    memcpy(out + ng + no, bad, nb * sizeof(Fill));
    return ng + no + nb;
}

/* --- the reach relaxation (GapsCore.analyse, module docstring "Reach") ------------------- */
static int matching_place(int s, int *seen, const int *fits, int *match, int rows) {
    for (int row = 0; row < rows; row++) {
        if ((fits[s] >> row & 1) && !(*seen >> row & 1)) {
            *seen |= 1 << row;
            if (match[row] < 0 || matching_place(match[row], seen, fits, match, rows)) {
                match[row] = s;
                return 1;
            }
        }
    }
    return 0;
}

/* 1 when no continuation within this round can win. */
static int hopeless(const Core *c) {
    int rows = c->rows, top = c->top, cols = c->cols;
    uint64_t can_gap = 0, pos[14][4], reach[14][4];
    for (int g = 0; g < c->n; g++)
        if (!c->grid[g]) can_gap |= 1ULL << g;
    for (int k = 2; k <= top; k++)
        for (int s = 0; s < rows; s++) pos[k][s] = 1ULL << c->where[16 * s + k];
    for (;;) {
        uint64_t before = can_gap;
        for (int s = 0; s < rows; s++) {
            uint64_t r = pos[2][s] | (can_gap & c->t2[s]);
            reach[2][s] = r;
            if (r != pos[2][s]) can_gap |= pos[2][s];
            for (int k = 3; k <= top; k++) {
                r = pos[k][s] | (((r & c->not_last) << 1) & can_gap);
                reach[k][s] = r;
                if (r != pos[k][s]) can_gap |= pos[k][s];
            }
        }
        if (can_gap == before) break;
    }
    if ((can_gap & c->last_mask) != c->last_mask) return 1;
    int fits[4];
    for (int s = 0; s < rows; s++) {
        uint64_t fit = c->col0_mask;
        for (int k = 2; k <= top; k++) fit &= reach[k][s] >> (k - 2);
        fits[s] = 0;
        for (int row = 0; row < rows; row++)
            if ((fit >> (row * cols) & 1) && two_allowed(c, s, row)) fits[s] |= 1 << row;
        if (!fits[s]) return 1;
    }
    int match[4] = {-1, -1, -1, -1};
    for (int s = 0; s < rows; s++) {
        int seen = 0;
        if (!matching_place(s, &seen, fits, match, rows)) return 1;
    }
    return 0;
}

/* --- the search ----------------------------------------------------------------------- */
typedef struct {
    Fill moves[MAXMOVES];
    int count, next;
    Fill via;
} Frame;

/* Card `card` from cell `frm` (left a gap) to the gap at `to`: a fill, or one taken back. */
static void move_card(Core *c, int card, int frm, int to) {
    key_set(c, frm, card, 0);
    key_set(c, to, 0, card);
    c->grid[frm] = 0;
    c->grid[to] = (unsigned char)card;
    c->where[card] = to;
}

static void play(Core *c, Fill f) { move_card(c, f.card, f.frm, f.to); }

static void take_back(Core *c, Fill f) { move_card(c, f.card, f.to, f.frm); }

static double now(int cpu) {
    struct timespec ts;
    clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Expand a grid: its fills, none when the relaxation condemns it. */
static int expand(Core *c, Frame *f, int prune) {
    f->next = 0;
    if (prune && hopeless(c)) {
        f->count = 0;
        return 0;
    }
    f->count = fills(c, f->moves);
    return f->count;
}

enum { LOST = 0, WON = 1, OUT_OF_NODES = 2, OUT_OF_TIME = 3, OUT_OF_MEMORY = 4 };

static long long luby(long long i) {
    for (;;) {
        int k = 0;
        while ((1LL << k) - 1 < i) k++;
        if (i == (1LL << k) - 1) return 1LL << (k - 1);
        i -= (1LL << (k - 1)) - 1;
    }
}

/* Returns the verdict; on WON, *line and *length hold the fills from the start.
 *
 * Restarts (first_run > 0): the first run in the fixed order for `first_run` new grids, then
 * runs with the fills of each group shuffled (a seed a run) for `unit` times the Luby
 * sequence 1, 1, 2, 1, 1, 2, 4, ... new grids each. A run cut short removes the grids on its
 * stack from the set (their fills are not all tried) and keeps the others: each of those had
 * every fill tried, so each of its successors is in the set or was on the stack, and the next
 * run, which starts at the root again, reaches every grid of that stack afresh. So the set
 * stays closed under fills but for grids still to be searched, and a run that ends without a
 * cut has searched every grid reachable from the root (through grids the relaxation spares):
 * a loss is still a proof. */
static int search(Core *c, long long max_nodes, double seconds, int cpu, int prune,
                  int prune_every, long long first_run, long long unit, long long *nodes, Fill **line,
                  int *length) {
    int depth = 0, capacity = 1024, verdict = LOST;
    Frame *stack = malloc(capacity * sizeof(Frame));
    if (stack == NULL) return OUT_OF_MEMORY;
    double deadline = seconds >= 0 ? now(cpu) + seconds : -1;
    long long run = 0, allowance = first_run > 0 ? first_run : -1, run_nodes = 0;
    *nodes = 0;
    if (is_won(c)) {
        verdict = WON;
        goto done;
    }
    if (table_add(c) < 0) {
        verdict = OUT_OF_MEMORY;
        goto done;
    }
    expand(c, &stack[0], prune);
    while (depth >= 0) {
        Frame *f = &stack[depth];
        if (f->next == f->count) {
            if (depth > 0) take_back(c, f->via);
            depth--;
            continue;
        }
        Fill m = f->moves[f->next++];
        play(c, m);
        int added = table_add(c);
        if (added < 0) {
            verdict = OUT_OF_MEMORY;
            break;
        }
        if (!added) {
            take_back(c, m);
            continue;
        }
        ++*nodes;
        if (is_won(c)) {
            verdict = WON;
            depth++;
            stack[depth].via = m;
            break;
        }
        if (max_nodes >= 0 && *nodes >= max_nodes) {
            verdict = OUT_OF_NODES;
            break;
        }
        if (deadline >= 0 && (*nodes & 1023) == 0 && now(cpu) >= deadline) {
            verdict = OUT_OF_TIME;
            break;
        }
        if (allowance >= 0 && ++run_nodes >= allowance) {
            /* The run is cut: its stack leaves the set, and the next run starts at the root. */
            table_remove(c);
            take_back(c, m);
            for (; depth > 0; depth--) {
                table_remove(c);
                take_back(c, stack[depth].via);
            }
            run++;
            run_nodes = 0;
            allowance = unit * luby(run);
            c->rng = 0x9E3779B97F4A7C15ULL * (uint64_t)run ^ 0xD1B54A32D192ED03ULL;
            if (table_add(c) < 0) {
                verdict = OUT_OF_MEMORY;
                break;
            }
            expand(c, &stack[0], prune);
            continue;
        }
        if (depth + 1 == capacity) {
            Frame *bigger = realloc(stack, 2 * capacity * sizeof(Frame));
            if (bigger == NULL) {
                verdict = OUT_OF_MEMORY;
                break;
            }
            stack = bigger;
            capacity *= 2;
        }
        depth++;
        stack[depth].via = m;
        expand(c, &stack[depth], prune && depth % prune_every == 0);
    }
done:
    if (verdict == WON) {
        *length = depth;
        *line = malloc((depth + 1) * sizeof(Fill));
        if (*line == NULL) verdict = OUT_OF_MEMORY;
        else
            for (int d = 1; d <= depth; d++) (*line)[d - 1] = stack[d].via;
    }
    free(stack);
    return verdict;
}

/* search(grid: bytes, rows, cols, starters: bytes, max_nodes, seconds, cpu_clock, prune,
 *        max_states, first_run=0, unit=0, prune_every=1) -> (verdict, nodes, line): verdict 0 lost, 1 won,
 * 2-4 undecided (nodes, time, memory); line is a list of (card, cell) fills when won.
 * max_nodes, seconds < 0: no limit; first_run 0: one run in the fixed order (no restarts);
 * with prune, the relaxation at each run's root and at every prune_every-th depth. */
static PyObject *py_search(PyObject *self, PyObject *args) {
    Py_buffer grid, starters;
    int rows, cols, cpu, prune;
    long long max_nodes, max_states, first_run = 0, unit = 0;
    int prune_every = 1;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*iiy*LdppL|LLi", &grid, &rows, &cols, &starters, &max_nodes,
                          &seconds, &cpu, &prune, &max_states, &first_run, &unit, &prune_every))
        return NULL;
    Core *c = calloc(1, sizeof(Core));
    PyObject *result = NULL;
    if (c == NULL) {
        PyErr_NoMemory();
        goto release;
    }
    if (rows < 1 || rows > 4 || cols < 2 || cols > 13 || grid.len != rows * cols
        || (starters.len != 0 && starters.len != rows)) {
        PyErr_SetString(PyExc_ValueError, "a board is 1-4 rows of 2-13 cells, starters one per row or none");
        goto release;
    }
    c->rows = rows;
    c->cols = cols;
    c->n = rows * cols;
    c->top = cols;
    for (int i = 0; i < c->n; i++) {
        int x = ((unsigned char *)grid.buf)[i];
        if (x && ((x >> 4) >= rows || (x & 15) < 2 || (x & 15) > cols)) {
            PyErr_SetString(PyExc_ValueError, "a cell holds a card 16 * suit + rank or 0");
            goto release;
        }
        c->grid[i] = (unsigned char)x;
        if (x) c->where[x] = i;
        key_set(c, i, 0, x);
    }
    for (int r = 0; r < rows; r++) {
        c->starters[r] = starters.len ? ((unsigned char *)starters.buf)[r] : -1;
        c->last_mask |= 1ULL << (r * cols + cols - 1);
        c->col0_mask |= 1ULL << (r * cols);
    }
    c->not_last = ((c->n == 64 ? 0 : (1ULL << c->n)) - 1) & ~c->last_mask;
    for (int s = 0; s < rows; s++)
        for (int r = 0; r < rows; r++)
            if (two_allowed(c, s, r)) c->t2[s] |= 1ULL << (r * cols);
    c->mask = (1 << 16) - 1;
    c->max_count = max_states < 0 ? (size_t)-1 : (size_t)max_states;
    c->table = calloc(c->mask + 1, sizeof(Key));
    if (c->table == NULL) {
        PyErr_NoMemory();
        goto release;
    }
    long long nodes = 0;
    Fill *line = NULL;
    int length = 0, verdict;
    Py_BEGIN_ALLOW_THREADS
    verdict = search(c, max_nodes, seconds, cpu, prune, prune_every < 1 ? 1 : prune_every,
                     first_run, unit < 1 ? 1 : unit, &nodes,
                     &line, &length);
    Py_END_ALLOW_THREADS
    PyObject *moves = PyList_New(0);
    if (moves != NULL && verdict == WON) {
        for (int i = 0; i < length; i++) {
            PyObject *pair = Py_BuildValue("(ii)", line[i].card, line[i].to);
            if (pair == NULL || PyList_Append(moves, pair) < 0) {
                Py_XDECREF(pair);
                Py_CLEAR(moves);
                break;
            }
            Py_DECREF(pair);
        }
    }
    free(line);
    if (moves != NULL) result = Py_BuildValue("(iLN)", verdict, nodes, moves);
release:
    if (c != NULL) free(c->table);
    free(c);
    PyBuffer_Release(&grid);
    PyBuffer_Release(&starters);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, "Exhaustive depth-first search of one Gaps round."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_gaps_core", NULL, -1, methods};

PyMODINIT_FUNC PyInit__gaps_core(void) { return PyModule_Create(&module); }
