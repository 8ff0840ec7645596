/* Exact counts of mine arrangements and the bot's lookahead, the native twin of
 * mines/solver/counting.py and Bot.lookahead (mines/solver/bot.py).
 *
 * `mines_count` does what `Counter.count` does in one call (split into components,
 * enumerate each component's groups, combine with the cells away from the numbers) and
 * returns the same exact integers, as little-endian fixed-width numbers of MINES_LIMBS
 * 64-bit limbs, and the frontier cells in the order the Python reference lists them, so
 * that every caller sees the same `Counts` whichever path ran. A count that would not fit
 * (a board of more than about 500 unknown cells), an input the reference would reject
 * differently, or memory running out returns MINES_FALL_BACK: the caller then counts in
 * Python. Nothing here keeps state between calls, so calls on several threads are safe.
 */
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MINES_LIMBS 8
#define MINES_OK 0
#define MINES_NO_ARRANGEMENT 1
#define MINES_FALL_BACK 2
#define MAX_GROUP 62 /* C(62, k) fits in 64 bits */

typedef struct {
    uint64_t d[MINES_LIMBS];
} big;

/* Scratch memory comes from an arena: the counts allocate and free many small blocks per
 * recount, which cost more through malloc than the counting itself. Blocks are freed in
 * the reverse order of their taking (release_to), so a stack of marks is all it needs. */
typedef struct {
    char *base;
    size_t size;
} chunk_t;

typedef struct {
    int chunk;
    size_t used;
    void *own; /* under AddressSanitizer: the block's own allocation */
} spot_t;

typedef struct {
    jmp_buf fail;
    spot_t *marks; /* marks[i]: where block i began */
    size_t nblocks, capblocks;
    chunk_t *chunks; /* chunks past `cur` are free, kept for reuse */
    int nchunks, capchunks, cur;
    size_t used; /* bytes taken in chunks[cur] */
} ctx_t;

#define CHUNK ((size_t)1 << 16)

/* Under AddressSanitizer every block is its own allocation, so that an access past a
 * block's end is caught rather than landing in its neighbour inside a chunk. */
#if defined(__SANITIZE_ADDRESS__)
#define MINES_OWN_BLOCKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MINES_OWN_BLOCKS 1
#endif
#endif

static void give_up(ctx_t *cx) { longjmp(cx->fail, 1); }

/* `count` zeroed items of `size` bytes (as calloc), aligned for any of them. */
static void *take(ctx_t *cx, size_t count, size_t size) {
    if (!count) count = 1;
    if (size > (SIZE_MAX - 16) / count) give_up(cx);
    size_t bytes = (count * size + 15) & ~(size_t)15;
    if (cx->nblocks == cx->capblocks) {
        size_t cap = cx->capblocks ? 2 * cx->capblocks : 64;
        spot_t *grown = realloc(cx->marks, cap * sizeof *grown);
        if (!grown) give_up(cx);
        cx->marks = grown;
        cx->capblocks = cap;
    }
#ifdef MINES_OWN_BLOCKS
    void *own = calloc(count, size);
    if (!own) give_up(cx);
    cx->marks[cx->nblocks++] = (spot_t){0, 0, own};
    return own;
#endif
    if (!cx->nchunks || cx->chunks[cx->cur].size - cx->used < bytes) {
        int next = cx->nchunks ? cx->cur + 1 : 0;
        if (next >= cx->nchunks || cx->chunks[next].size < bytes) {
            if (next >= cx->capchunks) {
                int cap = cx->capchunks ? 2 * cx->capchunks : 8;
                chunk_t *grown = realloc(cx->chunks, (size_t)cap * sizeof *grown);
                if (!grown) give_up(cx);
                cx->chunks = grown;
                cx->capchunks = cap;
            }
            size_t want = bytes > CHUNK ? bytes : CHUNK;
            char *base = malloc(want);
            if (!base) give_up(cx);
            if (next < cx->nchunks) free(cx->chunks[next].base);
            else cx->nchunks++;
            cx->chunks[next] = (chunk_t){base, want};
        }
        /* the block starts the next chunk: its mark says so, so releasing it rewinds there */
        cx->cur = next;
        cx->used = 0;
    }
    cx->marks[cx->nblocks++] = (spot_t){cx->cur, cx->used, NULL};
    void *p = cx->chunks[cx->cur].base + cx->used;
    cx->used += bytes;
    memset(p, 0, bytes);
    return p;
}

/* Free the blocks taken since `mark` (0: all of them). */
static void release_to(ctx_t *cx, size_t mark) {
    for (size_t i = mark; i < cx->nblocks; i++) free(cx->marks[i].own);
    if (cx->nblocks > mark) {
        cx->cur = cx->marks[mark].chunk;
        cx->used = cx->marks[mark].used;
        cx->nblocks = mark;
    }
}

static void release(ctx_t *cx) {
    release_to(cx, 0);
    for (int i = 0; i < cx->nchunks; i++) free(cx->chunks[i].base);
    free(cx->chunks);
    free(cx->marks);
    cx->chunks = NULL;
    cx->marks = NULL;
    cx->nchunks = cx->capchunks = cx->cur = 0;
    cx->nblocks = cx->capblocks = cx->used = 0;
}

/* ---- fixed-width unsigned integers; any overflow gives up (the caller falls back) ---- */

static int big_is_zero(const big *a) {
    for (int i = 0; i < MINES_LIMBS; i++)
        if (a->d[i]) return 0;
    return 1;
}

static void big_set(big *a, uint64_t v) {
    memset(a, 0, sizeof *a);
    a->d[0] = v;
}

static void big_add(ctx_t *cx, big *a, const big *b) {
    unsigned __int128 carry = 0;
    for (int i = 0; i < MINES_LIMBS; i++) {
        carry += (unsigned __int128)a->d[i] + b->d[i];
        a->d[i] = (uint64_t)carry;
        carry >>= 64;
    }
    if (carry) give_up(cx);
}

static void big_mul_small(ctx_t *cx, big *r, const big *a, uint64_t m) {
    unsigned __int128 carry = 0;
    for (int i = 0; i < MINES_LIMBS; i++) {
        carry += (unsigned __int128)a->d[i] * m;
        r->d[i] = (uint64_t)carry;
        carry >>= 64;
    }
    if (carry) give_up(cx);
}

static int big_top(const big *a) {
    int n = MINES_LIMBS;
    while (n > 0 && !a->d[n - 1]) n--;
    return n;
}

/* r += a * b */
static void big_add_mul(ctx_t *cx, big *r, const big *a, const big *b) {
    int la = big_top(a), lb = big_top(b);
    if (!la || !lb) return;
    if (la + lb - 1 > MINES_LIMBS) give_up(cx);
    uint64_t t[2 * MINES_LIMBS + 1];
    memset(t, 0, sizeof t);
    for (int i = 0; i < la; i++) {
        unsigned __int128 carry = 0;
        for (int j = 0; j < lb; j++) {
            carry += (unsigned __int128)a->d[i] * b->d[j] + t[i + j];
            t[i + j] = (uint64_t)carry;
            carry >>= 64;
        }
        t[i + lb] = (uint64_t)carry;
    }
    for (int i = MINES_LIMBS; i < la + lb; i++)
        if (t[i]) give_up(cx);
    big p;
    memcpy(p.d, t, sizeof p.d);
    big_add(cx, r, &p);
}

/* a /= m, exactly or rounded down (0 < m < 2^32: two 64-bit divisions per limb, no
 * 128-bit division, which is a slow library call) */
static void big_div_small(big *a, uint64_t m) {
    uint64_t rem = 0;
    for (int i = MINES_LIMBS - 1; i >= 0; i--) {
        uint64_t high = (rem << 32) | (a->d[i] >> 32);
        uint64_t q_high = high / m;
        rem = high % m;
        uint64_t low = (rem << 32) | (a->d[i] & 0xffffffffu);
        a->d[i] = (q_high << 32) | (low / m);
        rem = low % m;
    }
}

/* ---- counting ---- */

static uint64_t small_choose[MAX_GROUP + 1][MAX_GROUP + 1];
static int small_choose_ready;

static void init_small_choose(void) {
    if (small_choose_ready) return;
    for (int n = 0; n <= MAX_GROUP; n++) {
        small_choose[n][0] = 1;
        for (int k = 1; k <= n; k++)
            small_choose[n][k] = small_choose[n - 1][k - 1] + (k < n ? small_choose[n - 1][k] : 0);
    }
    small_choose_ready = 1;
}

/* C(n, k) for k = 0..n, or NULL when n < 0 (every C(n, k) is then 0). Rows are kept for
 * the life of the process, one per n (a board has few distinct counts of cells away from
 * the numbers); a row that would not fit gives up before it is kept. */
#define MAX_ROW 4096
static big *kept_rows[MAX_ROW];

