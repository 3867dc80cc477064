"""Playing backwards: the backward step of each game and the closure of states behind a cycle."""
