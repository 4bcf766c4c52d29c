/* app.solver._core: the A* of ``app.solver.shortest.ShortestSearch.run`` with the reach bound,
 * compiled, for the Pyramid family's stock games whose goal is the pyramids and whose passes are
 * limited (pyramid, pyramid-3, double-pyramid). One entry point, ``search``; the Python search
 * (``ShortestSearch``) is its specification: the same moves (an open king first, the forced pair
 * of a card with one partner left, every removal, draw and recycle), the same admissible bound
 * (kings + stock kings up to the deepest reach + a recycle + each value group's relaxed shortest
 * win that reaches that deep; with one partition, the least over the cuts of the waste (the
 * cards over a card, or none) of that bound over relaxed wins that clear their cards over the cut
 * before a recycle and leave their top card under it on the waste, plus the kings over the cut:
 * ``_burial``, which A* takes for a position it is about to expand and the beams not at all),
 * the same pruning below ``upper``. Only the order of positions of equal f and g may differ, so
 * a line it answers may be another line of the same length. The line is replayed by the engine
 * on the Python side before anyone sees it.
 *
 * A position is the removed layout mask (up to 64 cards), and one word with the mask of the
 * sequence cards left (up to 50), the stock pointer (6 bits) and the pass (8 bits); positions
 * whose waste and stock hold the same values in the same order are one (``canonical``). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KING 13
#define INF (1 << 20)
#define STOCK 100
#define WASTE 101
#define NONE 255
#define MOVE_DRAW 0xFFFEu
#define MOVE_RECYCLE 0xFFFDu
#define MAX_SEQ 50
#define MAX_GROUP 32  /* cards of one relaxed game in the layout and the sequence together */
#define MAX_GAMES 24
#define MAX_PARTITIONS 8
#define MAX_GMOVES (MAX_GROUP * MAX_GROUP / 4 + 3 * MAX_GROUP + 8)
#define MAX_F 256

/* A 64-bit popcount inline: without a popcount instruction (no ``-mpopcnt``) the builtin is a call
 * into libgcc (4 % of a par search's CPU, perf). */
static inline int popcount64(uint64_t x) {
#if defined(__POPCNT__) || !defined(__GNUC__)
    return __builtin_popcountll(x);
#else
    x = x - (x >> 1 & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)(x * 0x0101010101010101ULL >> 56);
#endif
}

/* --- hash tables ------------------------------------------------------------------------- */

typedef struct {
    uint64_t key;
    int32_t a, b;
} Entry;

typedef struct {
    Entry *slots;
    size_t mask, count;
} Memo;

#define EMPTY UINT64_MAX

