"""A third game, defined here only, played through the one ``games.Game`` value: ``play``, a
random search, a census and ``reach`` take it as they take the shipped games.

The game is Beggar-my-neighbour where an ace asks 3 cards instead of 4.  The kernels read a
card's penalty as its value (``engine.rules.card_value``: a Beggar-my-neighbour card is
its value; ratscrew's ``RANK_VALUE`` is a frozen global), so a penalty table would be a
kernel change.  This variant needs none: an ace that asks 3 plays exactly as a king, so
its deck class reads an ace as a king and Beggar-my-neighbour's kernels play the rest.
Its deals are told apart up to that (a deck with aces has fewer deals in this game), and
its oracle below plays the real aces, each asking 3, card by card.
"""

from collections import deque
from dataclasses import dataclass

import pytest
from naive import play_naive, play_one_trick

from beggar_search import driver, games
from beggar_search.backward.reach import reach
from beggar_search.cards.deck import Deal, Deck
from beggar_search.games.bmn import BeggarMyNeighbour
from beggar_search.store import Store
from beggar_search.strategies import STRATEGIES

KING, ACE = 3, 4
SMALL = "plain=5,J=2,Q=1,K=1,A=1"  # 15,120 deals of Beggar-my-neighbour, 7,560 of this game


class ShortAceDeck(Deck):
    """A deck of the game: an ace counts as a king (both ask 3)."""

    @classmethod
    def parse_counts(cls, spec: str) -> tuple[int, ...]:
        counts = list(super().parse_counts(spec))
        counts[KING], counts[ACE] = counts[KING] + counts[ACE], 0
        return tuple(counts)


@dataclass(frozen=True)
class ShortAceDeal(Deal):
    """A deal of the game: its aces are kings."""

    deck: Deck = ShortAceDeck.parse("standard")
    DECK = ShortAceDeck

    @classmethod
    def from_hands(cls, hands, deck=None):
        folded = [[KING if int(card) == ACE else int(card) for card in hand] for hand in hands]
        return super().from_hands(folded, deck)


class ShortAces(BeggarMyNeighbour):
    """Beggar-my-neighbour, an ace asks 3 (``Game``): Beggar-my-neighbour's kernels, backward
    step and families, on its own deck and deal classes."""

    name = "short-aces"
    label = "Beggar-my-neighbour, an ace asks 3"
    deck_class = ShortAceDeck
    deal_class = ShortAceDeal
    gpu = False
    tag = "short-aces "

    @classmethod
    def from_params(cls, params: dict):
        return SHORT_ACES

    def run_params(self) -> dict:
        return {"game": self.name}

    def fields(self) -> dict:
        return {"game": self.name}

    def play_words(self, params: dict) -> list[str]:
        return ["--game", self.name]


SHORT_ACES = ShortAces()


@pytest.fixture
def third_game(monkeypatch):
    """The game registered beside the shipped ones, for this test only."""
    monkeypatch.setitem(games.KINDS, ShortAces.name, ShortAces)
    return games.of({"game": ShortAces.name})


def naive_short_aces(hands):
    """The oracle: the game played card by card with real aces, each asking 3 cards; the
    outcome, and the cards, tricks and winner of a game that ends (a loop of this game
    repeats its states up to aces and kings, so only its outcome is compared)."""
    working = [deque(hand) for hand in hands]
    seen, leader, cards, tricks = set(), 0, 0, 0
    while sum(1 for hand in working if hand) > 1:
        state = (tuple(map(tuple, working)), leader)
        if state in seen:
            return ("loop",)
        seen.add(state)
        leader, laid = play_one_trick(working, leader,
                                      value=lambda card: KING if card == ACE else card)
        cards, tricks = cards + laid, tricks + 1
    return ("win", cards, tricks, 1 + next(p for p, hand in enumerate(working) if hand))


def test_the_value_is_resolved_from_the_run_and_names_its_pieces(third_game):
    assert third_game is SHORT_ACES and games.of({"game": "short-aces", "players": 2}) is SHORT_ACES
    assert third_game.deck("standard").counts == (36, 4, 4, 8, 0)
    assert third_game.kernel == games.BMN.kernel  # Beggar-my-neighbour's kernels play it
    assert games.kind("short-aces").deal_class is ShortAceDeal


