"""Tests of the reference engine ``naive.py`` against docs/rules.md and hand-worked games."""

import random
from collections import Counter

import pytest
from naive import parse_deal, play_naive, trick_naive
from published import CASELLA, LONG_GAMES, NESSLER, NESSLER_2021, RUCKLIDGE

PLAIN, JACK, QUEEN, KING, ACE = 0, 1, 2, 3, 4
STANDARD_DECK = Counter({PLAIN: 36, JACK: 4, QUEEN: 4, KING: 4, ACE: 4})


# --- notation -------------------------------------------------------------------------------


def test_parse_deal_letters_and_digits_agree():
    assert parse_deal("-JQKA/A-") == [[0, 1, 2, 3, 4], [4, 0]]
    assert parse_deal("01234/40") == parse_deal("-JQKA/A-")


def test_parse_deal_rejects_unknown_characters():
    with pytest.raises(ValueError):
        parse_deal("--X/--")


@pytest.mark.parametrize("deal", [NESSLER, NESSLER_2021, RUCKLIDGE, CASELLA])
def test_reference_deals_are_standard_decks(deal):
    hands = parse_deal(deal)
    assert len(hands) == 2
    assert [len(hand) for hand in hands] == [26, 26]
    assert Counter(hands[0] + hands[1]) == STANDARD_DECK


# --- the two tiny deals of docs/rules.md: '-' / '-' and 'J' / '-J' ---


def test_two_plain_cards():
    result = play_naive([[PLAIN], [PLAIN]])  # "2" / "3"
    assert (result["outcome"], result["cards"], result["tricks"]) == ("win", 2, 1)
    assert result["winner"] == 2
    assert result["hand_sizes"] == [0, 2]


def test_jack_against_three_jack():
    result = play_naive([[JACK], [PLAIN, JACK]])  # "J" / "3J": a plain three, then a jack
    assert (result["outcome"], result["cards"], result["tricks"]) == ("win", 5, 2)
    assert result["winner"] == 2
    assert result["hand_sizes"] == [0, 3]


def test_jack_against_three_jack_trick_by_trick():
    hands, leader, laid, taker, over = trick_naive([[JACK], [PLAIN, JACK]], 0)
    assert (hands, leader, laid, taker, over) == ([[JACK, PLAIN], [JACK]], 0, 2, 0, False)
    hands, leader, laid, taker, over = trick_naive(hands, leader)
    assert (hands, leader, laid, taker, over) == ([[], [JACK, JACK, PLAIN]], None, 3, 1, True)


# --- the published long games --------------------------------------------------------------


@pytest.mark.parametrize(("deal", "cards", "tricks"), LONG_GAMES)
def test_long_games(deal, cards, tricks):
    result = play_naive(parse_deal(deal))
    assert result["outcome"] == "win"
    assert (result["cards"], result["tricks"]) == (cards, tricks)
    assert result["winner"] in (1, 2)
    assert sorted(result["hand_sizes"]) == [0, 52]
    assert result["hand_sizes"][result["winner"] - 1] == 52
    assert (result["preperiod_tricks"], result["preperiod_cards"]) == (0, 0)
    assert (result["period_tricks"], result["period_cards"]) == (0, 0)


def test_win_is_checked_before_the_cap():
    hands = parse_deal(NESSLER)
    assert play_naive(hands, max_tricks=1164)["outcome"] == "win"
    capped = play_naive(hands, max_tricks=1163)
    assert capped["outcome"] == "cap"
    assert capped["tricks"] == 1163
    assert capped["cards"] < 8344
    assert sum(capped["hand_sizes"]) == 52


# --- the Casella loop ------------------------------------------------------------------------


def test_casella_loop():
    result = play_naive(parse_deal(CASELLA))
    assert result["outcome"] == "loop"
    assert result["winner"] == 0
    assert (result["preperiod_tricks"], result["preperiod_cards"]) == (4, 34)
    assert (result["period_tricks"], result["period_cards"]) == (62, 440)
    assert (result["tricks"], result["cards"]) == (66, 474)
    assert sum(result["hand_sizes"]) == 52


def test_casella_state_really_repeats():
    hands, leader = parse_deal(CASELLA), 0
    states = [(hands, leader)]
    cards = 0
    counts = [0]
    for _ in range(66):
        hands, leader, laid, _taker, over = trick_naive(hands, leader)
        assert not over
        cards += laid
        counts.append(cards)
        states.append((hands, leader))
    assert states[4] == states[66]
    assert len({repr(state) for state in states[:66]}) == 66  # no earlier repeat
    assert counts[4] == 34
    assert counts[66] == 474


