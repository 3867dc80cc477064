"""What a deal is written as: decks, ranked decks, slap rules, a run's card parameters."""
