#!/bin/sh
# Estimates pi and reports how far off it is.
# Candidate: integrates 4/(1+x^2) over [0,1] with the midpoint rule instead of
# sampling, and writes its result to $OUTERLOOP_RESULT rather than stdout.
echo "estimating pi by the midpoint rule, 20000 steps"
awk -v n=20000 'BEGIN {
  h = 1 / n; s = 0
  for (i = 0; i < n; i++) { x = (i + 0.5) * h; s += 4 / (1 + x * x) }
  pi = s * h; err = pi - 3.141592653589793; if (err < 0) err = -err
  printf "{\"error\": %.9f, \"estimate\": %.9f, \"steps\": %d}\n", err, pi, n
}' > "$OUTERLOOP_RESULT"
