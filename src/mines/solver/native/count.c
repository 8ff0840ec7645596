/* Exact counts of mine arrangements, the native twin of mines/solver/counting.py.
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
#include <setjmp.h>
#include <stdint.h>
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

typedef struct {
    jmp_buf fail;
    void **blocks;
    size_t nblocks, capblocks;
} ctx_t;

static void give_up(ctx_t *cx) { longjmp(cx->fail, 1); }

static void *take(ctx_t *cx, size_t count, size_t size) {
    if (cx->nblocks == cx->capblocks) {
        size_t cap = cx->capblocks ? 2 * cx->capblocks : 64;
        void **grown = realloc(cx->blocks, cap * sizeof *grown);
        if (!grown) give_up(cx);
        cx->blocks = grown;
        cx->capblocks = cap;
    }
    void *p = calloc(count ? count : 1, size);
    if (!p) give_up(cx);
    cx->blocks[cx->nblocks++] = p;
    return p;
}

static void release(ctx_t *cx) {
    for (size_t i = 0; i < cx->nblocks; i++) free(cx->blocks[i]);
    free(cx->blocks);
    cx->blocks = NULL;
    cx->nblocks = cx->capblocks = 0;
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
static void count_component(ctx_t *cx, comp_t *comp, mkey_t **keys, int nkeys, int ncells_board,
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

static void put(uint64_t *out, size_t index, const big *value) {
    memcpy(&out[index * MINES_LIMBS], value->d, sizeof value->d);
}

/*
 * The keys (already free of duplicates, in the order Python iterates their set) are given
 * as key_start[0..nkeys] offsets into key_cells (each key's cells sorted) and key_values.
 * On MINES_OK: out_cells[0..*out_ncells) are the frontier cells in the reference's order,
 * out_weights[i] the arrangements with a mine on out_cells[i]; out_total, out_off_weight;
 * out_off_mines[0..*out_noff) the mines the cells away from the numbers can hold, increasing.
 * out_cells and out_weights hold key_start[nkeys] entries, out_off_mines mines_left + 1.
 */
