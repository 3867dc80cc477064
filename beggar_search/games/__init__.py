"""What each game brings to the loop searches: Beggar-my-neighbour (bmn.py), Egyptian
ratscrew (ers.py), and the loops both record (loops.py)."""
