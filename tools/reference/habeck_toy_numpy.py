#!/usr/bin/env python3
"""Habeck's Gaussian toy (2017, Fig. 2) in NumPy, without logz code: the forward and reverse Jarzynski estimates (AIS and
RAISE) of log(Z_1/Z_0) = log(1/10) over many repetitions, to check which direction is the more accurate.

The bridge is the geometric one between N(20, 10^2) and N(0, 1): p_beta is Gaussian with precision
(1-beta)/100 + beta. Kernels T_beta(x'|x) = N(tau x + (1-tau) mu_beta, (1-tau^2) sigma_beta^2) with
tau_beta = ((1-beta) 0.9 + beta 0.995)^5. Schedules put KL(p_k || p_k+1) equal across the K steps. Forward paths start
from exact draws of N(20, 10^2), reverse ones from exact draws of N(0, 1); the work of a step is evaluated at the state
before the step's kernel moves it.

    /usr/bin/python3 tools/reference/habeck_toy_numpy.py --steps 10,20,50,100,200 --chains 100 --repetitions 1000
"""
import argparse

import numpy as np

MU0, SIGMA0, TAU0 = 20.0, 10.0, 0.9
MU1, SIGMA1, TAU1 = 0.0, 1.0, 0.995
POWER = 5


def bridge(beta):
    precision = (1 - beta) / SIGMA0 ** 2 + beta / SIGMA1 ** 2
    sigma = precision ** -0.5
    mu = sigma ** 2 * ((1 - beta) * MU0 / SIGMA0 ** 2 + beta * MU1 / SIGMA1 ** 2)
    tau = ((1 - beta) * TAU0 + beta * TAU1) ** POWER
    return mu, sigma, tau


def kl(a, b):
    (m1, s1, _), (m2, s2, _) = bridge(a), bridge(b)
    return 0.5 * ((s1 ** 2 + (m1 - m2) ** 2) / s2 ** 2 - 1 + np.log(s2 ** 2 / s1 ** 2))


def next_beta(beta, target):
    lo, hi = beta, 1.0
    if kl(beta, hi) <= target:
        return hi
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if kl(beta, mid) < target else (lo, mid)
    return 0.5 * (lo + hi)


def equal_divergence(steps):
    lo, hi = 1e-12, 10.0
    for _ in range(200):
        c = np.sqrt(lo * hi)
        beta, n = 0.0, 0
        while beta < 1 and n <= steps:
            beta, n = next_beta(beta, c), n + 1
        lo, hi = (lo, c) if n <= steps else (c, hi)
    betas, beta = [0.0], 0.0
    for _ in range(steps - 1):
        beta = next_beta(beta, hi)
        betas.append(beta)
    betas.append(1.0)
    return np.array(betas)


def energy(beta, x):
    mu, sigma, _ = bridge(beta)
    return 0.5 * (x - mu) ** 2 / sigma ** 2


def work(betas, x, rng):
    """Work of one direction along betas from the states x (exact draws of p_betas[0])."""
    w = np.zeros_like(x)
    for k in range(len(betas) - 1):
        w += energy(betas[k + 1], x) - energy(betas[k], x)
        mu, sigma, tau = bridge(betas[k + 1])
        x = tau * x + (1 - tau) * mu + np.sqrt(1 - tau ** 2) * sigma * rng.standard_normal(x.shape)
    return w


def log_mean_exp(v):
    m = v.max()
    return m + np.log(np.mean(np.exp(v - m)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", default="10,20,50,100,200")
    ap.add_argument("--chains", type=int, default=100)
    ap.add_argument("--repetitions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    exact = np.log(SIGMA1 / SIGMA0)
    print("K  AIS mean error, sd, RMSE  |  RAISE mean error, sd, RMSE")
    for steps in map(int, a.steps.split(",")):
        betas = equal_divergence(steps)
        ais, raise_ = [], []
        for _ in range(a.repetitions):
            wf = work(betas, MU0 + SIGMA0 * rng.standard_normal(a.chains), rng)
            wr = work(betas[::-1], MU1 + SIGMA1 * rng.standard_normal(a.chains), rng)
            ais.append(log_mean_exp(-wf) - exact)
            raise_.append(-log_mean_exp(-wr) - exact)
        ais, raise_ = np.array(ais), np.array(raise_)
        print("%d  %+.3f %.3f %.3f  |  %+.3f %.3f %.3f" % (steps, ais.mean(), ais.std(ddof=1), np.sqrt(np.mean(ais ** 2)),
                                                      raise_.mean(), raise_.std(ddof=1), np.sqrt(np.mean(raise_ ** 2))))


if __name__ == "__main__":
    main()
