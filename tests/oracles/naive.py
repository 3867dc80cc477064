"""Slow, obviously correct reference engine ("oracle") for Beggar-my-neighbour.

Everything here follows ``docs/rules.md`` literally and favours clarity over speed.
Pure Python, standard library only.

Card values: 0 plain, 1 jack, 2 queen, 3 king, 4 ace (the number of cards owed).
A hand is a sequence of values, index 0 = top card (laid first).
Players are numbered from 0 inside this module; ``play_naive`` reports the
winner 1-based (0 = no winner: a loop, or a tie under the cap).
"""

from collections import deque

MIN_PLAYERS = 2
MAX_PLAYERS = 8

_CHAR_VALUES = {
    "-": 0,
    "0": 0,
    "J": 1,
    "1": 1,
    "Q": 2,
    "2": 2,
    "K": 3,
    "3": 3,
    "A": 4,
    "4": 4,
}


def parse_deal(text):
    """Parse deal notation ``'--K-/Q--A'`` into a list of hands (lists of values).

    One string per player separated by ``/``; leftmost character = top card.
    ``-`` is a plain card, ``J Q K A`` are penalty cards and the digits
    ``0``-``4`` are synonyms of ``- J Q K A``.
    """
    hands = []
    for part in text.strip().split("/"):
        hand = []
        for char in part.strip():
            if char not in _CHAR_VALUES:
                raise ValueError(f"bad card character {char!r} in deal {text!r}")
            hand.append(_CHAR_VALUES[char])
        hands.append(hand)
    return hands


def _check_hands(hands, leader):
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise ValueError(f"need {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(hands)}")
    for hand in hands:
        for card in hand:
            if card not in (0, 1, 2, 3, 4):
                raise ValueError(f"bad card value {card!r}")
    if not 0 <= leader < len(hands):
        raise ValueError(f"leader {leader} out of range")


def _players_with_cards(hands):
    return [player for player, hand in enumerate(hands) if len(hand) > 0]


def play_one_trick(hands, leader, value=lambda card: card, slap=None):
    """Play one trick in place on ``hands`` (a list of deques).

    At the start (a trick boundary) the players still in are exactly those
    holding cards; at least two must be in.  Returns
    ``(pile_winner, cards_laid)``; the pile has already been put under the
    winner's hand.  ``value(card)`` is what a card owes (the card itself here;
    ``naive_ers`` maps ranks); ``slap(pile, current, still_in)``, when given, is
    asked after every card laid and names who takes the pile at once, or None.
    """
    player_count = len(hands)
    still_in = [len(hand) > 0 for hand in hands]

    def next_still_in(player):
        other = (player + 1) % player_count
        while not still_in[other]:
            other = (other + 1) % player_count
        return other

    pile = []
    current = leader if still_in[leader] else next_still_in(leader)
    last_penalty_layer = None  # set while a demand is pending (never settled mid-trick)
    owed = 0
    while True:
        hand = hands[current]
        if not hand:
            # ``current`` must lay a card and has none: they are out now.
            still_in[current] = False
            if last_penalty_layer is not None:
                pile_winner = last_penalty_layer
                break
            players_left = [player for player in range(player_count) if still_in[player]]
            if len(players_left) == 1:
                pile_winner = players_left[0]
                break
            current = next_still_in(current)
            continue
        card = hand.popleft()
        pile.append(card)
        if slap is not None:
            slapper = slap(pile, current, still_in)
            if slapper is not None:
                pile_winner = slapper
                break
        if value(card) > 0:
            # A penalty card: the next player still in owes its value.
            last_penalty_layer = current
            owed = value(card)
            current = next_still_in(current)
        elif last_penalty_layer is not None:
            # A plain card paid towards the pending demand.
            owed -= 1
            if owed == 0:
                pile_winner = last_penalty_layer
                break
        else:
            # No demand yet in this trick: play simply moves on.
            current = next_still_in(current)
    hands[pile_winner].extend(pile)  # first card laid is the first to come back out
    return pile_winner, len(pile)


def trick_naive(hands, leader):
    """Play exactly one trick from a trick boundary, without mutating ``hands``.

    Returns ``(new_hands, new_leader, cards_laid, pile_winner, game_over)``:
    ``new_hands`` is a new list of lists, ``new_leader`` the 0-based player who
    leads next (``None`` when the game is over), ``pile_winner`` the 0-based
    player who took the pile, ``game_over`` whether only one player holds cards.
    """
    _check_hands(hands, leader)
    working = [deque(hand) for hand in hands]
    if len(_players_with_cards(working)) < 2:
        raise ValueError("the game is already over: fewer than two players hold cards")
    pile_winner, cards_laid = play_one_trick(working, leader)
    game_over = len(_players_with_cards(working)) == 1
    new_hands = [list(hand) for hand in working]
    new_leader = None if game_over else pile_winner
    return new_hands, new_leader, cards_laid, pile_winner, game_over


def _state(hands, leader):
    return (tuple(tuple(hand) for hand in hands), leader)


def _result(outcome, cards, tricks, winner, hands, preperiod=(0, 0), period=(0, 0)):
    return {
        "outcome": outcome,
        "cards": cards,
        "tricks": tricks,
        "winner": winner,
        "hand_sizes": [len(hand) for hand in hands],
        "preperiod_tricks": preperiod[0],
        "preperiod_cards": preperiod[1],
        "period_tricks": period[0],
        "period_cards": period[1],
    }


def play_naive(hands, leader=0, max_tricks=None):
    """Play a whole game and report how it ended.

    ``outcome`` is ``'win'`` (one player left in), ``'loop'`` (a trick-boundary
    state repeated) or ``'cap'`` (``max_tricks`` tricks were played; the unique
    player holding most cards is the winner, 0 on a tie).  ``max_tricks`` of
    ``None`` or 0 means no cap.  Checks at each boundary: win, then loop, then cap.
    """
    _check_hands(hands, leader)
    working = [deque(hand) for hand in hands]
    players_in = _players_with_cards(working)
    if not players_in:
        raise ValueError("no cards dealt")
    if len(players_in) == 1:
        return _result("win", 0, 0, players_in[0] + 1, working)
    if not working[leader]:
        # A leader without cards is out; the lead passes to the next player still in.
        leader = min(players_in, key=lambda player: (player - leader) % len(working))

    cards = 0
    tricks = 0
    seen = {_state(working, leader): (0, 0)}
    while True:
        pile_winner, cards_laid = play_one_trick(working, leader)
        cards += cards_laid
        tricks += 1
        leader = pile_winner
        players_in = _players_with_cards(working)
        if len(players_in) == 1:
            return _result("win", cards, tricks, players_in[0] + 1, working)
        state = _state(working, leader)
        if state in seen:
            first_tricks, first_cards = seen[state]
            return _result(
                "loop",
                cards,
                tricks,
                0,
                working,
                preperiod=(first_tricks, first_cards),
                period=(tricks - first_tricks, cards - first_cards),
            )
        seen[state] = (tricks, cards)
        if max_tricks and tricks == max_tricks:
            sizes = [len(hand) for hand in working]
            most = max(sizes)
            holders = [player for player, size in enumerate(sizes) if size == most]
            winner = holders[0] + 1 if len(holders) == 1 else 0
            return _result("cap", cards, tricks, winner, working)