static big *choose_row(ctx_t *cx, int n) {
    if (n < 0) return NULL;
    if (n >= MAX_ROW) give_up(cx);
    big *row = __atomic_load_n(&kept_rows[n], __ATOMIC_ACQUIRE);
    if (row) return row;
    row = calloc((size_t)n + 1, sizeof(big));
    if (!row) give_up(cx);
    ctx_t inner = {0};
    if (setjmp(inner.fail)) {
        free(row);
        give_up(cx);
    }
    big_set(&row[0], 1);
    for (int k = 0; k < n; k++) {
        big_mul_small(&inner, &row[k + 1], &row[k], (uint64_t)(n - k));
        big_div_small(&row[k + 1], (uint64_t)(k + 1));
    }
    big *expected = NULL;
    if (!__atomic_compare_exchange_n(&kept_rows[n], &expected, row, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        free(row); /* another thread kept the same row first */
        return expected;
    }
    return row;
}

static const big *choose_at(const big *row, int n, int k) {
    return (row && k >= 0 && k <= n) ? &row[k] : NULL;
}

typedef struct {
    const int *cells;
    int ncells, value;
} mkey_t;

static int compare_keys(const void *pa, const void *pb) {
    const mkey_t *a = *(mkey_t *const *)pa, *b = *(mkey_t *const *)pb;
    int n = a->ncells < b->ncells ? a->ncells : b->ncells;
    for (int i = 0; i < n; i++)
        if (a->cells[i] != b->cells[i]) return a->cells[i] < b->cells[i] ? -1 : 1;
    if (a->ncells != b->ncells) return a->ncells < b->ncells ? -1 : 1;
    return (a->value > b->value) - (a->value < b->value);
}

typedef struct {
    int ngroups, ncells, maxm;
    int *group_start, *group_cells; /* cells of group g: group_cells[group_start[g]..] */
    big *weights;                   /* [m], m = 0..maxm */
    big *rows;                      /* [m * ngroups + g]: mines over group g's cells */
    char *has;                      /* [m]: some arrangement has m mines */
} comp_t;

typedef struct {
    ctx_t *cx;
    comp_t *comp;
    int depth;
    int *order, *sizes, *assigned, *need, *free_;
    int *gc_start, *gc_list; /* constraints of group g */
} search_t;

static void leaf(search_t *s, int mines, const big *w) {
    comp_t *c = s->comp;
    if (mines > c->maxm) give_up(s->cx); /* cannot happen: the keys' values bound it */
    c->has[mines] = 1;
    big_add(s->cx, &c->weights[mines], w);
    for (int g = 0; g < c->ngroups; g++) {
        if (s->assigned[g]) {
            big part;
            big_mul_small(s->cx, &part, w, (uint64_t)s->assigned[g]);
            big_add(s->cx, &c->rows[(size_t)mines * c->ngroups + g], &part);
        }
    }
}

static void search(search_t *s, int i, int mines, const big *w) {
    if (i == s->depth) {
        leaf(s, mines, w);
        return;
    }
    int g = s->order[i], size = s->sizes[g];
    int low = 0, high = size;
    for (int j = s->gc_start[g]; j < s->gc_start[g + 1]; j++) {
        int c = s->gc_list[j];
        int slack = s->need[c] - s->free_[c] + size;
        if (slack > low) low = slack;
        if (s->need[c] < high) high = s->need[c];
    }
    if (low > high || mines + low > s->comp->maxm) return;
    for (int j = s->gc_start[g]; j < s->gc_start[g + 1]; j++) s->free_[s->gc_list[j]] -= size;
    for (int k = low; k <= high; k++) {
        for (int j = s->gc_start[g]; j < s->gc_start[g + 1]; j++) s->need[s->gc_list[j]] -= k;
        s->assigned[g] = k;
        big next;
        big_mul_small(s->cx, &next, w, small_choose[size][k]);
        search(s, i + 1, mines + k, &next);
        for (int j = s->gc_start[g]; j < s->gc_start[g + 1]; j++) s->need[s->gc_list[j]] += k;
    }
    s->assigned[g] = 0;
    for (int j = s->gc_start[g]; j < s->gc_start[g + 1]; j++) s->free_[s->gc_list[j]] += size;
}

/* One component: its keys sorted as Python sorts them, groups in the reference's order. */
static void count_component(ctx_t *cx, comp_t *comp, const mkey_t **keys, int nkeys, int ncells_board,
                            int *touch_count, int *first_seen, int *cell_group) {
    qsort(keys, (size_t)nkeys, sizeof *keys, compare_keys);
    /* cells in first-appearance order; each cell's signature is the keys touching it */
    int total_refs = 0;
    for (int k = 0; k < nkeys; k++) total_refs += keys[k]->ncells;
    int *cells = take(cx, (size_t)total_refs, sizeof(int));
    int ncells = 0;
    for (int k = 0; k < nkeys; k++)
        for (int j = 0; j < keys[k]->ncells; j++) {
            int cell = keys[k]->cells[j];
            if (!touch_count[cell]++) cells[ncells++] = cell;
        }
    int *sig_start = take(cx, (size_t)ncells + 1, sizeof(int));
    for (int i = 0; i < ncells; i++) {
        first_seen[cells[i]] = i;
        sig_start[i + 1] = sig_start[i] + touch_count[cells[i]];
    }
    int *sig = take(cx, (size_t)sig_start[ncells] + 1, sizeof(int));
    int *fill = take(cx, (size_t)ncells, sizeof(int));
    for (int k = 0; k < nkeys; k++)
        for (int j = 0; j < keys[k]->ncells; j++) {
            int at = first_seen[keys[k]->cells[j]];
            sig[sig_start[at] + fill[at]++] = k;
        }
    /* groups: cells with the same signature, in order of their signature's first cell */
    int ngroups = 0;
    int *rep = take(cx, (size_t)ncells, sizeof(int)); /* group -> its first cell's index */
    int *gsize = take(cx, (size_t)ncells, sizeof(int));
    for (int i = 0; i < ncells; i++) {
        int len = sig_start[i + 1] - sig_start[i], found = -1;
        for (int g = 0; g < ngroups && found < 0; g++) {
            int r = rep[g];
            if (sig_start[r + 1] - sig_start[r] == len &&
                !memcmp(&sig[sig_start[r]], &sig[sig_start[i]], (size_t)len * sizeof(int)))
                found = g;
        }
        if (found < 0) {
            found = ngroups++;
            rep[found] = i;
        }
        cell_group[cells[i]] = found;
        gsize[found]++;
    }
    comp->ngroups = ngroups;
    comp->ncells = ncells;
    comp->group_start = take(cx, (size_t)ngroups + 1, sizeof(int));
    comp->group_cells = take(cx, (size_t)ncells, sizeof(int));
    for (int g = 0; g < ngroups; g++) {
        if (gsize[g] > MAX_GROUP) give_up(cx);
        comp->group_start[g + 1] = comp->group_start[g] + gsize[g];
    }
    /* cells of each group in increasing order: walk the board's cells once */
    int *gfill = take(cx, (size_t)ngroups, sizeof(int));
    int low = ncells_board, high = -1;
    for (int i = 0; i < ncells; i++) {
        if (cells[i] < low) low = cells[i];
        if (cells[i] > high) high = cells[i];
    }
    for (int cell = low; cell <= high; cell++) {
        if (!touch_count[cell]) continue;
        int g = cell_group[cell];
        comp->group_cells[comp->group_start[g] + gfill[g]++] = cell;
    }
    /* constraints of each group, and groups of each constraint */
    search_t s = {.cx = cx, .comp = comp, .depth = ngroups};
    s.gc_start = take(cx, (size_t)ngroups + 1, sizeof(int));
    for (int g = 0; g < ngroups; g++) {
        int r = rep[g];
        s.gc_start[g + 1] = s.gc_start[g] + sig_start[r + 1] - sig_start[r];
    }
    s.gc_list = take(cx, (size_t)s.gc_start[ngroups] + 1, sizeof(int));
    int *cg_count = take(cx, (size_t)nkeys + 1, sizeof(int));
    for (int g = 0; g < ngroups; g++) {
        int r = rep[g];
        for (int j = sig_start[r]; j < sig_start[r + 1]; j++) {
            s.gc_list[s.gc_start[g] + j - sig_start[r]] = sig[j];
            cg_count[sig[j] + 1]++;
        }
    }
    for (int k = 0; k < nkeys; k++) cg_count[k + 1] += cg_count[k];
    int *cg_list = take(cx, (size_t)cg_count[nkeys] + 1, sizeof(int));
    int *cg_fill = take(cx, (size_t)nkeys, sizeof(int));
    for (int g = 0; g < ngroups; g++)
        for (int j = s.gc_start[g]; j < s.gc_start[g + 1]; j++) {
            int k = s.gc_list[j];
            cg_list[cg_count[k] + cg_fill[k]++] = g;
        }
    /* breadth-first order through shared constraints, so constraints close early */
    s.order = take(cx, (size_t)ngroups, sizeof(int));
    char *seen = take(cx, (size_t)ngroups, 1);
    int head = 0, tail = 0;
    for (int start = 0; start < ngroups; start++) {
        if (seen[start]) continue;
        seen[start] = 1;
        s.order[tail++] = start;
        while (head < tail) {
            int g = s.order[head++];
            for (int j = s.gc_start[g]; j < s.gc_start[g + 1]; j++) {
                int k = s.gc_list[j];
                for (int q = cg_count[k]; q < cg_count[k + 1]; q++)
                    if (!seen[cg_list[q]]) {
                        seen[cg_list[q]] = 1;
                        s.order[tail++] = cg_list[q];
                    }
            }
        }
    }
    s.sizes = gsize;
    s.assigned = take(cx, (size_t)ngroups, sizeof(int));
    s.need = take(cx, (size_t)nkeys, sizeof(int));
    s.free_ = take(cx, (size_t)nkeys, sizeof(int));
    for (int k = 0; k < nkeys; k++) {
        s.need[k] = keys[k]->value;
        for (int q = cg_count[k]; q < cg_count[k + 1]; q++) s.free_[k] += gsize[cg_list[q]];
    }
    /* every cell touches a key, so the keys' values bound the mines a component can hold */
    int most = 0;
    for (int k = 0; k < nkeys; k++) most += keys[k]->value > 0 ? keys[k]->value : 0;
    comp->maxm = most < ncells ? most : ncells;
    comp->weights = take(cx, (size_t)ncells + 1, sizeof(big));
    comp->rows = take(cx, ((size_t)ncells + 1) * (size_t)ngroups, sizeof(big));
    comp->has = take(cx, (size_t)ncells + 1, 1);
    big one;
    big_set(&one, 1);
    search(&s, 0, 0, &one);
    for (int i = 0; i < ncells; i++) touch_count[cells[i]] = 0; /* ready for the next one */
}

/* Arrangements by number of mines: c[t - lo] for t = lo..hi, each nonzero. */
typedef struct {
    int lo, hi;
    big *c;
} poly_t;

static poly_t convolve(ctx_t *cx, poly_t a, poly_t b) {
    poly_t r = {a.lo + b.lo, a.hi + b.hi, NULL};
    r.c = take(cx, (size_t)(r.hi - r.lo + 1), sizeof(big));
    for (int i = 0; i <= a.hi - a.lo; i++)
        for (int j = 0; j <= b.hi - b.lo; j++) big_add_mul(cx, &r.c[i + j], &a.c[i], &b.c[j]);
    return r;
}

static int find(int *parent, int cell) {
    while (parent[cell] != cell) {
        parent[cell] = parent[parent[cell]];
        cell = parent[cell];
    }
    return cell;
}

typedef struct {
    int ncells;     /* frontier cells, in the reference's order */
    int *cells;     /* [ncells] */
    big *weights;   /* [ncells]: arrangements with a mine on cells[i] */
    int *where;     /* [board cells]: the index of a cell in `cells`, or -1 */
    big total, off_weight;
    int off_cells, noff;
    int *off_mines; /* [noff]: the mines the off_cells can hold, increasing */
} counts_t;

/* Count the arrangements of `mines_left` mines over the keys' cells and `off_cells` more,
 * as `Counter.count` does; components are taken by their smallest cell. The result is
 * allocated in `cx` (its scratch is freed before returning). MINES_NO_ARRANGEMENT when
 * nothing fits; anything the fixed-width integers cannot hold gives up through `cx`. */
static int count_keys(ctx_t *cx, const mkey_t *keys, int nkeys, int off_cells, int mines_left,
                      int ncells_board, counts_t *res) {
    init_small_choose();
    if (nkeys < 0 || off_cells < 0 || mines_left < 0) give_up(cx);
    int refs = 0;
    for (int k = 0; k < nkeys; k++) {
        if (keys[k].ncells <= 0) give_up(cx); /* the reference needs cells */
        refs += keys[k].ncells;
        for (int j = 0; j < keys[k].ncells; j++)
            if (keys[k].cells[j] < 0 || keys[k].cells[j] >= ncells_board) give_up(cx);
    }
    res->cells = take(cx, (size_t)refs + 1, sizeof(int));
    res->weights = take(cx, (size_t)refs + 1, sizeof(big));
    res->where = take(cx, (size_t)ncells_board + 1, sizeof(int));
    res->off_mines = take(cx, (size_t)mines_left + 1, sizeof(int));
    res->off_cells = off_cells;
    size_t mark = cx->nblocks;
    for (int c = 0; c < ncells_board; c++) res->where[c] = -1;
    /* components, by their smallest cell */
    int *parent = take(cx, (size_t)ncells_board + 1, sizeof(int));
    for (int c = 0; c < ncells_board; c++) parent[c] = c;
    for (int k = 0; k < nkeys; k++) {
        int first = find(parent, keys[k].cells[0]);
        for (int j = 1; j < keys[k].ncells; j++) {
            int root = find(parent, keys[k].cells[j]);
            if (root != first) parent[root] = first;
        }
    }
    int *smallest = take(cx, (size_t)ncells_board + 1, sizeof(int));
    for (int c = 0; c < ncells_board; c++) smallest[c] = ncells_board;
    for (int k = 0; k < nkeys; k++)
        for (int j = 0; j < keys[k].ncells; j++) {
            int root = find(parent, keys[k].cells[j]);
            if (keys[k].cells[j] < smallest[root]) smallest[root] = keys[k].cells[j];
        }
    /* number the components in the order of their smallest cells */
    int *comp_of_root = take(cx, (size_t)ncells_board + 1, sizeof(int));
    char *is_smallest = take(cx, (size_t)ncells_board + 1, 1);
    for (int c = 0; c < ncells_board; c++)
        if (smallest[c] < ncells_board) is_smallest[smallest[c]] = 1;
    int ncomps = 0;
    for (int c = 0; c < ncells_board; c++)
        if (is_smallest[c]) comp_of_root[find(parent, c)] = ncomps++;
    int *comp_keys = take(cx, (size_t)ncomps + 2, sizeof(int));
    for (int k = 0; k < nkeys; k++) comp_keys[comp_of_root[find(parent, keys[k].cells[0])] + 1]++;
    for (int i = 0; i < ncomps; i++) comp_keys[i + 1] += comp_keys[i];
    const mkey_t **by_comp = take(cx, (size_t)nkeys + 1, sizeof(mkey_t *));
    int *comp_fill = take(cx, (size_t)ncomps + 1, sizeof(int));
    for (int k = 0; k < nkeys; k++) {
        int i = comp_of_root[find(parent, keys[k].cells[0])];
        by_comp[comp_keys[i] + comp_fill[i]++] = &keys[k];
    }
    comp_t *comps = take(cx, (size_t)ncomps + 1, sizeof(comp_t));
    int *touch_count = take(cx, (size_t)ncells_board + 1, sizeof(int));
    int *first_seen = take(cx, (size_t)ncells_board + 1, sizeof(int));
    int *cell_group = take(cx, (size_t)ncells_board + 1, sizeof(int));
    for (int i = 0; i < ncomps; i++)
        count_component(cx, &comps[i], &by_comp[comp_keys[i]], comp_keys[i + 1] - comp_keys[i],
                        ncells_board, touch_count, first_seen, cell_group);
    /* everything together, and all but one component (prefix times suffix) */
    poly_t *prefix = take(cx, (size_t)ncomps + 1, sizeof(poly_t));
    poly_t *suffix = take(cx, (size_t)ncomps + 1, sizeof(poly_t));
    poly_t *weights = take(cx, (size_t)ncomps + 1, sizeof(poly_t));
    big unit;
    big_set(&unit, 1);
    for (int i = 0; i < ncomps; i++) {
        int lo = 0, hi = comps[i].maxm;
        while (lo <= hi && !comps[i].has[lo]) lo++;
        while (hi >= lo && !comps[i].has[hi]) hi--;
        if (lo > hi) { /* no arrangement fits this component */
            release_to(cx, mark);
            return MINES_NO_ARRANGEMENT;
        }
        weights[i] = (poly_t){lo, hi, &comps[i].weights[lo]};
    }
    prefix[0] = suffix[ncomps] = (poly_t){0, 0, &unit};
    for (int i = 0; i < ncomps; i++) prefix[i + 1] = convolve(cx, prefix[i], weights[i]);
    for (int i = ncomps - 1; i >= 0; i--) suffix[i] = convolve(cx, weights[i], suffix[i + 1]);
    poly_t everything = prefix[ncomps];
    big *row = choose_row(cx, off_cells), *row1 = choose_row(cx, off_cells - 1);
    big_set(&res->total, 0);
    big_set(&res->off_weight, 0);
    for (int t = everything.lo; t <= everything.hi; t++) {
        const big *ways = choose_at(row, off_cells, mines_left - t);
        if (ways) big_add_mul(cx, &res->total, &everything.c[t - everything.lo], ways);
        ways = choose_at(row1, off_cells - 1, mines_left - t - 1);
        if (ways) big_add_mul(cx, &res->off_weight, &everything.c[t - everything.lo], ways);
    }
    if (big_is_zero(&res->total)) {
        release_to(cx, mark);
        return MINES_NO_ARRANGEMENT;
    }
    int out = 0;
    for (int i = 0; i < ncomps; i++) {
        comp_t *c = &comps[i];
        poly_t others = convolve(cx, prefix[i], suffix[i + 1]);
        big *cell_sum = take(cx, (size_t)c->ngroups + 1, sizeof(big));
        for (int m = 0; m <= c->maxm; m++) {
            if (!c->has[m]) continue;
            big rest;
            big_set(&rest, 0);
            for (int t = others.lo; t <= others.hi; t++) {
                const big *ways = choose_at(row, off_cells, mines_left - m - t);
                if (ways) big_add_mul(cx, &rest, &others.c[t - others.lo], ways);
            }
            if (big_is_zero(&rest)) continue;
            for (int g = 0; g < c->ngroups; g++) {
                big per_cell = c->rows[(size_t)m * c->ngroups + g];
                big_div_small(&per_cell, (uint64_t)(c->group_start[g + 1] - c->group_start[g]));
                big_add_mul(cx, &cell_sum[g], &per_cell, &rest);
            }
        }
        for (int g = 0; g < c->ngroups; g++)
            for (int j = c->group_start[g]; j < c->group_start[g + 1]; j++) {
                res->cells[out] = c->group_cells[j];
                res->where[c->group_cells[j]] = out;
                res->weights[out] = cell_sum[g];
                out++;
            }
    }
    res->ncells = out;
    res->noff = 0;
    for (int t = everything.hi; t >= everything.lo; t--)
        if (choose_at(row, off_cells, mines_left - t)) res->off_mines[res->noff++] = mines_left - t;
    release_to(cx, mark);
    return MINES_OK;
}

static ctx_t *ctx_new(void) { return calloc(1, sizeof(ctx_t)); }

static void ctx_free(ctx_t *cx) {
    release(cx);
    free(cx);
}

/* The keys given as key_start[0..nkeys] offsets into key_cells and key_values. */
static mkey_t *read_keys(ctx_t *cx, int nkeys, const int *key_start, const int *key_cells,
                         const int *key_values, int *ncells_board) {
    if (nkeys < 0) give_up(cx);
    mkey_t *keys = take(cx, (size_t)nkeys + 1, sizeof(mkey_t));
    for (int k = 0; k < nkeys; k++) {
        keys[k].cells = &key_cells[key_start[k]];
        keys[k].ncells = key_start[k + 1] - key_start[k];
        keys[k].value = key_values[k];
        for (int j = 0; j < keys[k].ncells; j++)
            if (key_cells[key_start[k] + j] >= *ncells_board)
                *ncells_board = key_cells[key_start[k] + j] + 1;
    }
    return keys;
}

static void put(uint64_t *out, size_t index, const big *value) {
    memcpy(&out[index * MINES_LIMBS], value->d, sizeof value->d);
}

/*
 * `Counter.count` for Python: the keys as key_start[0..nkeys] offsets into key_cells (each
 * key's cells sorted) and key_values. On MINES_OK: out_cells[0..*out_ncells) are the
 * frontier cells in the reference's order, out_weights[i] the arrangements with a mine on
 * out_cells[i]; out_total, out_off_weight; out_off_mines[0..*out_noff) the mines the cells
 * away from the numbers can hold, increasing. out_cells and out_weights hold
 * key_start[nkeys] entries, out_off_mines mines_left + 1.
 */
int mines_count(int nkeys, const int *key_start, const int *key_cells, const int *key_values,
                int off_cells, int mines_left, int *out_ncells, int *out_cells,
                uint64_t *out_weights, uint64_t *out_total, uint64_t *out_off_weight,
                int *out_noff, int *out_off_mines) {
    ctx_t *cx = ctx_new();
    if (!cx) return MINES_FALL_BACK;
    if (setjmp(cx->fail)) {
        ctx_free(cx);
        return MINES_FALL_BACK;
    }
    int ncells_board = 0;
    mkey_t *keys = read_keys(cx, nkeys, key_start, key_cells, key_values, &ncells_board);
    counts_t res;
    int code = count_keys(cx, keys, nkeys, off_cells, mines_left, ncells_board, &res);
    if (code == MINES_OK) {
        *out_ncells = res.ncells;
        for (int i = 0; i < res.ncells; i++) {
            out_cells[i] = res.cells[i];
            put(out_weights, (size_t)i, &res.weights[i]);
        }
        put(out_total, 0, &res.total);
        put(out_off_weight, 0, &res.off_weight);
        *out_noff = res.noff;
        memcpy(out_off_mines, res.off_mines, (size_t)res.noff * sizeof(int));
    }
    ctx_free(cx);
    return code;
}

/* ---- the bot's lookahead (mines/solver/bot.py: Bot.lookahead and what it calls) ---- */

/* a / b correctly rounded to a double (b > 0), as Python's int / int: the quotient to 55 or
 * 56 bits with a sticky bit for the rest, which the conversion to double rounds to even */
static int big_bits(const big *a) {
    int n = big_top(a);
    return n ? (n - 1) * 64 + 64 - __builtin_clzll(a->d[n - 1]) : 0;
}

#define WIDE (MINES_LIMBS + 2)
typedef struct {
    uint64_t d[WIDE];
} wide;

static void wide_shift_left(wide *r, const big *a, int shift) {
    memset(r, 0, sizeof *r);
    int limbs = shift / 64, bits = shift % 64;
    for (int i = MINES_LIMBS - 1; i >= 0; i--) {
        if (i + limbs + 1 < WIDE && bits) r->d[i + limbs + 1] |= a->d[i] >> (64 - bits);
        if (i + limbs < WIDE) r->d[i + limbs] |= a->d[i] << bits;
    }
}

static int wide_geq(const wide *a, const wide *b) {
    for (int i = WIDE - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] > b->d[i];
    return 1;
}

static void wide_sub(wide *a, const wide *b) {
    uint64_t borrow = 0;
    for (int i = 0; i < WIDE; i++) {
        uint64_t x = a->d[i], y = b->d[i];
        a->d[i] = x - y - borrow;
        borrow = (x < y) || (x - y < borrow);
    }
}

static void wide_shift_right1(wide *a) {
    for (int i = 0; i < WIDE; i++) a->d[i] = (a->d[i] >> 1) | (i + 1 < WIDE ? a->d[i + 1] << 63 : 0);
}

static double big_ratio(const big *a, const big *b) {
    int na = big_bits(a), nb = big_bits(b);
    if (!na) return 0.0;
    if (na <= 53 && nb <= 53) return (double)a->d[0] / (double)b->d[0];
    int shift = nb - na + 55; /* a * 2^shift / b lies in [2^54, 2^56) */
    wide num, den;
    uint64_t sticky = 0;
    if (shift >= 0) {
        wide_shift_left(&num, a, shift);
    } else {
        /* a >> -shift, remembering whether any bit shifted out was set */
        big low = *a;
        int drop = -shift;
        for (int i = 0; i < MINES_LIMBS; i++) {
            int from = i * 64;
            if (from + 64 <= drop) sticky |= low.d[i];
            else if (from < drop) sticky |= low.d[i] & ((1ULL << (drop - from)) - 1);
        }
        big moved;
        memset(&moved, 0, sizeof moved);
        int limbs = drop / 64, bits = drop % 64;
        for (int i = 0; i + limbs < MINES_LIMBS; i++) {
            moved.d[i] = low.d[i + limbs] >> bits;
            if (bits && i + limbs + 1 < MINES_LIMBS) moved.d[i] |= low.d[i + limbs + 1] << (64 - bits);
        }
        wide_shift_left(&num, &moved, 0);
    }
    wide_shift_left(&den, b, 56);
    uint64_t q = 0;
    for (int bit = 56; bit >= 0; bit--) {
        if (wide_geq(&num, &den)) {
            wide_sub(&num, &den);
            q |= 1ULL << bit;
        }
        wide_shift_right1(&den);
    }
    for (int i = 0; i < WIDE; i++) sticky |= num.d[i];
    return ldexp((double)(q | (sticky != 0)), -shift);
}

typedef struct {
    ctx_t *cx;
    int rows, cols, ncells_board, free_mines, living_checks;
    int *stamp, clock; /* marks for sets of cells: stamp[c] == clock */
} board_t;

static int around_of(const board_t *b, int cell, int out[8]) {
    int r = cell / b->cols, c = cell % b->cols, n = 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++) {
            int rr = r + dr, cc = c + dc;
            if ((dr || dc) && rr >= 0 && rr < b->rows && cc >= 0 && cc < b->cols)
                out[n++] = rr * b->cols + cc;
        }
    return n;
}

