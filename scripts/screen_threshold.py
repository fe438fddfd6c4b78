#!/usr/bin/env python3
"""The numbers behind src/stats/screened_t.ts `screenThreshold`.

For normal samples of n improvements, the 99th percentile of
max_i |d_i - median| / MADN (MADN = 1.4826 * median |d_i - median|): the
bound a screen must use to set a clean pair aside at most 1% of the time.
Prints, per n, that percentile, the Sidak bound z_n for a known sigma, the
code's c_n = z_n * (1 + 10.5/n + 40/n^2), and how often c_n screens a clean
sample. Needs numpy and scipy.

Usage: python3 scripts/screen_threshold.py
"""
import numpy as np
from scipy.stats import norm

rng = np.random.default_rng(20260101)
print("n, samples, q99 of max|d - median|/MADN, z_n, c_n, share of clean samples screened at c_n")
for n in [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 24, 30, 40, 50, 100, 200, 500, 800]:
    reps = 2_000_000 if n <= 7 else (max(200_000, 4_000_000 // n) if n <= 100 else 40_000)
    ratios = []
    left = reps
    while left > 0:
        m = min(left, 2_000_000 // n)
        x = rng.standard_normal((m, n))
        med = np.median(x, axis=1, keepdims=True)
        madn = 1.4826 * np.median(np.abs(x - med), axis=1)
        ratios.append(np.abs(x - med).max(axis=1) / madn)
        left -= m
    r = np.concatenate(ratios)
    z = norm.ppf(1 - (1 - 0.99 ** (1 / n)) / 2)
    c = z * (1 + 10.5 / n + 40 / n**2)
    print(n, reps, round(float(np.quantile(r, 0.99)), 2), round(float(z), 3), round(float(c), 2),
          round(float((r > c).mean()), 4))
