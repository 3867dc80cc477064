/* The card-by-card yardstick: a plain C Beggar-my-neighbour engine (standard deck, 2 players).
 *
 * What the usual C and C++ players do: shuffle the 52 cards (Fisher-Yates), deal 26 each,
 * lay one card at a time from ring buffers, copy the pile card by card under the winner's
 * hand.  Rules and counting as docs/rules.md: player 1 leads; a player who must lay a card
 * and has none loses (the other takes the pile); the game ends at the end of a trick that
 * leaves a player with no cards; cards = cards laid, tricks = piles taken.  No loop
 * detection: a game still going after MAX_TRICKS tricks is counted as unfinished.
 *
 * The random numbers are the project's (beggar_search/engine/random.py): xoshiro256** from
 * a given state, Lemire's unbiased bounded draw from the top 32 bits, and the same
 * Fisher-Yates shuffle of the same persistent card array as engine/baseline.py, so for the
 * same stream this program plays the same deals as baseline.random_games.
 *
 *   beggar random S0 S1 S2 S3 N   play N shuffled deals from the xoshiro state S0..S3
 *                                 (signed 64-bit decimals); prints
 *                                 "deals cards tricks wins1 wins2 unfinished cpu_seconds"
 *   beggar file PATH              play the deals of PATH (one a line, 52 digits 0-4, player
 *                                 1's 26 cards then player 2's, top card first); prints
 *                                 "cards tricks winner" a line (winner 0: unfinished)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_CARDS 52
#define HAND 26
#define RING 63 /* ring buffers of 64 cards */
#define MAX_TRICKS 100000

static uint64_t s[4];

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next_u64(void) {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* a uniform integer in [0, bound) (Lemire's method on the top 32 bits, as random.below) */
static inline uint64_t below(uint64_t bound) {
    uint64_t product = (next_u64() >> 32) * bound;
    uint64_t low = product & 0xFFFFFFFFu;
    if (low < bound) {
        uint64_t threshold = (0x100000000u - bound) % bound;
        while (low < threshold) {
            product = (next_u64() >> 32) * bound;
            low = product & 0xFFFFFFFFu;
        }
    }
    return product >> 32;
}

static void shuffle(uint8_t *cards) {
    for (int i = N_CARDS - 1; i > 0; i--) {
        int j = (int)below((uint64_t)i + 1);
        uint8_t c = cards[i];
        cards[i] = cards[j];
        cards[j] = c;
    }
}

typedef struct {
    long cards, tricks;
    int winner; /* 1 or 2; 0 unfinished */
} result_t;

/* play the deal (player 1's 26 cards then player 2's, top first) card by card */
static result_t play(const uint8_t *deal) {
    uint8_t hand[2][RING + 1], pile[N_CARDS];
    int head[2] = {0, 0}, size[2] = {HAND, HAND};
    memcpy(hand[0], deal, HAND);
    memcpy(hand[1], deal + HAND, HAND);
    int current = 0;
    long cards = 0, tricks = 0;
    while (tricks < MAX_TRICKS) {
        int pile_len = 0, owed = 0, holder = -1;
        for (;;) {
            if (size[current] == 0) { /* must lay a card and has none: the other takes the pile */
                result_t r = {cards + pile_len, tricks + 1, 2 - current};
                return r;
            }
            uint8_t card = hand[current][head[current]];
            head[current] = (head[current] + 1) & RING;
            size[current]--;
            pile[pile_len++] = card;
            if (card > 0) { /* a penalty card: the next player owes its value */
                holder = current;
                owed = card;
                current = 1 - current;
            } else if (holder >= 0) { /* a plain card paid */
                if (--owed == 0) break;
            } else {
                current = 1 - current;
            }
        }
        for (int i = 0; i < pile_len; i++) { /* the pile under the holder's hand, in order */
            hand[holder][(head[holder] + size[holder]) & RING] = pile[i];
            size[holder]++;
        }
        cards += pile_len;
        tricks++;
        if (size[1 - holder] == 0) {
            result_t r = {cards, tricks, holder + 1};
            return r;
        }
        current = holder;
    }
    result_t r = {cards, tricks, 0};
    return r;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int run_random(char **argv) {
    for (int i = 0; i < 4; i++) s[i] = (uint64_t)strtoll(argv[i], NULL, 10);
    long n = strtol(argv[4], NULL, 10);
    /* the sorted standard deck, as deck.STANDARD.sorted_cards(): 36 plain, then J Q K A */
    uint8_t deck[N_CARDS];
    for (int i = 0; i < N_CARDS; i++) deck[i] = i < 36 ? 0 : (uint8_t)(1 + (i - 36) / 4);
    long cards = 0, tricks = 0, wins[3] = {0, 0, 0};
    double start = cpu_seconds();
    for (long d = 0; d < n; d++) {
        shuffle(deck);
        result_t r = play(deck);
        cards += r.cards;
        tricks += r.tricks;
        wins[r.winner]++;
    }
    double spent = cpu_seconds() - start;
    printf("%ld %ld %ld %ld %ld %ld %.6f\n", n, cards, tricks, wins[1], wins[2], wins[0], spent);
    return 0;
}

static int run_file(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "beggar: cannot read %s\n", path);
        return 2;
    }
    char line[256];
    uint8_t deal[N_CARDS];
    while (fgets(line, sizeof line, f)) {
        if (strlen(line) < N_CARDS) continue;
        for (int i = 0; i < N_CARDS; i++) deal[i] = (uint8_t)(line[i] - '0');
        result_t r = play(deal);
        printf("%ld %ld %d\n", r.cards, r.tricks, r.winner);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 7 && strcmp(argv[1], "random") == 0) return run_random(argv + 2);
    if (argc == 3 && strcmp(argv[1], "file") == 0) return run_file(argv[2]);
    fprintf(stderr, "usage: beggar random S0 S1 S2 S3 N | beggar file PATH\n");
    return 2;
}
