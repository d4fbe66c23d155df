#!/usr/bin/env python3
"""Builds the Gaussian mixture data sets shipped in engine-api/src/main/resources/org/logz/data for
`--model mixture:SET` (the posterior of a mixture's component means, DESIGN section 5).

Both are simulated with a fixed NumPy seed: K = 2 components with weights (0.3, 0.7), means (-2, -2) and
(2, 1.5), isotropic sigma = 1, in d = 2 dimensions; the model's prior on each mean is N(0, 3^2 I).
  mixture-sim12.npz   n = 12 observations: small enough for the exact sum over the 2^12 allocations
  mixture-sim200.npz  n = 200 observations: no exact value (2^200 allocations)
Arrays: y (n, 2) float64, weights (2,) float64, sigma () float64, prior_sd () float64, prior_mean (2,) float64.
Usage: python3 make_mixture_sets.py [OUTPUT_DIR]
"""
import os
import sys

import numpy as np

WEIGHTS = np.array([0.3, 0.7])
MEANS = np.array([[-2.0, -2.0], [2.0, 1.5]])
SIGMA = 1.0
PRIOR_SD = 3.0


def mixture(rng, n):
    z = rng.choice(len(WEIGHTS), size=n, p=WEIGHTS)
    y = MEANS[z] + SIGMA * rng.standard_normal((n, MEANS.shape[1]))
    return dict(y=y, weights=WEIGHTS, sigma=np.array(SIGMA), prior_sd=np.array(PRIOR_SD),
                prior_mean=np.zeros(MEANS.shape[1]))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "..", "engine-api", "src", "main", "resources", "org", "logz", "data")
    rng = np.random.default_rng(20261128)
    np.savez_compressed(os.path.join(out, "mixture-sim12.npz"), **mixture(rng, 12))
    np.savez_compressed(os.path.join(out, "mixture-sim200.npz"), **mixture(rng, 200))


if __name__ == "__main__":
    main()