static int memo_init(Memo *m, size_t cap) {
    m->slots = malloc(cap * sizeof(Entry));
    if (!m->slots) return -1;
    for (size_t i = 0; i < cap; i++) m->slots[i].key = EMPTY;
    m->mask = cap - 1;
    m->count = 0;
    return 0;
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static Entry *memo_find(const Memo *m, uint64_t key) {
    size_t i = mix(key) & m->mask;
    for (;;) {
        Entry *e = &m->slots[i];
        if (e->key == key) return e;
        if (e->key == EMPTY) return NULL;
        i = (i + 1) & m->mask;
    }
}

static inline void memo_prefetch(const Memo *m, uint64_t key) {
    __builtin_prefetch(&m->slots[mix(key) & m->mask]);
}

static int memo_put(Memo *m, uint64_t key, int32_t a, int32_t b) {
    if (2 * (m->count + 1) > m->mask + 1) {
        Memo bigger;
        if (memo_init(&bigger, 2 * (m->mask + 1))) return -1;
        for (size_t i = 0; i <= m->mask; i++)
            if (m->slots[i].key != EMPTY) {
                Entry *s = &m->slots[i];
                size_t j = mix(s->key) & bigger.mask;
                while (bigger.slots[j].key != EMPTY) j = (j + 1) & bigger.mask;
                bigger.slots[j] = *s;
            }
        bigger.count = m->count;
        free(m->slots);
        *m = bigger;
    }
    size_t i = mix(key) & m->mask;
    while (m->slots[i].key != EMPTY && m->slots[i].key != key) i = (i + 1) & m->mask;
    if (m->slots[i].key == EMPTY) m->count++;
    m->slots[i].key = key;
    m->slots[i].a = a;
    m->slots[i].b = b;
    return 0;
}

/* A game's answers to the positions ``bound`` asked about last, by a few bits of their keys: a
 * position's children share most games' positions with it and with each other, and ``dist`` and
 * ``reached`` are far larger than the caches (their answers never change once made). */
#define FRONT 512

static inline Entry *front_of(Entry *front, uint64_t mixed) { return &front[mixed >> 52 & (FRONT - 1)]; }

/* --- the relaxed game of one value group (``_GroupGame``) -------------------------------- */

typedef struct {
    int nl, ns;                 /* the group's layout cards, its sequence cards */
    int lay[MAX_GROUP];         /* layout index of each local layout card */
    int lval[MAX_GROUP];
    uint32_t cov[MAX_GROUP];    /* the group's cards over each (transitively), local bits */
    uint32_t full;              /* every local layout card */
    int sidx[MAX_GROUP];        /* sequence index of each local sequence card */
    int sval[MAX_GROUP];
    int shift_p, shift_pas, shift_deep;
    Memo dist;                  /* key -> (shortest win, reach) */
    Memo reached;               /* key | deep -> shortest win that reaches deep */
    Memo held, buried;          /* key | need | frozen (| deep) -> ``group_held``, ``group_burying`` */
    int shift_need;             /* where those keys put the cards to clear (0: the game has no room) */
    Entry front_dist[FRONT], front_reached[FRONT];  /* ``bound``'s last answers of ``dist`` and ``reached`` */
    Entry front_held[FRONT], front_buried[FRONT];   /* ``cut_case``'s of ``held`` and ``buried`` */
} Group;

/* What one position's burial has asked of each game (``bound``): its cuts ask the same of most
 * games again and again (a game's conditions change only where the cut passes one of its cards:
 * its ``k`` waste cards give it ``k`` + 1 of them), and the memos' tables are far larger than the
 * caches. */
typedef struct {
    uint32_t at;                                /* asked at position ``at`` (else not asked) */
    int32_t held_reach, deep, len;              /* the reach; the length at the last depth asked */
} Cond;

typedef struct {
    int32_t plain[MAX_GAMES][MAX_SEQ + 2];      /* group_reaching at deep + 1 ... */
    uint32_t plain_at[MAX_GAMES][MAX_SEQ + 2];  /* ... when this is ``at`` (else not asked) */
    uint32_t at;                                /* counts the positions asked about */
    int32_t reach[MAX_GAMES];                   /* the plain reach */
    Cond cond[MAX_GAMES][MAX_GROUP + 1];        /* per game and count of its waste cards to clear */
} Asked;

typedef struct {
    int L, n, passes;
    int vals[64];
    uint64_t covers[64];
    uint64_t full;
    int seq[MAX_SEQ];
    uint64_t layout_partners[64];
    uint64_t seq_of_value[14];
    uint64_t layout_kings, seq_kings;
    int ngroups;                /* the relaxed games (value groups alone or together) */
    Group groups[MAX_GAMES];
    int nparts;                 /* the bound's partitions of the groups, each a list of games */
    int part_len[MAX_PARTITIONS], part[MAX_PARTITIONS][6];
    int burial;                 /* the waste's burial is part of the bound (one partition, room in the keys) */
    int seq_game[MAX_SEQ], seq_local[MAX_SEQ];  /* each sequence card's game and its place there (-1: a king) */
    int disjoint;               /* one partition: each card in one game at most (``project_all``) */
    uint64_t lay_bits[64][3], seq_bits[MAX_SEQ][3];  /* each card's local bit in its game (``project_all``) */
    long relaxed, relaxed_cap;
    int aborted;
    Asked asked;                /* what the burial of the position ``bound`` is at has asked */
} Core;

static inline uint64_t gkey(const Group *g, uint32_t lrm, uint32_t lam, int lp, int pas) {
    return (uint64_t)lrm | (uint64_t)lam << g->nl | (uint64_t)lp << g->shift_p | (uint64_t)pas << g->shift_pas;
}

static inline int next_from(uint32_t mask, int from, int ns) {
    /* the first local sequence card at or after ``from`` still there (``ns``: none) */
    uint32_t x = from >= 32 ? 0 : mask >> from;
    return x ? from + __builtin_ctz(x) : ns;
}

/* The relaxed moves from a position: (child, cost, sequence index touched: -1 none, n recycle). */
typedef struct {
    uint32_t lrm, lam;
    uint8_t lp, pas, cost;
    int8_t touch;
} GMove;

static int group_moves(const Core *c, const Group *g, uint32_t lrm, uint32_t lam, int lp, int pas, GMove *out) {
    int k = 0, ex[MAX_GROUP], ne = 0;
    for (int x = 0; x < g->nl; x++)
        if (!(lrm >> x & 1) && !(g->cov[x] & ~lrm)) ex[ne++] = x;
    for (int a = 0; a < ne; a++)
        for (int b = a + 1; b < ne; b++)
            if (g->lval[ex[a]] + g->lval[ex[b]] == 13)
                out[k++] = (GMove){lrm | 1u << ex[a] | 1u << ex[b], lam, lp, pas, 1, -1};
    int ns = g->ns;
    uint32_t below = lp >= 32 ? lam : lam & ((1u << lp) - 1);
    int w = below ? 31 - __builtin_clz(below) : -1;
    if (lp < ns) {
        int sv = g->sval[lp], at = g->sidx[lp];
        uint32_t after = lam & ~(1u << lp);
        int nxt = next_from(after, lp + 1, ns);
        for (int a = 0; a < ne; a++)
            if (g->lval[ex[a]] + sv == 13) out[k++] = (GMove){lrm | 1u << ex[a], after, nxt, pas, 1, at};
        out[k++] = (GMove){lrm, lam, next_from(lam, lp + 1, ns), pas, 1, at};
    }
    if (w >= 0) {
        int wv = g->sval[w];
        uint32_t after = lam & ~(1u << w);
        for (int a = 0; a < ne; a++)
            if (g->lval[ex[a]] + wv == 13) out[k++] = (GMove){lrm | 1u << ex[a], after, lp, pas, 1, -1};
        if (lp < ns && g->sval[lp] + wv == 13) {
            uint32_t both = after & ~(1u << lp);
            out[k++] = (GMove){lrm, both, next_from(both, lp + 1, ns), pas, 1, g->sidx[lp]};
        }
    }
    if (lp == ns && pas < c->passes)
        out[k++] = (GMove){lrm, lam, next_from(lam, 0, ns), pas + 1, 0, c->n};
    return k;
}

static void tick(Core *c) {
    if (++c->relaxed > c->relaxed_cap) c->aborted = 1;
}

/* The shortest relaxed win and its reach (the least, over the relaxed wins, of the deepest
 * sequence index one takes or draws a card from: -1 none, n every win recycles, INF none wins). */
static int32_t group_distance(Core *c, Group *g, uint32_t lrm, uint32_t lam, int lp, int pas, int32_t *reach) {
    uint64_t key = gkey(g, lrm, lam, lp, pas);
    Entry *e = memo_find(&g->dist, key);
    if (e) {
        *reach = e->b;
        return e->a;
    }
    int32_t best = INF, deepest = INF;
    if (lrm == g->full) {
        best = 0;
        deepest = -1;
    } else if (!c->aborted) {
        tick(c);
        GMove moves[MAX_GMOVES];
        int k = group_moves(c, g, lrm, lam, lp, pas, moves);
        for (int i = 0; i < k; i++) {
            int32_t r, d = group_distance(c, g, moves[i].lrm, moves[i].lam, moves[i].lp, moves[i].pas, &r);
            if (d < INF) {
                if (moves[i].cost + d < best) best = moves[i].cost + d;
                int32_t t = moves[i].touch > r ? moves[i].touch : r;
                if (t < deepest) deepest = t;
            }
        }
    }
    if (c->aborted) return *reach = INF;  /* nothing is kept: the search stops */
    if (memo_put(&g->dist, key, best, deepest)) {
        c->aborted = 2;
        return *reach = INF;
    }
    *reach = deepest;
    return best;
}

static inline int global_p(const Core *c, const Group *g, int lp) { return lp < g->ns ? g->sidx[lp] : c->n; }

/* The shortest relaxed win that takes or draws every group card of the sequence up to ``deep``
 * (``_GroupGame.reaching``). */
static int32_t group_reaching(Core *c, Group *g, uint32_t lrm, uint32_t lam, int lp, int pas, int deep) {
    int32_t r;
    if (global_p(c, g, lp) > deep) return group_distance(c, g, lrm, lam, lp, pas, &r);
    uint64_t key = gkey(g, lrm, lam, lp, pas) | (uint64_t)(deep + 1) << g->shift_deep;
    Entry *e = memo_find(&g->reached, key);
    if (e) return e->a;
    int32_t best = INF;
    if (!c->aborted) {
        tick(c);
        GMove moves[MAX_GMOVES];
        int k = group_moves(c, g, lrm, lam, lp, pas, moves);
        for (int i = 0; i < k; i++) {
            GMove *m = &moves[i];
            int32_t d = (m->touch == c->n || global_p(c, g, m->lp) > deep)
                            ? group_distance(c, g, m->lrm, m->lam, m->lp, m->pas, &r)
                            : group_reaching(c, g, m->lrm, m->lam, m->lp, m->pas, deep);
            if (d < INF && m->cost + d < best) best = m->cost + d;
        }
    }
    if (c->aborted) return INF;
    if (memo_put(&g->reached, key, best, 0)) {
        c->aborted = 2;
        return INF;
    }
    return best;
}

/* The waste's burial (``_GroupGame.held`` and ``burying``): relaxed wins that, before any
 * recycle, take every card of ``need`` (local sequence bits of cards on the waste) away and never
 * take the waste card ``frozen`` (a local sequence index, -1: none) from the waste. */
static inline uint64_t burial_key(const Group *g, uint32_t lrm, uint32_t lam, int lp, int pas, uint32_t need,
                                  int frozen, int deep) {
    return gkey(g, lrm, lam, lp, pas) | (uint64_t)need << g->shift_need
           | (uint64_t)(frozen + 1) << (g->shift_need + g->ns) | (uint64_t)(deep + 1) << (g->shift_need + g->ns + 6);
}

/* ``need`` and ``frozen`` as they stand (``_GroupGame._held``): the cards of ``need`` still on the
 * waste, and ``frozen`` only while it is there. */
static inline void held_now(uint32_t lam, uint32_t *need, int *frozen) {
    *need &= lam;
    if (*frozen >= 0 && !(lam >> *frozen & 1)) *frozen = -1;
}

/* The shortest such win and its reach (``_GroupGame.held``; as ``group_distance``'s). */
static int32_t group_held(Core *c, Group *g, uint32_t lrm, uint32_t lam, int lp, int pas, uint32_t need, int frozen,
                          int32_t *reach) {
    held_now(lam, &need, &frozen);
    if (!need && frozen < 0) return group_distance(c, g, lrm, lam, lp, pas, reach);
    if (!need && lrm == g->full) {  /* won, the frozen card left on the waste */
        *reach = -1;
        return 0;
    }
    uint64_t key = burial_key(g, lrm, lam, lp, pas, need, frozen, -1);
    Entry *e = memo_find(&g->held, key);
    if (e) {
        *reach = e->b;
        return e->a;
    }
    int32_t best = INF, deepest = INF;
    if (!c->aborted) {
        tick(c);
        GMove moves[MAX_GMOVES];
        int k = group_moves(c, g, lrm, lam, lp, pas, moves);
        for (int i = 0; i < k; i++) {
            GMove *m = &moves[i];
            int32_t d, r;
            if (m->pas != pas) {  /* a recycle: only once every card of ``need`` is gone */
                if (need) continue;
                d = group_distance(c, g, m->lrm, m->lam, m->lp, m->pas, &r);
                r = c->n;
            } else {
                if (frozen >= 0 && !(m->lam >> frozen & 1)) continue;
                d = group_held(c, g, m->lrm, m->lam, m->lp, m->pas, need, frozen, &r);
            }
            if (d < INF) {
                if (m->cost + d < best) best = m->cost + d;
                int32_t t = m->touch > r ? m->touch : r;
                if (t < deepest) deepest = t;
            }
        }
    }
    if (c->aborted) return *reach = INF;
    if (memo_put(&g->held, key, best, deepest)) {
        c->aborted = 2;
        return *reach = INF;
    }
    *reach = deepest;
    return best;
}

/* The shortest such win that also reaches ``deep`` (``group_reaching``; -1: any). */
static int32_t group_burying(Core *c, Group *g, uint32_t lrm, uint32_t lam, int lp, int pas, int deep, uint32_t need,
                             int frozen) {
    int32_t r;
    if (deep < 0) return group_held(c, g, lrm, lam, lp, pas, need, frozen, &r);
    held_now(lam, &need, &frozen);
    if (!need && frozen < 0) return group_reaching(c, g, lrm, lam, lp, pas, deep);
    if (!need && lrm == g->full)  /* won, the frozen card left on the waste */
        return global_p(c, g, lp) > deep ? 0 : group_reaching(c, g, lrm, lam, lp, pas, deep);
    uint64_t key = burial_key(g, lrm, lam, lp, pas, need, frozen, deep);
    Entry *e = memo_find(&g->buried, key);
    if (e) return e->a;
    int32_t best = INF;
    if (!c->aborted) {
        tick(c);
        GMove moves[MAX_GMOVES];
        int k = group_moves(c, g, lrm, lam, lp, pas, moves);
        for (int i = 0; i < k; i++) {
            GMove *m = &moves[i];
            int32_t d;
            if (m->pas != pas) {  /* a recycle: only once every card of ``need`` is gone */
                if (need) continue;
                d = group_distance(c, g, m->lrm, m->lam, m->lp, m->pas, &r);
            } else {
                if (frozen >= 0 && !(m->lam >> frozen & 1)) continue;
                d = group_burying(c, g, m->lrm, m->lam, m->lp, m->pas, deep, need, frozen);
            }
            if (d < INF && m->cost + d < best) best = m->cost + d;
        }
    }
    if (c->aborted) return INF;
    if (memo_put(&g->buried, key, best, 0)) {
        c->aborted = 2;
        return INF;
    }
    return best;
}

/* The local sequence bits of game ``g`` of the global sequence mask ``mask``. */
static uint32_t local_seq(const Group *g, uint64_t mask) {
    uint32_t out = 0;
    for (int k = 0; k < g->ns; k++) out |= (uint32_t)(mask >> g->sidx[k] & 1) << k;
    return out;
}

/* ``ShortestSearch._uncounted``: the layout's ``kings`` left, the stock kings up to ``deep``
 * and the recycle when ``deep`` is ``n``. */
static inline int uncounted(const Core *c, int kings, uint64_t am, int p, int deep) {
    if (deep >= p) {
        uint64_t upto = deep >= 63 ? UINT64_MAX : ((2ULL << deep) - 1);
        kings += popcount64(am & c->seq_kings & (upto >> p << p));
    }
    return kings + (deep == c->n);
}

/* ``group_held`` and ``group_burying`` as ``cut_case`` asks them: the answers of the games'
 * positions with conditions (``held`` and ``buried``) kept in the games' fronts too. */
static int32_t front_held(Core *c, Group *g, uint32_t lrm, uint32_t lam, int lp, int pas, uint32_t need, int frozen,
                          int32_t *reach) {
    uint32_t nd = need & lam;
    int fz = frozen >= 0 && !(lam >> frozen & 1) ? -1 : frozen;
    if (!nd && (fz < 0 || lrm == g->full)) return group_held(c, g, lrm, lam, lp, pas, need, frozen, reach);
    uint64_t key = burial_key(g, lrm, lam, lp, pas, nd, fz, -1);
    Entry *f = front_of(g->front_held, mix(key));
    if (f->key == key) {
        *reach = f->b;
        return f->a;
    }
    int32_t d = group_held(c, g, lrm, lam, lp, pas, need, frozen, reach);
    if (!c->aborted) *f = (Entry){key, d, *reach};
    return d;
}

static int32_t front_burying(Core *c, Group *g, uint32_t lrm, uint32_t lam, int lp, int pas, int deep, uint32_t need,
                             int frozen) {
    uint32_t nd = need & lam;
    int fz = frozen >= 0 && !(lam >> frozen & 1) ? -1 : frozen;
    if (deep < 0 || (!nd && (fz < 0 || lrm == g->full)))
        return group_burying(c, g, lrm, lam, lp, pas, deep, need, frozen);
    uint64_t key = burial_key(g, lrm, lam, lp, pas, nd, fz, deep);
    Entry *f = front_of(g->front_buried, mix(key));
    if (f->key == key) return f->a;
    int32_t d = group_burying(c, g, lrm, lam, lp, pas, deep, need, frozen);
    if (!c->aborted) *f = (Entry){key, d, 0};
    return d;
}

/* The bound when each game's relaxed win must meet ``need`` and ``frozen`` (``_burial_case``), each
 * game's answers kept in ``*q`` by the count of its cards to clear (``ci``: a cut's need is the top
 * of the game's waste cards, its frozen card the next under them). */
static int cut_case(Core *c, Asked *q, int kings, uint64_t am, int p, int pas, const uint32_t *lrm,
                    const uint32_t *lam, const int *lp, const uint32_t *need, const int *frozen, const int *ci) {
    int deep = -1, total = 0;
    for (int j = 0; j < c->ngroups; j++) {
        int32_t r;
        if (!need[j] && frozen[j] < 0) r = q->reach[j];
        else {
            Cond *k = &q->cond[j][ci[j]];
            if (k->at != q->at) {
                k->at = q->at;
                front_held(c, &c->groups[j], lrm[j], lam[j], lp[j], pas, need[j], frozen[j], &k->held_reach);
                k->deep = -2;
            }
            r = k->held_reach;
        }
        if (r > deep) deep = r;
    }
    if (deep >= INF || c->aborted) return INF;
    for (int j = 0; j < c->ngroups; j++) {
        Group *g = &c->groups[j];
        int32_t d;
        if (!need[j] && frozen[j] < 0) {
            if (q->plain_at[j][deep + 1] != q->at) {
                q->plain_at[j][deep + 1] = q->at;
                q->plain[j][deep + 1] = group_burying(c, g, lrm[j], lam[j], lp[j], pas, deep, 0, -1);
            }
            d = q->plain[j][deep + 1];
        } else {
            Cond *k = &q->cond[j][ci[j]];
            if (k->deep != deep) {
                k->deep = deep;
                k->len = front_burying(c, g, lrm[j], lam[j], lp[j], pas, deep, need[j], frozen[j]);
            }
            d = k->len;
        }
        if (d >= INF) return INF;
        total += d;
    }
    return uncounted(c, kings, am, p, deep) + total;
}

static void project(const Group *g, uint64_t pm, uint64_t am, int p, uint32_t *lrm, uint32_t *lam, int *lp) {
    uint32_t r = 0, s = 0;
    for (int x = 0; x < g->nl; x++) r |= (uint32_t)(pm >> g->lay[x] & 1) << x;
    int first = g->ns;
    for (int k = g->ns - 1; k >= 0; k--)
        if (am >> g->sidx[k] & 1) {
            s |= 1u << k;
            if (g->sidx[k] >= p) first = k;
        }
    *lrm = r;
    *lam = s;
    *lp = first;
}

/* ``project`` for every game at once when each card is in one game at most (``disjoint``): a pass
 * over the position's cards instead of one over each game's, the same masks. Game j's local bits
 * are half j % 2 of word j / 2 of a card's ``lay_bits`` / ``seq_bits`` (three words kept in
 * registers: no chain of stores to one mask). */
static void project_all(const Core *c, uint64_t pm, uint64_t am, int p, uint32_t *lrm, uint32_t *lam, int *lp) {
    uint64_t r0 = 0, r1 = 0, r2 = 0, w0 = 0, w1 = 0, w2 = 0, s0 = 0, s1 = 0, s2 = 0;
    for (uint64_t m = pm & c->full; m; m &= m - 1) {
        const uint64_t *b = c->lay_bits[__builtin_ctzll(m)];
        r0 |= b[0];
        r1 |= b[1];
        r2 |= b[2];
    }
    uint64_t low = p >= 64 ? am : am & ((1ULL << p) - 1);
    for (uint64_t m = low; m; m &= m - 1) {  /* the waste */
        const uint64_t *b = c->seq_bits[__builtin_ctzll(m)];
        w0 |= b[0];
        w1 |= b[1];
        w2 |= b[2];
    }
    for (uint64_t m = am & ~low; m; m &= m - 1) {  /* the stock */
        const uint64_t *b = c->seq_bits[__builtin_ctzll(m)];
        s0 |= b[0];
        s1 |= b[1];
        s2 |= b[2];
    }
    uint64_t r[3] = {r0, r1, r2}, w[3] = {w0, w1, w2}, st[3] = {s0, s1, s2};
    for (int j = 0; j < c->ngroups; j++) {
        int sh = 32 * (j & 1);
        uint32_t stock = (uint32_t)(st[j >> 1] >> sh);
        lrm[j] = (uint32_t)(r[j >> 1] >> sh);
        lam[j] = (uint32_t)(w[j >> 1] >> sh) | stock;
        lp[j] = stock ? __builtin_ctz(stock) : c->groups[j].ns;
    }
}

/* ``ShortestSearch._reach_bound`` (with the waste's burial when ``burial``). */
static int bound(Core *c, uint64_t pm, uint64_t am, int p, int pas, int burial) {
    uint32_t lrm[MAX_GAMES], lam[MAX_GAMES];
    int lp[MAX_GAMES], len[MAX_GAMES], deep = -1;
    int32_t reach[MAX_GAMES];
    if (c->disjoint) project_all(c, pm, am, p, lrm, lam, lp);
    else
        for (int i = 0; i < c->ngroups; i++) project(&c->groups[i], pm, am, p, &lrm[i], &lam[i], &lp[i]);
    Entry *fd[MAX_GAMES], *fr[MAX_GAMES];
    int32_t dist[MAX_GAMES];
    for (int i = 0; i < c->ngroups; i++) {  /* the memos are far larger than the caches: ask for every entry at once */
        Group *g = &c->groups[i];
        uint64_t key = gkey(g, lrm[i], lam[i], lp[i], pas), mixed = mix(key);
        fd[i] = front_of(g->front_dist, mixed);
        if (fd[i]->key != key) __builtin_prefetch(&g->dist.slots[mixed & g->dist.mask]);
    }
    for (int i = 0; i < c->ngroups; i++) {
        Group *g = &c->groups[i];
        uint64_t key = gkey(g, lrm[i], lam[i], lp[i], pas);
        if (fd[i]->key == key) {
            dist[i] = fd[i]->a;
            reach[i] = fd[i]->b;
        } else {
            dist[i] = group_distance(c, g, lrm[i], lam[i], lp[i], pas, &reach[i]);
            if (!c->aborted) *fd[i] = (Entry){key, dist[i], reach[i]};
        }
        if (reach[i] > deep) deep = reach[i];
    }
    if (deep >= INF || c->aborted) return INF;
    for (int i = 0; i < c->ngroups; i++) {
        Group *g = &c->groups[i];
        fr[i] = NULL;
        if (global_p(c, g, lp[i]) > deep) continue;
        uint64_t key = gkey(g, lrm[i], lam[i], lp[i], pas) | (uint64_t)(deep + 1) << g->shift_deep, mixed = mix(key);
        fr[i] = front_of(g->front_reached, mixed);
        if (fr[i]->key != key) __builtin_prefetch(&g->reached.slots[mixed & g->reached.mask]);
    }
    for (int i = 0; i < c->ngroups; i++) {  /* ``group_reaching``: a game whose stock starts deeper is its distance */
        Group *g = &c->groups[i];
        if (!fr[i]) {
            len[i] = dist[i];
            continue;
        }
        uint64_t key = gkey(g, lrm[i], lam[i], lp[i], pas) | (uint64_t)(deep + 1) << g->shift_deep;
        if (fr[i]->key == key) len[i] = fr[i]->a;
        else {
            len[i] = group_reaching(c, g, lrm[i], lam[i], lp[i], pas, deep);
            if (!c->aborted) *fr[i] = (Entry){key, len[i], 0};
        }
        if (len[i] >= INF) return INF;
    }
    int total = 0;  /* the largest sum over the partitions */
    for (int k = 0; k < c->nparts; k++) {
        int sum = 0;
        for (int j = 0; j < c->part_len[k]; j++) sum += len[c->part[k][j]];
        if (sum > total) total = sum;
    }
    int layout_kings = popcount64(~pm & c->full & c->layout_kings);
    int best = uncounted(c, layout_kings, am, p, deep) + total;
    if (!burial || !c->burial) return best;
    /* the waste cards a win takes away in this pass are those over some card (the cut): each game
     * takes its own of those before a recycle and leaves its top card under the cut there; the
     * bound holds for the least over the cuts (``ShortestSearch._burial``) */
    uint64_t waste = p >= 64 ? am : am & ((1ULL << p) - 1), nonk = waste & ~c->seq_kings;
    if (!nonk) return best;
    uint32_t gw[MAX_GAMES], need[MAX_GAMES];
    int frozen[MAX_GAMES], ci[MAX_GAMES];
    Asked *q = &c->asked;
    q->at++;  /* from 1: ``calloc`` left every ``at`` 0 */
    for (int j = 0; j < c->ngroups; j++) {
        q->plain_at[j][deep + 1] = q->at;
        q->plain[j][deep + 1] = len[j];
        q->reach[j] = reach[j];
        gw[j] = c->disjoint ? (lp[j] >= 32 ? lam[j] : lam[j] & ((1u << lp[j]) - 1))  /* the game's waste cards, */
                            : local_seq(&c->groups[j], waste);                       /* local bits */
        need[j] = 0;                              /* the cut taking none: each game's top card left */
        frozen[j] = gw[j] ? 31 - __builtin_clz(gw[j]) : -1;
        ci[j] = 0;
    }
    int least = INF, kings = 0;
    for (uint64_t left = nonk;;) {  /* none taken first, then down from the top, a card a step */
        int v = cut_case(c, q, layout_kings, am, p, pas, lrm, lam, lp, need, frozen, ci);
        if (v < INF) v += kings;  /* the kings over the cut */
        if (v <= best) {
            least = best;
            break;
        }
        if (v < least) least = v;
        if (!left) break;
        int i = 63 - __builtin_clzll(left), j = c->seq_game[i];
        left &= ~(1ULL << i);
        uint32_t bit = 1u << c->seq_local[i];
        need[j] |= bit;  /* the card joins its game's cards to clear, its next card under is left */
        ci[j]++;
        uint32_t under = gw[j] & (bit - 1);
        frozen[j] = under ? 31 - __builtin_clz(under) : -1;
        kings = popcount64(waste & c->seq_kings & ~((2ULL << i) - 1));
    }
    if (c->aborted) return INF;
    return least > best ? least : best;
}

/* --- the real game ---------------------------------------------------------------------------- */

#define PMASK 63ULL

static inline uint64_t st_pack(uint64_t am, int p, int pas) {
    return am | (uint64_t)p << MAX_SEQ | (uint64_t)pas << (MAX_SEQ + 6);
}

static inline int first_seq(uint64_t am, int q, int n) {
    uint64_t x = q >= 64 ? 0 : am >> q;
    return x ? q + __builtin_ctzll(x) : n;
}

typedef struct {
    uint64_t pm, st;
    uint16_t move;
} Child;

static inline uint16_t mv(int a, int b) { return (uint16_t)(a | b << 8); }

/* ``ShortestSearch.canonical``: the one packing of the stock and waste that A* keeps of all those
 * with the same values in the same order (the waste's cards at the earliest sequence indices that
 * hold its values in its order, the stock's at the latest): the game from a position depends only
 * on the values, every move is told by its place (stock, waste, layout card), and so is the bound
 * (each relaxed game sees the same values, its reach the same place in the stock). Two lines that
 * took different cards of one value to the same values are one position. */
static uint64_t canonical(const Core *c, uint64_t st) {
    uint64_t am = st & ((1ULL << MAX_SEQ) - 1), out = 0;
    int p = (int)(st >> MAX_SEQ & PMASK), pas = (int)(st >> (MAX_SEQ + 6)), n = c->n;
    uint64_t w = am & ((1ULL << p) - 1), s = am & ~((1ULL << p) - 1);
    int k = 0;
    while (w) {  /* the waste from its bottom: each card at the first index of its value from k */
        int i = __builtin_ctzll(w);
        w &= w - 1;
        int j = __builtin_ctzll(c->seq_of_value[c->seq[i]] >> k << k);
        out |= 1ULL << j;
        k = j + 1;
    }
    int first = n;
    while (s) {  /* the stock from its bottom: each card at the last index of its value under first */
        int i = 63 - __builtin_clzll(s);
        s &= ~(1ULL << i);
        int j = 63 - __builtin_clzll(c->seq_of_value[c->seq[i]] & ((1ULL << first) - 1));
        out |= 1ULL << j;
        first = j;
    }
    return st_pack(out, first, pas);
}

/* ``ShortestSearch.successors`` (with ``forced``): the children of a position, their stock and
 * waste packed ``canonical`` when the position's are (every position A* makes: a start's sequence
 * is whole, so packed so already). Taking the stock's top card or the waste's keeps the packing
 * (the stock's cards under the top and the waste's under its top are packed from their bottoms);
 * a draw puts the card at the first index of its value over the waste's top; a recycle packs the
 * whole sequence as a stock again; -1 for none (an open card has no partner left: no win). */
static int successors(const Core *c, uint64_t pm, uint64_t st, Child *out) {
    uint64_t am = st & ((1ULL << MAX_SEQ) - 1);
    int p = (int)(st >> MAX_SEQ & PMASK), pas = (int)(st >> (MAX_SEQ + 6));
    int n = c->n, ex[64], ne = 0, k = 0;
    for (int i = 0; i < c->L; i++)
        if (!(pm >> i & 1) && !(c->covers[i] & ~pm)) {
            if (c->vals[i] == KING) {
                out[0] = (Child){pm | 1ULL << i, st, mv(i, NONE)};
                return 1;
            }
            ex[ne++] = i;
        }
    uint64_t below = am & ((1ULL << p) - 1);
    int waste = below ? 63 - __builtin_clzll(below) : -1;
    /* forced: an open card whose one partner left is available now */
    for (int a = 0; a < ne; a++) {
        int x = ex[a], u = 13 - c->vals[x];
        uint64_t layout = c->layout_partners[x] & ~pm;
        uint64_t stock = am & c->seq_of_value[u];
        int count = popcount64(layout) + popcount64(stock);
        if (count > 1) continue;
        if (!count) return -1;
        if (layout) {
            int y = 63 - __builtin_clzll(layout);
            if (!(c->covers[y] & ~pm)) {  /* y is open (and not removed: a partner left) */
                out[0] = (Child){pm | 1ULL << x | 1ULL << y, st, mv(x < y ? x : y, x < y ? y : x)};
                return 1;
            }
        } else {
            int s = 63 - __builtin_clzll(stock);
            if (s == p) {
                uint64_t after = am & ~(1ULL << p);
                out[0] = (Child){pm | 1ULL << x, st_pack(after, first_seq(after, p + 1, n), pas), mv(x, STOCK)};
                return 1;
            }
            if (below && s == waste) {
                out[0] = (Child){pm | 1ULL << x, st_pack(am & ~(1ULL << s), p, pas), mv(x, WASTE)};
                return 1;
            }
        }
    }
    for (int a = 0; a < ne; a++)
        for (int b = a + 1; b < ne; b++)
            if (c->vals[ex[a]] + c->vals[ex[b]] == 13)
                out[k++] = (Child){pm | 1ULL << ex[a] | 1ULL << ex[b], st, mv(ex[a], ex[b])};
    if (p < n) {
        int sv = c->seq[p];
        uint64_t after = am & ~(1ULL << p);
        if (sv == KING) {
            out[k++] = (Child){pm, st_pack(after, first_seq(after, p + 1, n), pas), mv(STOCK, NONE)};
        } else {
            uint64_t rest = st_pack(after, first_seq(after, p + 1, n), pas);
            for (int a = 0; a < ne; a++)
                if (c->vals[ex[a]] + sv == 13) out[k++] = (Child){pm | 1ULL << ex[a], rest, mv(ex[a], STOCK)};
            if (waste >= 0 && c->seq[waste] + sv == 13) {
                uint64_t both = after & ~(1ULL << waste);
                out[k++] = (Child){pm, st_pack(both, first_seq(both, p + 1, n), pas), mv(STOCK, WASTE)};
            }
            uint64_t drawn = c->seq_of_value[sv] >> (waste + 1) << (waste + 1);  /* its first index over the waste */
            uint64_t moved = am & ~(1ULL << p) | 1ULL << __builtin_ctzll(drawn);
            out[k++] = (Child){pm, st_pack(moved, first_seq(am, p + 1, n), pas), MOVE_DRAW};
        }
    }
    if (waste >= 0) {
        int wv = c->seq[waste];
        uint64_t after = am & ~(1ULL << waste);
        if (wv == KING) {
            out[k++] = (Child){pm, st_pack(after, p, pas), mv(WASTE, NONE)};
        } else {
            for (int a = 0; a < ne; a++)
                if (c->vals[ex[a]] + wv == 13)
                    out[k++] = (Child){pm | 1ULL << ex[a], st_pack(after, p, pas), mv(ex[a], WASTE)};
        }
        if (p == n && pas < c->passes)
            out[k++] = (Child){pm, canonical(c, st_pack(am, 0, pas + 1)), MOVE_RECYCLE};
    }
    return k;
}

/* --- A* ------------------------------------------------------------------------------------- */

typedef struct {
    uint64_t pm, st;
    uint32_t parent;
    uint16_t move;
    uint8_t g, h;
} Node;

typedef struct {
    uint32_t *items;
    size_t len, cap;
} Stack;

typedef struct {
    Node *nodes;
    size_t len, cap;
    uint64_t *index;  /* hash of positions: (hash's high half << 32 | node number + 1), 0: empty */
    size_t mask;
    Stack buckets[MAX_F][MAX_F];  /* open positions by f, then g */
    int top_g[MAX_F];
    uint64_t *exact;  /* the positions whose bound has the waste's burial in it, a bit each */
    size_t nexact;
} Search;

static inline uint64_t node_hash(uint64_t pm, uint64_t st) { return mix(pm * 0x9E3779B97F4A7C15ULL ^ st); }

/* A position's first slot: from the hash's high half, the half a slot keeps, so that growing the
 * table reads no node (the table has fewer than 2^32 slots). */
static inline size_t slot_index(uint64_t h, size_t mask) { return (size_t)(h >> 32) & mask; }

/* The slot of a position: its own, or the empty one where it would go. The hash's high half kept
 * in the slot spares most probes a visit to the node. */
static uint64_t *find_slot(Search *s, uint64_t pm, uint64_t st) {
    uint64_t h = node_hash(pm, st), tag = h & 0xFFFFFFFF00000000ULL;
    size_t i = slot_index(h, s->mask);
    for (;;) {
        uint64_t v = s->index[i];
        if (!v) return &s->index[i];
        if ((v & 0xFFFFFFFF00000000ULL) == tag) {
            Node *nd = &s->nodes[(uint32_t)v - 1];
            if (nd->pm == pm && nd->st == st) return &s->index[i];
        }
        i = (i + 1) & s->mask;
    }
}

static inline uint32_t slot_node(uint64_t v) { return (uint32_t)v - 1; }

static inline uint64_t slot_of(uint64_t pm, uint64_t st, uint32_t node) {
    return (node_hash(pm, st) & 0xFFFFFFFF00000000ULL) | (uint64_t)(node + 1);
}

/* The table's first size: room for the positions of ``max_nodes`` expansions (about four each),
 * at most 2^21 slots (a larger table only spreads its first positions over more pages). */
static size_t index_size(long max_nodes) {
    size_t want = max_nodes < (1L << 20) ? 8 * (size_t)max_nodes : (size_t)1 << 23, size = 1 << 12;
    while (size < want && size < ((size_t)1 << 21)) size <<= 1;
    return size;
}

static int grow_index(Search *s) {
    size_t cap = 2 * (s->mask + 1);
    uint64_t *index = calloc(cap, sizeof(uint64_t));
    if (!index) return -1;
    for (size_t i = 0; i <= s->mask; i++) {
        uint64_t v = s->index[i];
        if (!v) continue;
        size_t j = slot_index(v, cap - 1);
        while (index[j]) j = (j + 1) & (cap - 1);
        index[j] = v;
    }
    free(s->index);
    s->index = index;
    s->mask = cap - 1;
    return 0;
}

static int push(Search *s, int f, int g, uint32_t node) {
    Stack *b = &s->buckets[f][g];
    if (b->len == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        uint32_t *items = realloc(b->items, cap * sizeof(uint32_t));
        if (!items) return -1;
        b->items = items;
        b->cap = cap;
    }
    b->items[b->len++] = node;
    if (g > s->top_g[f]) s->top_g[f] = g;
    return 0;
}

static uint32_t add_node(Search *s, uint64_t pm, uint64_t st, uint32_t parent, uint16_t move, int g, int h) {
    if (s->len == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1 << 16;
        Node *nodes = realloc(s->nodes, cap * sizeof(Node));
        if (!nodes) return UINT32_MAX;
        s->nodes = nodes;
        s->cap = cap;
    }
    s->nodes[s->len] = (Node){pm, st, parent, move, (uint8_t)g, (uint8_t)h};
    return (uint32_t)s->len++;
}

static void free_core(Core *c) {
    for (int i = 0; i < c->ngroups; i++) {
        free(c->groups[i].dist.slots);
        free(c->groups[i].reached.slots);
        free(c->groups[i].buried.slots);
        free(c->groups[i].held.slots);
    }
}

static void free_search(Search *s) {
    free(s->nodes);
    free(s->index);
    free(s->exact);
    for (int f = 0; f < MAX_F; f++)
        for (int g = 0; g < MAX_F; g++) free(s->buckets[f][g].items);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

enum { FOUND, EXHAUSTED, OUT_OF_BUDGET, NO_MEMORY };

typedef struct {
    int outcome, lower;
    long expanded;
    uint32_t won;
} Result;

/* The bound of a packed position (``bound``). */
static inline int bound_at(Core *c, uint64_t pm, uint64_t st) {
    return bound(c, pm, st & ((1ULL << MAX_SEQ) - 1), (int)(st >> MAX_SEQ & PMASK), (int)(st >> (MAX_SEQ + 6)), 1);
}

/* The bound without the waste's burial: A* takes the burial only for a position it is about to
 * expand (``run``), not for the many it makes and never expands. */
static inline int cheap_at(Core *c, uint64_t pm, uint64_t st) {
    return bound(c, pm, st & ((1ULL << MAX_SEQ) - 1), (int)(st >> MAX_SEQ & PMASK), (int)(st >> (MAX_SEQ + 6)), 0);
}

/* Sets position ``node``'s bit in ``*bits`` (room for ``*len`` positions, grown as needed). */
static int mark(uint64_t **bits, size_t *len, uint32_t node) {
    if (node >= *len) {
        size_t len2 = *len ? *len : 1 << 20;
        while (len2 <= node) len2 *= 2;
        uint64_t *more = realloc(*bits, len2 / 8);
        if (!more) return -1;
        memset(more + *len / 64, 0, (len2 - *len) / 8);
        *bits = more;
        *len = len2;
    }
    (*bits)[node >> 6] |= 1ULL << (node & 63);
    return 0;
}

static inline int marked(const uint64_t *bits, size_t len, uint32_t node) {
    return node < len && bits[node >> 6] >> (node & 63) & 1;
}

/* How a search the relaxed games stopped ended. */
static inline int stopped(const Core *c) { return c->aborted == 2 ? NO_MEMORY : OUT_OF_BUDGET; }

/* The search's table of positions, sized for ``max_nodes`` expansions. */
static int open_index(Search *s, long max_nodes) {
    s->mask = index_size(max_nodes) - 1;
    s->index = calloc(s->mask + 1, sizeof(uint64_t));
    return s->index ? 0 : -1;
}

/* A* from a position whose bound is ``h`` (``ShortestSearch.run``). */
static Result run(Core *c, Search *s, uint64_t pm0, uint64_t st0, int h, int upper, long max_nodes,
                  double seconds) {
    Result res = {EXHAUSTED, h, 0, 0};
    double deadline = seconds > 0 ? now() + seconds : 0;
    if (h >= INF || h >= upper) return res;
    if (open_index(s, max_nodes)) {
        res.outcome = NO_MEMORY;
        return res;
    }
    for (int f = 0; f < MAX_F; f++) s->top_g[f] = -1;
    uint32_t start = add_node(s, pm0, st0, UINT32_MAX, 0, 0, h);
    *find_slot(s, pm0, st0) = slot_of(pm0, st0, start);
    push(s, h, 0, start);
    int f = h;
    Child kids[128];
    for (;;) {
        while (f < MAX_F && s->top_g[f] < 0) f++;
        if (f >= MAX_F) return res;  /* every position below upper expanded */
        int g = s->top_g[f];
        Stack *b = &s->buckets[f][g];
        uint32_t here = b->items[--b->len];
        while (s->top_g[f] >= 0 && !s->buckets[f][s->top_g[f]].len) s->top_g[f]--;
        Node nd = s->nodes[here];
        if (nd.g != g) continue;  /* reached again by a shorter line since */
        if (c->burial && !marked(s->exact, s->nexact, here)) {  /* its bound with the burial, then */
            if (mark(&s->exact, &s->nexact, here)) {
                res.outcome = NO_MEMORY;
                return res;
            }
            int full = bound_at(c, nd.pm, nd.st);
            if (c->aborted) {
                res.outcome = stopped(c);
                return res;
            }
            if (full > nd.h) {  /* higher: it waits for its f (or goes, a win below upper out of reach) */
                if (full >= INF || g + full >= upper || g + full >= MAX_F) continue;
                s->nodes[here].h = (uint8_t)full;
                if (push(s, g + full, g, here)) {
                    res.outcome = NO_MEMORY;
                    return res;
                }
                continue;
            }
        }
        res.lower = f;
        if ((nd.pm & c->full) == c->full) {
            res.outcome = FOUND;
            res.won = here;
            return res;
        }
        if (++res.expanded >= max_nodes || (deadline && !(res.expanded & 4095) && now() >= deadline)) {
            res.outcome = OUT_OF_BUDGET;
            return res;
        }
        int k = successors(c, nd.pm, nd.st, kids);
        for (int i = 0; i < k; i++)  /* the table is far larger than the caches: ask for every slot at once */
            __builtin_prefetch(&s->index[slot_index(node_hash(kids[i].pm, kids[i].st), s->mask)]);
        for (int i = 0; i < k; i++) {
            uint64_t cpm = kids[i].pm, cst = kids[i].st;
            uint64_t *slot = find_slot(s, cpm, cst);
            int hc;
            if (*slot) {
                Node *seen = &s->nodes[slot_node(*slot)];
                if (seen->g <= g + 1) continue;
                hc = seen->h;
            } else {
                hc = cheap_at(c, cpm, cst);
                if (c->aborted) {
                    res.outcome = stopped(c);
                    return res;
                }
            }
            if (hc >= INF || g + 1 + hc >= upper || g + 1 + hc >= MAX_F) continue;
            uint32_t node;
            if (*slot) {
                node = slot_node(*slot);
                s->nodes[node].g = (uint8_t)(g + 1);
                s->nodes[node].parent = here;
                s->nodes[node].move = kids[i].move;
            } else {
                node = add_node(s, cpm, cst, here, kids[i].move, g + 1, hc);
                if (node == UINT32_MAX) {
                    res.outcome = NO_MEMORY;
                    return res;
                }
                *slot = slot_of(cpm, cst, node);
                if (2 * s->len > s->mask + 1 && grow_index(s)) {
                    res.outcome = NO_MEMORY;
                    return res;
                }
            }
            if (push(s, g + 1 + hc, g + 1, node)) {
                res.outcome = NO_MEMORY;
                return res;
            }
            if (g + 1 + hc < f) f = g + 1 + hc;  /* an inconsistent bound: look there first */
        }
    }
}

/* --- the beam (``ShortestSearch.beam``) ------------------------------------------------------ */

static int by_rank(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Level by level, the ``width`` new positions of the least estimate (then the most cards gone,
 * then the first made) are expanded; the first won position ends it. The estimate is the bound
 * plus ``waste_weight`` quarter moves for each waste card and ``stock_weight`` for each stock card
 * left (``ShortestSearch.beam``). It drops positions, so it proves nothing: FOUND or EXHAUSTED (no
 * line below ``upper``) or OUT_OF_BUDGET. */
static Result beam(Core *c, Search *s, uint64_t pm0, uint64_t st0, int h, int upper, long max_nodes,
                   double seconds, long width, int waste_weight, int stock_weight) {
    Result res = {EXHAUSTED, h, 0, 0};
    double deadline = seconds > 0 ? now() + seconds : 0;
    if (h >= INF) return res;
    uint64_t *level = malloc(sizeof(uint64_t)), *scored = NULL;
    size_t nlevel = 1, nscored = 0, capscored = 0;
    if (open_index(s, max_nodes) || !level) goto no_memory;
    uint32_t start = add_node(s, pm0, st0, UINT32_MAX, 0, 0, h);
    *find_slot(s, pm0, st0) = slot_of(pm0, st0, start);
    level[0] = start;
    Child kids[128];
    for (int depth = 1; nlevel && depth < upper; depth++) {
        nscored = 0;
        for (size_t i = 0; i < nlevel; i++) {
            uint32_t here = (uint32_t)(level[i] & 0xFFFFFFFFu);
            if (++res.expanded >= max_nodes || (deadline && !(res.expanded & 4095) && now() >= deadline)) {
                res.outcome = OUT_OF_BUDGET;
                goto out;
            }
            Node nd = s->nodes[here];
            int k = successors(c, nd.pm, nd.st, kids);
            for (int j = 0; j < k; j++)
                __builtin_prefetch(&s->index[slot_index(node_hash(kids[j].pm, kids[j].st), s->mask)]);
            for (int j = 0; j < k; j++) {
                uint64_t cpm = kids[j].pm, cst = kids[j].st;
                uint64_t *slot = find_slot(s, cpm, cst);
                if (*slot) continue;
                uint32_t node = add_node(s, cpm, cst, here, kids[j].move, depth > 255 ? 255 : depth, 0);
                if (node == UINT32_MAX) goto no_memory;
                *slot = slot_of(cpm, cst, node);
                if (2 * s->len > s->mask + 1 && grow_index(s)) goto no_memory;
                if ((cpm & c->full) == c->full) {
                    res.outcome = FOUND;
                    res.won = node;
                    goto out;
                }
                int hc = cheap_at(c, cpm, cst);
                if (c->aborted) {
                    res.outcome = stopped(c);
                    goto out;
                }
                if (hc >= INF || depth + hc >= upper) continue;
                if (nscored == capscored) {
                    capscored = capscored ? 2 * capscored : 1024;
                    uint64_t *more = realloc(scored, capscored * sizeof(uint64_t));
                    if (!more) goto no_memory;
                    scored = more;
                }
                int gone = popcount64(cpm & c->full);
                uint64_t cam = cst & ((1ULL << MAX_SEQ) - 1);
                int waste = popcount64(cam & ((1ULL << (cst >> MAX_SEQ & PMASK)) - 1));
                int stock = popcount64(cam) - waste;
                uint64_t estimate = 4 * (uint64_t)hc + (uint64_t)waste_weight * waste + (uint64_t)stock_weight * stock;
                scored[nscored++] = estimate << 40 | (uint64_t)(64 - gone) << 32 | node;
            }
        }
        qsort(scored, nscored, sizeof(uint64_t), by_rank);
        nlevel = nscored < (size_t)width ? nscored : (size_t)width;
        uint64_t *next = realloc(level, (nlevel ? nlevel : 1) * sizeof(uint64_t));
        if (!next) goto no_memory;
        level = next;
        memcpy(level, scored, nlevel * sizeof(uint64_t));
    }
out:
    free(level);
    free(scored);
    return res;
no_memory:
    res.outcome = NO_MEMORY;
    goto out;
}

/* --- Python ------------------------------------------------------------------------------------ */

static int read_masks(PyObject *seq, uint64_t *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return (int)len;
}

/* Small non-negative numbers (card values) from a Python sequence: its length, or -1. */
static int read_ints(PyObject *seq, int *out, int max, const char *what) {
    uint64_t wide[64];
    int len = read_masks(seq, wide, max < 64 ? max : 64, what);
    for (int i = 0; i < len; i++) out[i] = (int)wide[i];
    return len;
}

/* The relaxed game on the cards whose value has its bit in ``values``: its number, made once;
 * -1 when it has more than ``MAX_GROUP`` cards, -2 when memory runs out. */
static int game_of(Core *c, const uint64_t *under, int values, int *made_values) {
    for (int i = 0; i < c->ngroups; i++)
        if (made_values[i] == values) return i;
    if (c->ngroups == MAX_GAMES) return -1;
    Group *g = &c->groups[c->ngroups];
    memset(g, 0, sizeof(Group));
    for (int i = 0; i < FRONT; i++)
        g->front_dist[i].key = g->front_reached[i].key = g->front_held[i].key = g->front_buried[i].key = EMPTY;
    for (int i = 0; i < c->L; i++)
        if (values >> c->vals[i] & 1) {
            if (g->nl == MAX_GROUP) return -1;
            g->lay[g->nl] = i;
            g->lval[g->nl++] = c->vals[i];
        }
    for (int k = 0; k < c->n; k++)
        if (values >> c->seq[k] & 1) {
            if (g->ns == MAX_GROUP) return -1;
            g->sidx[g->ns] = k;
            g->sval[g->ns++] = c->seq[k];
        }
    if (g->nl + g->ns > 32) return -1;  /* a position's key keeps both masks in 32 bits */
    for (int x = 0; x < g->nl; x++) {
        uint32_t m = 0;
        for (int y = 0; y < g->nl; y++)
            if (under[g->lay[x]] >> g->lay[y] & 1) m |= 1u << y;
        g->cov[x] = m;
    }
    g->full = g->nl == 32 ? UINT32_MAX : (1u << g->nl) - 1;
    g->shift_p = g->nl + g->ns;
    g->shift_pas = g->shift_p + 6;
    g->shift_deep = g->shift_pas + 8;
    made_values[c->ngroups] = values;
    c->ngroups++;  /* counted before the memos, so that ``free_core`` frees what was made */
    /* the burial's keys: the position, the cards to clear, the frozen card and the depth in 64 bits */
    if (g->shift_pas + 8 + g->ns + 12 <= 64) g->shift_need = g->shift_pas + 8;
    if (memo_init(&g->dist, 1 << 12) || memo_init(&g->reached, 1 << 12) || memo_init(&g->buried, 1 << 12)
        || memo_init(&g->held, 1 << 12))
        return -2;
    return c->ngroups - 1;
}

/* The bound's partitions (a list of partitions, each a list of tuples of value groups 1-6). */
static int setup_groups(Core *c, const uint64_t *under, PyObject *partitions) {
    int made_values[MAX_GAMES];
    c->ngroups = 0;
    Py_ssize_t np = PyList_Size(partitions);
    if (np < 1 || np > MAX_PARTITIONS) return -1;
    for (Py_ssize_t k = 0; k < np; k++) {
        PyObject *blocks = PyList_GetItem(partitions, k);
        Py_ssize_t nb = blocks && PyList_Check(blocks) ? PyList_Size(blocks) : -1;
        if (nb < 0 || nb > 6) return -1;
        c->part_len[k] = 0;
        for (Py_ssize_t j = 0; j < nb; j++) {
            PyObject *block = PyList_GetItem(blocks, j);
            Py_ssize_t ng = block && PyTuple_Check(block) ? PyTuple_Size(block) : -1;
            if (ng < 1) return -1;
            int values = 0;
            for (Py_ssize_t i = 0; i < ng; i++) {
                long gv = PyLong_AsLong(PyTuple_GetItem(block, i));
                if (gv < 1 || gv > 6) return -1;
                values |= 1 << gv | 1 << (13 - gv);
            }
            int game = game_of(c, under, values, made_values);
            if (game < 0) return game;
            c->part[k][c->part_len[k]++] = game;
        }
    }
    c->nparts = (int)np;
    c->burial = np == 1;  /* the burial's cases add the games of one partition */
    for (int k = 0; k < MAX_SEQ; k++) c->seq_game[k] = -1;
    for (int j = 0; j < c->part_len[0]; j++) {
        Group *g = &c->groups[c->part[0][j]];
        if (!g->shift_need) c->burial = 0;
        for (int k = 0; k < g->ns; k++) {
            c->seq_game[g->sidx[k]] = c->part[0][j];
            c->seq_local[g->sidx[k]] = k;
        }
    }
    for (int k = 0; k < c->n; k++)
        if (c->seq[k] != KING && c->seq_game[k] < 0) c->burial = 0;
    c->disjoint = np == 1 && c->ngroups <= 6;  /* one partition's games have no card in common */
    memset(c->lay_bits, 0, sizeof c->lay_bits);
    memset(c->seq_bits, 0, sizeof c->seq_bits);
    for (int j = 0; c->disjoint && j < c->ngroups; j++) {
        Group *g = &c->groups[j];
        for (int x = 0; x < g->nl; x++) c->lay_bits[g->lay[x]][j >> 1] |= (uint64_t)1 << (x + 32 * (j & 1));
        for (int k = 0; k < g->ns; k++) c->seq_bits[g->sidx[k]][j >> 1] |= (uint64_t)1 << (k + 32 * (j & 1));
    }
    return 0;
}

static PyObject *move_tuple(uint16_t move) {
    if (move == MOVE_DRAW) return Py_BuildValue("(s)", "D");
    if (move == MOVE_RECYCLE) return Py_BuildValue("(s)", "R");
    int a = move & 0xFF, b = move >> 8;
    if (b == NONE) return Py_BuildValue("(i)", a);
    return Py_BuildValue("(ii)", a, b);
}

PyDoc_STRVAR(search_doc,
"search(values, covers, under, layout_partners, sequence, partitions, removed, pointer, pass_number,\n"
"       passes, upper, max_nodes, relaxed_cap, seconds, width, waste_weight, stock_weight)\n"
"       -> (line, lower, expanded, outcome)\n\n"
"A* below ``upper`` moves from one position (``ShortestSearch.run`` with the reach bound), or\n"
"with ``width`` > 0 a beam of that width (``ShortestSearch.beam``: its line is not proven), its\n"
"positions ranked by the bound plus the weights, in quarter moves, of each waste and stock card.\n"
"``line``: the moves of a shortest win (tuples of locations, ('D',), ('R',)) or None;\n"
"``lower``: a bound every win reaches; ``outcome``: 'found', 'exhausted' (no win shorter than\n"
"``upper``), 'budget' (``max_nodes`` expansions, ``relaxed_cap`` relaxed positions or\n"
"``seconds`` ran out; 0: no clock) or 'memory'.");

static PyObject *search(PyObject *self, PyObject *args) {
    PyObject *values, *covers, *under, *partners, *sequence, *partitions;
    unsigned long long removed;
    int pointer, pass_number, passes, upper;
    long max_nodes, relaxed_cap, width;
    int waste_weight, stock_weight;
    double seconds;
    if (!PyArg_ParseTuple(args, "OOOOOO!Kiiiilldlii", &values, &covers, &under, &partners, &sequence, &PyList_Type,
                          &partitions, &removed, &pointer, &pass_number, &passes, &upper, &max_nodes, &relaxed_cap,
                          &seconds, &width, &waste_weight, &stock_weight))
        return NULL;
    if (waste_weight < 0 || stock_weight < 0 || waste_weight > 64 || stock_weight > 64) {
        PyErr_SetString(PyExc_ValueError, "beam weights: 0-64 quarter moves");
        return NULL;
    }
    Core *c = calloc(1, sizeof(Core));
    Search *s = calloc(1, sizeof(Search));
    uint64_t under_m[64];
    if (!c || !s) {
        free(c);
        free(s);
        return PyErr_NoMemory();
    }
    PyObject *answer = NULL;
    c->L = read_ints(values, c->vals, 64, "values");
    if (c->L < 0 || read_masks(covers, c->covers, 64, "covers") != c->L || read_masks(under, under_m, 64, "under") != c->L
        || read_masks(partners, c->layout_partners, 64, "layout_partners") != c->L)
        goto done;
    c->n = read_ints(sequence, c->seq, MAX_SEQ, "sequence");
    if (c->n < 0) goto done;
    if (passes < 1 || passes > 255 || pass_number > passes || pointer > c->n) {
        PyErr_SetString(PyExc_ValueError, "passes out of range");
        goto done;
    }
    c->passes = passes;
    c->full = c->L == 64 ? UINT64_MAX : (1ULL << c->L) - 1;
    for (int i = 0; i < c->L; i++)
        if (c->vals[i] == KING) c->layout_kings |= 1ULL << i;
    for (int k = 0; k < c->n; k++) {
        c->seq_of_value[c->seq[k]] |= 1ULL << k;
        if (c->seq[k] == KING) c->seq_kings |= 1ULL << k;
    }
    c->relaxed_cap = relaxed_cap;
    int made = setup_groups(c, under_m, partitions);
    if (made) {
        if (PyErr_Occurred()) goto done;
        if (made == -2) PyErr_NoMemory();
        else PyErr_SetString(PyExc_ValueError, "partitions: lists of tuples of value groups 1-6, a game of at most "
                                               "32 cards");
        goto done;
    }
    uint64_t am = c->n ? (c->n == 64 ? UINT64_MAX : (1ULL << c->n) - 1) : 0;
    uint64_t st0 = st_pack(am, first_seq(am, pointer, c->n), pass_number);
    if (upper > MAX_F - 1 || upper < 0) upper = MAX_F - 1;
    Result res = {EXHAUSTED, 0, 0, 0};
    Py_BEGIN_ALLOW_THREADS
    int h = bound_at(c, removed, st0);
    if (c->aborted)
        res.outcome = stopped(c);
    else if (width > 0)
        res = beam(c, s, removed, st0, h, upper, max_nodes, seconds, width, waste_weight, stock_weight);
    else
        res = run(c, s, removed, st0, h, upper, max_nodes, seconds);
    Py_END_ALLOW_THREADS
    if (res.outcome == NO_MEMORY) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *line = Py_None;
    Py_INCREF(line);
    if (res.outcome == FOUND) {
        Py_DECREF(line);
        line = PyList_New(0);
        if (!line) goto done;
        for (uint32_t at = res.won; s->nodes[at].parent != UINT32_MAX; at = s->nodes[at].parent) {
            PyObject *m = move_tuple(s->nodes[at].move);
            if (!m || PyList_Append(line, m)) {
                Py_XDECREF(m);
                Py_DECREF(line);
                goto done;
            }
            Py_DECREF(m);
        }
        if (PyList_Reverse(line)) {
            Py_DECREF(line);
            goto done;
        }
    }
    int lower = res.lower;
    if (res.outcome == OUT_OF_BUDGET && width <= 0) {
        for (int f = 0; f < MAX_F; f++)
            if (s->top_g[f] >= 0) {
                if (f < lower) lower = f;
                break;
            }
    }
    if (res.outcome == EXHAUSTED) lower = upper;
    static const char *names[] = {"found", "exhausted", "budget", "memory"};
    answer = Py_BuildValue("(Nils)", line, lower, res.expanded, names[res.outcome]);
done:
    free_core(c);
    free_search(s);
    free(c);
    free(s);
    return answer;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS, search_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled A* of the Pyramid family's shortest win (app/solver/_core.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