static const big *mine_weight(const counts_t *c, int cell) {
    return c->where[cell] >= 0 ? &c->weights[c->where[cell]] : &c->off_weight;
}

static int big_equal(const big *a, const big *b) { return !memcmp(a->d, b->d, sizeof a->d); }

static int big_compare(const big *a, const big *b) {
    for (int i = MINES_LIMBS - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

typedef struct {
    mkey_t *keys;
    int nkeys;
} keylist_t;

typedef int (*visit_t)(void *arg, const keylist_t *keys, const counts_t *after);

/* Bot._outcomes: for each number `cell` could show once opened, where `hidden` (a set given
 * by `in_hidden`) are the unrevealed cells outside the local rules' and `counts` counts
 * them, the constraints and counts after it; `visit` returns nonzero to stop. Returns the
 * outcomes visited. */
static int outcomes(board_t *b, const keylist_t *keys, const counts_t *counts,
                    const char *in_hidden, int nhidden, int cell, visit_t visit, void *arg) {
    ctx_t *cx = b->cx;
    int unopened = nhidden - (in_hidden[cell] != 0);
    int nbrs[8], around[8], naround = 0;
    int n = around_of(b, cell, nbrs);
    for (int i = 0; i < n; i++)
        if (in_hidden[nbrs[i]] && nbrs[i] != cell) around[naround++] = nbrs[i];
    keylist_t after = {take(cx, (size_t)keys->nkeys + 2, sizeof(mkey_t)), 0};
    b->clock++;
    int frontier = 0;
    for (int k = 0; k < keys->nkeys; k++) {
        const mkey_t *key = &keys->keys[k];
        int *cells = take(cx, (size_t)key->ncells + 1, sizeof(int)), m = 0;
        for (int j = 0; j < key->ncells; j++)
            if (key->cells[j] != cell) cells[m++] = key->cells[j];
        if (!m) continue;
        for (int j = 0; j < m; j++)
            if (b->stamp[cells[j]] != b->clock) b->stamp[cells[j]] = b->clock, frontier++;
        after.keys[after.nkeys++] = (mkey_t){cells, m, key->value};
    }
    for (int i = 0; i < naround; i++)
        if (b->stamp[around[i]] != b->clock) b->stamp[around[i]] = b->clock, frontier++;
    int off = unopened - frontier;
    int fewest = 0, zero = 0;
    for (int i = 0; i < naround; i++) {
        const big *w = mine_weight(counts, around[i]);
        fewest += big_equal(w, &counts->total);
        zero += big_is_zero(w);
    }
    int *around_cells = take(cx, 8, sizeof(int));
    memcpy(around_cells, around, sizeof around);
    int base = after.nkeys, visited = 0;
    for (int extra = fewest; extra <= naround - zero; extra++) {
        after.nkeys = base;
        if (naround) after.keys[after.nkeys++] = (mkey_t){around_cells, naround, extra};
        size_t mark = cx->nblocks;
        counts_t next;
        int code = count_keys(cx, after.keys, after.nkeys, off, b->free_mines, b->ncells_board, &next);
        if (code == MINES_NO_ARRANGEMENT) { /* the cell cannot show this number */
            release_to(cx, mark);
            continue;
        }
        visited++;
        int stop = visit(arg, &after, &next);
        release_to(cx, mark);
        if (stop) break;
    }
    return visited;
}

/* _living_by_off_swap: whether moving one mine among the cells away from the numbers can
 * change what `cell` would show (no recount needed) */
static int living_by_off_swap(board_t *b, const char *in_hidden, const counts_t *counts, int cell) {
    const big *weight = counts->where[cell] >= 0 ? &counts->weights[counts->where[cell]] : NULL;
    if (weight && big_equal(weight, &counts->total)) return 0;
    int nbrs[8], n = around_of(b, cell, nbrs), beside = 0;
    for (int i = 0; i < n; i++) beside += in_hidden[nbrs[i]] && counts->where[nbrs[i]] < 0;
    int spaces = counts->off_cells - (weight == NULL);
    if (!(0 < beside && beside < spaces)) return 0;
    int every = weight && !big_is_zero(weight); /* all arrangements must qualify, else any */
    for (int i = 0; i < counts->noff; i++) {
        int fits = 0 < counts->off_mines[i] && counts->off_mines[i] < spaces;
        if (every && !fits) return 0;
        if (!every && fits) return 1;
    }
    return every;
}

static int count_two(void *arg, const keylist_t *keys, const counts_t *after) {
    (void)keys;
    (void)after;
    return ++*(int *)arg >= 2;
}

/* _is_living: whether `cell` could show two numbers or more, once opened in that position */
static int is_living(board_t *b, const keylist_t *keys, const char *in_hidden, int nhidden,
                     const counts_t *counts, int cell) {
    if (living_by_off_swap(b, in_hidden, counts, cell)) return 1;
    int seen = 0;
    size_t mark = b->cx->nblocks;
    outcomes(b, keys, counts, in_hidden, nhidden, cell, count_two, &seen);
    release_to(b->cx, mark);
    return seen >= 2;
}

typedef struct {
    int cell;
    const big *weight;
} ranked_t;

/* _safest_living: the mine weight of the safest cell among `hidden` that can show two
 * numbers or more (checking at most living_checks cells, safest first), as a pointer */
static const big *safest_living(board_t *b, const keylist_t *keys, const int *hidden,
                                int nhidden, const counts_t *counts) {
    static const big zero_weight;
    if (!nhidden) return &zero_weight;
    ctx_t *cx = b->cx;
    int want = b->living_checks + 1;
    /* the frontier cells sorted by weight, stable (the reference's sorted()), merged with
     * the cells away from the numbers (all of off_weight), frontier first on ties */
    int *order = take(cx, (size_t)counts->ncells + 1, sizeof(int));
    for (int i = 0; i < counts->ncells; i++) {
        int j = i;
        while (j > 0 && big_compare(&counts->weights[order[j - 1]], &counts->weights[i]) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    ranked_t *ranked = take(cx, (size_t)want + 1, sizeof(ranked_t));
    int nranked = 0, fi = 0, hi = 0;
    while (nranked < want) {
        while (hi < nhidden && counts->where[hidden[hi]] >= 0) hi++;
        int have_f = fi < counts->ncells, have_o = hi < nhidden;
        if (!have_f && !have_o) break;
        if (have_f && (!have_o || big_compare(&counts->weights[order[fi]], &counts->off_weight) <= 0)) {
            ranked[nranked++] = (ranked_t){counts->cells[order[fi]], &counts->weights[order[fi]]};
            fi++;
        } else {
            ranked[nranked++] = (ranked_t){hidden[hi], &counts->off_weight};
            hi++;
        }
    }
    char *in_hidden = take(cx, (size_t)b->ncells_board + 1, 1);
    for (int i = 0; i < nhidden; i++) in_hidden[hidden[i]] = 1;
    int checks = nranked < b->living_checks ? nranked : b->living_checks;
    for (int i = 0; i < checks; i++)
        if (is_living(b, keys, in_hidden, nhidden, counts, ranked[i].cell)) return ranked[i].weight;
    return nranked > b->living_checks ? ranked[b->living_checks].weight : ranked[0].weight;
}

typedef struct {
    board_t *b;
    const counts_t *before;
    const int *others;
    int nothers;
    double score;
    int shown;
} look_t;

static int score_outcome(void *arg, const keylist_t *keys, const counts_t *after) {
    look_t *look = arg;
    const big *weight = safest_living(look->b, keys, look->others, look->nothers, after);
    double next_safety = 1.0 - big_ratio(weight, &after->total);
    look->score += big_ratio(&after->total, &look->before->total) * next_safety;
    look->shown++;
    return 0;
}

/*
 * Bot.lookahead for each of the ncand cells in cand: out_score[i] the chance to survive
 * opening it and then the following move, out_shown[i] how many numbers it could show.
 * The position: the keys (as for mines_count), the nhidden unrevealed cells outside the
 * local rules' (increasing), the mines among them and the keys' cells (free_mines), on a
 * rows x cols board. MINES_FALL_BACK when the Python path must do it.
 */
int mines_lookahead(int rows, int cols, int nkeys, const int *key_start, const int *key_cells,
                    const int *key_values, int nhidden, const int *hidden, int free_mines,
                    int living_checks, int ncand, const int *cand, double *out_score,
                    int *out_shown) {
    ctx_t *cx = ctx_new();
    if (!cx) return MINES_FALL_BACK;
    if (setjmp(cx->fail)) {
        ctx_free(cx);
        return MINES_FALL_BACK;
    }
    if (rows <= 0 || cols <= 0 || rows > 4096 || cols > 4096 || nhidden < 0 || ncand < 0 ||
        living_checks < 0)
        give_up(cx);
    board_t b = {cx, rows, cols, rows * cols, free_mines, living_checks, NULL, 0};
    int ncells_board = b.ncells_board;
    keylist_t keys = {read_keys(cx, nkeys, key_start, key_cells, key_values, &ncells_board), nkeys};
    if (ncells_board > b.ncells_board) give_up(cx);
    b.stamp = take(cx, (size_t)b.ncells_board + 1, sizeof(int));
    char *in_hidden = take(cx, (size_t)b.ncells_board + 1, 1);
    for (int i = 0; i < nhidden; i++) {
        if (hidden[i] < 0 || hidden[i] >= b.ncells_board) give_up(cx);
        in_hidden[hidden[i]] = 1;
    }
    b.clock++;
    int frontier = 0;
    for (int k = 0; k < nkeys; k++)
        for (int j = 0; j < keys.keys[k].ncells; j++) {
            int c = keys.keys[k].cells[j];
            if (b.stamp[c] != b.clock) b.stamp[c] = b.clock, frontier++;
        }
    counts_t before;
    if (count_keys(cx, keys.keys, nkeys, nhidden - frontier, free_mines, b.ncells_board, &before) !=
        MINES_OK)
        give_up(cx);
    int *others = take(cx, (size_t)nhidden + 1, sizeof(int));
    for (int i = 0; i < ncand; i++) {
        if (cand[i] < 0 || cand[i] >= b.ncells_board || !in_hidden[cand[i]]) give_up(cx);
        int nothers = 0;
        for (int j = 0; j < nhidden; j++)
            if (hidden[j] != cand[i]) others[nothers++] = hidden[j];
        look_t look = {&b, &before, others, nothers, 0.0, 0};
        size_t mark = cx->nblocks;
        outcomes(&b, &keys, &before, in_hidden, nhidden, cand[i], score_outcome, &look);
        release_to(cx, mark);
        out_score[i] = look.score;
        out_shown[i] = look.shown;
    }
    ctx_free(cx);
    return MINES_OK;
}

/* ---- the local rules (mines/solver/rules.py: deduce) ---- */

/*
 * The single-number rule to a fixpoint, then the overlapping-pair rule, until neither finds
 * anything, on a rows x cols board whose values are -1 (unknown) or the number shown.
 * On a board whose numbers agree, that fixpoint is the same whatever the order the rules
 * run in, so it is the reference's. out_known[c] is -1 (undecided or revealed), 0 (safe)
 * or 1 (a mine), and out_decided[0..*out_ndecided) lists the decided cells, increasing;
 * the live constraints come as for mines_count (cells increasing), at most
 * one per revealed cell. MINES_FALL_BACK on contradictory numbers (the reference then
 * raises its own error) or bad sizes.
 */
int mines_deduce(int rows, int cols, const signed char *values, int *out_known,
                 int *out_ndecided, int *out_decided, int *out_nkeys, int *out_key_start,
                 int *out_key_cells, int *out_key_values) {
    ctx_t *cx = ctx_new();
    if (!cx) return MINES_FALL_BACK;
    if (setjmp(cx->fail)) {
        ctx_free(cx);
        return MINES_FALL_BACK;
    }
    if (rows <= 0 || cols <= 0 || rows > 4096 || cols > 4096) give_up(cx);
    board_t b = {cx, rows, cols, rows * cols, 0, 0, NULL, 0};
    int n = b.ncells_board;
    int *source = take(cx, (size_t)n + 1, sizeof(int));
    int *cells = take(cx, (size_t)n * 8 + 1, sizeof(int)); /* constraint i: cells[8i..8i+ncells) */
    int *ncells = take(cx, (size_t)n + 1, sizeof(int));
    int *need = take(cx, (size_t)n + 1, sizeof(int));
    int *by_cell = take(cx, (size_t)n * 8 + 1, sizeof(int)); /* constraints of cell c */
    int *nby = take(cx, (size_t)n + 1, sizeof(int));
    int *known = out_known;
    int ncons = 0;
    for (int c = 0; c < n; c++) {
        known[c] = -1;
        if (values[c] < -1 || values[c] > 8) give_up(cx);
    }
    for (int c = 0; c < n; c++) {
        if (values[c] < 0) continue;
        int nbrs[8], m = around_of(&b, c, nbrs), k = 0;
        for (int i = 0; i < m; i++)
            if (values[nbrs[i]] < 0) cells[ncons * 8 + k++] = nbrs[i];
        if (!k) {
            if (values[c]) give_up(cx);
            continue;
        }
        source[ncons] = c;
        ncells[ncons] = k;
        need[ncons] = values[c];
        for (int i = 0; i < k; i++) {
            int cell = cells[ncons * 8 + i];
            by_cell[cell * 8 + nby[cell]++] = ncons;
        }
        ncons++;
    }
    int *work = take(cx, (size_t)ncons * 80 + 1, sizeof(int)), nwork = 0;
    char *queued = take(cx, (size_t)ncons + 1, 1);
    for (int i = ncons - 1; i >= 0; i--) work[nwork++] = i, queued[i] = 1;
/* undecided cells and mines still needed of constraint i */
#define ROOM(i, room, left)                                                                    \
    do {                                                                                       \
        room = 0;                                                                              \
        left = need[i];                                                                        \
        for (int q_ = 0; q_ < ncells[i]; q_++) {                                               \
            int k_ = known[cells[(i) * 8 + q_]];                                               \
            room += k_ < 0;                                                                    \
            left -= k_ == 1;                                                                   \
        }                                                                                      \
    } while (0)
#define SETTLE(cell, mine)                                                                     \
    do {                                                                                       \
        known[cell] = (mine);                                                                  \
        for (int q_ = 0; q_ < nby[cell]; q_++) {                                               \
            int j_ = by_cell[(cell) * 8 + q_];                                                 \
            if (!queued[j_]) queued[j_] = 1, work[nwork++] = j_;                               \
        }                                                                                      \
    } while (0)
    for (;;) {
        while (nwork) {
            int i = work[--nwork], room, left;
            queued[i] = 0;
            ROOM(i, room, left);
            if (left < 0 || left > room) give_up(cx);
            if (room && (left == 0 || left == room))
                for (int q = 0; q < ncells[i]; q++) {
                    int cell = cells[i * 8 + q];
                    if (known[cell] < 0) SETTLE(cell, left > 0);
                }
        }
        int found = 0;
        for (int a = 0; a < ncons && !found; a++) {
            int room_a, left_a;
            ROOM(a, room_a, left_a);
            if (!room_a) continue;
            for (int q = 0; q < ncells[a] && !found; q++) {
                int shared = cells[a * 8 + q];
                if (known[shared] >= 0) continue;
                for (int r = 0; r < nby[shared] && !found; r++) {
                    int bb = by_cell[shared * 8 + r], room_b, left_b;
                    if (bb == a) continue;
                    ROOM(bb, room_b, left_b);
                    int only_a = 0, only_b = 0;
                    for (int x = 0; x < ncells[a]; x++) {
                        int cell = cells[a * 8 + x], in_b = 0;
                        if (known[cell] >= 0) continue;
                        for (int y = 0; y < ncells[bb]; y++) in_b |= cells[bb * 8 + y] == cell;
                        only_a += !in_b;
                    }
                    for (int y = 0; y < ncells[bb]; y++) {
                        int cell = cells[bb * 8 + y], in_a = 0;
                        if (known[cell] >= 0) continue;
                        for (int x = 0; x < ncells[a]; x++) in_a |= cells[a * 8 + x] == cell;
                        only_b += !in_a;
                    }
                    if (left_a - left_b != only_a || !(only_a || only_b)) continue;
                    found = 1;
                    int mines_at[8], safe_at[8], nm = 0, ns = 0;
                    for (int x = 0; x < ncells[a]; x++) {
                        int cell = cells[a * 8 + x], in_b = 0;
                        if (known[cell] >= 0) continue;
                        for (int y = 0; y < ncells[bb]; y++) in_b |= cells[bb * 8 + y] == cell;
                        if (!in_b) mines_at[nm++] = cell;
                    }
                    for (int y = 0; y < ncells[bb]; y++) {
                        int cell = cells[bb * 8 + y], in_a = 0;
                        if (known[cell] >= 0) continue;
                        for (int x = 0; x < ncells[a]; x++) in_a |= cells[a * 8 + x] == cell;
                        if (!in_a) safe_at[ns++] = cell;
                    }
                    for (int x = 0; x < nm; x++) SETTLE(mines_at[x], 1);
                    for (int y = 0; y < ns; y++) SETTLE(safe_at[y], 0);
                }
            }
        }
        if (!found) break;
    }
    /* the live constraints, reduced by the settled cells */
    int nkeys = 0, used = 0;
    out_key_start[0] = 0;
    for (int i = 0; i < ncons; i++) {
        int room, left;
        ROOM(i, room, left);
        if (!room) continue;
        for (int q = 0; q < ncells[i]; q++)
            if (known[cells[i * 8 + q]] < 0) out_key_cells[used++] = cells[i * 8 + q];
        out_key_values[nkeys] = left;
        out_key_start[++nkeys] = used;
    }
#undef ROOM
#undef SETTLE
    *out_nkeys = nkeys;
    int ndecided = 0;
    for (int c = 0; c < n; c++)
        if (known[c] >= 0) out_decided[ndecided++] = c;
    *out_ndecided = ndecided;
    ctx_free(cx);
    return MINES_OK;
}

/* a / b correctly rounded, for the tests: a and b as MINES_LIMBS little-endian limbs. */
double mines_ratio(const uint64_t *a, const uint64_t *b) {
    big x, y;
    memcpy(x.d, a, sizeof x.d);
    memcpy(y.d, b, sizeof y.d);
    return big_is_zero(&y) ? 0.0 : big_ratio(&x, &y);
}

/* ---- the bot's 50/50 credit (mines/solver/bot.py: Bot._fifty_fifty_factors) ---- */

static void big_sub(big *a, const big *b) { /* a -= b, a >= b */
    uint64_t borrow = 0;
    for (int i = 0; i < MINES_LIMBS; i++) {
        uint64_t x = a->d[i], y = b->d[i];
        a->d[i] = x - y - borrow;
        borrow = (x < y) || (x - y < borrow);
    }
}

/* float(a) as Python converts an int: correctly rounded */
static double big_to_double(const big *a) {
    big one;
    big_set(&one, 1);
    return big_ratio(a, &one);
}

typedef struct {
    int family; /* the family whose best trap counts, or -1: summed (a trap it would close) */
    int nmines, nsafe, nwalls, max_open;
    const int *offsets; /* (row, col) pairs: mines, then safe, then walls */
} trap_t;

/* _trap_weight: arrangements with a mine on `cell` and `trap` around it, walls and all */
static void trap_weight(ctx_t *cx, const board_t *b, const mkey_t *keys, int nkeys,
                        const counts_t *counts, const int *values, const int *known, int cell,
                        const trap_t *trap, big *out) {
    big_set(out, 0);
    int row = cell / b->cols, col = cell % b->cols;
    int fixed[32], mine[32], nfixed = 0;
    const int *o = trap->offsets;
    for (int i = 0; i < trap->nmines + trap->nsafe; i++) {
        int r = row + o[2 * i], c = col + o[2 * i + 1];
        if (r < 0 || r >= b->rows || c < 0 || c >= b->cols) return;
        int at = r * b->cols + c;
        if (values[at] != -1 || known[at] >= 0) return;
        fixed[nfixed] = at;
        mine[nfixed++] = i < trap->nmines;
    }
    int first_wall = nfixed, open = 0;
    for (int i = 0; i < trap->nwalls; i++) {
        int k = trap->nmines + trap->nsafe + i;
        int r = row + o[2 * k], c = col + o[2 * k + 1];
        if (r < 0 || r >= b->rows || c < 0 || c >= b->cols) continue; /* the edge: a mine */
        int at = r * b->cols + c;
        if (values[at] != -1 || known[at] == 0) return;
        if (known[at] < 0) {
            fixed[nfixed] = at;
            mine[nfixed++] = 1;
            open++;
        }
    }
    if (open > trap->max_open) return;
    (void)first_wall;
    /* the cell itself is a mine too; a cell named twice keeps its last meaning, as the
     * reference's dict does (mines and walls first, then the safe cells) */
    mkey_t *all = take(cx, (size_t)nkeys + 34, sizeof(mkey_t));
    memcpy(all, keys, (size_t)nkeys * sizeof(mkey_t));
    int n = nkeys, off = counts->off_cells;
    int order[33], norder = 0;
    order[norder++] = -1; /* the cell */
    for (int i = 0; i < nfixed; i++)
        if (mine[i]) order[norder++] = i;
    for (int i = 0; i < nfixed; i++)
        if (!mine[i]) order[norder++] = i;
    int *singles = take(cx, 34, sizeof(int));
    int *seen_at = take(cx, 34, sizeof(int)), nseen = 0;
    for (int j = 0; j < norder; j++) {
        int at = order[j] < 0 ? cell : fixed[order[j]];
        int is_mine = order[j] < 0 ? 1 : mine[order[j]];
        int dup = -1;
        for (int s = 0; s < nseen; s++)
            if (seen_at[s] == at) dup = s;
        if (dup >= 0) {
            all[nkeys + dup].value = is_mine;
            continue;
        }
        seen_at[nseen] = at;
        singles[nseen] = at;
        all[n++] = (mkey_t){&singles[nseen], 1, is_mine};
        nseen++;
        if (counts->where[at] < 0) off--;
    }
    counts_t after;
    size_t mark = cx->nblocks;
    if (count_keys(cx, all, n, off, b->free_mines, b->ncells_board, &after) == MINES_OK)
        *out = after.total;
    release_to(cx, mark);
}

/*
 * For each of the ncand cells: out_factor[i], what the bot's 50/50 credit multiplies its
 * score by, and out_pseudo[i], whether its mine lies only inside a 50/50 (a pseudo 50/50).
 * The traps come from mines/solver/fifty.py (its TRAPS, family 0.., and its ENABLED,
 * family -1) as trap_info[5 i..] = (family, mines, safe, walls, most open walls) and their
 * offsets in order; values are -1 for unrevealed cells, known -1 (undecided), 0 or 1 for
 * every cell, off_cells the undecided cells away from the keys.
 */
int mines_fifty(int rows, int cols, int nkeys, const int *key_start, const int *key_cells,
                const int *key_values, const int *values, const int *known, int off_cells,
                int free_mines, int ntraps, const int *trap_info, const int *trap_offsets,
                int nfamilies, double credit, int ncand, const int *cand, double *out_factor,
                int *out_pseudo) {
    ctx_t *cx = ctx_new();
    if (!cx) return MINES_FALL_BACK;
    if (setjmp(cx->fail)) {
        ctx_free(cx);
        return MINES_FALL_BACK;
    }
    if (rows <= 0 || cols <= 0 || rows > 4096 || cols > 4096 || ntraps < 0 || ncand < 0 ||
        nfamilies < 0 || nfamilies > 16)
        give_up(cx);
    board_t b = {cx, rows, cols, rows * cols, free_mines, 0, NULL, 0};
    int ncells_board = b.ncells_board;
    mkey_t *keys = read_keys(cx, nkeys, key_start, key_cells, key_values, &ncells_board);
    if (ncells_board > b.ncells_board) give_up(cx);
    trap_t *traps = take(cx, (size_t)ntraps + 1, sizeof(trap_t));
    const int *offsets = trap_offsets;
    for (int t = 0; t < ntraps; t++) {
        const int *info = &trap_info[5 * t];
        traps[t] = (trap_t){info[0], info[1], info[2], info[3], info[4], offsets};
        if (info[0] >= nfamilies || info[1] < 0 || info[2] < 0 || info[3] < 0 ||
            info[1] + info[2] + info[3] > 31)
            give_up(cx);
        offsets += 2 * (info[1] + info[2] + info[3]);
    }
    counts_t before;
    if (count_keys(cx, keys, nkeys, off_cells, free_mines, b.ncells_board, &before) != MINES_OK)
        give_up(cx);
    for (int i = 0; i < ncand; i++) {
        int cell = cand[i];
        if (cell < 0 || cell >= b.ncells_board || values[cell] != -1 || known[cell] >= 0)
            give_up(cx);
        big best[16], credited, weight;
        for (int f = 0; f < nfamilies; f++) big_set(&best[f], 0);
        big_set(&credited, 0);
        for (int t = 0; t < ntraps; t++) {
            trap_weight(cx, &b, keys, nkeys, &before, values, known, cell, &traps[t], &weight);
            if (traps[t].family < 0)
                big_add(cx, &credited, &weight);
            else if (big_compare(&weight, &best[traps[t].family]) > 0)
                best[traps[t].family] = weight;
        }
        const big *mine = mine_weight(&before, cell);
        big top, safe = before.total;
        big_set(&top, 0);
        for (int f = 0; f < nfamilies; f++) {
            big_add(cx, &credited, &best[f]);
            if (big_compare(&best[f], &top) > 0) top = best[f];
        }
        big_sub(&safe, mine);
        if (big_is_zero(&safe)) give_up(cx);
        out_pseudo[i] = nfamilies > 0 && big_equal(&top, mine);
        const big *least = &credited;
        if (big_compare(mine, least) < 0) least = mine;
        if (big_compare(&safe, least) < 0) least = &safe;
        out_factor[i] = 1.0 + credit * big_to_double(least) / big_to_double(&safe);
    }
    ctx_free(cx);
    return MINES_OK;
}

/* ---- exhaustive endgames (mines/solver/endgame.py: solve_endgame) ---- */

#define MAX_WORDS 64 /* layouts as bit sets of at most 4096 bits */

typedef struct {
    int words, ncells, budget;
    const uint64_t *mine_in;  /* [cell * words]: layouts where the cell is a mine */
    uint64_t **showing;       /* [cell]: the layouts where it shows each number, in turn */
    int *nshowing;
    /* memo: open addressing over `cap` slots of `words` words and a value */
    uint64_t *keys;
    double *vals;
    char *used;
    size_t cap, size;
    ctx_t *cx;
    jmp_buf *over; /* jumped to when the memo reaches the budget */
} search_eg_t;

static int set_count(const uint64_t *a, int w) {
    int n = 0;
    for (int i = 0; i < w; i++) n += __builtin_popcountll(a[i]);
    return n;
}

static int set_any(const uint64_t *a, int w) {
    for (int i = 0; i < w; i++)
        if (a[i]) return 1;
    return 0;
}

static int set_lowest(const uint64_t *a, int w) {
    for (int i = 0; i < w; i++)
        if (a[i]) return i * 64 + __builtin_ctzll(a[i]);
    return w * 64;
}

static uint64_t set_hash(const uint64_t *a, int w) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < w; i++) h = (h ^ a[i]) * 0xff51afd7ed558ccdULL, h ^= h >> 32;
    return h;
}

static double *memo_find(search_eg_t *s, const uint64_t *part) {
    size_t at = set_hash(part, s->words) & (s->cap - 1);
    while (s->used[at]) {
        if (!memcmp(&s->keys[at * s->words], part, (size_t)s->words * 8)) return &s->vals[at];
        at = (at + 1) & (s->cap - 1);
    }
    return NULL;
}

static void memo_put(search_eg_t *s, const uint64_t *part, double value) {
    size_t at = set_hash(part, s->words) & (s->cap - 1);
    while (s->used[at]) at = (at + 1) & (s->cap - 1);
    s->used[at] = 1;
    memcpy(&s->keys[at * s->words], part, (size_t)s->words * 8);
    s->vals[at] = value;
    s->size++;
}

typedef struct {
    uint64_t *sets; /* [n * words] */
    int n;
} parts_t;

/* _Search.split: `part` grouped by the numbers `cells` show, lowest first layout first */
static parts_t split(search_eg_t *s, const uint64_t *part, const int *cells, int ncells) {
    int w = s->words;
    parts_t now = {take(s->cx, (size_t)w, 8), 1};
    memcpy(now.sets, part, (size_t)w * 8);
    for (int q = 0; q < ncells; q++) {
        int i = cells[q];
        parts_t next = {take(s->cx, (size_t)(now.n * s->nshowing[i]) * w + 1, 8), 0};
        for (int p = 0; p < now.n; p++)
            for (int k = 0; k < s->nshowing[i]; k++) {
                uint64_t *dst = &next.sets[next.n * w];
                int any = 0;
                for (int j = 0; j < w; j++) any |= (dst[j] = now.sets[p * w + j] & s->showing[i][k * w + j]) != 0;
                if (any) next.n++;
            }
        now = next;
    }
    /* by lowest layout: the pieces are disjoint, so no two share it */
    int *lowest = take(s->cx, (size_t)now.n + 1, sizeof(int));
    int *order = take(s->cx, (size_t)now.n + 1, sizeof(int));
    for (int p = 0; p < now.n; p++) {
        lowest[p] = set_lowest(&now.sets[p * w], w);
        int q = p;
        while (q > 0 && lowest[order[q - 1]] > lowest[p]) {
            order[q] = order[q - 1];
            q--;
        }
        order[q] = p;
    }
    parts_t sorted = {take(s->cx, (size_t)now.n * w + 1, 8), now.n};
    for (int p = 0; p < now.n; p++)
        memcpy(&sorted.sets[p * w], &now.sets[order[p] * w], (size_t)w * 8);
    return sorted;
}

static double win(search_eg_t *s, const uint64_t *part);
static double best_guess(search_eg_t *s, const uint64_t *part, int *best_cell);

static double parts_value(search_eg_t *s, parts_t parts, int out_of) {
    double sum = 0.0;
    for (int p = 0; p < parts.n; p++) {
        const uint64_t *piece = &parts.sets[p * s->words];
        sum += (double)set_count(piece, s->words) * win(s, piece);
    }
    return sum / out_of;
}

static int varies(search_eg_t *s, int cell, const uint64_t *part) {
    for (int k = 0; k < s->nshowing[cell]; k++) {
        int same = 1;
        for (int j = 0; j < s->words && same; j++)
            same = (part[j] & s->showing[cell][k * s->words + j]) == part[j];
        if (same) return 0;
    }
    return 1;
}

static double win(search_eg_t *s, const uint64_t *part) {
    int w = s->words;
    if (set_count(part, w) <= 1) return 1.0;
    double *found = memo_find(s, part);
    if (found) return *found;
    if (s->size >= (size_t)s->budget) longjmp(*s->over, 1);
    size_t mark = s->cx->nblocks;
    int *free_cells = take(s->cx, (size_t)s->ncells + 1, sizeof(int)), nfree = 0;
    for (int i = 0; i < s->ncells; i++) {
        int mine = 0;
        for (int j = 0; j < w && !mine; j++) mine = (part[j] & s->mine_in[i * w + j]) != 0;
        if (!mine && varies(s, i, part)) free_cells[nfree++] = i;
    }
    double result;
    if (nfree) {
        parts_t parts = split(s, part, free_cells, nfree);
        result = parts_value(s, parts, set_count(part, w));
    } else {
        int cell;
        result = best_guess(s, part, &cell);
    }
    release_to(s->cx, mark);
    memo_put(s, part, result);
    return result;
}

typedef struct {
    int safe, index;
} risky_t;

static int compare_risky(const void *a, const void *b) {
    const risky_t *x = a, *y = b;
    if (x->safe != y->safe) return x->safe > y->safe ? -1 : 1; /* safest first */
    return (x->index > y->index) - (x->index < y->index);       /* then the first cell */
}

static double best_guess(search_eg_t *s, const uint64_t *part, int *best_cell) {
    int w = s->words, size = set_count(part, w);
    size_t mark = s->cx->nblocks;
    risky_t *risky = take(s->cx, (size_t)s->ncells + 1, sizeof(risky_t));
    uint64_t *survivors = take(s->cx, (size_t)s->ncells * w + 1, 8);
    int nrisky = 0;
    for (int i = 0; i < s->ncells; i++) {
        uint64_t *left = &survivors[i * w];
        int changed = 0;
        for (int j = 0; j < w; j++) {
            left[j] = part[j] & ~s->mine_in[i * w + j];
            changed |= left[j] != part[j];
        }
        if (set_any(left, w) && changed) risky[nrisky++] = (risky_t){set_count(left, w), i};
    }
    qsort(risky, (size_t)nrisky, sizeof *risky, compare_risky);
    double best_value = -1.0;
    int best_safe = 0, best_index = 1; /* the reference's (-1.0, 0, -1) */
    for (int r = 0; r < nrisky; r++) {
        if ((double)risky[r].safe < best_value * size) break;
        int cell = risky[r].index;
        parts_t parts = split(s, &survivors[cell * w], &cell, 1);
        double value = parts_value(s, parts, size);
        /* max over (value, safe, -index) */
        if (value > best_value || (value == best_value && (risky[r].safe > best_safe ||
                                   (risky[r].safe == best_safe && cell < best_index)))) {
            best_value = value;
            best_safe = risky[r].safe;
            best_index = cell;
        }
    }
    release_to(s->cx, mark);
    *best_cell = best_index;
    return best_value;
}

/* _layouts: every layout of the remaining mines on the undecided cells */
typedef struct {
    int count, limit, nfound, left;
    long steps, taken;
    int **touching, *ntouching, *need, *free_;
    uint64_t *found; /* [limit + 1][words] */
    int words;
    uint64_t *layout;
    jmp_buf *over;
} place_t;

static void place(place_t *p, int i, int left) {
    if (++p->taken > p->steps) longjmp(*p->over, 1);
    if (left < 0 || left > p->count - i) return;
    if (i == p->count) {
        memcpy(&p->found[(size_t)p->nfound * p->words], p->layout, (size_t)p->words * 8);
        if (++p->nfound > p->limit) longjmp(*p->over, 1);
        return;
    }
    const int *cons = p->touching[i];
    int n = p->ntouching[i], ok = 1;
    for (int c = 0; c < n; c++) p->free_[cons[c]]--;
    for (int c = 0; c < n && ok; c++) ok = p->need[cons[c]] <= p->free_[cons[c]];
    if (ok) place(p, i + 1, left);
    ok = 1;
    for (int c = 0; c < n && ok; c++) ok = p->need[cons[c]] > 0;
    if (ok) {
        for (int c = 0; c < n; c++) p->need[cons[c]]--;
        p->layout[i / 64] |= 1ULL << (i % 64);
        place(p, i + 1, left - 1);
        p->layout[i / 64] &= ~(1ULL << (i % 64));
        for (int c = 0; c < n; c++) p->need[cons[c]]++;
    }
    for (int c = 0; c < n; c++) p->free_[cons[c]]++;
}

/*
 * solve_endgame's search, once its size checks passed: the nund undecided cells
 * (increasing), every cell's value (-1 unrevealed) and known state (-1, 0, 1), the mine
 * total. MINES_OK with *out_index (into undecided) and *out_value (the chance to win);
 * MINES_NO_ARRANGEMENT when the reference returns None (fewer than two layouts, too many,
 * or a search past its budget); MINES_FALL_BACK on bad input.
 */
int mines_endgame(int rows, int cols, const int *values, const int *known, int mines, int nund,
                  const int *undecided, int max_layouts, int budget, long listing_steps,
                  int *out_index, double *out_value) {
    ctx_t *cx = ctx_new();
    if (!cx) return MINES_FALL_BACK;
    jmp_buf over;
    if (setjmp(cx->fail)) {
        ctx_free(cx);
        return MINES_FALL_BACK;
    }
    if (rows <= 0 || cols <= 0 || rows > 4096 || cols > 4096 || nund < 0 || nund > 4096 ||
        max_layouts < 0 || max_layouts >= 64 * MAX_WORDS || budget < 0)
        give_up(cx);
    board_t b = {cx, rows, cols, rows * cols, 0, 0, NULL, 0};
    int n = b.ncells_board;
    int *index = take(cx, (size_t)n, sizeof(int));
    for (int c = 0; c < n; c++) index[c] = -1;
    for (int i = 0; i < nund; i++) {
        if (undecided[i] < 0 || undecided[i] >= n) give_up(cx);
        index[undecided[i]] = i;
    }
    /* the constraints of the revealed numbers on the undecided cells */
    place_t p = {0};
    p.count = nund;
    p.limit = max_layouts;
    p.steps = listing_steps;
    p.words = (nund + 63) / 64 ? (nund + 63) / 64 : 1;
    p.touching = take(cx, (size_t)nund + 1, sizeof(int *));
    p.ntouching = take(cx, (size_t)nund + 1, sizeof(int));
    for (int i = 0; i < nund; i++) p.touching[i] = take(cx, 8, sizeof(int));
    p.need = take(cx, (size_t)n + 1, sizeof(int));
    p.free_ = take(cx, (size_t)n + 1, sizeof(int));
    int ncons = 0;
    p.left = mines;
    for (int c = 0; c < n; c++) p.left -= known[c] == 1;
    for (int c = 0; c < n; c++) {
        if (values[c] == -1) continue;
        int nbrs[8], m = around_of(&b, c, nbrs), around = 0, mines_known = 0;
        for (int q = 0; q < m; q++) {
            if (index[nbrs[q]] >= 0) {
                int i = index[nbrs[q]];
                if (p.ntouching[i] >= 8) give_up(cx);
                p.touching[i][p.ntouching[i]++] = ncons;
                around++;
            }
            mines_known += known[nbrs[q]] == 1;
        }
        if (!around) continue;
        p.need[ncons] = values[c] - mines_known;
        p.free_[ncons] = around;
        ncons++;
    }
    int lw = (max_layouts + 1 + 63) / 64; /* words of a set of layouts */
    p.found = take(cx, (size_t)(max_layouts + 2) * p.words, 8);
    p.layout = take(cx, (size_t)p.words, 8);
    p.over = &over;
    if (setjmp(over)) {
        ctx_free(cx);
        return MINES_NO_ARRANGEMENT;
    }
    place(&p, 0, p.left);
    int nlayouts = p.nfound;
    if (nlayouts < 2) {
        ctx_free(cx);
        return MINES_NO_ARRANGEMENT;
    }
    lw = (nlayouts + 63) / 64;
    if (lw > MAX_WORDS) give_up(cx);
    /* per cell: the layouts where it is a mine, and where it shows each number */
    search_eg_t s = {0};
    s.words = lw;
    s.ncells = nund;
    s.budget = budget;
    s.cx = cx;
    s.over = &over;
    uint64_t *mine_in = take(cx, (size_t)nund * lw + 1, 8);
    s.mine_in = mine_in;
    s.showing = take(cx, (size_t)nund + 1, sizeof(uint64_t *));
    s.nshowing = take(cx, (size_t)nund + 1, sizeof(int));
    for (int i = 0; i < nund; i++) {
        int nbrs[8], m = around_of(&b, undecided[i], nbrs), base = 0, near[8], nnear = 0;
        for (int q = 0; q < m; q++) {
            base += known[nbrs[q]] == 1;
            if (index[nbrs[q]] >= 0) near[nnear++] = index[nbrs[q]];
        }
        int number_of[9], order = 0;
        for (int v = 0; v < 9; v++) number_of[v] = -1;
        s.showing[i] = take(cx, (size_t)9 * lw, 8);
        for (int k = 0; k < nlayouts; k++) {
            const uint64_t *layout = &p.found[(size_t)k * p.words];
            if (layout[i / 64] >> (i % 64) & 1) mine_in[i * lw + k / 64] |= 1ULL << (k % 64);
            int number = base;
            for (int q = 0; q < nnear; q++) number += (int)(layout[near[q] / 64] >> (near[q] % 64) & 1);
            if (number > 8) give_up(cx);
            if (number_of[number] < 0) number_of[number] = order++;
            s.showing[i][number_of[number] * lw + k / 64] |= 1ULL << (k % 64);
        }
        s.nshowing[i] = order;
    }
    s.cap = 1;
    while (s.cap < 2 * (size_t)budget + 2) s.cap <<= 1;
    s.keys = take(cx, s.cap * lw, 8);
    s.vals = take(cx, s.cap, sizeof(double));
    s.used = take(cx, s.cap, 1);
    uint64_t *all = take(cx, (size_t)lw, 8);
    for (int k = 0; k < nlayouts; k++) all[k / 64] |= 1ULL << (k % 64);
    int best;
    double value = best_guess(&s, all, &best);
    *out_index = best;
    *out_value = value;
    ctx_free(cx);
    return MINES_OK;
}

/* ---- whole games (mines/solver/bot.py: Bot.play, Bot.moves and Bot.guess) ---- */

/*
 * Long runs pay for the Python game around the bot (a view and a reveal per cell) as much
 * as for its decisions, so a seeded game can be played here end to end: the layout comes
 * from the same RandomPlacer, the bot still decides from what a player sees (the values
 * below, never the layout), and the same Mersenne Twister as Python's `random.Random`
 * breaks ties, so every move is the Python bot's.
 */

#define MT_N 624
#define MT_M 397

/* random.Random's generator: state[0..623] and the index state[624], as getstate() */
static uint32_t mt_next(uint32_t *mt) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (mt[MT_N] >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1U];
        mt[MT_N] = 0;
    }
    y = mt[mt[MT_N]++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.random() */
static double mt_random(uint32_t *mt) {
    uint32_t a = mt_next(mt) >> 5, b = mt_next(mt) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.randrange(n) for 0 < n < 2^31: getrandbits(n.bit_length()) until below n */
static int mt_below(uint32_t *mt, int n) {
    int k = 0;
    while ((n >> k) > 0) k++;
    uint32_t r;
    do r = mt_next(mt) >> (32 - k);
    while (r >= (uint32_t)n);
    return (int)r;
}

/* Python's round(x, 9): both print the exact binary value correctly rounded */
static double round9(double x) {
    char text[64];
    snprintf(text, sizeof text, "%.9f", x);
    return strtod(text, NULL);
}

typedef struct {
    double tolerance, credit;
    int candidates, off_candidates, near_candidates, endgame_cells, endgame_layouts,
        endgame_positions, living_checks;
    long listing_steps;
    int ntraps, nfamilies;
    const int *trap_info, *trap_offsets;
} bot_t;

typedef struct {
    int cell;
    double round9, random;
    int hidden;
} choice_t;

static int compare_choice(const void *pa, const void *pb) {
    const choice_t *a = pa, *b = pb;
    if (a->round9 != b->round9) return a->round9 < b->round9 ? -1 : 1;
    if (a->hidden != b->hidden) return a->hidden < b->hidden ? -1 : 1;
    if (a->random != b->random) return a->random < b->random ? -1 : 1;
    return (a->cell > b->cell) - (a->cell < b->cell); /* Python's sort is stable */
}

/* The work space of one game, sized by the board once. */
typedef struct {
    int rows, cols, n, mines;
    signed char *values;                 /* -1 unrevealed, else the number shown */
    int *known, *decided, *key_start, *key_cells, *key_values;
    int *values_int, *hidden, *undecided, *shortlist, *cells, *where, *shown, *pseudo;
    char *frontier, *picked;
    int *out_cells, *off_mines;
    big *weights, total, off_weight;
    double *chance, *factor, *score;
    choice_t *ranked;
} play_t;

/*
 * Bot.moves on the values: *out_n safe cells (increasing) into out, or one guess (and
 * *guessed = 1); MINES_FALL_BACK when the Python path must decide this position.
 */
static int decide(play_t *p, const bot_t *bot, uint32_t *mt, int *out, int *out_n,
                  int *guessed) {
    int n = p->n, ndec = 0, nkeys = 0;
    *guessed = 0;
    if (mines_deduce(p->rows, p->cols, p->values, p->known, &ndec, p->decided, &nkeys,
                     p->key_start, p->key_cells, p->key_values) != MINES_OK)
        return MINES_FALL_BACK;
    int nsafe = 0, mines_left = p->mines, unknown = 0;
    for (int i = 0; i < ndec; i++) {
        if (p->known[p->decided[i]] == 0) out[nsafe++] = p->decided[i];
        else mines_left--;
    }
    if (nsafe) { /* Counting.IF_STUCK: the local rules' safe cells first */
        *out_n = nsafe;
        return MINES_OK;
    }
    int nhidden = 0; /* unrevealed cells the local rules left (they are in no key) */
    for (int c = 0; c < n; c++) {
        p->values_int[c] = p->values[c];
        p->frontier[c] = 0;
        if (p->values[c] == -1) {
            unknown++;
            if (p->known[c] < 0) p->hidden[nhidden++] = c;
        }
    }
    int nfrontier = 0;
    for (int j = 0; j < p->key_start[nkeys]; j++)
        if (!p->frontier[p->key_cells[j]]) p->frontier[p->key_cells[j]] = 1, nfrontier++;
    int off_cells = unknown - ndec - nfrontier, ncells = 0, noff = 0;
    if (mines_count(nkeys, p->key_start, p->key_cells, p->key_values, off_cells, mines_left,
                    &ncells, p->out_cells, (uint64_t *)p->weights, (uint64_t *)&p->total,
                    (uint64_t *)&p->off_weight, &noff, p->off_mines) != MINES_OK)
        return MINES_FALL_BACK;
    /* what counting decides (solve); `known` becomes solved.known */
    int off_certain = off_cells && (big_is_zero(&p->off_weight) ||
                                    big_equal(&p->off_weight, &p->total));
    for (int c = 0; c < n; c++) p->where[c] = -1;
    for (int i = 0; i < ncells; i++) p->where[p->out_cells[i]] = i;
    for (int i = 0; i < nhidden; i++) {
        int c = p->hidden[i];
        const big *w = p->where[c] >= 0 ? &p->weights[p->where[c]] : &p->off_weight;
        if (p->where[c] < 0 && !off_certain) continue;
        if (big_is_zero(w)) p->known[c] = 0;
        else if (big_equal(w, &p->total)) p->known[c] = 1;
    }
    for (int i = 0; i < nhidden; i++)
        if (p->known[p->hidden[i]] == 0) out[nsafe++] = p->hidden[i];
    if (nsafe) {
        *out_n = nsafe;
        return MINES_OK;
    }
    *guessed = 1;
    *out_n = 1;
    int nund = 0;
    for (int i = 0; i < nhidden; i++)
        if (p->known[p->hidden[i]] < 0) p->undecided[nund++] = p->hidden[i];
    if (!nund) return MINES_FALL_BACK; /* the reference raises InvalidBoardError */
    if (bot->endgame_cells && nund > 1 && nund <= bot->endgame_cells) {
        big most;
        big_set(&most, (uint64_t)bot->endgame_layouts);
        if (big_compare(&p->total, &most) <= 0) {
            int index = 0;
            double value = 0;
            int code = mines_endgame(p->rows, p->cols, p->values_int, p->known, p->mines, nund,
                                     p->undecided, bot->endgame_layouts,
                                     bot->endgame_positions, bot->listing_steps, &index,
                                     &value);
            if (code == MINES_OK) {
                out[0] = p->undecided[index];
                return MINES_OK;
            }
            if (code != MINES_NO_ARRANGEMENT) return MINES_FALL_BACK;
        }
    }
    /* chance, the shortlist and its representatives (Bot.guess, Bot._representatives) */
    double best = 2.0, off_chance = big_ratio(&p->off_weight, &p->total);
    for (int i = 0; i < nund; i++) {
        int c = p->undecided[i];
        int at = p->where[c];
        p->chance[c] = at >= 0 ? big_ratio(&p->weights[at], &p->total) : off_chance;
        if (p->chance[c] < best) best = p->chance[c];
    }
    int nshort = 0;
    for (int i = 0; i < nund; i++)
        if (p->chance[p->undecided[i]] <= best + bot->tolerance)
            p->shortlist[nshort++] = p->undecided[i];
    board_t plain = {0, p->rows, p->cols, n, 0, 0, NULL, 0};
    int nranked = 0, ninside = 0;
    for (int pass = 0; pass < 2; pass++) /* the frontier's first: the draws' order */
        for (int i = 0; i < nshort; i++) {
            int c = p->shortlist[i];
            if ((p->where[c] >= 0) != (pass == 0)) continue;
            int nbrs[8], m = around_of(&plain, c, nbrs), hid = 0;
            for (int q = 0; q < m; q++) hid += p->values[nbrs[q]] == -1;
            p->ranked[nranked++] = (choice_t){c, round9(p->chance[c]), mt_random(mt), hid};
            ninside += pass == 0;
        }
    qsort(p->ranked, (size_t)ninside, sizeof *p->ranked, compare_choice);
    qsort(p->ranked + ninside, (size_t)(nranked - ninside), sizeof *p->ranked, compare_choice);
    int ncand = 0;
    for (int i = 0; i < ninside && i < bot->candidates; i++)
        p->cells[ncand++] = p->ranked[i].cell;
    for (int c = 0; c < n; c++) p->picked[c] = 0;
    for (int i = ninside; i < nranked && i - ninside < bot->off_candidates; i++)
        p->picked[p->ranked[i].cell] = 1, p->cells[ncand++] = p->ranked[i].cell;
    for (int i = ninside, near = 0; i < nranked && near < bot->near_candidates; i++) {
        int c = p->ranked[i].cell, nbrs[8], m = around_of(&plain, c, nbrs), touches = 0;
        for (int q = 0; q < m; q++) touches |= p->where[nbrs[q]] >= 0;
        if (!touches) continue;
        near++;
        if (!p->picked[c]) p->picked[c] = 1, p->cells[ncand++] = c;
    }
    int nreps = ncand;
    for (int i = 0; i < nreps; i++) p->picked[p->cells[i]] = 2; /* 2: a representative */
    /* the 50/50 credit (Bot._fifty_fifty_factors) */
    for (int i = 0; i < nreps; i++) p->factor[i] = 1.0, p->pseudo[i] = 0;
    if (bot->credit != 0.0) {
        for (int i = 0; i < ncells; i++) {
            int c = p->out_cells[i];
            if (p->known[c] < 0 && !p->picked[c]) p->picked[c] = 1, p->cells[ncand++] = c;
        }
        if (mines_fifty(p->rows, p->cols, nkeys, p->key_start, p->key_cells, p->key_values,
                        p->values_int, p->known, off_cells, mines_left, bot->ntraps,
                        bot->trap_info, bot->trap_offsets, bot->nfamilies, bot->credit, ncand,
                        p->cells, p->factor, p->pseudo) != MINES_OK)
            return MINES_FALL_BACK;
        double safest = 1 - best;
        int kept = 0;
        for (int i = 0; i < ncand; i++) {
            int c = p->cells[i];
            if (p->picked[c] == 2 || p->pseudo[i] || (1 - p->chance[c]) * p->factor[i] > safest) {
                p->cells[kept] = c;
                p->factor[kept] = p->factor[i];
                p->pseudo[kept++] = p->pseudo[i];
            }
        }
        ncand = kept;
    }
    /* the lookahead and the choice (Bot._lookaheads, Bot.guess) */
    if (mines_lookahead(p->rows, p->cols, nkeys, p->key_start, p->key_cells, p->key_values,
                        nhidden, p->hidden, mines_left, bot->living_checks, ncand, p->cells,
                        p->score, p->shown) != MINES_OK)
        return MINES_FALL_BACK;
    int any_living = 0, any_pseudo = 0;
    for (int i = 0; i < ncand; i++) {
        p->score[i] *= p->factor[i];
        any_living |= p->shown[i] > 1;
        any_pseudo |= p->shown[i] > 1 && p->pseudo[i];
    }
    /* living pseudo 50/50s, else living cells, else all (see Bot.guess) */
    for (int i = 0; i < ncand; i++)
        p->picked[i] = any_pseudo   ? p->shown[i] > 1 && p->pseudo[i]
                       : any_living ? p->shown[i] > 1
                                    : 1;
    double top = -1.0;
    for (int i = 0; i < ncand; i++)
        if (p->picked[i] && p->score[i] > top) top = p->score[i];
    int nties = 0;
    for (int i = 0; i < ncand; i++)
        if (p->picked[i] && p->score[i] >= top - 1e-12) p->cells[nties++] = p->cells[i];
    if (!nties) return MINES_FALL_BACK;
    out[0] = p->cells[nties > 1 ? mt_below(mt, nties) : 0];
    return MINES_OK;
}

/* Open `cell` as the game does: a mine loses, a zero floods to its border. Returns 1 when
 * it was a mine; *opened counts the cells revealed. */
static int reveal(play_t *p, const unsigned char *layout, int cell, int *queue, int *opened) {
    if (p->values[cell] != -1) return 0;
    if (layout[cell]) return 1;
    board_t plain = {0, p->rows, p->cols, p->n, 0, 0, NULL, 0};
    int head = 0, tail = 0;
    queue[tail++] = cell;
    p->values[cell] = -2; /* queued */
    while (head < tail) {
        int c = queue[head++], nbrs[8], m = around_of(&plain, c, nbrs), around = 0;
        for (int q = 0; q < m; q++) around += layout[nbrs[q]] != 0;
        p->values[c] = (signed char)around;
        (*opened)++;
        if (around) continue;
        for (int q = 0; q < m; q++)
            if (p->values[nbrs[q]] == -1) p->values[nbrs[q]] = -2, queue[tail++] = nbrs[q];
    }
    return 0;
}

/*
 * Bot.play on a game whose mines are layout[0..rows*cols), opened first at `first`.
 * fparams: tolerance, fifty_fifty_credit; iparams: candidates, off_candidates,
 * near_candidates, endgame_cells, endgame_layouts, endgame_positions, living_checks,
 * listing_steps; the traps as for mines_fifty; mt: the bot's random.Random state
 * (getstate()'s 625 words), updated. Every cell the bot opens goes to out_moves (room for
 * max_moves), the guesses to *out_guesses, and *out_status is 1 (won) or 2 (lost).
 * MINES_FALL_BACK when a position needs the Python path, or its moves would pass
 * max_moves: then the moves, guesses and mt are those from before that position's
 * decision, for the Python bot to go on from.
 */
int mines_play(int rows, int cols, int mines, const unsigned char *layout, int first,
               const double *fparams, const long *iparams, int ntraps, const int *trap_info,
               const int *trap_offsets, int nfamilies, uint32_t *mt, int max_moves,
               int *out_moves, int *out_nmoves, int *out_guesses, int *out_status) {
    *out_nmoves = *out_guesses = *out_status = 0;
    if (rows <= 0 || cols <= 0 || rows > 4096 || cols > 4096 || mines < 0 ||
        mines >= rows * cols || first < 0 || first >= rows * cols || max_moves < 1 ||
        mt[MT_N] > MT_N)
        return MINES_FALL_BACK;
    for (int i = 0; i < 7; i++)
        if (iparams[i] < 0 || iparams[i] > 1 << 30) return MINES_FALL_BACK;
    bot_t bot = {fparams[0], fparams[1], (int)iparams[0], (int)iparams[1], (int)iparams[2],
                 (int)iparams[3], (int)iparams[4], (int)iparams[5], (int)iparams[6],
                 iparams[7], ntraps, nfamilies, trap_info, trap_offsets};
    play_t p = {.rows = rows, .cols = cols, .n = rows * cols, .mines = mines};
    size_t n = (size_t)p.n;
    /* one block for the whole game: freed in one place whatever happens */
    void *blocks[] = {
        p.values = malloc(n), p.known = malloc(n * sizeof(int)),
        p.decided = malloc(n * sizeof(int)), p.key_start = malloc((n + 1) * sizeof(int)),
        p.key_cells = malloc((8 * n + 1) * sizeof(int)),
        p.key_values = malloc((n + 1) * sizeof(int)),
        p.values_int = malloc(n * sizeof(int)), p.hidden = malloc(n * sizeof(int)),
        p.undecided = malloc(n * sizeof(int)), p.shortlist = malloc(n * sizeof(int)),
        p.cells = malloc(n * sizeof(int)), p.where = malloc(n * sizeof(int)),
        p.shown = malloc(n * sizeof(int)), p.pseudo = malloc(n * sizeof(int)),
        p.frontier = malloc(n), p.picked = malloc(n),
        p.out_cells = malloc((8 * n + 1) * sizeof(int)),
        p.off_mines = malloc(n * sizeof(int) + sizeof(int)),
        p.weights = malloc((8 * n + 1) * sizeof(big)), p.chance = malloc(n * sizeof(double)),
        p.factor = malloc(n * sizeof(double)), p.score = malloc(n * sizeof(double)),
        p.ranked = malloc(n * sizeof(choice_t)),
    };
    int *queue = malloc(n * sizeof(int)), *batch = malloc(n * sizeof(int));
    int code = queue && batch ? MINES_OK : MINES_FALL_BACK;
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        if (!blocks[i]) code = MINES_FALL_BACK;
    uint32_t saved[MT_N + 1];
    int opened = 0, goal = p.n - mines, nmoves = 0, guesses = 0;
    if (code == MINES_OK) {
        memset(p.values, -1, n);
        out_moves[nmoves++] = first;
        if (reveal(&p, layout, first, queue, &opened)) *out_status = 2;
        else if (opened == goal) *out_status = 1;
        *out_nmoves = nmoves;
    }
    while (code == MINES_OK && !*out_status) {
        int nbatch = 0, guessed = 0;
        memcpy(saved, mt, sizeof saved);
        if (decide(&p, &bot, mt, batch, &nbatch, &guessed) != MINES_OK) {
            memcpy(mt, saved, sizeof saved);
            code = MINES_FALL_BACK;
            break;
        }
        int room = max_moves - nmoves; /* no room: Python plays on from before it */
        if (nbatch > room) {
            memcpy(mt, saved, sizeof saved);
            code = MINES_FALL_BACK;
            break;
        }
        guesses += guessed;
        for (int i = 0; i < nbatch && !*out_status; i++) {
            out_moves[nmoves++] = batch[i];
            if (reveal(&p, layout, batch[i], queue, &opened)) *out_status = 2;
            else if (opened == goal) *out_status = 1;
        }
        *out_nmoves = nmoves, *out_guesses = guesses;
    }
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) free(blocks[i]);
    free(queue);
    free(batch);
    return code;
}