def test_casella_cap_and_loop_order():
    hands = parse_deal(CASELLA)
    capped = play_naive(hands, max_tricks=65)
    assert capped["outcome"] == "cap"
    assert capped["tricks"] == 65
    assert sum(capped["hand_sizes"]) == 52
    sizes = capped["hand_sizes"]
    expected_winner = 0 if sizes[0] == sizes[1] else sizes.index(max(sizes)) + 1
    assert capped["winner"] == expected_winner
    assert (capped["period_tricks"], capped["preperiod_tricks"]) == (0, 0)
    assert play_naive(hands, max_tricks=66)["outcome"] == "loop"
    assert play_naive(hands, max_tricks=0)["outcome"] == "loop"
    assert play_naive(hands, max_tricks=None)["outcome"] == "loop"


# --- the worked example of the seed texts ------------------------------------------------


def test_ana_and_ben():
    ana = [QUEEN, PLAIN, PLAIN, PLAIN, ACE]  # Q, then 4 9 2, then a spare ace
    ben = [PLAIN, KING, JACK]  # 5, K, then a spare jack
    hands = [ana, ben]
    new_hands, leader, laid, taker, over = trick_naive(hands, 0)
    assert laid == 6
    assert taker == 1
    assert leader == 1
    assert over is False
    # Pile Q 5 K 4 9 2 goes under Ben's hand in laying order.
    assert new_hands == [[ACE], [JACK, QUEEN, PLAIN, KING, PLAIN, PLAIN, PLAIN]]
    assert hands == [[QUEEN, PLAIN, PLAIN, PLAIN, ACE], [PLAIN, KING, JACK]]  # not mutated


# --- three players, worked out by hand --------------------------------------------------------


def test_three_players_demand_passes_to_next_player_still_in():
    # P1 lays K; P2 pays a plain then a J; the demand passes to P3 (not back to P1),
    # who pays one plain card; P2 takes K - J -.
    hands = [[KING, PLAIN], [PLAIN, JACK, PLAIN], [PLAIN, PLAIN]]
    new_hands, leader, laid, taker, over = trick_naive(hands, 0)
    assert new_hands == [[PLAIN], [PLAIN, KING, PLAIN, JACK, PLAIN], [PLAIN]]
    assert (leader, laid, taker, over) == (1, 4, 1, False)


def test_three_players_run_out_before_any_penalty():
    # Trick 1: P1 -, P2 -, P3 -, P1 has none and is out (no demand: play passes on),
    #          P2 J, P3 pays -, P2 takes - - - J - (5 cards).
    # Trick 2: P2 -, P3 - (last card), P2 -, P3 has none and is out: P2 is the last
    #          player in and takes - - - under - J - (3 cards). 8 cards, 2 tricks.
    hands = [[PLAIN], [PLAIN, JACK], [PLAIN, PLAIN, PLAIN]]
    first = trick_naive(hands, 0)
    assert first == ([[], [PLAIN, PLAIN, PLAIN, JACK, PLAIN], [PLAIN]], 1, 5, 1, False)
    second = trick_naive(first[0], first[1])
    assert second == ([[], [PLAIN, JACK, PLAIN, PLAIN, PLAIN, PLAIN], []], None, 3, 1, True)
    result = play_naive(hands)
    assert result["outcome"] == "win"
    assert (result["cards"], result["tricks"], result["winner"]) == (8, 2, 2)
    assert result["hand_sizes"] == [0, 6, 0]


def test_three_players_payer_who_already_laid_last_card_is_out():
    # P1 -, P2 - (P2 now empty), P3 J: P1 must pay but holds nothing -> out,
    # P3 takes - - J. P1 and P2 hold nothing at the end of the trick: P3 has won.
    result = play_naive([[PLAIN], [PLAIN], [JACK, PLAIN]])
    assert result["outcome"] == "win"
    assert (result["cards"], result["tricks"], result["winner"]) == (3, 1, 3)
    assert result["hand_sizes"] == [0, 0, 4]


def test_three_players_whole_game():
    # Trick 1: P1 Q; P2 pays -, then has none -> out; P1 takes Q - (2 cards).
    # Trick 2: P1 -, P3 -, P1 Q, P3 K, P1 pays - and runs out -> P3 takes - - Q K - (5).
    hands = [[QUEEN, PLAIN], [PLAIN], [PLAIN, KING, PLAIN, PLAIN]]
    first = trick_naive(hands, 0)
    assert first == ([[PLAIN, QUEEN, PLAIN], [], [PLAIN, KING, PLAIN, PLAIN]], 0, 2, 0, False)
    result = play_naive(hands)
    assert result["outcome"] == "win"
    assert (result["cards"], result["tricks"], result["winner"]) == (7, 2, 3)
    assert result["hand_sizes"] == [0, 0, 7]


