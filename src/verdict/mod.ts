/**
 * The verdict, pure: measured values in, verdict and reasons out — the
 * decision of a look (`decide.ts`, its sentences in `reasons.ts`), intervals
 * that stay finite, and an A/A calibration's report.
 *
 * @module
 */
