/**
 * Everything a person reads, as pure renderers of plain data: the runs
 * table, Markdown and self-contained HTML reports with SVG charts, and the
 * terminal tables of `show` (verdict, resource use, where and when,
 * calibration). Each label says whether it shows the improvement (positive =
 * better) or the difference (candidate − baseline).
 *
 * @module
 */
