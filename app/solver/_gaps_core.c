/* The compiled searches of one Gaps round, exhaustive and beam (app.solver._gaps_core; see
 * app/solver/gaps_exhaustive.py, which states the method).
 *
 * A board has `rows` rows of `cols` cells (rows <= 4, rows * cols <= 52); a card is
 * 16 * suit + rank (rank 2..cols, rank `cols` plays the king), a gap is 0. Depth-first over
 * every grid reachable by fills (no redeal), each grid expanded at most once (an exact set of
 * the grids met, 6 bits a cell); a grid the reach relaxation condemns is not expanded. So a
 * search that ends without meeting a won grid has searched every grid reachable through
 * grids that may still win: the round is lost. Restarts (see search) share the set. The beam
 * (see beam) proves nothing: only its wins count. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 52
#define WORDS 5
#define MAXMOVES 48 /* a grid's moves: at most 4 fills of its gaps, 12 of column 1, 24 of the last gap */
#define MAXSTEPS 5  /* fills a move plays: at most 4 2s moved within column 0, then its own */

typedef struct { uint64_t w[WORDS]; } Key;
typedef struct { unsigned char card, frm, to; } Fill;
/* A move: one fill, or (column 0 as one arrangement, see `moves`) 2s moved within column 0 first. */
typedef struct { Fill step[MAXSTEPS]; unsigned char n; } Move;

typedef struct {
    int rows, cols, n, top;
    int starters[4]; /* the suit of each row's 2 (Danish rule), -1: any */
    unsigned char grid[MAXN];
    int where[64];
    uint64_t at[16][4]; /* at[rank][suit]: the bit of the card's cell (the relaxation's start) */
    Key key;
    uint64_t gaps; /* a bit for each cell that holds a gap */
    uint64_t last_mask, not_last, col0_mask, t2[4];
    uint64_t *table, mask;
    Key *keys;
    uint64_t *free_slots;
    size_t count, max_count, nkeys, keys_cap, nfree, free_cap;
    uint64_t rng; /* the order's shuffle (xorshift64), 0: the fixed order */
    int classes; /* column 0 as one arrangement (see `moves`); never under starters */
    int greedy;  /* a grid with fills that extend a row's correct run has only those (`order`) */
} Core;

/* --- the set of grids met ------------------------------------------------------------- */
static void key_set_on(Key *k, int i, unsigned v_old, unsigned v_new) {
    int b = i * 6, w = b >> 6, s = b & 63;
    uint64_t d = (uint64_t)(v_old ^ v_new);
    k->w[w] ^= d << s;
    if (s > 58) k->w[w + 1] ^= d >> (64 - s);
}

static void key_set(Core *c, int i, unsigned v_old, unsigned v_new) { key_set_on(&c->key, i, v_old, v_new); }

static uint64_t key_hash(const Key *k) {
    uint64_t h = k->w[0] * 0x9E3779B97F4A7C15ULL ^ k->w[1] * 0xC2B2AE3D27D4EB4FULL
        ^ k->w[2] * 0x165667B19E3779F9ULL ^ k->w[3] * 0xD6E8FEB86659FD93ULL ^ k->w[4];
    h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ULL; h ^= h >> 32;
    return h;
}

/* The set of grids met: the keys in a dense array, found through an open-addressing index of
 * 8-byte entries (linear probing, at most 3/4 full): an entry holds SLOT_BITS bits of
 * (key's slot + 1) over the low HASH_BITS bits of the key's hash, whose low bits are its home.
 * A key is compared only when its entry's hash bits match, so probing reads the index alone
 * (8 entries a cache line) and the keys only on a likely match. */
#define SLOT_BITS 26
#define HASH_BITS (64 - SLOT_BITS)
#define SLOT_OF(e) ((e) & ((1ULL << SLOT_BITS) - 1))
#define HASH_OF(e) ((e) >> SLOT_BITS)

static int table_grow(Core *c) {
    uint64_t size = c->mask + 1, new_size = size * 2, new_mask = new_size - 1;
    if (new_size > (1ULL << HASH_BITS)) return 0;
    uint64_t *t = calloc(new_size, sizeof(uint64_t));
    if (t == NULL) return 0;
    for (uint64_t i = 0; i < size; i++) {
        uint64_t e = c->table[i];
        if (!e) continue;
        uint64_t j = HASH_OF(e) & new_mask;
        while (t[j]) j = (j + 1) & new_mask;
        t[j] = e;
    }
    free(c->table);
    c->table = t;
    c->mask = new_mask;
    return 1;
}

static int keys_reserve(Core *c) {
    if (c->nkeys < c->keys_cap) return 1;
    size_t cap = c->keys_cap ? c->keys_cap * 2 : 65536;
    Key *k = realloc(c->keys, cap * sizeof(Key));
    if (k == NULL) return 0;
    c->keys = k;
    c->keys_cap = cap;
    return 1;
}

/* Add `key`, whose key_hash is `hash`. 1: newly added; 0: met before; -1: the set is full
 * (max_count) or out of memory. */
