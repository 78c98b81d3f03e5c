"""Benchmark: vectorised randomised Tukey HSD against a per-trial loop and the random-number floor.

Run from the repository root::

    python benchmarks/bench_tukey.py [--topics 100] [--runs 50] [--trials 5000] [--repeat 3]

On a topics x runs matrix of normal scores (100 x 50, B = 5000 by default) it times, in the
same run (``--repeat`` timings each; the ratio to the floor is stated min / min and
median / median, since the floor's one large array is bimodal from page faults):

* the floor: drawing the B x topics x runs random numbers that the shuffles need, as one
  ``rng.random`` call (nothing can shuffle without them; issue 19 asks for at most 2x this),
  and the stricter floor of drawing them in the chunks the test uses (``random_raw``, no large
  array to allocate);
* a plain per-trial loop: for each trial, ``rng.permuted(x, axis=1)`` (every topic's row
  shuffled in one call), the run means and their max - min; then every pair's p-value
  (count + 1)/(B + 1) from the recorded ranges;
* :func:`topicsetsize.checks.tukey.tukey_hsd_randomised`,

prints the three, the ratios, and checks that the p-values of the loop and of the vectorised
test agree within Monte Carlo error (the two use different random streams: |difference| at most
4 sqrt(2 p(1 - p)/B) + 3/B for every pair, p the mean of the two).

Exit status 1 if the p-values disagree or the vectorised run takes 10 s or more; ratios off
their targets are reported, not treated as failures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _figures import figure  # noqa: E402
from _timing import all_times, best_time  # noqa: E402

from topicsetsize.checks.tukey import _CHUNK_ELEMENTS, tukey_hsd_randomised  # noqa: E402


def loop_hsd(x: np.ndarray, trials: int, seed: int) -> np.ndarray:
    """The plain loop: p-values of the pairs (a < b in column order)."""
    rng = np.random.default_rng(seed)
    ranges = np.empty(trials)
    for b in range(trials):
        means = rng.permuted(x, axis=1).mean(axis=0)
        ranges[b] = means.max() - means.min()
    means = x.mean(axis=0)
    a, c = np.triu_indices(x.shape[1], k=1)
    observed = np.abs(means[a] - means[c])
    count = (ranges[None, :] >= observed[:, None] - 1e-12).sum(axis=1)
    return (count + 1) / (trials + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--trials", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5,
                        help="timings of the floor and of the test (min and median of them)")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(2012)
    # Run effects spread the p-values over (0, 1), so that the agreement check means something.
    x = rng.normal(size=(args.topics, args.runs)) + np.linspace(0, 0.6, args.runs)

    draws = args.trials * args.topics * args.runs
    floor_times, _ = all_times(lambda: np.random.default_rng(3).random(draws), args.repeat)
    floor_time = min(floor_times)
    chunk = max(1, min(args.trials, _CHUNK_ELEMENTS // (args.topics * args.runs)))

    def chunked_draws():
        bitgen = np.random.default_rng(3).bit_generator
        for start in range(0, args.trials, chunk):
            bitgen.random_raw(min(chunk, args.trials - start) * args.topics * args.runs)

    chunked_time, _ = best_time(chunked_draws, args.repeat)
    loop_time, loop_p = best_time(lambda: loop_hsd(x, args.trials, seed=1), args.repeat)
    fast_times, table = all_times(lambda: tukey_hsd_randomised(x, trials=args.trials, seed=2),
                                  args.repeat)
    fast_time = min(fast_times)

    p = table.p_value.to_numpy()
    mean_p = (p + loop_p) / 2
    tolerance = 4 * np.sqrt(2 * mean_p * (1 - mean_p) / args.trials) + 3 / args.trials
    agree = bool(np.all(np.abs(p - loop_p) <= tolerance))
    ratio = loop_time / fast_time
    pairs = args.runs * (args.runs - 1) // 2
    print(f"randomised Tukey HSD, {args.topics} topics x {args.runs} runs ({pairs} pairs), "
          f"B = {args.trials}")
    print(f"  floor: rng.random({draws:,}):            {floor_time:8.3f} s")
    print(f"  floor in the test's chunks (random_raw): {chunked_time:8.3f} s")
    print(f"  per-trial loop (rng.permuted per trial): {loop_time:8.3f} s")
    print(f"  tukey_hsd_randomised:                    {fast_time:8.3f} s")
    to_floor = fast_time / floor_time
    print(f"  time / floor: {to_floor:.2f}x (target at most 2x: "
          f"{'met' if to_floor <= 2 else 'NOT met'}); time / chunked floor: "
          f"{fast_time / chunked_time:.2f}x; loop / tukey_hsd_randomised: {ratio:.1f}x; "
          f"under 10 s: {'yes' if fast_time < 10 else 'NO'}")
    median_ratio = statistics.median(fast_times) / statistics.median(floor_times)
    print(f"  median / median over {args.repeat} timings each: {median_ratio:.2f}x "
          f"(floor {min(floor_times):.3f}-{max(floor_times):.3f} s, "
          f"test {min(fast_times):.3f}-{max(fast_times):.3f} s)")
    how = f"{args.repeat} timings each"
    figure("tukey.test_s", fast_time, "s", "best of " + how)
    figure("tukey.test_median_s", statistics.median(fast_times), "s", "median of " + how)
    figure("tukey.floor_s", floor_time, "s", "rng.random, best of " + how)
    figure("tukey.floor_median_s", statistics.median(floor_times), "s",
           "rng.random, median of " + how)
    figure("tukey.to_floor_min", to_floor, "x", "min / min of " + how)
    figure("tukey.to_floor_median", median_ratio, "x", "median / median of " + how)
    figure("tukey.to_chunked_floor", fast_time / chunked_time, "x", "min / min of " + how)
    figure("tukey.loop_speedup", ratio, "x", "loop best / test best")
    print(f"  p-values agree within Monte Carlo error: {'yes' if agree else 'NO'} "
          f"(largest |difference| {np.abs(p - loop_p).max():.4f})")
    return 0 if agree and fast_time < 10 else 1


if __name__ == "__main__":
    sys.exit(main())
