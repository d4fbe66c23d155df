#!/usr/bin/env python3
"""Trains the scikit-learn RBM fixtures: BernoulliRBM (persistent CD, scikit-learn's own trainer) on the
data sets shipped with logz, saved with scikit-learn's attribute names and no a0, as a user's file would
be. They test the default settings of `logz estimate` on models that logz did not train.

Run from the repository root with Debian's interpreter (apt-get install python3-sklearn):
  /usr/bin/python3 tools/models/make_sklearn_rbms.py
"""
import argparse
import os

import numpy as np
from sklearn.neural_network import BernoulliRBM

DATA = "engine-api/src/main/resources/org/logz/data"

# name, data set, hidden units, learning rate, epochs (n_iter), batch size, seed. scikit-learn's defaults
# (learning rate 0.1, 10 epochs, batches of 10) except for the last model, whose longer, slower training left
# 96.7% of its mass on one hidden configuration that block Gibbs sampling rarely reaches: the hard case.
MODELS = [
    ("sklearn-mnist-784x20", "mnist", 20, 0.1, 10, 10, 1),
    ("sklearn-mnist-784x12", "mnist", 12, 0.1, 10, 10, 2),
    ("sklearn-digits-64x16", "digits", 16, 0.1, 10, 10, 3),
    ("sklearn-digits-64x24", "digits", 24, 0.1, 10, 10, 4),
    ("sklearn-mnist-784x20-hard", "mnist", 20, 0.05, 20, 20, 1),
]


def load(name):
    arrays = np.load(os.path.join(DATA, name + ".npz"))
    dim = int(arrays["dim"])
    return np.unpackbits(arrays["bits"], axis=1)[:, :dim].astype(np.float64)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default="engine-api/src/test/resources/org/logz/fixtures/sklearn")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name, data, hidden, rate, epochs, batch, seed in MODELS:
        # the shipped sets are ordered by class and BernoulliRBM takes its minibatches in order
        x = load(data)
        x = x[np.random.RandomState(seed).permutation(len(x))]
        rbm = BernoulliRBM(n_components=hidden, learning_rate=rate, n_iter=epochs, batch_size=batch,
                           random_state=seed)
        rbm.fit(x)
        np.savez(os.path.join(a.out, name + ".npz"), components_=rbm.components_,
                 intercept_visible_=rbm.intercept_visible_, intercept_hidden_=rbm.intercept_hidden_)
        print(name, "pseudo-likelihood per example", rbm.score_samples(x).mean())


if __name__ == "__main__":
    main()