def test_leader_argument():
    # Led by player 2: P2 lays J (last card), P1 pays -, P2 takes J -: P1 1 card, P2 2.
    hands = [[PLAIN, JACK], [JACK]]
    capped = play_naive(hands, leader=1, max_tricks=1)
    assert capped["outcome"] == "cap"
    assert (capped["cards"], capped["tricks"], capped["winner"]) == (2, 1, 2)
    assert capped["hand_sizes"] == [1, 2]
    assert trick_naive(hands, 1) == ([[JACK], [JACK, PLAIN]], 1, 2, 1, False)
    # Led by player 1 instead: P1 lays -, P2 J, P1 pays J, P2 must pay and has none.
    result = play_naive(hands, leader=0)
    assert result["outcome"] == "win"
    assert (result["cards"], result["tricks"], result["winner"]) == (3, 1, 1)


# --- the cap ------------------------------------------------------------------------------


def test_cap_tie_reports_no_winner():
    # P1 J, P2 pays -, P1 takes J -: 2 cards each after one trick.
    result = play_naive([[JACK], [PLAIN, PLAIN, PLAIN]], max_tricks=1)
    assert result["outcome"] == "cap"
    assert (result["cards"], result["tricks"], result["winner"]) == (2, 1, 0)
    assert result["hand_sizes"] == [2, 2]


def test_cap_unique_leader_wins():
    # P1 J, P2 pays -, P1 takes: P1 holds 4, P2 holds 2.
    result = play_naive([[JACK, PLAIN, PLAIN], [PLAIN, JACK, PLAIN]], max_tricks=1)
    assert result["outcome"] == "cap"
    assert result["hand_sizes"] == [4, 2]
    assert result["winner"] == 1


# --- conservation and consistency on random deals -----------------------------------------


def _random_deal(rng):
    players = rng.randint(2, 8)
    deck = [PLAIN] * rng.randint(0, 30) + [
        value for value in (1, 2, 3, 4) for _ in range(rng.randint(0, 4))
    ]
    if len(deck) < players:
        deck += [PLAIN] * players
    rng.shuffle(deck)
    hands = [deck[start::players] for start in range(players)]
    return hands, rng.randrange(players)


def test_tricks_never_create_or_lose_cards():
    rng = random.Random(20240601)
    for _ in range(300):
        hands, leader = _random_deal(rng)
        if not all(hands):
            continue
        deck = Counter(card for hand in hands for card in hand)
        for _ in range(200):
            new_hands, new_leader, laid, taker, over = trick_naive(hands, leader)
            assert Counter(card for hand in new_hands for card in hand) == deck
            assert laid >= 1
            assert len(new_hands[taker]) >= laid
            if over:
                assert [bool(hand) for hand in new_hands].count(True) == 1
                assert new_leader is None
                break
            assert new_leader == taker
            hands, leader = new_hands, new_leader


def test_games_never_create_or_lose_cards():
    rng = random.Random(7)
    outcomes = Counter()
    for _ in range(300):
        hands, leader = _random_deal(rng)
        total = sum(len(hand) for hand in hands)
        cap = rng.choice([None, 0, 5, 50])
        result = play_naive(hands, leader=leader, max_tricks=cap)
        outcomes[result["outcome"]] += 1
        assert sum(result["hand_sizes"]) == total
        assert len(result["hand_sizes"]) == len(hands)
        if result["outcome"] == "win":
            assert result["hand_sizes"][result["winner"] - 1] == total
        elif result["outcome"] == "loop":
            assert result["winner"] == 0
            assert result["period_tricks"] >= 1
            assert result["preperiod_tricks"] + result["period_tricks"] == result["tricks"]
            assert result["preperiod_cards"] + result["period_cards"] == result["cards"]
        else:
            assert result["tricks"] == cap
        if result["outcome"] != "loop":
            assert result["period_tricks"] == result["preperiod_tricks"] == 0
    assert outcomes["win"] and outcomes["cap"]


def test_random_loops_replay_trick_by_trick():
    rng = random.Random(11)
    loops_found = 0
    for _ in range(3000):
        players = 3
        deck = [PLAIN] * (players + rng.randint(0, 12)) + [
            value for value in (1, 2, 3, 4) for _ in range(rng.randint(0, 2))
        ]
        rng.shuffle(deck)
        hands = [deck[start::players] for start in range(players)]
        result = play_naive(hands)
        if result["outcome"] != "loop":
            continue
        loops_found += 1
        states, counts = [(hands, 0)], [0]
        state_hands, leader = hands, 0
        for _ in range(result["tricks"]):
            state_hands, leader, laid, _taker, over = trick_naive(state_hands, leader)
            assert not over
            counts.append(counts[-1] + laid)
            states.append((state_hands, leader))
        first = result["preperiod_tricks"]
        assert states[first] == states[-1]
        assert len({repr(state) for state in states[:-1]}) == len(states) - 1
        assert counts[first] == result["preperiod_cards"]
        assert counts[-1] == result["cards"]
        assert result["hand_sizes"] == [len(hand) for hand in states[-1][0]]
        if loops_found == 5:
            break
    assert loops_found >= 1
