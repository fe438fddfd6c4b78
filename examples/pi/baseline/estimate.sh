#!/bin/sh
# Estimates pi by Monte Carlo and reports how far off it is.
# Baseline: 2,000 samples. Seeded by $PI_SEED so a base/candidate pair shares its random numbers.
awk -v seed="${PI_SEED:-1}" -v n=2000 'BEGIN {
  srand(seed); inside = 0
  for (i = 0; i < n; i++) { x = rand(); y = rand(); if (x * x + y * y <= 1) inside++ }
  pi = 4 * inside / n; err = pi - 3.141592653589793; if (err < 0) err = -err
  printf "{\"error\": %.6f, \"estimate\": %.6f, \"samples\": %d}\n", err, pi, n
}'
