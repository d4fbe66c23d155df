#!/usr/bin/env python3
"""An independent reference for log Z of a binary RBM: parallel tempering written from scratch in NumPy float64
(no logz code: its own Gibbs sampler, ladder tuning, swaps and random numbers), read by pymbar's BAR between
neighbouring levels. It checks logz's estimates on models without an exact log Z (README, 'Reference values'), and
logz's float32 kernels with them.

The path anneals the full model p_b(v, h) ~ exp((1-b) a0.v + b (a.v + b_h.h + v W h)) from the RBM with W = 0 and the
model's own visible biases (a0 = a; Salakhutdinov & Murray's base), so it shares no base rate with logz's runs. Its
log density with h summed out is log f_b(v) = ((1-b) a0 + b a).v + sum_j softplus(b (b_j + v W_j)) + log 2 terms.
Swaps follow the deterministic even-odd scheme; the ladder moves to equal swap rates after each tuning round
(Syed et al. 2021). Each pair's log Z ratio is pymbar's BAR on all its forward and reverse work values; the error is
the spread of the ladders' estimates over their square root.

Run with Debian's interpreter (apt-get install python3-numpy python3-pymbar; pymbar 3.1), one BLAS thread per process:
  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tools/reference/pt_numpy.py MODEL.npz --ladders 10 --levels 32 \
      --sweeps 20000 --seed 1
"""
import argparse
import json
import sys
import time

import numpy as np
import pymbar


def softplus(x):
    return np.logaddexp(0.0, x)


class Path:
    def __init__(self, W, a, b):
        self.W, self.a, self.b = W, a, b
        self.a0 = a.copy()
        self.logZ0 = softplus(self.a0).sum() + len(b) * np.log(2.0)

    def gibbs(self, v, betas, rng):
        h = (rng.random((v.shape[0], len(self.b))) < 1 / (1 + np.exp(-betas[:, None] * (v @ self.W + self.b))))
        field = (1 - betas)[:, None] * self.a0 + betas[:, None] * (self.a + h @ self.W.T)
        return (rng.random(v.shape) < 1 / (1 + np.exp(-field))).astype(np.float64)


def neighbours(path, v, betas, level):
    """log f at each chain's own level and at the levels below and above (clamped at the ends)."""
    k = len(betas)
    u = v @ path.W + path.b
    out = []
    for shift in (0, -1, 1):
        bb = betas[np.clip(level + shift, 0, k - 1)]
        out.append(v @ path.a0 + bb * (v @ (path.a - path.a0)) + softplus(bb[:, None] * u).sum(axis=1))
    return out


def run(path, ladders, k, rounds, round_sweeps, sweeps, seed, log):
    rng = np.random.default_rng(seed)
    n = ladders * k
    betas = np.linspace(0, 1, k)
    level = np.tile(np.arange(k), ladders)             # chain c sits at level[c]
    ladder = np.repeat(np.arange(ladders), k)
    at = np.arange(n).reshape(ladders, k)              # at[g, j] = chain at level j of ladder g
    v = (rng.random((n, len(path.a))) < 1 / (1 + np.exp(-path.a0))).astype(np.float64)
    step = 0

    def iterate(count, record):
        nonlocal v, step
        acc = np.zeros(k - 1)
        tries = np.zeros(k - 1)
        for _ in range(count):
            v = path.gibbs(v, betas[level], rng)
            own, down, up = neighbours(path, v, betas, level)
            if record is not None:
                for j in range(k - 1):
                    a, b = at[:, j], at[:, j + 1]
                    record[0][j].append(up[a] - own[a])       # log f_{j+1}(x) - log f_j(x), x at j
                    record[1][j].append(down[b] - own[b])     # log f_j(y) - log f_{j+1}(y), y at j+1
            for j in range(step % 2, k - 1, 2):
                a, b = at[:, j], at[:, j + 1]
                log_ratio = up[a] + down[b] - own[a] - own[b]
                swap = np.log(rng.random(ladders)) < log_ratio
                tries[j] += ladders
                acc[j] += swap.sum()
                a_sw, b_sw = a[swap], b[swap]
                level[a_sw], level[b_sw] = j + 1, j
                at[swap, j], at[swap, j + 1] = b_sw, a_sw
            step += 1
        return acc / np.maximum(tries, 1)

    for r in range(rounds):
        rate = iterate(round_sweeps << r, None)
        cum = np.concatenate([[0], np.cumsum(np.maximum(1 - rate, 1e-3))])
        betas = np.interp(np.linspace(0, cum[-1], k), cum, betas)
        betas[0], betas[-1] = 0.0, 1.0
        log(f"round {r}: barrier {np.sum(1 - rate):.2f}")
    iterate(sweeps // 4, None)
    record = ([[] for _ in range(k - 1)], [[] for _ in range(k - 1)])
    rate = iterate(sweeps, record)
    forward = [np.array(x) for x in record[0]]            # iterations x ladders
    reverse = [np.array(x) for x in record[1]]

    def curve(cols):
        total = path.logZ0
        for j in range(k - 1):
            # pymbar's convention: w_F = u_1(x) - u_0(x) with u = -log f
            total -= pymbar.BAR(-forward[j][:, cols].ravel(), -reverse[j][:, cols].ravel(), compute_uncertainty=False)
        return total

    whole = curve(np.arange(ladders))
    each = np.array([curve([g]) for g in range(ladders)])
    return whole, each.std(ddof=1) / np.sqrt(ladders), each, betas, rate


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model")
    p.add_argument("--ladders", type=int, default=10)
    p.add_argument("--levels", type=int, default=32)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--round-sweeps", type=int, default=100)
    p.add_argument("--sweeps", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    arrays = np.load(args.model)
    if "W" in arrays:
        W, a, b = arrays["W"], arrays["a"], arrays["b"]
    else:  # scikit-learn's BernoulliRBM names
        W, a, b = arrays["components_"].T, arrays["intercept_visible_"], arrays["intercept_hidden_"]
    path = Path(W.astype(np.float64), a.astype(np.float64).ravel(), b.astype(np.float64).ravel())
    started = time.time()
    log_z, stderr, each, betas, rate = run(path, args.ladders, args.levels, args.rounds, args.round_sweeps,
                                           args.sweeps, args.seed, lambda s: print(s, file=sys.stderr, flush=True))
    print(json.dumps({"logZ": log_z, "stderr": stderr, "ladders": each.tolist(), "betas": betas.tolist(),
                      "swapRates": rate.tolist(), "seconds": time.time() - started, "settings": vars(args)}))


if __name__ == "__main__":
    main()