int mines_count(int nkeys, const int *key_start, const int *key_cells, const int *key_values,
                int off_cells, int mines_left, int *out_ncells, int *out_cells,
                uint64_t *out_weights, uint64_t *out_total, uint64_t *out_off_weight,
                int *out_noff, int *out_off_mines) {
    ctx_t cx = {0};
    if (setjmp(cx.fail)) {
        release(&cx);
        return MINES_FALL_BACK;
    }
    init_small_choose();
    if (nkeys < 0 || off_cells < 0 || mines_left < 0) give_up(&cx);
    int ncells_board = 0;
    for (int k = 0; k < nkeys; k++) {
        if (key_start[k + 1] <= key_start[k]) give_up(&cx); /* the reference needs cells */
        for (int j = key_start[k]; j < key_start[k + 1]; j++) {
            if (key_cells[j] < 0) give_up(&cx);
            if (key_cells[j] >= ncells_board) ncells_board = key_cells[j] + 1;
        }
    }
    mkey_t *keys = take(&cx, (size_t)nkeys, sizeof(mkey_t));
    for (int k = 0; k < nkeys; k++) {
        keys[k].cells = &key_cells[key_start[k]];
        keys[k].ncells = key_start[k + 1] - key_start[k];
        keys[k].value = key_values[k];
    }
    /* components, in the order their first key comes */
    int *parent = take(&cx, (size_t)ncells_board + 1, sizeof(int));
    for (int c = 0; c < ncells_board; c++) parent[c] = c;
    for (int k = 0; k < nkeys; k++) {
        int first = find(parent, keys[k].cells[0]);
        for (int j = 1; j < keys[k].ncells; j++) {
            int root = find(parent, keys[k].cells[j]);
            if (root != first) parent[root] = first;
        }
    }
    int *comp_of_root = take(&cx, (size_t)ncells_board + 1, sizeof(int));
    for (int c = 0; c < ncells_board; c++) comp_of_root[c] = -1;
    int ncomps = 0;
    int *key_comp = take(&cx, (size_t)nkeys + 1, sizeof(int));
    int *comp_keys = take(&cx, (size_t)nkeys + 1, sizeof(int));
    for (int k = 0; k < nkeys; k++) {
        int root = find(parent, keys[k].cells[0]);
        if (comp_of_root[root] < 0) comp_of_root[root] = ncomps++;
        key_comp[k] = comp_of_root[root];
        comp_keys[key_comp[k] + 1]++;
    }
    for (int i = 0; i < ncomps; i++) comp_keys[i + 1] += comp_keys[i];
    mkey_t **by_comp = take(&cx, (size_t)nkeys + 1, sizeof(mkey_t *));
    int *comp_fill = take(&cx, (size_t)ncomps + 1, sizeof(int));
    for (int k = 0; k < nkeys; k++) {
        int i = key_comp[k];
        by_comp[comp_keys[i] + comp_fill[i]++] = &keys[k];
    }
    comp_t *comps = take(&cx, (size_t)ncomps + 1, sizeof(comp_t));
    int *touch_count = take(&cx, (size_t)ncells_board + 1, sizeof(int));
    int *first_seen = take(&cx, (size_t)ncells_board + 1, sizeof(int));
    int *cell_group = take(&cx, (size_t)ncells_board + 1, sizeof(int));
    for (int i = 0; i < ncomps; i++)
        count_component(&cx, &comps[i], &by_comp[comp_keys[i]], comp_keys[i + 1] - comp_keys[i],
                        ncells_board, touch_count, first_seen, cell_group);
    /* everything together, and all but one component (prefix times suffix) */
    poly_t *prefix = take(&cx, (size_t)ncomps + 1, sizeof(poly_t));
    poly_t *suffix = take(&cx, (size_t)ncomps + 1, sizeof(poly_t));
    poly_t *weights = take(&cx, (size_t)ncomps + 1, sizeof(poly_t));
    big unit;
    big_set(&unit, 1);
    for (int i = 0; i < ncomps; i++) {
        int lo = 0, hi = comps[i].maxm;
        while (lo <= hi && !comps[i].has[lo]) lo++;
        while (hi >= lo && !comps[i].has[hi]) hi--;
        if (lo > hi) { /* no arrangement fits this component */
            release(&cx);
            return MINES_NO_ARRANGEMENT;
        }
        weights[i] = (poly_t){lo, hi, &comps[i].weights[lo]};
    }
    prefix[0] = suffix[ncomps] = (poly_t){0, 0, &unit};
    for (int i = 0; i < ncomps; i++) prefix[i + 1] = convolve(&cx, prefix[i], weights[i]);
    for (int i = ncomps - 1; i >= 0; i--) suffix[i] = convolve(&cx, weights[i], suffix[i + 1]);
    poly_t everything = prefix[ncomps];
    big *row = choose_row(&cx, off_cells), *row1 = choose_row(&cx, off_cells - 1);
    big total, off_weight;
    big_set(&total, 0);
    big_set(&off_weight, 0);
    for (int t = everything.lo; t <= everything.hi; t++) {
        const big *ways = choose_at(row, off_cells, mines_left - t);
        if (ways) big_add_mul(&cx, &total, &everything.c[t - everything.lo], ways);
        ways = choose_at(row1, off_cells - 1, mines_left - t - 1);
        if (ways) big_add_mul(&cx, &off_weight, &everything.c[t - everything.lo], ways);
    }
    if (big_is_zero(&total)) {
        release(&cx);
        return MINES_NO_ARRANGEMENT;
    }
    int out = 0;
    for (int i = 0; i < ncomps; i++) {
        comp_t *c = &comps[i];
        poly_t others = convolve(&cx, prefix[i], suffix[i + 1]);
        big *cell_sum = take(&cx, (size_t)c->ngroups + 1, sizeof(big));
        for (int m = 0; m <= c->maxm; m++) {
            if (!c->has[m]) continue;
            big rest;
            big_set(&rest, 0);
            for (int t = others.lo; t <= others.hi; t++) {
                const big *ways = choose_at(row, off_cells, mines_left - m - t);
                if (ways) big_add_mul(&cx, &rest, &others.c[t - others.lo], ways);
            }
            if (big_is_zero(&rest)) continue;
            for (int g = 0; g < c->ngroups; g++) {
                big per_cell = c->rows[(size_t)m * c->ngroups + g];
                big_div_small(&per_cell, (uint64_t)(c->group_start[g + 1] - c->group_start[g]));
                big_add_mul(&cx, &cell_sum[g], &per_cell, &rest);
            }
        }
        for (int g = 0; g < c->ngroups; g++)
            for (int j = c->group_start[g]; j < c->group_start[g + 1]; j++) {
                out_cells[out] = c->group_cells[j];
                put(out_weights, (size_t)out, &cell_sum[g]);
                out++;
            }
    }
    *out_ncells = out;
    put(out_total, 0, &total);
    put(out_off_weight, 0, &off_weight);
    int noff = 0;
    for (int t = everything.hi; t >= everything.lo; t--)
        if (choose_at(row, off_cells, mines_left - t))
            out_off_mines[noff++] = mines_left - t;
    *out_noff = noff;
    release(&cx);
    return MINES_OK;
}
