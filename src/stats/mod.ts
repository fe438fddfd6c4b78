/**
 * The verdict's statistics, pure: the improvement and the difference (one
 * module each), paired intervals, the sequential design (looks and their
 * levels), the rule of a look, futility, calibration's power, the Student t
 * and normal distributions, pair seeds.
 *
 * @module
 */
