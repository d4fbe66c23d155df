// The standard normal distribution in float64 on the device, ported from org.logz.numeric.Normal so
// that device and host agree to the rounding of exp and log: log φ, Mills' ratio by the modified Lentz
// method on Laplace's continued fraction (t >= 3), the everywhere-convergent series of Φ (|x| < 3), log Φ
// without cancellation in either tail, and φ/Φ. Pure functions; deterministic.
#pragma once

__device__ double logz_log_pdf(double x) {
    return -0.5 * x * x - 0.9189385332046727;
}

// Mills' ratio (1 - Φ(t)) / φ(t) for t >= 3 (modified Lentz on t + 1/(t + 2/(t + ...))).
__device__ double logz_mills(double t) {
    if (t > 1e300) {
        return 0.0;
    }
    double tiny = 1e-300;
    double f = t;
    double c = f;
    double d = 0.0;
    for (int k = 1; k < 500; k++) {
        d = t + k * d;
        d = fabs(d) < tiny ? tiny : d;
        c = t + k / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        double delta = c * d;
        f *= delta;
        if (fabs(delta - 1.0) < 1e-16) {
            break;
        }
    }
    return 1.0 / f;
}

__device__ double logz_normal_series(double x) {
    double term = x;
    double sum = x;
    double x2 = x * x;
    for (int k = 1; k < 200 && fabs(term) > 1e-17 * fabs(sum); k++) {
        term *= x2 / (2 * k + 1);
        sum += term;
    }
    return sum;
}

__device__ double logz_log_cdf(double x) {
    if (x <= -3.0) {
        return logz_log_pdf(x) + log(logz_mills(-x));
    }
    if (x < 3.0) {
        return log(0.5 + exp(logz_log_pdf(x)) * logz_normal_series(x));
    }
    return log1p(-exp(logz_log_pdf(x)) * logz_mills(x));
}

__device__ double logz_pdf_over_cdf(double x) {
    if (x <= -3.0) {
        return 1.0 / logz_mills(-x);
    }
    return exp(logz_log_pdf(x) - logz_log_cdf(x));
}