static int table_add(Core *c, const Key *key, uint64_t hash) {
    if (c->count + 1 > (c->mask + 1) / 4 * 3) {
        if (c->count >= c->max_count || !table_grow(c)) return -1;
    }
    uint64_t h = hash & ((1ULL << HASH_BITS) - 1);
    for (uint64_t i = h & c->mask;; i = (i + 1) & c->mask) {
        uint64_t e = c->table[i];
        if (!e) {
            uint64_t slot;
            if (c->nfree) {
                slot = c->free_slots[--c->nfree];
            } else {
                if (c->nkeys + 1 >= (1ULL << SLOT_BITS) || !keys_reserve(c)) return -1;
                slot = c->nkeys++;
            }
            c->keys[slot] = *key;
            c->table[i] = h << SLOT_BITS | (slot + 1);
            c->count++;
            return 1;
        }
        if (HASH_OF(e) == h && !memcmp(&c->keys[SLOT_OF(e) - 1], key, sizeof(Key))) return 0;
    }
}

/* Remove `key` if it is in the set: linear probing's deletion by shifting back the
 * entries after it that probed past its cell (no tombstones, so restarts never grow the table);
 * its key's slot is reused. */
static void table_remove(Core *c, const Key *key) {
    uint64_t h = key_hash(key) & ((1ULL << HASH_BITS) - 1), i = h & c->mask;
    for (;; i = (i + 1) & c->mask) {
        uint64_t e = c->table[i];
        if (!e) return;
        if (HASH_OF(e) == h && !memcmp(&c->keys[SLOT_OF(e) - 1], key, sizeof(Key))) break;
    }
    uint64_t slot = SLOT_OF(c->table[i]) - 1;
    if (c->nfree == c->free_cap) {
        size_t cap = c->free_cap ? c->free_cap * 2 : 1024;
        uint64_t *f = realloc(c->free_slots, cap * sizeof(uint64_t));
        if (f != NULL) {
            c->free_slots = f;
            c->free_cap = cap;
        }
    }
    if (c->nfree < c->free_cap) c->free_slots[c->nfree++] = slot; /* else the slot is not reused */
    for (uint64_t j = (i + 1) & c->mask;; j = (j + 1) & c->mask) {
        uint64_t e = c->table[j];
        if (!e) break;
        uint64_t home = HASH_OF(e) & c->mask;
        /* the entry at j may move to i when its home is not in (i, j] (cyclically) */
        if (((j - home) & c->mask) >= ((j - i) & c->mask)) {
            c->table[i] = e;
            i = j;
        }
    }
    c->table[i] = 0;
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

static void shuffle(Core *c, Move *f, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(next_random(c) % (uint64_t)(i + 1));
        Move t = f[i];
        f[i] = f[j];
        f[j] = t;
    }
}

/* The moves of a grid in three groups: those that extend a row's correct run (good), the
 * others, and those whose card leaves a dead gap behind (it sat right of a king or a gap). */
typedef struct {
    Move good[MAXMOVES], other[MAXMOVES], bad[MAXMOVES];
    int ng, no, nb;
} Groups;

static Move one_fill(int card, int frm, int to) {
    Move m;
    m.step[0].card = (unsigned char)card;
    m.step[0].frm = (unsigned char)frm;
    m.step[0].to = (unsigned char)to;
    m.n = 1;
    return m;
}

/* The fills, grouped as GapsCore.fills (app/solver/gaps.py) orders them. */
static void fills(const Core *c, Groups *out) {
    int cols = c->cols, top = c->top;
    out->ng = out->no = out->nb = 0;
    for (uint64_t rest = c->gaps; rest; rest &= rest - 1) {
        int g = __builtin_ctzll(rest), k = g % cols;
        if (k == 0) {
            for (int s = 0; s < c->rows; s++) {
                if (!two_allowed(c, s, g / cols)) continue;
                int two = 16 * s + 2;
                Move m = one_fill(two, c->where[two], g);
                if (g + 1 < c->n && c->grid[g + 1] == two + 1) out->good[out->ng++] = m;
                else out->other[out->no++] = m;
            }
            continue;
        }
        int left = c->grid[g - 1];
        if (!left || (left & 15) == top) continue;
        int card = left + 1, frm = c->where[card];
        Move m = one_fill(card, frm, g);
        int row = g / cols, extends = (left & 15) == k + 1;
        if (extends) {
            int first = c->grid[row * cols];
            if (c->starters[row] >= 0 ? first != 16 * c->starters[row] + 2 : (!first || (first & 15) != 2))
                extends = 0;
            for (int j = 1; extends && j < k; j++)
                if (c->grid[row * cols + j] != first + j) extends = 0;
        }
        if (extends) out->good[out->ng++] = m;
        else if (frm % cols && frm - 1 != g && (!c->grid[frm - 1] || (c->grid[frm - 1] & 15) == top))
            out->bad[out->nb++] = m;
        else out->other[out->no++] = m;
    }
}

/* Column 0 as one arrangement (GapsCore.column0_moves, app/solver/gaps.py, "Column 0"; the last
 * round, any 2 in any row). A 2 in column 0 may jump to any other gap of column 0 and back, so
 * the grids that differ only in how the 2s of column 0 sit over the column-0 cells holding a 2
 * or a gap (the members), when one of those is a gap, reach one another and win or lose
 * together: one class, met once (`visit_key` sorts the members' contents). Its moves are every
 * member's, each up to the class it leads to:
 * - a fill that neither goes to column 0 nor sits right of a member's cell is legal in every
 *   member alike and leads to one class (column 0 keeps its gap);
 * - a 3 right of its 2 in a member row: that 2 brought there first (a 2 there moved to a gap);
 * - a 2 from outside column 0 into a gap there: into one gap while another is left (one class);
 *   into the last gap, once for every arrangement of the 2s there (each a grid of its own),
 *   reached by jumps (ROUTES).
 * Under starters a 2 never moves within column 0 and the moves are the fills. */
