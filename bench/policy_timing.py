"""The ``policy`` level's decision time on card play (run by hand).

    python bench/policy_timing.py [--deals 20]

Club plays the deals; the packaged policy decides each of club's card positions again; prints the
positions, the median and p95 of one decision, and the medians of the whole-observation encoding
alone and of the card network's facts alone (``cardmodel.card_features``).
"""

from __future__ import annotations

import argparse
import statistics
import time

from oudler.bots import make_bot
from oudler.bots.cardmodel import card_features
from oudler.bots.policy import features
from oudler.core import Deal, Phase


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=20)
    args = parser.parse_args()
    bot = make_bot("policy", seed=0)
    positions = []
    for s in range(args.deals):
        deal = Deal.from_seed(s, s % 4)
        club = [make_bot("club", seed=i) for i in range(4)]
        while not deal.is_over:
            obs = deal.observation(deal.to_move)
            if obs.phase is Phase.PLAY:
                positions.append(obs)
            deal.act(club[deal.to_move].act(obs), deal.to_move)
    acts, feats, facts = [], [], []
    for obs in positions:
        t = time.perf_counter()
        features(obs)
        feats.append(time.perf_counter() - t)
        t = time.perf_counter()
        card_features(obs)
        facts.append(time.perf_counter() - t)
        t = time.perf_counter()
        bot.act(obs)
        acts.append(time.perf_counter() - t)
    acts.sort()
    print(
        f"{len(positions)} card positions: decision p50 {1000 * statistics.median(acts):.3f} ms, "
        f"p95 {1000 * acts[int(0.95 * len(acts))]:.3f} ms; "
        f"features p50 {1000 * statistics.median(feats):.3f} ms; "
        f"card facts p50 {1000 * statistics.median(facts):.3f} ms"
    )


if __name__ == "__main__":
    main()
