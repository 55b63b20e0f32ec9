/**
 * Looking at a run: {@code jpto report} (a self-contained HTML page) and {@code jpto analyze} (the same numbers as
 * text), both read from the files a run left in its output dir.
 */
package dev.jpto.cli.report;