typedef struct { unsigned char n, hole, jump[4][2]; } Route; /* jumps (from, to) between members */
static Route routes[5][4][24];
static int n_routes[5][4];

/* Every arrangement of m members (one a gap) reached from the gap at `hole`, by fewest jumps. */
static void make_routes(void) {
    for (int m = 2; m <= 4; m++)
        for (int h0 = 0; h0 < m; h0++) {
            unsigned char seen[24][4];
            Route *r = routes[m][h0];
            int n = 1;
            for (int i = 0; i < m; i++) seen[0][i] = i == h0 ? 0 : (unsigned char)(i + 1);
            r[0].n = 0;
            r[0].hole = (unsigned char)h0;
            for (int at = 0; at < n; at++) {
                int h = r[at].hole;
                for (int i = 0; i < m; i++) {
                    if (i == h) continue;
                    unsigned char next[4];
                    memcpy(next, seen[at], 4);
                    next[h] = next[i];
                    next[i] = 0;
                    int known = 0;
                    for (int j = 0; j < n && !known; j++) known = !memcmp(seen[j], next, (size_t)m);
                    if (known) continue;
                    memcpy(seen[n], next, 4);
                    r[n] = r[at];
                    r[n].jump[r[n].n][0] = (unsigned char)i;
                    r[n].jump[r[n].n][1] = (unsigned char)h;
                    r[n].n++;
                    r[n].hole = (unsigned char)i;
                    n++;
                }
            }
            n_routes[m][h0] = n;
        }
}

/* The members (rows) of column 0's class and how many hold a gap; 0 when there is no class. */
static int members_of(const Core *c, int *members, int *open) {
    int m = 0, gaps = 0;
    if (!c->classes) return 0;
    for (int r = 0; r < c->rows; r++) {
        int x = c->grid[r * c->cols];
        if (!x || (x & 15) == 2) {
            members[m++] = r;
            gaps += !x;
        }
    }
    *open = gaps;
    return m >= 2 && gaps ? m : 0;
}

static void order(Core *c, Groups *g, Move *out, int *n) {
    if (c->rng) {
        shuffle(c, g->good, g->ng);
        shuffle(c, g->other, g->no);
        shuffle(c, g->bad, g->nb);
    }
    memcpy(out, g->good, g->ng * sizeof(Move));
    memcpy(out + g->ng, g->other, g->no * sizeof(Move));
    memcpy(out + g->ng + g->no, g->bad, g->nb * sizeof(Move));
    *n = g->ng + g->no + g->nb;
    /* Greedy: the other fills of such a grid are dropped, so a search that ends proves nothing;
     * its space is far smaller, and it holds most wins (app/solver/gaps_exhaustive.py, "Greedy"). */
    if (c->greedy && g->ng) *n = g->ng;
}

static void keep_plain(const Core *c, Move *list, int *n, uint64_t near) {
    int k = 0;
    for (int i = 0; i < *n; i++)
        if (list[i].step[0].to % c->cols && !(near >> list[i].step[0].to & 1)) list[k++] = list[i];
    *n = k;
}

static int moves(Core *c, Move *out) {
    Groups g;
    int members[4], open = 0, n, cols = c->cols;
    fills(c, &g);
    int m = members_of(c, members, &open);
    if (!m) {
        order(c, &g, out, &n);
        return n;
    }
    uint64_t near = 0;
    for (int i = 0; i < m; i++) near |= 1ULL << (members[i] * cols + 1);
    keep_plain(c, g.good, &g.ng, near);
    keep_plain(c, g.other, &g.no, near);
    keep_plain(c, g.bad, &g.nb, near);
    /* a 3 next to its 2: the 2 brought to that row first */
    for (int i = 0; i < m; i++) {
        int r = members[i];
        if (c->grid[r * cols + 1]) continue;
        for (int j = 0; j < m; j++) {
            int at = members[j], two = c->grid[at * cols];
            if (!two) continue;
            Move mv;
            mv.n = 0;
            if (at != r) {
                int there = c->grid[r * cols];
                if (there) {
                    int spare = -1;
                    for (int q = 0; q < m && spare < 0; q++)
                        if (!c->grid[members[q] * cols]) spare = members[q];
                    mv.step[mv.n++] = (Fill){(unsigned char)there, (unsigned char)(r * cols),
                                             (unsigned char)(spare * cols)};
                }
                mv.step[mv.n++] = (Fill){(unsigned char)two, (unsigned char)(at * cols),
                                         (unsigned char)(r * cols)};
            }
            mv.step[mv.n++] = (Fill){(unsigned char)(two + 1), (unsigned char)c->where[two + 1],
                                     (unsigned char)(r * cols + 1)};
            g.good[g.ng++] = mv;
        }
    }
    /* a 2 from outside column 0 into a gap there */
    for (int s = 0; s < c->rows; s++) {
        int two = 16 * s + 2, frm = c->where[two];
        if (!(frm % cols)) continue;
        if (open > 1) { /* a gap is left: every gap gives the same class */
            int row = -1;
            for (int i = 0; i < m; i++) {
                int q = members[i];
                if (c->grid[q * cols]) continue;
                if (row < 0 || (c->grid[q * cols + 1] == two + 1 && c->grid[row * cols + 1] != two + 1))
                    row = q;
            }
            Move mv = one_fill(two, frm, row * cols);
            if (c->grid[row * cols + 1] == two + 1) g.good[g.ng++] = mv;
            else g.other[g.no++] = mv;
            continue;
        }
        int h0 = 0;
        while (c->grid[members[h0] * cols]) h0++;
        for (int k = 0; k < n_routes[m][h0]; k++) {
            const Route *rt = &routes[m][h0][k];
            unsigned char held[4];
            for (int i = 0; i < m; i++) held[i] = c->grid[members[i] * cols];
            Move mv;
            mv.n = 0;
            for (int j = 0; j < rt->n; j++) {
                int a = rt->jump[j][0], b = rt->jump[j][1];
                mv.step[mv.n++] = (Fill){held[a], (unsigned char)(members[a] * cols),
                                         (unsigned char)(members[b] * cols)};
                held[b] = held[a];
                held[a] = 0;
            }
            int row = members[rt->hole];
            mv.step[mv.n++] = (Fill){(unsigned char)two, (unsigned char)frm, (unsigned char)(row * cols)};
            if (c->grid[row * cols + 1] == two + 1) g.good[g.ng++] = mv;
            else g.other[g.no++] = mv;
        }
    }
    order(c, &g, out, &n);
    return n;
}

