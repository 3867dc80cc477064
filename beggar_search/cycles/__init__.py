"""The space of cycles: the kept states, moves, walks, kicks and growth the loop searches run."""
