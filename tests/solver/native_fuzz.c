/* A fuzzer for src/mines/solver/native/count.c, meant to run under sanitizers:
 *
 *   gcc -O1 -g -std=gnu11 -fsanitize=address,undefined -fno-sanitize-recover \
 *       -o /tmp/fuzz tests/solver/native_fuzz.c src/mines/solver/native/count.c -lm
 *   /tmp/fuzz RUNS SEED
 *
 * Each run first plays the whole compiled decision (local rules, lookahead, 50/50 credit,
 * endgame) on a random small board, its numbers sometimes garbled; then it builds a random
 * set of constraints: half the time the numbers of a real layout
 * on a small board (then the total must equal a brute-force count of the layouts), else
 * malformed ones (negative or too large values, duplicate and unsorted cells, empty keys,
 * counts too large for the fixed-width integers), and plays a whole game (mines_play) on
 * a random layout with random settings. It checks the result codes and the
 * outputs' bounds; the sanitizers check memory and undefined behaviour, and leaks at exit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LIMBS 8

int mines_count(int nkeys, const int *key_start, const int *key_cells, const int *key_values,
                int off_cells, int mines_left, int *out_ncells, int *out_cells,
                uint64_t *out_weights, uint64_t *out_total, uint64_t *out_off_weight,
                int *out_noff, int *out_off_mines);

int mines_deduce(int rows, int cols, const signed char *values, int *out_known,
                 int *out_ndecided, int *out_decided, int *out_nkeys, int *out_key_start,
                 int *out_key_cells, int *out_key_values);
int mines_lookahead(int rows, int cols, int nkeys, const int *key_start, const int *key_cells,
                    const int *key_values, int nhidden, const int *hidden, int free_mines,
                    int living_checks, int ncand, const int *cand, double *out_score,
                    int *out_shown);
int mines_fifty(int rows, int cols, int nkeys, const int *key_start, const int *key_cells,
                const int *key_values, const int *values, const int *known, int off_cells,
                int free_mines, int ntraps, const int *trap_info, const int *trap_offsets,
                int nfamilies, double credit, int ncand, const int *cand, double *out_factor,
                int *out_pseudo);
int mines_endgame(int rows, int cols, const int *values, const int *known, int mines, int nund,
                  const int *undecided, int max_layouts, int budget, long listing_steps,
                  int *out_index, double *out_value);

int mines_play(int rows, int cols, int mines, const unsigned char *layout, int first,
               const double *fparams, const long *iparams, int ntraps, const int *trap_info,
               const int *trap_offsets, int nfamilies, uint32_t *mt, int max_moves,
               int *out_moves, int *out_nmoves, int *out_guesses, int *out_status);

static uint64_t state;

static uint32_t next(void) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(state >> 33);
}

static int below(int n) { return n > 0 ? (int)(next() % (uint32_t)n) : 0; }

/* A whole game on a random board of up to 10 x 12 cells, with random settings, sometimes
 * out of range; a won game opened every safe cell, a lost one ended on a mine. */
static int game_fails, games_played;

static void game(void) {
    int rows = 1 + below(10), cols = 1 + below(12), cells = rows * cols, mines = 0;
    unsigned char layout[120];
    int density = 2 + below(6);
    for (int c = 0; c < cells; c++) mines += layout[c] = below(density) == 0;
    static const int info[] = {0, 0, 1, 6, 3, -1, 1, 1, 5, 0};
    static const int offsets[] = {0, 1, -1, -1, 0, -1, 1, -1, -1, 2, 0, 2, 1, 2,
                                  0, 1, 1, 0, -1, 0, -1, 1, 1, 1, 2, 0, 2, 1};
    double fparams[2] = {below(10) / 100.0, below(2) ? 0.9 : 0.0};
    long iparams[8] = {below(9), below(3), below(3), below(2) ? 24 : below(6), 1000, 60000,
                       below(7), 600000};
    if (below(20) == 0) iparams[below(8)] = -1;
    uint32_t mt[625];
    for (int i = 0; i < 624; i++) mt[i] = next();
    mt[624] = below(20) ? 624 : 700; /* the last one is malformed */
    int first = below(20) ? below(cells) : cells + below(3) - 1;
    int moves[121], nmoves = -1, guesses = -1, status = -1;
    int code = mines_play(rows, cols, mines, layout, first, fparams, iparams, 2, info, offsets, 1,
                          mt, cells + 1, moves, &nmoves, &guesses, &status);
    games_played += code == 0;
    if (code != 0 && code != 2) game_fails++;
    if (nmoves < 0 || nmoves > cells + 1 || guesses < 0 || guesses > nmoves) game_fails++;
    if (code != 0) return;
    int opened[120] = {0}, open = 0;
    for (int i = 0; i < nmoves; i++) {
        if (moves[i] < 0 || moves[i] >= cells) {
            game_fails++;
            return;
        }
        opened[moves[i]] = 1;
    }
    for (int c = 0; c < cells; c++) open += opened[c];
    if (status == 2 && !layout[moves[nmoves - 1]]) game_fails++;
    if (status == 1 && (open > cells - mines || layout[moves[nmoves - 1]])) game_fails++;
    if (status != 1 && status != 2) game_fails++;
}

