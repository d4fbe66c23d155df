"""Peers of `logz bench peers`: Gibbs sweeps of the same RBM by scikit-learn and PyTorch, and NumPy's
GEMM pair of the same shapes, timed in this process. Run by PeerBenchmark with
  python3 peers.py MODEL.npz CHAINS SWEEPS REPEATS THREADS
where MODEL.npz holds W (visible x hidden), a and b as logz writes them. Prints one JSON object per
line: {"peer": name, "version": v, "sweep_seconds": median} or {"peer": name, "missing": why}.
A sweep is what logz times: hidden units given the visible ones, then visible given hidden, for
all chains."""
import json
import os
import statistics
import sys
import time

model, chains, sweeps, repeats, threads = sys.argv[1], *map(int, sys.argv[2:6])
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(threads)

import numpy as np  # noqa: E402  (after the thread settings, which BLAS reads when it loads)

arrays = np.load(model)
W, a, b = arrays["W"], arrays["a"], arrays["b"]
rng = np.random.default_rng(1)
start = (rng.random((chains, W.shape[0])) < 0.5)


def emit(**row):
    print(json.dumps(row), flush=True)


def timed(step):
    """Median seconds per sweep over `repeats` repetitions of `sweeps` sweeps, after one warm-up."""
    step(1)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        step(sweeps)
        times.append((time.perf_counter() - t0) / sweeps)
    return statistics.median(times)


def numpy_gemm(dtype):
    x = start.astype(dtype)
    w = W.astype(dtype)
    h = np.zeros((chains, W.shape[1]), dtype)

    def step(k):
        for _ in range(k):
            np.matmul(x, w, out=h)
            np.matmul(h, w.T)
    emit(peer="numpy GEMM pair " + np.dtype(dtype).name, version=np.__version__, sweep_seconds=timed(step))


def sklearn(dtype):
    try:
        import sklearn
        from sklearn.neural_network import BernoulliRBM
    except ImportError as e:
        emit(peer="scikit-learn BernoulliRBM.gibbs " + np.dtype(dtype).name,
             missing="python module sklearn not importable (%s); Debian: apt-get install python3-sklearn" % e)
        return
    rbm = BernoulliRBM(n_components=W.shape[1], random_state=1)
    rbm.components_ = W.T.astype(dtype)
    rbm.intercept_hidden_ = b.astype(dtype)
    rbm.intercept_visible_ = a.astype(dtype)
    rbm.random_state_ = np.random.RandomState(1)
    v = [start.astype(dtype)]

    def step(k):
        for _ in range(k):
            v[0] = rbm.gibbs(v[0]).astype(dtype, copy=False)
    emit(peer="scikit-learn BernoulliRBM.gibbs " + np.dtype(dtype).name, version=sklearn.__version__,
         sweep_seconds=timed(step))


def pytorch():
    try:
        import torch
    except ImportError as e:
        emit(peer="pytorch float32", missing="python module torch not importable (%s); Debian: apt-get install python3-torch" % e)
        return
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    w = torch.from_numpy(W.astype(np.float32))
    av = torch.from_numpy(a.astype(np.float32))
    bv = torch.from_numpy(b.astype(np.float32))
    v = [torch.from_numpy(start.astype(np.float32))]

    def step(k):
        with torch.no_grad():
            for _ in range(k):
                h = torch.bernoulli(torch.sigmoid(v[0] @ w + bv))
                v[0] = torch.bernoulli(torch.sigmoid(h @ w.T + av))
    emit(peer="pytorch float32", version=torch.__version__, sweep_seconds=timed(step))


numpy_gemm(np.float32)
sklearn(np.float32)
sklearn(np.float64)
pytorch()
