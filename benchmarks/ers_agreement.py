"""Egyptian ratscrew: the kernel against the oracle (``tests/oracles/naive_ers.py``) on N random
standard deals per (policy, rule set, players 2-4, slap-in), and ``--slap-policy none``
against Beggar-my-neighbour's general engine on M mapped deals per player count.

    .venv/bin/python benchmarks/ers_agreement.py --deals 10000 --bmn-deals 100000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "oracles"))

from ers_cases import LOOP_DECK, bmn_differences, combinations, disagreements


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000,
                        help="random deals against the oracle per combination")
    parser.add_argument("--bmn-deals", type=int, default=100_000,
                        help="mapped deals against the general engine per player count")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random deals")
    args = parser.parse_args()
    total = wrong_total = 0
    for players, policy, slap_rules, slap_in in combinations():
        started = time.perf_counter()
        wrong, outcomes = disagreements(players, policy, slap_rules, slap_in, args.deals,
                                        args.seed)
        total += args.deals
        wrong_total += len(wrong)
        print(f"{players}p {policy:<22} {slap_rules:<14} slap-in {'yes' if slap_in else 'no ':<3}"
              f" {args.deals:>7} deals  {len(wrong)} differences  {outcomes}"
              f"  {time.perf_counter() - started:.1f} s", flush=True)
        for deal in wrong[:3]:
            print("   differs:", deal)
    print(f"oracle: {wrong_total} differences in {total} deals")
    for players in (2, 3, 4):
        different, loops = bmn_differences(players, args.bmn_deals, args.seed)
        print(f"none == bmn, {players}p: {len(different)} differences in {args.bmn_deals} "
              f"mapped deals ({loops} loops among them)", flush=True)
    # loops and caps: a 10-card deck where about 0.4% of deals loop
    total = wrong_total = 0
    seen = {}
    for players, policy, slap_rules, slap_in in combinations():
        if players == 4:
            continue
        for cap in (0, 7):
            wrong, outcomes = disagreements(players, policy, slap_rules, slap_in, args.deals,
                                            args.seed, LOOP_DECK, cap)
            total += args.deals
            wrong_total += len(wrong)
            for outcome, n in outcomes.items():
                seen[outcome] = seen.get(outcome, 0) + n
            for deal in wrong[:3]:
                print("   differs:", players, policy, slap_rules, slap_in, cap, deal)
    print(f"oracle, deck {LOOP_DECK.spec}, players 2-3, no cap and --max-tricks 7: "
          f"{wrong_total} differences in {total} deals {seen}")
    for players in (2, 3):
        different, loops = bmn_differences(players, args.bmn_deals, args.seed, LOOP_DECK)
        print(f"none == bmn, deck {LOOP_DECK.spec}, {players}p: {len(different)} differences "
              f"in {args.bmn_deals} mapped deals ({loops} loops among them)", flush=True)


if __name__ == "__main__":
    main()