static int fail(const char *what, int run) {
    printf("run %d: %s\n", run, what);
    return 1;
}

/* The whole decision on one board: local rules, then (when they succeed) the lookahead,
 * the 50/50 credit and the endgame search of every undecided cell; only codes and bounds
 * are checked here (the Python tests compare the values with the reference). */
static int decided_fails;

static void decide(int rows, int cols, const int *mine, const int *shown, int malformed) {
    int cells = rows * cols, mines = 0;
    signed char values[32];
    int ints[32];
    for (int c = 0; c < cells; c++) {
        int r = c / cols, q = c % cols, count = 0;
        mines += mine[c];
        for (int dr = -1; dr <= 1; dr++)
            for (int dq = -1; dq <= 1; dq++) {
                int rr = r + dr, qq = q + dq;
                if ((dr || dq) && rr >= 0 && rr < rows && qq >= 0 && qq < cols)
                    count += mine[rr * cols + qq];
            }
        values[c] = (signed char)(shown[c] ? count : -1);
        if (malformed && below(6) == 0) values[c] = (signed char)(below(14) - 3);
        ints[c] = values[c];
    }
    int known[32], decided[32], ndecided = 0, nkeys = 0, starts[33], key_cells[32 * 8 + 1],
        key_values[33];
    int code = mines_deduce(rows, cols, values, known, &ndecided, decided, &nkeys, starts,
                            key_cells, key_values);
    if (code != 0 && code != 2) decided_fails++;
    if (code != 0) return;
    int hidden[32], nhidden = 0, frontier = 0, free_mines = mines, on[32] = {0};
    for (int c = 0; c < cells; c++) {
        if (values[c] == -1 && known[c] < 0) hidden[nhidden++] = c;
        free_mines -= known[c] == 1;
    }
    for (int j = 0; j < starts[nkeys]; j++) frontier += !on[key_cells[j]]++;
    double scores[32];
    int shown_numbers[32], pseudo[32], index;
    code = mines_lookahead(rows, cols, nkeys, starts, key_cells, key_values, nhidden, hidden,
                           free_mines, below(8), nhidden, hidden, scores, shown_numbers);
    if (code > 2) decided_fails++;
    /* a row pair (family 0) and a trap the cell would close (summed) */
    static const int info[] = {0, 0, 1, 6, 3, -1, 1, 1, 5, 0};
    static const int offsets[] = {0, 1, -1, -1, 0, -1, 1, -1, -1, 2, 0, 2, 1, 2,
                                  0, 1, 1, 0, -1, 0, -1, 1, 1, 1, 2, 0, 2, 1};
    code = mines_fifty(rows, cols, nkeys, starts, key_cells, key_values, ints, known,
                       nhidden - frontier, free_mines, 2, info, offsets, 1, 0.9, nhidden, hidden,
                       scores, pseudo);
    if (code > 2) decided_fails++;
    double value;
    code = mines_endgame(rows, cols, ints, known, mines, nhidden, hidden, 1000, 60000, 600000,
                         &index, &value);
    if (code > 2 || (code == 0 && (index < 0 || index >= nhidden))) decided_fails++;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 1000;
    state = argc > 2 ? (uint64_t)atoll(argv[2]) : 1;
    int checked = 0, fallen_back = 0, impossible = 0;
    for (int run = 0; run < runs; run++) {
        int rows = 1 + below(4), cols = 1 + below(4), cells = rows * cols;
        int mine[32] = {0}, shown[32] = {0};
        for (int c = 0; c < cells; c++) {
            mine[c] = below(4) == 0;
            shown[c] = !mine[c] && below(2);
        }
        int starts[64] = {0}, key_cells[64 * 9], values[64], nkeys = 0, used = 0, hidden = 0;
        int is_hidden[32] = {0}, on_frontier[32] = {0};
        for (int c = 0; c < cells; c++) is_hidden[c] = !shown[c], hidden += !shown[c];
        int malformed = below(2);
        decide(rows, cols, mine, shown, malformed);
        game();
        for (int c = 0; c < cells && nkeys < 63; c++) {
            if (!shown[c]) continue;
            int r = c / cols, q = c % cols, count = 0, n = 0;
            for (int dr = -1; dr <= 1; dr++)
                for (int dq = -1; dq <= 1; dq++) {
                    int rr = r + dr, qq = q + dq;
                    if ((dr || dq) && rr >= 0 && rr < rows && qq >= 0 && qq < cols) {
                        int at = rr * cols + qq;
                        count += mine[at];
                        if (is_hidden[at]) key_cells[used + n++] = at, on_frontier[at] = 1;
                    }
                }
            if (!n) continue;
            if (malformed && below(4) == 0) count += below(5) - 2;
            if (malformed && below(8) == 0 && n > 1) key_cells[used + 1] = key_cells[used];
            if (malformed && below(16) == 0) n = 0;
            values[nkeys] = count;
            used += n;
            starts[++nkeys] = used;
        }
        int frontier = 0, mines = 0;
        for (int c = 0; c < cells; c++) frontier += on_frontier[c], mines += mine[c];
        int off = hidden - frontier;
        if (malformed && below(4) == 0) off = below(2) ? -1 : 2000 + below(3000);
        if (malformed && below(4) == 0) mines = below(2) ? -1 : mines + below(10);
        int out_cells[64 * 9], noff = 0, ncells = 0, off_mines[6000];
        static uint64_t weights[64 * 9 * LIMBS];
        uint64_t total[LIMBS], off_weight[LIMBS];
        int code = mines_count(nkeys, starts, key_cells, values, off, mines, &ncells, out_cells,
                               weights, total, off_weight, &noff, off_mines);
        if (code < 0 || code > 2) return fail("unknown result code", run);
        fallen_back += code == 2;
        impossible += code == 1;
        if (code != 0) continue;
        if (ncells < 0 || ncells > used) return fail("more frontier cells than given", run);
        if (mines >= 0 && noff > mines + 1) return fail("more off-frontier counts than room", run);
        if (malformed) continue;
        /* brute force: every subset of the hidden cells with `mines` mines fitting the keys */
        int hidden_cells[32], h = 0;
        for (int c = 0; c < cells; c++)
            if (is_hidden[c]) hidden_cells[h++] = c;
        uint64_t brute = 0;
        for (uint32_t set = 0; set < (1u << h); set++) {
            if (__builtin_popcount(set) != mines) continue;
            int ok = 1;
            for (int k = 0; k < nkeys && ok; k++) {
                int got = 0;
                for (int j = starts[k]; j < starts[k + 1]; j++)
                    for (int i = 0; i < h; i++)
                        if (hidden_cells[i] == key_cells[j]) got += (set >> i) & 1;
                ok = got == values[k];
            }
            brute += ok;
        }
        for (int i = 1; i < LIMBS; i++)
            if (total[i]) return fail("a small total with high limbs", run);
        if (total[0] != brute) return fail("the total differs from brute force", run);
        checked++;
    }
    if (decided_fails) return fail("a decision returned an unknown code or index", runs);
    if (game_fails) return fail("a whole game returned an unknown code or a wrong game", runs);
    printf("runs: %d, checked against brute force: %d, no arrangement: %d, fell back: %d, "
           "whole games: %d\n",
           runs, checked, impossible, fallen_back, games_played);
    return 0;
}