/* The key the set holds for the current grid: its class's (members' contents sorted) when
 * column 0 is one arrangement, else the grid's own. */
static void visit_key(const Core *c, Key *k) {
    int members[4], open, m = members_of(c, members, &open);
    *k = c->key;
    if (!m) return;
    int held[4], sorted[4];
    for (int i = 0; i < m; i++) held[i] = sorted[i] = c->grid[members[i] * c->cols];
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            int t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    for (int i = 0; i < m; i++)
        if (held[i] != sorted[i]) key_set_on(k, members[i] * c->cols, held[i], sorted[i]);
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

/* 1 when no continuation within this round can win. The suits advance rank by rank together
 * (four independent chains for the processor to overlap), each rank on the cells that could be
 * gaps before it; the least solution is the same in any order. */
static int hopeless(const Core *c) {
    int rows = c->rows, top = c->top, cols = c->cols;
    uint64_t can_gap = c->gaps, reach[14][4], nl = c->not_last;
    const uint64_t (*pos)[4] = c->at;
    uint64_t t2any = c->t2[0] | c->t2[1] | c->t2[2] | c->t2[3];
    int start = 2;
    for (;;) {
        uint64_t before = can_gap, r0, r1, r2, r3, g = can_gap;
        if (start == 2) {
            r0 = pos[2][0] | (g & c->t2[0]);
            r1 = pos[2][1] | (g & c->t2[1]);
            r2 = pos[2][2] | (g & c->t2[2]);
            r3 = pos[2][3] | (g & c->t2[3]);
            reach[2][0] = r0, reach[2][1] = r1, reach[2][2] = r2, reach[2][3] = r3;
            can_gap |= (r0 != pos[2][0] ? pos[2][0] : 0) | (r1 != pos[2][1] ? pos[2][1] : 0)
                | (r2 != pos[2][2] ? pos[2][2] : 0) | (r3 != pos[2][3] ? pos[2][3] : 0);
            start = 3;
        } else {
            r0 = reach[start - 1][0], r1 = reach[start - 1][1];
            r2 = reach[start - 1][2], r3 = reach[start - 1][3];
        }
        for (int k = start; k <= top; k++) {
            g = can_gap;
            r0 = pos[k][0] | (((r0 & nl) << 1) & g);
            r1 = pos[k][1] | (((r1 & nl) << 1) & g);
            r2 = pos[k][2] | (((r2 & nl) << 1) & g);
            r3 = pos[k][3] | (((r3 & nl) << 1) & g);
            reach[k][0] = r0, reach[k][1] = r1, reach[k][2] = r2, reach[k][3] = r3;
            can_gap |= (r0 != pos[k][0] ? pos[k][0] : 0) | (r1 != pos[k][1] ? pos[k][1] : 0)
                | (r2 != pos[k][2] ? pos[k][2] : 0) | (r3 != pos[k][3] ? pos[k][3] : 0);
        }
        if (can_gap == before) break;
        /* The next pass starts at the lowest rank that the new gaps can reach: the ranks below
         * it would compute what they hold (each saw the gaps known before this pass). */
        uint64_t fresh = can_gap & ~before;
        if (fresh & t2any) {
            start = 2;
            continue;
        }
        start = top + 1;
        for (int k = 3; k <= top; k++)
            if (((((reach[k - 1][0] | reach[k - 1][1] | reach[k - 1][2] | reach[k - 1][3]) & nl) << 1)
                 & fresh)) {
                start = k;
                break;
            }
        if (start > top) break;
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
    Move moves[MAXMOVES];
    Key keys[MAXMOVES];      /* the key (`visit_key`) of the grid each move makes */
    uint64_t hash[MAXMOVES]; /* and its key_hash */
    unsigned char fresh[MAXMOVES]; /* whether the move's grid was new to the set in this run */
    int count, next;
    Move via;
} Frame;

/* Card `card` from cell `frm` (left a gap) to the gap at `to`: a fill, or one taken back. */
static void move_card(Core *c, int card, int frm, int to) {
    key_set(c, frm, card, 0);
    key_set(c, to, 0, card);
    c->grid[frm] = 0;
    c->grid[to] = (unsigned char)card;
    c->gaps ^= 1ULL << frm | 1ULL << to;
    c->where[card] = to;
    c->at[card & 15][card >> 4] = 1ULL << to;
}

static void play(Core *c, const Move *m) {
    for (int i = 0; i < m->n; i++) move_card(c, m->step[i].card, m->step[i].frm, m->step[i].to);
}

static void take_back(Core *c, const Move *m) {
    for (int i = m->n - 1; i >= 0; i--) move_card(c, m->step[i].card, m->step[i].to, m->step[i].frm);
}

static double now(int cpu) {
    struct timespec ts;
    clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Whether two fills (one step each) commute: made in either order, each is legal after the
 * other and both make the same grid (they touch four different cells, and neither takes the
 * card left of the other's gap). */
static int independent(const Core *c, const Fill *a, const Fill *b) {
    return a->card != b->card && a->to != b->to && (b->to % c->cols == 0 || b->to - 1 != a->frm)
        && (a->to % c->cols == 0 || a->to - 1 != b->frm);
}

/* Expand a grid: its moves, none when the relaxation condemns it. The slot of the set each move's
 * grid will be looked up in is fetched from memory now, while the search goes on (the set is
 * far larger than the caches, and its lookups are the search's largest cost). */
static int expand(Core *c, Frame *f, int prune, const Frame *parent) {
    f->next = 0;
    if (prune && hopeless(c)) {
        f->count = 0;
        return 0;
    }
    f->count = moves(c, f->moves);
    /* A fill a that the parent made before this grid's own fill b, when the two commute, makes a
     * grid that the parent's a-child met already (it tried b, or its relaxation condemned it and
     * so this one too): it is not looked up again. Only an a-child searched in this run counts:
     * one found in the set was searched in an earlier run, and a cut since may have taken the
     * grid it made by b out of the set, to be searched afresh. */
    if (parent != NULL && f->via.n == 1) {
        const Fill *b = &f->via.step[0];
        int k = 0;
        for (int i = 0; i < f->count; i++) {
            const Move *m = &f->moves[i];
            int asleep = 0;
            if (m->n == 1)
                for (int j = 0; j < parent->next - 1 && !asleep; j++) {
                    const Move *a = &parent->moves[j];
                    asleep = parent->fresh[j] && a->n == 1 && a->step[0].card == m->step[0].card
                        && a->step[0].frm == m->step[0].frm && a->step[0].to == m->step[0].to
                        && independent(c, &a->step[0], b);
                }
            if (!asleep) f->moves[k++] = *m;
        }
        f->count = k;
    }
    /* A fill that leaves column 0 alone leaves its class too: its grid's key is the grid's own
     * with the members' contents sorted as here. */
    Key here;
    visit_key(c, &here);
    for (int w = 0; w < WORDS; w++) here.w[w] ^= c->key.w[w];
    for (int i = 0; i < f->count; i++) {
        Key *k = &f->keys[i];
        const Fill *m = &f->moves[i].step[0];
        if (f->moves[i].n == 1 && m->frm % c->cols && m->to % c->cols) {
            for (int w = 0; w < WORDS; w++) k->w[w] = c->key.w[w] ^ here.w[w];
            key_set_on(k, m->frm, m->card, 0);
            key_set_on(k, m->to, 0, m->card);
        } else {
            play(c, &f->moves[i]);
            visit_key(c, k);
            take_back(c, &f->moves[i]);
        }
        f->hash[i] = key_hash(k);
        __builtin_prefetch(&c->table[f->hash[i] & c->mask]);
    }
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
 * a loss is still a proof. Once `last_cut` grids are searched the run going on is never cut:
 * it ends the search. */
static int search(Core *c, long long max_nodes, double seconds, int cpu, int prune,
                  int prune_every, long long first_run, long long unit, long long last_cut,
                  long long *nodes, Fill **line, int *length) {
    int depth = 0, capacity = 1024, verdict = LOST;
    Key key;
    Frame *stack = malloc(capacity * sizeof(Frame));
    if (stack == NULL) return OUT_OF_MEMORY;
    double deadline = seconds >= 0 ? now(cpu) + seconds : -1;
    long long run = 0, allowance = first_run > 0 ? first_run : -1, run_nodes = 0;
    *nodes = 0;
    if (is_won(c)) {
        verdict = WON;
        goto done;
    }
    visit_key(c, &key);
    if (table_add(c, &key, key_hash(&key)) < 0) {
        verdict = OUT_OF_MEMORY;
        goto done;
    }
    expand(c, &stack[0], prune, NULL);
    while (depth >= 0) {
        Frame *f = &stack[depth];
        if (f->next == f->count) {
            if (depth > 0) take_back(c, &f->via);
            depth--;
            continue;
        }
        /* a grid met before is known by its key, without playing its move */
        int added = table_add(c, &f->keys[f->next], f->hash[f->next]);
        if (added < 0) {
            verdict = OUT_OF_MEMORY;
            break;
        }
        f->fresh[f->next] = (unsigned char)added;
        if (!added) {
            f->next++;
            continue;
        }
        key = f->keys[f->next];
        Move m = f->moves[f->next++];
        play(c, &m);
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
        if (allowance >= 0 && last_cut >= 0 && *nodes >= last_cut) allowance = -1; /* run on, uncut */
        if (allowance >= 0 && ++run_nodes >= allowance) {
            /* The run is cut: its stack leaves the set, and the next run starts at the root. */
            table_remove(c, &key);
            take_back(c, &m);
            for (; depth > 0; depth--) {
                visit_key(c, &key);
                table_remove(c, &key);
                take_back(c, &stack[depth].via);
            }
            run++;
            run_nodes = 0;
            allowance = unit * luby(run);
            c->rng = 0x9E3779B97F4A7C15ULL * (uint64_t)run ^ 0xD1B54A32D192ED03ULL;
            visit_key(c, &key);
            if (table_add(c, &key, key_hash(&key)) < 0) {
                verdict = OUT_OF_MEMORY;
                break;
            }
            expand(c, &stack[0], prune, NULL);
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
        expand(c, &stack[depth], prune && depth % prune_every == 0, &stack[depth - 1]);
    }
done:
    if (verdict == WON) {
        int n = 0;
        for (int d = 1; d <= depth; d++) n += stack[d].via.n;
        *length = n;
        *line = malloc((n + 1) * sizeof(Fill));
        if (*line == NULL) verdict = OUT_OF_MEMORY;
        else
            for (int d = 1, i = 0; d <= depth; d++)
                for (int j = 0; j < stack[d].via.n; j++) (*line)[i++] = stack[d].via.step[j];
    }
    free(stack);
    return verdict;
}

/* --- the beam (GapsCore.beam, app/solver/gaps.py: a win-finder, it proves nothing) ---------- */
enum { BEAM_RUN = 5, BEAM_ADJACENT = 2, BEAM_DEAD = 3, BEAM_LEVELS = 400 };

typedef struct {
    int score;
    int parent, order; /* the parent's index in its level; the order made (ties keep it) */
    unsigned char card, frm, to;
    uint64_t hash;
} Candidate;

typedef struct { int parent; unsigned char card, to; } Step;

static uint64_t zobrist[64][MAXN];

static void make_zobrist(void) {
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int card = 0; card < 64; card++)
        for (int q = 0; q < MAXN; q++) {
            uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            zobrist[card][q] = z ^ (z >> 31);
        }
}

/* The beam's evaluation of `grid` (Core's shape): BEAM_RUN x cards in correct runs +
 * BEAM_ADJACENT x (X - 1, X) neighbours - BEAM_DEAD x dead gaps; *in_runs, *dead set. */
static int evaluate(Core *c, const unsigned char *grid, int *in_runs, int *dead) {
    int cols = c->cols, adjacent = 0, runs = 0, dead_gaps = 0;
    for (int r = 0; r < c->rows; r++) {
        const unsigned char *row = grid + r * cols;
        int first = row[0], k = 0;
        if (c->starters[r] >= 0 ? first == 16 * c->starters[r] + 2 : (first && (first & 15) == 2)) {
            k = 1;
            while (k < cols - 1 && row[k] == first + k) k++;
        }
        runs += k;
        for (int j = 1; j < cols; j++) {
            if (row[j]) adjacent += row[j] == row[j - 1] + 1;
            else dead_gaps += !row[j - 1] || (row[j - 1] & 15) == c->top;
        }
    }
    *in_runs = runs;
    *dead = dead_gaps;
    return BEAM_RUN * runs + BEAM_ADJACENT * adjacent - BEAM_DEAD * dead_gaps;
}

static int by_score(const void *a, const void *b) {
    const Candidate *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return x->order < y->order ? -1 : 1;
}

/* 64-bit keys of the positions made; a collision can only drop a position, as a beam may. */
typedef struct { uint64_t *slot, mask, count; } Seen;

static int seen_add(Seen *t, uint64_t h) {
    h |= 1;
    if (t->count + 1 > (t->mask + 1) / 2) {
        uint64_t size = (t->mask + 1) * 2, *bigger = calloc(size, sizeof(uint64_t));
        if (bigger == NULL) return -1;
        for (uint64_t i = 0; i <= t->mask; i++) {
            uint64_t e = t->slot[i];
            if (!e) continue;
            uint64_t j = (e * 0x9E3779B97F4A7C15ULL >> 20) & (size - 1);
            while (bigger[j]) j = (j + 1) & (size - 1);
            bigger[j] = e;
        }
        free(t->slot);
        t->slot = bigger;
        t->mask = size - 1;
    }
    for (uint64_t i = (h * 0x9E3779B97F4A7C15ULL >> 20) & t->mask;; i = (i + 1) & t->mask) {
        if (!t->slot[i]) {
            t->slot[i] = h;
            t->count++;
            return 1;
        }
        if (t->slot[i] == h) return 0;
    }
}

/* Beam search from the Core's grid: level by level every fill of every kept grid is made, the
 * new ones (not made before in this beam) are ranked by `evaluate` (ties: the order made), and
 * the best `width` kept; a grid with every gap dead is dropped. WON with the line of fills,
 * LOST when a level is empty or BEAM_LEVELS pass (nothing proven), or out of nodes, time or
 * memory; *made counts the grids made. */
static int beam(Core *c, int width, long long max_nodes, double seconds, int cpu, long long *made,
                Fill **line, int *length) {
    int n = c->n, cols = c->cols, verdict = LOST, levels = 0, count = 1;
    int n_gaps = __builtin_popcountll(c->gaps);
    double deadline = seconds >= 0 ? now(cpu) + seconds : -1;
    unsigned char *level = malloc((size_t)width * n), *next = malloc((size_t)width * n);
    uint64_t *hashes = malloc(width * sizeof(uint64_t)), *next_hashes = malloc(width * sizeof(uint64_t));
    Step *history = malloc((size_t)BEAM_LEVELS * width * sizeof(Step));
    size_t capacity = 4096;
    Candidate *cand = malloc(capacity * sizeof(Candidate));
    Seen seen = {calloc(1 << 16, sizeof(uint64_t)), (1 << 16) - 1, 0};
    unsigned char after[MAXN];
    int won_parent = -1;
    Candidate won = {0};
    *made = 0;
    if (!level || !next || !hashes || !next_hashes || !history || !cand || !seen.slot) {
        verdict = OUT_OF_MEMORY;
        goto done;
    }
    memcpy(level, c->grid, n);
    hashes[0] = 0;
    for (int q = 0; q < n; q++)
        if (c->grid[q]) hashes[0] ^= zobrist[c->grid[q]][q];
    seen_add(&seen, hashes[0]);
    for (; levels < BEAM_LEVELS; levels++) {
        size_t nc = 0;
        for (int p = 0; p < count && won_parent < 0; p++) {
            const unsigned char *here = level + (size_t)p * n;
            int where[64];
            for (int q = 0; q < n; q++)
                if (here[q]) where[here[q]] = q;
            for (int g = 0; g < n && won_parent < 0; g++) {
                if (here[g]) continue;
                int k = g % cols, cards[4], nk = 0;
                if (k == 0) {
                    for (int s = 0; s < c->rows; s++)
                        if (two_allowed(c, s, g / cols)) cards[nk++] = 16 * s + 2;
                } else {
                    int left = here[g - 1];
                    if (!left || (left & 15) == c->top) continue;
                    cards[nk++] = left + 1;
                }
                for (int i = 0; i < nk; i++) {
                    int card = cards[i], frm = where[card];
                    uint64_t h = hashes[p] ^ zobrist[card][frm] ^ zobrist[card][g];
                    int added = seen_add(&seen, h);
                    if (added < 0) {
                        verdict = OUT_OF_MEMORY;
                        goto done;
                    }
                    if (!added) continue;
                    ++*made;
                    if (max_nodes >= 0 && *made >= max_nodes) {
                        verdict = OUT_OF_NODES;
                        goto done;
                    }
                    if (deadline >= 0 && (*made & 1023) == 0 && now(cpu) >= deadline) {
                        verdict = OUT_OF_TIME;
                        goto done;
                    }
                    memcpy(after, here, n);
                    after[frm] = 0;
                    after[g] = (unsigned char)card;
                    int in_runs, dead, score = evaluate(c, after, &in_runs, &dead);
                    Candidate m = {score, p, (int)nc, (unsigned char)card, (unsigned char)frm,
                                   (unsigned char)g, h};
                    if (in_runs == c->rows * (cols - 1)) {
                        won_parent = p;
                        won = m;
                        break;
                    }
                    if (dead == n_gaps) continue; /* no fill left: a dead end would waste a place */
                    if (nc == capacity) {
                        Candidate *bigger = realloc(cand, 2 * capacity * sizeof(Candidate));
                        if (bigger == NULL) {
                            verdict = OUT_OF_MEMORY;
                            goto done;
                        }
                        cand = bigger;
                        capacity *= 2;
                    }
                    cand[nc++] = m;
                }
            }
        }
        if (won_parent >= 0) {
            verdict = WON;
            break;
        }
        if (nc == 0) break;
        if (nc > (size_t)width) {
            qsort(cand, nc, sizeof(Candidate), by_score);
            nc = width;
        }
        Step *steps = history + (size_t)levels * width;
        for (size_t i = 0; i < nc; i++) {
            unsigned char *child = next + i * n;
            memcpy(child, level + (size_t)cand[i].parent * n, n);
            child[cand[i].frm] = 0;
            child[cand[i].to] = cand[i].card;
            next_hashes[i] = cand[i].hash;
            steps[i] = (Step){cand[i].parent, cand[i].card, cand[i].to};
        }
        unsigned char *t = level;
        level = next;
        next = t;
        uint64_t *th = hashes;
        hashes = next_hashes;
        next_hashes = th;
        count = (int)nc;
    }
done:
    if (verdict == WON) {
        *length = levels + 1;
        *line = malloc((levels + 1) * sizeof(Fill));
        if (*line == NULL) {
            verdict = OUT_OF_MEMORY;
        } else {
            int p = won_parent;
            (*line)[levels] = (Fill){won.card, won.frm, won.to};
            for (int l = levels - 1; l >= 0; l--) {
                Step st = history[(size_t)l * width + p];
                (*line)[l] = (Fill){st.card, 0, st.to};
                p = st.parent;
            }
        }
    }
    free(level);
    free(next);
    free(hashes);
    free(next_hashes);
    free(history);
    free(cand);
    free(seen.slot);
    return verdict;
}

/* The Core of a board from Python's arguments; NULL (an exception set) when they are not one. */
static Core *core_new(const Py_buffer *grid, int rows, int cols, const Py_buffer *starters) {
    if (rows < 1 || rows > 4 || cols < 2 || cols > 13 || grid->len != rows * cols
        || (starters->len != 0 && starters->len != rows)) {
        PyErr_SetString(PyExc_ValueError, "a board is 1-4 rows of 2-13 cells, starters one per row or none");
        return NULL;
    }
    Core *c = calloc(1, sizeof(Core));
    if (c == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    c->rows = rows;
    c->cols = cols;
    c->n = rows * cols;
    c->top = cols;
    for (int i = 0; i < c->n; i++) {
        int x = ((const unsigned char *)grid->buf)[i];
        if (x && ((x >> 4) >= rows || (x & 15) < 2 || (x & 15) > cols)) {
            PyErr_SetString(PyExc_ValueError, "a cell holds a card 16 * suit + rank or 0");
            free(c);
            return NULL;
        }
        c->grid[i] = (unsigned char)x;
        if (x) {
            c->where[x] = i;
            c->at[x & 15][x >> 4] = 1ULL << i;
        }
        else c->gaps |= 1ULL << i;
        key_set(c, i, 0, x);
    }
    for (int r = 0; r < rows; r++) {
        c->starters[r] = starters->len ? ((const unsigned char *)starters->buf)[r] : -1;
        c->last_mask |= 1ULL << (r * cols + cols - 1);
        c->col0_mask |= 1ULL << (r * cols);
    }
    c->not_last = ((c->n == 64 ? 0 : (1ULL << c->n)) - 1) & ~c->last_mask;
    for (int s = 0; s < rows; s++)
        for (int r = 0; r < rows; r++)
            if (two_allowed(c, s, r)) c->t2[s] |= 1ULL << (r * cols);
    return c;
}

static void core_free(Core *c) {
    if (c == NULL) return;
    free(c->table);
    free(c->keys);
    free(c->free_slots);
    free(c);
}

/* (verdict, count, [(card, cell), ...]): the fills of a win, none otherwise. */
static PyObject *answer(int verdict, long long count, const Fill *line, int length) {
    PyObject *moves = PyList_New(0);
    if (moves == NULL) return NULL;
    for (int i = 0; verdict == WON && i < length; i++) {
        PyObject *pair = Py_BuildValue("(ii)", line[i].card, line[i].to);
        if (pair == NULL || PyList_Append(moves, pair) < 0) {
            Py_XDECREF(pair);
            Py_DECREF(moves);
            return NULL;
        }
        Py_DECREF(pair);
    }
    return Py_BuildValue("(iLN)", verdict, count, moves);
}

/* search(grid: bytes, rows, cols, starters: bytes, max_nodes, seconds, cpu_clock, prune,
 *        max_states, first_run=0, unit=0, prune_every=1, classes=False, last_cut=-1,
 *        greedy=False) -> (verdict, nodes, line):
 * verdict 0 lost, 1 won, 2-4 undecided (nodes, time, memory); line is a list of (card, cell)
 * fills when won. max_nodes, seconds < 0: no limit; first_run 0: one run in the fixed order (no
 * restarts); with prune, the relaxation at each run's root and at every prune_every-th depth;
 * with classes (and no starters), column 0 as one arrangement (`moves`); once `last_cut` grids
 * are searched (>= 0), the run going on is not cut; with greedy, a grid with fills that extend
 * a row's correct run has only those, and a loss (0) proves nothing. */
static PyObject *py_search(PyObject *self, PyObject *args) {
    Py_buffer grid, starters;
    int rows, cols, cpu, prune;
    long long max_nodes, max_states, first_run = 0, unit = 0, last_cut = -1;
    int prune_every = 1, classes = 0, greedy = 0;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*iiy*LdppL|LLipLp", &grid, &rows, &cols, &starters, &max_nodes,
                          &seconds, &cpu, &prune, &max_states, &first_run, &unit, &prune_every,
                          &classes, &last_cut, &greedy))
        return NULL;
    PyObject *result = NULL;
    Core *c = core_new(&grid, rows, cols, &starters);
    if (c == NULL) goto release;
    c->classes = classes && !starters.len;
    c->greedy = greedy;
    c->mask = (1 << 16) - 1;
    c->max_count = max_states < 0 ? (size_t)-1 : (size_t)max_states;
    c->table = calloc(c->mask + 1, sizeof(uint64_t));
    if (c->table == NULL) {
        PyErr_NoMemory();
        goto release;
    }
    long long nodes = 0;
    Fill *line = NULL;
    int length = 0, verdict;
    Py_BEGIN_ALLOW_THREADS
    verdict = search(c, max_nodes, seconds, cpu, prune, prune_every < 1 ? 1 : prune_every,
                     first_run, unit < 1 ? 1 : unit, last_cut, &nodes, &line, &length);
    Py_END_ALLOW_THREADS
    result = answer(verdict, nodes, line, length);
    free(line);
release:
    core_free(c);
    PyBuffer_Release(&grid);
    PyBuffer_Release(&starters);
    return result;
}

/* beam(grid: bytes, rows, cols, starters: bytes, width, max_nodes, seconds, cpu_clock)
 * -> (verdict, made, line): verdict 1 won (line: the (card, cell) fills), 0 the beam found no
 * win (nothing proven), 2-4 out of nodes, time or memory; made: the grids it made. */
static PyObject *py_beam(PyObject *self, PyObject *args) {
    Py_buffer grid, starters;
    int rows, cols, width, cpu;
    long long max_nodes;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*iiy*iLdp", &grid, &rows, &cols, &starters, &width, &max_nodes,
                          &seconds, &cpu))
        return NULL;
    PyObject *result = NULL;
    Core *c = NULL;
    if (width < 1) {
        PyErr_SetString(PyExc_ValueError, "a beam is at least 1 wide");
        goto release;
    }
    c = core_new(&grid, rows, cols, &starters);
    if (c == NULL) goto release;
    long long made = 0;
    Fill *line = NULL;
    int length = 0, verdict;
    Py_BEGIN_ALLOW_THREADS
    verdict = beam(c, width, max_nodes, seconds, cpu, &made, &line, &length);
    Py_END_ALLOW_THREADS
    result = answer(verdict, made, line, length);
    free(line);
release:
    core_free(c);
    PyBuffer_Release(&grid);
    PyBuffer_Release(&starters);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, "Exhaustive depth-first search of one Gaps round."},
    {"beam", py_beam, METH_VARARGS, "Beam search for a win of one Gaps round."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_gaps_core", NULL, -1, methods};

PyMODINIT_FUNC PyInit__gaps_core(void) {
    make_routes();
    make_zobrist();
    return PyModule_Create(&module);
}