def test_play_follows_the_oracle_with_aces_asking_three(third_game):
    deck = "plain=8,J=2,Q=2,K=2,A=2"
    total = Deck.parse(deck).count_deals(2)
    differs = 0
    for index in range(0, total, total // 300):  # 300 deals spread over the deck's deals
        deal = Deal.unrank(index, deck)
        mine = third_game.play(third_game.deal_class.parse(str(deal), third_game.deck(deck)))
        expected = naive_short_aces(deal.hands)
        got = (mine.outcome,) if mine.outcome == "loop" else (
            mine.outcome, mine.cards, mine.tricks, mine.winner)
        assert got == expected, str(deal)
        differs += games.BMN.play(deal).cards != mine.cards
    assert differs >= 50  # the aces' rule changes games (54 of these)


def test_a_random_search_plays_it_as_the_deck_it_reads(third_game, tmp_path):
    base = {"players": 2, "seed": 7, "top_k": 5, "max_tricks": None, "chunk_size": 1000,
            "deals": 3000, "hours": None}
    with Store(tmp_path / "r.sqlite") as store:
        driver.start(store, "random", {**base, "deck": "standard", "game": "short-aces"}, 1,
                     quiet=True)
        driver.start(store, "random", {**base, "deck": "plain=36,J=4,Q=4,K=8"}, 1, quiet=True)
        ours, kings = store.run(1), store.run(2)
        assert ours.params["game"] == "short-aces" and ours.game is SHORT_ACES
        assert (ours.deals, ours.cards, ours.wins) == (kings.deals, kings.cards, kings.wins)
        assert store.histogram(1) == store.histogram(2)
        board = store.games(1, "longest")
        assert [(g["deal"], g["cards"]) for g in board] == [
            (g["deal"], g["cards"]) for g in store.games(2, "longest")]
        for game in board:  # each stored game is the oracle's
            hands = ShortAceDeal.parse(game["deal"]).hands
            assert naive_short_aces(hands) == ("win", game["cards"], game["tricks"],
                                               game["winner"])
        assert driver.summarise(store, 1)["game"] == "short-aces"


def test_a_census_and_reach_find_every_loop_of_the_game(third_game, tmp_path):
    deck = third_game.deck(SMALL)
    total = deck.count_deals(2)
    assert total == 7560  # aces read as kings: half the deals of Beggar-my-neighbour
    params = STRATEGIES["enumerate"].prepare(
        {"deck": SMALL, "players": 2, "seed": None, "top_k": 5, "max_tricks": None,
         "chunk_size": 2000, "start": 0, "deals": total, "game": "short-aces"})
    with Store(tmp_path / "c.sqlite") as store:
        driver.start(store, "enumerate", params, 1, quiet=True)
        run = store.run(1)
        histogram, loops = {}, []
        for index in range(total):
            deal = ShortAceDeal.unrank(index, deck)
            result = play_naive([list(hand) for hand in deal.hands])  # no ace is left
            if result["outcome"] == "loop":
                loops.append(str(deal))
            else:
                histogram[result["cards"]] = histogram.get(result["cards"], 0) + 1
        assert run.deals == total and run.loops == len(loops) == 6
        assert store.histogram(1) == sorted(histogram.items())
        assert sorted(g["deal"] for g in store.games(1, "loops")) == sorted(loops)
    reached = set()
    for text in loops:  # each looping deal's cycle, searched backwards, holds it
        cycle = third_game.play(third_game.deal_class.parse(text, deck)).cycle
        found = reach(text.replace("K", "A", 1), SMALL, game=third_game)  # an ace asks 3
        assert found.complete and found.cycle == cycle and found.deck == deck.spec
        assert text in found.fair_deals
        reached.update(found.fair_deals)
    assert reached == set(loops)  # the in-trees' fair deals are the census's loops


def test_the_report_replays_it_with_its_letters_and_words(third_game):
    from beggar_search.report import replay

    params = {"game": "short-aces", "deck": SMALL, "players": 2, "max_tricks": None}
    trace = replay.game_trace(params, "-J--Q/A-KJ-")
    records, result = third_game.trace(ShortAceDeal.parse("-J--Q/A-KJ-", third_game.deck(SMALL)))
    assert trace["deal"] == "-J--Q/K-KJ-" and trace["result"]["outcome"] == result.outcome
    assert [t["cards"] for t in trace["tricks"]] == [
        "".join(third_game.letters[card] for _, card in r.laid) for r in records]
    assert "--game short-aces" in trace["command"]
    assert replay.cycle_states(params, "-J--Q/A-KJ-")  # the loop's states, in its letters
