#!/usr/bin/env python3
"""Builds the latent-variable data sets shipped in engine-api/src/main/resources/org/logz/data for AISEL.

Both are simulated with a fixed NumPy seed, so the files are reproducible bit for bit with the same NumPy:
  glmm-sim20.npz  logistic random-intercept GLMM, 20 groups of 8 observations (n = 160):
                  X (160, 2) float64 = [1, x] with x ~ N(0, 1), group (160,) int32, y (160,) int8 0/1,
                  drawn with beta = (-0.5, 1.0), tau = 1.0 (u_i ~ N(0, tau^2))
  glmm-sim8.npz   the same model with 8 groups of 6 observations (n = 48), for quick tests
  sv-sim200.npz   stochastic volatility, T = 200: y (200,) float64 with mu = -1, phi = 0.95, sigma = 0.25,
                  h_1 from the stationary law
Usage: python3 make_latent_sets.py [OUTPUT_DIR]
"""
import os
import sys

import numpy as np


def glmm(rng, groups, per_group, beta=(-0.5, 1.0), tau=1.0):
    n = groups * per_group
    x = np.column_stack([np.ones(n), rng.standard_normal(n)])
    group = np.repeat(np.arange(groups, dtype=np.int32), per_group)
    u = tau * rng.standard_normal(groups)
    eta = x @ np.asarray(beta) + u[group]
    y = (rng.random(n) < 1 / (1 + np.exp(-eta))).astype(np.int8)
    return dict(X=x, y=y, group=group)


def stochastic_volatility(rng, length, mu=-1.0, phi=0.95, sigma=0.25):
    h = np.empty(length)
    h[0] = mu + sigma / np.sqrt(1 - phi * phi) * rng.standard_normal()
    for t in range(1, length):
        h[t] = mu + phi * (h[t - 1] - mu) + sigma * rng.standard_normal()
    return dict(y=np.exp(h / 2) * rng.standard_normal(length))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "..", "engine-api", "src", "main", "resources", "org", "logz", "data")
    rng = np.random.default_rng(20261124)
    np.savez_compressed(os.path.join(out, "glmm-sim20.npz"), **glmm(rng, 20, 8))
    np.savez_compressed(os.path.join(out, "glmm-sim8.npz"), **glmm(rng, 8, 6))
    np.savez_compressed(os.path.join(out, "sv-sim200.npz"), **stochastic_volatility(rng, 200))


if __name__ == "__main__":
    main()
