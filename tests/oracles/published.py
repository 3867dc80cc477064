"""The published deals the tests check against (docs/rules.md, "Reference values").

Test data, kept apart from the package on purpose: the tests do not take their truth
from the code under test.
"""

NESSLER = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"  # Nessler 2022, longest known
NESSLER_2021 = "----K---A--Q-A--JJA------J/-----KK---------A-JK-Q-Q-Q"
RUCKLIDGE = "-J------Q------AAA-----QQ-/K----JA-----------KQ-K-JJK"  # Rucklidge 2014
CASELLA = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"  # Casella 2024, a loop

# the published terminating games: (deal, cards, tricks)
LONG_GAMES = [
    (NESSLER, 8344, 1164),
    (NESSLER_2021, 7972, 1106),
    (RUCKLIDGE, 7959, 1122),
]
